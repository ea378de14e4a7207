//! Typed decoding straight from table cells. For gen1 payloads and the
//! tier-1 schemas whose decoding ends with their tables (no regrouping),
//! the caller's type is filled from each row's cells as the row reader
//! left them: no row object is built, filled and dropped on the way.
//! What the caller gets
//! is exactly what [`from_borrowed`](super::from_borrowed) gives from
//! [`decode_borrowed`](super::decode_borrowed)'s tree: the members come
//! in the same order, each cell is converted by the same routine, and
//! anything else (an enum, a one-column `$float` row) goes through that
//! tree.

use alloc::borrow::Cow;
use alloc::vec::{self, Vec};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::forward_to_deserialize_any;

use super::BorrowedValue;
use super::de::{De, key};
use crate::decode::build::{Borrowed, Build};
use crate::decode::cells::Hint;
use crate::decode::table_cells::{Cells, RowChunks, TableCells};
use crate::decode::{Budget, DecodeOptions};
use crate::decode::{gen1, tier1};
use crate::format::envelope::{HEADER_PREFIX, header_enc};
use crate::py::number::{FLOAT_KEY, parse_float, plain_int};
use crate::tier1::schemas;

/// The payload's value, its tables still cells; `None` where typed
/// decoding goes through the tree (JSON text, the regrouped schemas, gen1
/// tables that share a tag or nest, a payload whose expansion allowance
/// runs out).
pub(super) fn decode(text: &str) -> Option<Doc<'_>> {
    if !text.starts_with(HEADER_PREFIX) {
        return None;
    }
    let opts = DecodeOptions::default();
    let mut budget = Budget::new(text.len(), &opts);
    let cells = match schemas::by_id(header_enc(text).unwrap_or("gen1")) {
        Some(schema) => tier1::decode_cells(text, schema, &opts, &mut budget),
        None => gen1::decode_cells(text, &opts, &mut budget),
    };
    cells.map(Doc)
}

/// A decoded payload whose tables are cells.
pub(super) struct Doc<'a>(Cells<'a>);

type Error = serde_json::Error;

/// What the deserializers here share: a newtype struct is its content, an
/// enum is read from the tree's value (`into_value`), everything else
/// but an option is `deserialize_any`; with `option`, an option is
/// `Some` (none of them is ever `null`).
macro_rules! shared_methods {
    () => {
        fn deserialize_newtype_struct<V: Visitor<'de>>(
            self,
            _name: &'static str,
            visitor: V,
        ) -> Result<V::Value, Error> {
            visitor.visit_newtype_struct(self)
        }

        fn deserialize_enum<V: Visitor<'de>>(
            self,
            name: &'static str,
            variants: &'static [&'static str],
            visitor: V,
        ) -> Result<V::Value, Error> {
            De(self.into_value()).deserialize_enum(name, variants, visitor)
        }

        forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
            identifier ignored_any
        }
    };
    (option) => {
        fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            visitor.visit_some(self)
        }

        shared_methods!();
    };
}

impl<'a> Doc<'a> {
    /// The tree [`decode_borrowed`](super::decode_borrowed) gives.
    fn into_value(self) -> BorrowedValue<'a> {
        let Cells { members, tables } = self.0;
        let mut list = members.list;
        for t in tables {
            if let Some(slot) = list.get_mut(t.member) {
                slot.1 = Table(t).into_value();
            }
        }
        BorrowedValue::Object(list)
    }
}

impl<'de> de::Deserializer<'de> for Doc<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let Cells { members, tables } = self.0;
        // The one object the tree would read as a float.
        if let [(key, _)] = members.list.as_slice() {
            if key == FLOAT_KEY {
                return De(Doc(Cells { members, tables }).into_value()).deserialize_any(visitor);
            }
        }
        let mut slots: Vec<Option<Table<'de>>> = members.list.iter().map(|_| None).collect();
        for t in tables {
            if let Some(slot) = slots.get_mut(t.member) {
                *slot = Some(Table(t));
            }
        }
        visitor.visit_map(DocMembers {
            iter: members.list.into_iter().zip(slots),
            value: None,
        })
    }

    shared_methods!(option);
}

/// The top-level members: a tree value, or a table's cells.
enum Member<'de> {
    Value(BorrowedValue<'de>),
    Table(Table<'de>),
}

type MemberIter<'de> = core::iter::Zip<
    vec::IntoIter<(Cow<'de, str>, BorrowedValue<'de>)>,
    vec::IntoIter<Option<Table<'de>>>,
>;

struct DocMembers<'de> {
    iter: MemberIter<'de>,
    value: Option<Member<'de>>,
}

impl<'de> MapAccess<'de> for DocMembers<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some(((k, v), table)) = self.iter.next() else {
            return Ok(None);
        };
        self.value = Some(match table {
            Some(t) => Member::Table(t),
            None => Member::Value(v),
        });
        key(seed, k).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        match self.value.take() {
            Some(Member::Table(t)) => seed.deserialize(t),
            Some(Member::Value(v)) => seed.deserialize(De(v)),
            None => seed.deserialize(De(BorrowedValue::Null)),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// A table's rows as cells.
struct Table<'de>(TableCells<'de>);

