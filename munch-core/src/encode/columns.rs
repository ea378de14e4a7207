//! A table's cells found once: each dict row's value per column, in column
//! order, so the legend's observation and the row writer never compare a
//! row's keys again (on a large response each key compare is a load from
//! a separate allocation). Asked to, the same pass counts the table's
//! Python JSON length, so that verified encoding need not walk it again.

use alloc::vec::Vec;
use hashbrown::DefaultHashBuilder;
use serde_json::Value;

use crate::format::counts::Counts;
use crate::py::float_repr::{float_repr_len, write_float_repr};
use crate::py::json_write::{CsvForm, digits, key_json_len, string_len_csv, value_json_len};
use crate::value::{Kind, kind, push_u64, same_bytes};

/// One row's value for one column. A string's text and a number are kept
/// with it: the legend's observation, the row writer and the check read
/// the cells in order, and on a large response each value they loaded
/// again from its row would be a cache miss.
///
/// A string cell also holds its hash for the legend (a [`Counts::hash`]
/// of its text, when [`Columns::gather`] was given a hasher; 0 when not):
/// taken while its bytes were at hand, in room the cell has anyway (the
/// four bytes beside its tag).
///
/// [`Counts::hash`]: crate::format::counts::Counts::hash
#[derive(Clone, Copy, Debug)]
pub(crate) enum Cell<'v> {
    /// The row has no such key.
    Absent,
    /// A string.
    Str(&'v str, u32),
    /// A string with no byte the CSV writer quotes for (`,` `"` LF CR),
    /// as found while it was measured: written as it is.
    Bare(&'v str, u32),
    /// A string with commas but no quote, LF or CR, as found while it was
    /// measured: written between quotes as it is.
    Wrapped(&'v str, u32),
    /// An int from 0 to `u64::MAX`.
    UInt(u64),
    /// A negative int from `i64::MIN`.
    NegInt(i64),
    /// A finite number Python reads as a float.
    Float(f64),
    /// Any other value.
    Other(&'v Value),
}

impl<'v> Cell<'v> {
    /// The string of a `Str` or `Bare` cell.
    #[inline]
    pub(crate) fn as_str(self) -> Option<&'v str> {
        match self {
            Cell::Str(s, _) | Cell::Bare(s, _) | Cell::Wrapped(s, _) => Some(s),
            _ => None,
        }
    }

    /// The string of a string cell and its legend hash.
    #[inline]
    pub(crate) fn hashed_str(self) -> Option<(&'v str, u32)> {
        match self {
            Cell::Str(s, h) | Cell::Bare(s, h) | Cell::Wrapped(s, h) => Some((s, h)),
            _ => None,
        }
    }

    /// The cell holding `v`.
    #[inline]
    pub(crate) fn of(v: &'v Value) -> Cell<'v> {
        match v {
            Value::String(s) => Cell::Str(s, 0),
            Value::Number(n) => {
                if let Some(u) = n.as_u64() {
                    Cell::UInt(u)
                } else if let Some(i) = n.as_i64() {
                    Cell::NegInt(i)
                } else {
                    match kind(v) {
                        Kind::Float(f) if f.is_finite() => Cell::Float(f),
                        _ => Cell::Other(v),
                    }
                }
            }
            _ => Cell::Other(v),
        }
    }

    /// Appends the text of a copied number (`UInt`, `NegInt`, `Float`):
    /// the reference's text of the value it was copied from; false for
    /// other cells, which it leaves to their writers.
    pub(crate) fn write_number(self, out: &mut alloc::string::String) -> bool {
        match self {
            Cell::UInt(u) => push_u64(u, out),
            Cell::NegInt(i) => {
                out.push('-');
                push_u64(i.unsigned_abs(), out);
            }
            Cell::Float(f) => write_float_repr(f, out),
            _ => return false,
        }
        true
    }
}

/// A table column, as [`Columns::gather`] looks for it: by name.
pub(crate) trait ColumnName {
    fn name(&self) -> &str;
}

impl ColumnName for crate::tier1::schema::Col {
    #[inline]
    fn name(&self) -> &str {
        self.name
    }
}

impl ColumnName for &str {
    #[inline]
    fn name(&self) -> &str {
        self
    }
}

/// The dict rows of one table, `width` cells per row.
pub(crate) struct Columns<'v> {
    cells: Vec<Cell<'v>>,
    width: usize,
    /// How many dict rows were found (rows that are not dicts are skipped,
    /// as both the observation and the writer skip them).
    pub(crate) rows: usize,
    /// With a measure: the Python JSON length and nesting depth of the
    /// rows as a list (what the size walk would count for it), once the
    /// row writer has added the number cells left to it
    /// ([`Columns::add_written_numbers`]).
    pub(crate) json: Option<(usize, usize)>,
    /// Every row of the list is a dict whose keys are exactly the table's
    /// columns: then the cells are the whole input, and reading a row back
    /// can be compared with them instead of with its dict.
    pub(crate) exact: bool,
    /// Some cell may be one every table form loses: an empty string, a
    /// list or an object (a non-finite float's sentinel object, an object
    /// too, sets it as well). See `encode/lost_cell.rs`.
    pub(crate) lossy: bool,
    /// The rows the cells were found in.
    pub(crate) source: &'v [Value],
}

impl<'v> Columns<'v> {
    /// Finds every column (named by `cols`) of every dict row of `rows`.
    /// A row whose keys come in column order costs one key compare per
    /// key. With `STRICT` (gen1's tables) every row must be a dict whose
    /// keys are `cols` in order, or there is no table (`None`, at the
    /// first row that is not); without it the result is always `Some`.
    /// With `measure` (`ensure_ascii`), the rows' JSON length is counted
    /// on the way, each matched key's from its column. With `hasher`, each
    /// string cell gets its legend hash ([`Cell`]).
    pub(crate) fn gather<C: ColumnName, const STRICT: bool>(
        rows: &'v [Value],
        cols: &[C],
        measure: Option<bool>,
        hasher: Option<&DefaultHashBuilder>,
    ) -> Option<Columns<'v>> {
        let width = cols.len();
        let mut cells = Vec::with_capacity(rows.len().saturating_mul(width));
        let mut count = 0usize;
        let mut exact = true;
        let mut lossy = false;
        let key_lens: Vec<usize> = match measure {
            Some(ascii) => cols.iter().map(|c| key_json_len(c.name(), ascii)).collect(),
            None => Vec::new(),
        };
        // The list's brackets and commas; each row's length and depth.
        let mut json = (2 + rows.len().saturating_sub(1), 1);
        for row in rows {
            let Kind::Dict(m) = kind(row) else {
                if STRICT {
                    return None;
                }
                exact = false;
                if let Some(ascii) = measure {
                    let (n, d) = value_json_len(row, ascii);
                    json = (json.0 + n, json.1.max(1 + d));
                }
                continue;
            };
            if STRICT && m.len() != width {
                return None;
            }
            count += 1;
            let base = cells.len();
            cells.resize(base + width, Cell::Absent);
            let mut next = 0usize;
            let mut matched = 0usize;
            // The row's braces and commas; its depth.
            let mut size = (2 + m.len().saturating_sub(1), 1);
            for (k, v) in m {
                // A column's string is measured as its cell is made.
                let mut counted = None;
                let kb = k.as_bytes();
                let at = match cols.get(next) {
                    Some(c) if same_bytes(c.name().as_bytes(), kb) => Some(next),
                    _ if STRICT => return None,
                    _ => cols
                        .iter()
                        .position(|c| same_bytes(c.name().as_bytes(), kb)),
                };
                if let Some(j) = at {
                    let hash = |s: &str| hasher.map_or(0, |h| Counts::hash(h, s));
                    let cell = match (measure, v) {
                        (Some(ascii), Value::String(s)) => {
                            lossy |= s.is_empty();
                            let (n, form) = string_len_csv(s, ascii);
                            counted = Some(n);
                            match form {
                                CsvForm::Bare => Cell::Bare(s, hash(s)),
                                CsvForm::Wrapped => Cell::Wrapped(s, hash(s)),
                                CsvForm::Unknown => Cell::Str(s, hash(s)),
                            }
                        }
                        (None, Value::String(s)) => {
                            lossy |= s.is_empty();
                            Cell::Str(s, hash(s))
                        }
                        (_, Value::Array(_) | Value::Object(_)) => {
                            lossy = true;
                            Cell::Other(v)
                        }
                        _ => Cell::of(v),
                    };
                    if let Some(slot) = cells.get_mut(base + j) {
                        *slot = cell;
                    }
                    next = j + 1;
                    matched += 1;
                }
                if let Some(ascii) = measure {
                    let key = match at.and_then(|j| key_lens.get(j)) {
                        Some(&n) => n,
                        None => key_json_len(k, ascii),
                    };
                    // A column's number is counted as the writer writes
                    // it (the same text as in the JSON): one formatting,
                    // not two.
                    let (n, d) = if let Some(n) = counted {
                        (n, 0)
                    } else if at.is_some() && written_number(v) {
                        (0, 0)
                    } else {
                        value_json_len(v, ascii)
                    };
                    size = (size.0 + key + 1 + n, size.1.max(1 + d));
                }
            }
            // A dict's keys are distinct, and so are the columns: every
            // key matched and as many keys as columns is every column once.
            exact &= matched == m.len() && m.len() == width;
            json = (json.0 + size.0, json.1.max(1 + size.1));
        }
        Some(Columns {
            cells,
            width,
            rows: count,
            json: measure.map(|_| json),
            exact,
            lossy,
            source: rows,
        })
    }

    /// The cells of `rows` rows of `width` values each, in column order
    /// (a transform's flattened rows, `tier1/transforms/flat_rows.rs`).
    /// No row is the input's (`exact` is false).
    pub(crate) fn of_values(
        values: impl Iterator<Item = &'v Value>,
        width: usize,
        rows: usize,
    ) -> Columns<'v> {
        let mut cells = Vec::with_capacity(rows.saturating_mul(width));
        let mut lossy = false;
        for v in values {
            lossy |= match v {
                Value::String(s) => s.is_empty(),
                Value::Array(_) | Value::Object(_) => true,
                _ => false,
            };
            cells.push(Cell::of(v));
        }
        Columns {
            cells,
            width,
            rows,
            json: None,
            exact: false,
            lossy,
            source: &[],
        }
    }

    /// Adds what the writer wrote for the table's number cells to its JSON
    /// size (the count left them to it: [`written_number`]).
    pub(crate) fn add_written_numbers(&mut self, written: usize) {
        if let Some(json) = self.json.as_mut() {
            json.0 += written;
        }
    }

    /// Adds the JSON length of the table's number cells to its size, as
    /// [`Columns::add_written_numbers`] would after writing them: for a
    /// table refused before it is written, whose measure still spares the
    /// size walk.
    pub(crate) fn count_numbers(&mut self) {
        let numbers = self.number_len();
        if let Some(json) = self.json.as_mut() {
            json.0 += numbers;
        }
    }

    /// The JSON length of the table's number cells (left out of its
    /// measure until they are written: [`written_number`]); 0 for a table
    /// not measured.
    pub(crate) fn number_len(&self) -> usize {
        if self.json.is_none() {
            return 0;
        }
        self.cells
            .iter()
            .map(|c| match *c {
                Cell::UInt(u) => digits(u),
                Cell::NegInt(i) => 1 + digits(i.unsigned_abs()),
                Cell::Float(f) => float_repr_len(f),
                // (A number past 64 bits, under `arbitrary-precision`.)
                Cell::Other(v) if written_number(v) => value_json_len(v, true).0,
                _ => 0,
            })
            .sum()
    }

    /// Makes the empty-string cells of the columns at `at` stand for the
    /// null an empty field reads back as (for a check against what a
    /// transform's rows read back as, not the rows themselves).
    pub(crate) fn empty_strings_as_null(&mut self, at: &[usize]) {
        static NULL: Value = Value::Null;
        let width = self.width.max(1);
        for (i, cell) in self.cells.iter_mut().enumerate() {
            if at.contains(&(i % width)) && matches!(cell, Cell::Str("", _)) {
                *cell = Cell::Other(&NULL);
            }
        }
    }

    /// The rows' cells, one slice of `width` per dict row.
    pub(crate) fn rows(&self) -> impl Iterator<Item = &[Cell<'v>]> {
        (0..self.rows).map(|r| self.row(r).unwrap_or_default())
    }

    /// The cells of the dict rows, row after row.
    pub(crate) fn cells(&self) -> &[Cell<'v>] {
        &self.cells
    }

    /// How many cells a row has: the table's columns.
    pub(crate) fn width(&self) -> usize {
        self.width
    }

    /// The cells of dict row `r` (`None` past the last).
    pub(crate) fn row(&self, r: usize) -> Option<&[Cell<'v>]> {
        if r >= self.rows {
            return None;
        }
        self.cells.get(r * self.width..(r + 1) * self.width)
    }
}

