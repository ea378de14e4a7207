//! The rows st4 and fr2 flatten their groups into, kept as cells that
//! borrow the response's values: a flattening copied every file, line and
//! text of the response into rows of its own, then dropped them, and on a
//! large reply that cost as much as encoding it. Only what the response
//! does not hold as it is (a context line list's JSON text) is made.

use alloc::vec::Vec;
use serde_json::Value;

use crate::encode::columns::Columns;

/// A missing value's stand-in: null.
static NULL: Value = Value::Null;
/// A missing value's stand-in: the empty string.
static EMPTY: Value = Value::String(alloc::string::String::new());

/// A response flattened by st4 or fr2: its other members (the table's
/// member holding no row), and the rows.
pub(crate) type Flattened<'v> = (serde_json::Map<alloc::string::String, Value>, FlatRows<'v>);

/// Where a cell's value is.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Src<'v> {
    /// The response's own value.
    In(&'v Value),
    /// A value made for the row (an index into [`FlatRows::made`]).
    Made(usize),
    /// Null.
    Null,
    /// `""`.
    Empty,
}

impl<'v> Src<'v> {
    /// The response's value, or null without one.
    pub(crate) fn or_null(v: Option<&'v Value>) -> Src<'v> {
        v.map_or(Src::Null, Src::In)
    }

    /// The response's value, or `""` without one.
    pub(crate) fn or_empty(v: Option<&'v Value>) -> Src<'v> {
        v.map_or(Src::Empty, Src::In)
    }
}

/// Flattened rows, `width` cells each, in the table's column order.
#[derive(Clone, Debug)]
pub(crate) struct FlatRows<'v> {
    cells: Vec<Src<'v>>,
    width: usize,
    made: Vec<Value>,
}

impl<'v> FlatRows<'v> {
    /// No rows yet, `width` cells each.
    pub(crate) fn new(width: usize) -> FlatRows<'v> {
        FlatRows {
            cells: Vec::new(),
            width,
            made: Vec::new(),
        }
    }

    /// A value made for a row, to stand in a cell ([`Src::Made`]).
    pub(crate) fn make(&mut self, v: Value) -> Src<'v> {
        self.made.push(v);
        Src::Made(self.made.len() - 1)
    }

    /// Appends a row of `width` cells.
    pub(crate) fn push<const W: usize>(&mut self, row: [Src<'v>; W]) {
        debug_assert_eq!(W, self.width);
        self.cells.extend(row);
    }

    /// How many rows there are.
    pub(crate) fn len(&self) -> usize {
        self.cells.len().checked_div(self.width).unwrap_or(0)
    }

    /// The value a cell stands for.
    fn value<'s>(&'s self, src: Src<'v>) -> &'s Value {
        match src {
            Src::In(v) => v,
            Src::Made(i) => self.made.get(i).unwrap_or(&NULL),
            Src::Null => &NULL,
            Src::Empty => &EMPTY,
        }
    }

    /// The rows as the encoder's cells (and the check's).
    pub(crate) fn columns(&self) -> Columns<'_> {
        let values = self.cells.iter().map(|&src| self.value(src));
        Columns::of_values(values, self.width, self.len())
    }

    /// The rows as lists of values, as the flattening used to hold them
    /// (for the tests that compare them with the decode's).
    #[cfg(test)]
    pub(crate) fn to_values(&self) -> Vec<Value> {
        self.cells
            .chunks(self.width.max(1))
            .map(|row| Value::Array(row.iter().map(|&s| self.value(s).clone()).collect()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{find_references, search_text};
    use crate::equal::{KeyOrder, exact_eq};
    use crate::tier1::schemas::{fr2, st4};
    use serde_json::{Map, Value};

    /// The rows kept apart are the flattening: put back in their table's
    /// member and regrouped by the transform's decode, they give back
    /// every `search_text` and `find_references` vector's input that the
    /// regrouping rebuilds exactly.
    #[test]
    fn the_rows_regroup_into_the_input() {
        let vectors = include_str!("../../../tests/vectors/jcodemunch-1.108.399.jsonl");
        let mut rebuilt = 0;
        for line in vectors.lines() {
            let Ok(vector) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            let Some(Value::Object(input)) = vector.get("input") else {
                continue;
            };
            let (mut map, rows, key, exact): (Map<String, Value>, _, _, _) =
                match vector["tool"].as_str() {
                    Some("search_text") => {
                        let Ok((m, rows)) = search_text::encode(input) else {
                            continue;
                        };
                        (m, rows, st4::ROWS_KEY, search_text::regroups_exactly(input))
                    }
                    Some("find_references") => {
                        let Ok(Some((m, rows))) = find_references::encode(input) else {
                            continue;
                        };
                        let exact = find_references::regroups_exactly(input);
                        (m, rows, fr2::ROWS_KEY, exact)
                    }
                    _ => continue,
                };
            assert_eq!(rows.columns().rows, rows.len());
            map.insert(key.into(), Value::Array(rows.to_values()));
            if vector["tool"] == "search_text" {
                search_text::decode(&mut map, &Default::default());
            } else {
                find_references::decode(&mut map);
            }
            if exact {
                let back = Value::Object(map);
                assert!(
                    exact_eq(&Value::Object(input.clone()), &back, KeyOrder::Any),
                    "{back}"
                );
                rebuilt += 1;
            }
        }
        assert!(rebuilt >= 5, "{rebuilt}");
    }
}