impl<'de> Table<'de> {
    fn into_value(self) -> BorrowedValue<'de> {
        let mut rows = Vec::with_capacity(self.0.rows());
        let (cols, mut chunks) = self.0.into_rows();
        while let Some(row) = chunks.next_row() {
            rows.push(row_value(&cols, row));
        }
        BorrowedValue::Array(rows)
    }
}

/// The row object the tree holds for `row`'s cells (taken out of it).
fn row_value<'de>(cols: &[(Cow<'de, str>, Hint)], row: &mut [Cow<'de, str>]) -> BorrowedValue<'de> {
    Borrowed::row(
        &(),
        cols.iter()
            .zip(row.iter_mut())
            .map(|((name, hint), raw)| (name.clone(), core::mem::take(raw), *hint)),
    )
}

impl<'de> de::Deserializer<'de> for Table<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let left = self.0.rows();
        let (cols, rows) = self.0.into_rows();
        visitor.visit_seq(Rows { cols, rows, left })
    }

    shared_methods!(option);
}

/// A table's rows, handed out one at a time.
struct Rows<'de> {
    cols: Vec<(Cow<'de, str>, Hint)>,
    rows: RowChunks<'de>,
    left: usize,
}

impl<'de> SeqAccess<'de> for Rows<'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        // A row is its own slice: a visitor that stops reading a row
        // early cannot shift the next one.
        let Some(row) = self.rows.next_row() else {
            return Ok(None);
        };
        self.left = self.left.saturating_sub(1);
        seed.deserialize(Row {
            cols: &self.cols,
            row,
        })
        .map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// One row's cells, deserialized as the object the tree would hold.
struct Row<'r, 'de> {
    cols: &'r [(Cow<'de, str>, Hint)],
    row: &'r mut [Cow<'de, str>],
}

impl<'de> Row<'_, 'de> {
    /// The tree's object for the row.
    fn into_value(self) -> BorrowedValue<'de> {
        row_value(self.cols, self.row)
    }
}

impl<'de> de::Deserializer<'de> for Row<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        // The one row the tree would read as a float.
        if matches!(self.cols, [(name, _)] if name == FLOAT_KEY) {
            return De(self.into_value()).deserialize_any(visitor);
        }
        visitor.visit_map(RowMembers {
            cols: self.cols,
            row: self.row,
            next: 0,
        })
    }

    shared_methods!(option);
}

/// A row's members: column `next`'s name, then its cell.
struct RowMembers<'r, 'de> {
    cols: &'r [(Cow<'de, str>, Hint)],
    row: &'r mut [Cow<'de, str>],
    next: usize,
}

impl<'de> MapAccess<'de> for RowMembers<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        match self.cols.get(self.next) {
            None => Ok(None),
            Some((Cow::Borrowed(name), _)) => seed
                .deserialize(de::value::BorrowedStrDeserializer::<Error>::new(name))
                .map(Some),
            Some((Cow::Owned(name), _)) => seed
                .deserialize(de::value::StrDeserializer::<Error>::new(name))
                .map(Some),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let i = self.next;
        self.next += 1;
        let hint = self.cols.get(i).map_or(Hint::Other, |c| c.1);
        let raw = self.row.get_mut(i).map(core::mem::take).unwrap_or_default();
        seed.deserialize(Cell { raw, hint })
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.cols.len().saturating_sub(self.next))
    }
}

/// One cell, converted by its column's type as it is deserialized: what
/// the tree's value for it would give the visitor, without the value.
struct Cell<'de> {
    raw: Cow<'de, str>,
    hint: Hint,
}

impl<'de> Cell<'de> {
    /// The tree's value for the cell.
    fn into_value(self) -> BorrowedValue<'de> {
        Borrowed::cell(self.raw, self.hint)
    }
}

impl<'de> de::Deserializer<'de> for Cell<'de> {
    type Error = Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        if self.raw.is_empty() {
            return visitor.visit_unit();
        }
        match self.hint {
            Hint::Bool => return visitor.visit_bool(self.raw == "T"),
            // A float the tree holds as a number, or as the `$float`
            // sentinel that arrives as the same `f64`.
            Hint::Float => {
                if let Some(x) = parse_float(&self.raw) {
                    return visitor.visit_f64(if x.is_nan() { f64::NAN } else { x });
                }
            }
            // As a `serde_json` number of an `i64` gives it.
            Hint::Int => match plain_int(&self.raw) {
                Some(v) => {
                    return match u64::try_from(v) {
                        Ok(u) => visitor.visit_u64(u),
                        Err(_) => visitor.visit_i64(v),
                    };
                }
                None => return De(self.into_value()).deserialize_any(visitor),
            },
            Hint::Str | Hint::Other => {}
        }
        match self.raw {
            Cow::Borrowed(s) => visitor.visit_borrowed_str(s),
            Cow::Owned(s) => visitor.visit_string(s),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        if self.raw.is_empty() {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    shared_methods!();
}