/// An int or a finite float number: the JSON text Python writes for it
/// (its decimal text, its `repr`) is the text the row writer writes, so
/// its length is taken there.
#[inline]
pub(crate) fn written_number(v: &Value) -> bool {
    matches!(v, Value::Number(_))
        && match kind(v) {
            Kind::Int(_) => true,
            Kind::Float(f) => f.is_finite(),
            _ => false,
        }
}

#[cfg(test)]
mod tests {
    use super::{Cell, Columns};
    use serde_json::{Value, json};

    fn rows(v: Value) -> alloc::vec::Vec<Value> {
        match v {
            Value::Array(items) => items,
            _ => alloc::vec::Vec::new(),
        }
    }

    /// A string cell's hash lives beside the enum's tag: the cells of a
    /// table take no more room for it.
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn a_cell_is_three_words() {
        assert_eq!(core::mem::size_of::<Cell<'_>>(), 24);
    }

    /// A strict gather is a table only where every row is a dict with the
    /// first row's keys in the same order; a lax one finds columns anywhere.
    #[test]
    fn strict_gather_needs_every_row_keyed_in_order() {
        let cols = ["a", "b"];
        let same = rows(json!([{"a": 1, "b": "x"}, {"a": 2, "b": "y"}]));
        let got = Columns::gather::<_, true>(&same, &cols, None, None).map(|c| c.rows);
        assert_eq!(got, Some(2));
        let swapped = rows(json!([{"a": 1, "b": "x"}, {"b": "y", "a": 2}]));
        assert!(Columns::gather::<_, true>(&swapped, &cols, None, None).is_none());
        // Where a row is not the columns, a lax gather says so (`exact`).
        for bad in [
            json!([{"a": 1, "b": "x"}, {"a": 2}]),
            json!([{"a": 1, "b": "x"}, {"a": 2, "b": "y", "c": 3}]),
            json!([{"a": 1, "b": "x"}, {"a": 2, "c": "y"}]),
            json!([{"a": 1, "b": "x"}, [2, "y"]]),
        ] {
            let bad = rows(bad);
            assert!(
                Columns::gather::<_, true>(&bad, &cols, None, None).is_none(),
                "{bad:?}"
            );
            let lax = Columns::gather::<_, false>(&bad, &cols, None, None);
            assert!(lax.is_some_and(|c| !c.exact), "{bad:?}");
        }
        // The lax gather takes a row's keys in any order.
        let lax = Columns::gather::<_, false>(&swapped, &cols, None, None);
        let cells = lax.as_ref().and_then(|c| c.row(1));
        assert!(matches!(cells, Some([Cell::UInt(2), Cell::Str("y", _)])));
    }
}
