//! Rows into `Deserialize` types, by field name (§R7), like
//! `csv::StringRecord::deserialize`.

use alloc::borrow::Cow;
use alloc::string::ToString;

use serde::de::{
    self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor,
};

use super::error::{TypedError, msg};

/// A row: field names and cells, side by side.
pub(crate) struct RowDeserializer<'r, 'de> {
    pub(crate) fields: &'r [Cow<'de, [u8]>],
    pub(crate) cells: &'r [Cow<'de, [u8]>],
}

impl<'de> Deserializer<'de> for RowDeserializer<'_, 'de> {
    type Error = TypedError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TypedError> {
        self.deserialize_map(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TypedError> {
        visitor.visit_map(RowMap {
            fields: self.fields,
            cells: self.cells,
            next: 0,
            current: None,
        })
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, TypedError> {
        self.deserialize_map(visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TypedError> {
        visitor.visit_seq(RowSeq {
            cells: self.cells.iter(),
        })
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, TypedError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, TypedError> {
        self.deserialize_seq(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct enum identifier
        ignored_any
    }
}

/// Field → cell pairs; of repeated names only the last is visited.
struct RowMap<'r, 'de> {
    fields: &'r [Cow<'de, [u8]>],
    cells: &'r [Cow<'de, [u8]>],
    next: usize,
    current: Option<usize>,
}

impl<'de> MapAccess<'de> for RowMap<'_, 'de> {
    type Error = TypedError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, TypedError> {
        while let Some(name) = self.fields.get(self.next) {
            let i = self.next;
            self.next += 1;
            let repeated_later = self
                .fields
                .get(self.next..)
                .is_some_and(|rest| rest.contains(name));
            if repeated_later {
                continue;
            }
            self.current = Some(i);
            return seed.deserialize(CellDeserializer { cell: name }).map(Some);
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, TypedError> {
        let i = self.current.take().unwrap_or(0);
        let empty = Cow::Borrowed(&[][..]);
        let cell = self.cells.get(i).unwrap_or(&empty);
        let name = self.fields.get(i).map_or(&[][..], |f| f.as_ref());
        seed.deserialize(CellDeserializer { cell })
            .map_err(|e| e.in_field(name))
    }
}

struct RowSeq<'r, 'de> {
    cells: core::slice::Iter<'r, Cow<'de, [u8]>>,
}

impl<'de> SeqAccess<'de> for RowSeq<'_, 'de> {
    type Error = TypedError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, TypedError> {
        match self.cells.next() {
            Some(cell) => seed.deserialize(CellDeserializer { cell }).map(Some),
            None => Ok(None),
        }
    }
}

/// One cell (or field name): text, numbers, bools, `None` when empty, and
/// JSON for nested values.
struct CellDeserializer<'r, 'de> {
    cell: &'r Cow<'de, [u8]>,
}

impl<'de> CellDeserializer<'_, 'de> {
    fn text(&self) -> Result<&str, TypedError> {
        core::str::from_utf8(self.cell).map_err(|_| msg("the cell is not UTF-8"))
    }

    fn parse<T: core::str::FromStr>(&self, what: &str) -> Result<T, TypedError> {
        let text = self.text()?;
        if text.is_empty() {
            return Err(msg(alloc::format!("empty cell, expected {what}")));
        }
        text.parse()
            .map_err(|_| msg(alloc::format!("`{text}` is not {what}")))
    }

    /// Nested values: the cell holds JSON.
    fn json<V: Visitor<'de>>(&self, visitor: V) -> Result<V::Value, TypedError> {
        let value: serde_json::Value =
            serde_json::from_slice(self.cell).map_err(|e| msg(e.to_string()))?;
        value
            .deserialize_any(visitor)
            .map_err(|e| msg(e.to_string()))
    }
}

macro_rules! parse_number {
    ($($method:ident => $visit:ident : $t:ty, $what:literal;)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TypedError> {
            visitor.$visit(self.parse::<$t>($what)?)
        }
    )*};
}

impl<'de> Deserializer<'de> for CellDeserializer<'_, 'de> {
    type Error = TypedError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TypedError> {
        match self.cell {
            Cow::Borrowed(b) => match core::str::from_utf8(b) {
                Ok(s) => visitor.visit_borrowed_str(s),
                Err(_) => visitor.visit_borrowed_bytes(b),
            },
            Cow::Owned(b) => match core::str::from_utf8(b) {
                Ok(s) => visitor.visit_str(s),
                Err(_) => visitor.visit_bytes(b),
            },
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TypedError> {
        match self.cell.as_ref() {
            b"true" => visitor.visit_bool(true),
            b"false" => visitor.visit_bool(false),
            other => Err(msg(alloc::format!(
                "`{}` is not a bool (true/false)",
                alloc::string::String::from_utf8_lossy(other)
            ))),
        }
    }

    parse_number! {
        deserialize_i8 => visit_i8: i8, "an integer";
        deserialize_i16 => visit_i16: i16, "an integer";
        deserialize_i32 => visit_i32: i32, "an integer";
        deserialize_i64 => visit_i64: i64, "an integer";
        deserialize_i128 => visit_i128: i128, "an integer";
        deserialize_u8 => visit_u8: u8, "an unsigned integer";
        deserialize_u16 => visit_u16: u16, "an unsigned integer";
        deserialize_u32 => visit_u32: u32, "an unsigned integer";
        deserialize_u64 => visit_u64: u64, "an unsigned integer";
        deserialize_u128 => visit_u128: u128, "an unsigned integer";
        deserialize_f32 => visit_f32: f32, "a number";
        deserialize_f64 => visit_f64: f64, "a number";
        deserialize_char => visit_char: char, "one character";
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TypedError> {
        match self.cell {
            Cow::Borrowed(b) => visitor.visit_borrowed_str(
                core::str::from_utf8(b).map_err(|_| msg("the cell is not UTF-8"))?,
            ),
            Cow::Owned(_) => visitor.visit_str(self.text()?),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TypedError> {
        self.deserialize_str(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TypedError> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TypedError> {
        match self.cell {
            Cow::Borrowed(b) => visitor.visit_borrowed_bytes(b),
            Cow::Owned(b) => visitor.visit_bytes(b),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TypedError> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TypedError> {
        if self.cell.is_empty() {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TypedError> {
        if self.cell.is_empty() {
            visitor.visit_unit()
        } else {
            Err(msg("expected an empty cell"))
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, TypedError> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, TypedError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TypedError> {
        self.json(visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, TypedError> {
        self.json(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, TypedError> {
        self.json(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TypedError> {
        self.json(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, TypedError> {
        self.json(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, TypedError> {
        if self.cell.first() == Some(&b'{') {
            let value: serde_json::Value =
                serde_json::from_slice(self.cell).map_err(|e| msg(e.to_string()))?;
            return value
                .deserialize_enum(name, variants, visitor)
                .map_err(|e| msg(e.to_string()));
        }
        let text: de::value::StrDeserializer<'_, TypedError> = self.text()?.into_deserializer();
        text.deserialize_enum(name, variants, visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TypedError> {
        visitor.visit_unit()
    }
}
