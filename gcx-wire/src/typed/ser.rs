//! `Serialize` records written as rows (§R7), like `csv::Writer::serialize`.

use alloc::string::String;
use alloc::vec::Vec;

use serde::ser::{self, Impossible, Serialize};

use super::error::{TypedError, msg};
use super::json_ser::{GoJson, MapKey};
use crate::encode::{Cell, Encoder, go_g32, go_g64};

/// Marks a value that is not a cell scalar: it is written as Go JSON.
const NESTED: &str = "\u{0}gcx-wire: nested value";

fn nested() -> TypedError {
    TypedError::Message(String::from(NESTED))
}

/// A field's cell text (§7.1), or the [`NESTED`] marker for containers.
struct CellText;

/// A field value's cell: scalars as their text, anything else as Go JSON.
fn cell<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>, TypedError> {
    match value.serialize(CellText) {
        Err(TypedError::Message(m)) if m == NESTED => {
            let mut out = Vec::new();
            value.serialize(GoJson { out: &mut out })?;
            Ok(out)
        }
        other => other,
    }
}

fn text(s: &str) -> Result<Vec<u8>, TypedError> {
    Ok(s.as_bytes().to_vec())
}

impl ser::Serializer for CellText {
    type Ok = Vec<u8>;
    type Error = TypedError;
    type SerializeSeq = Impossible<Vec<u8>, TypedError>;
    type SerializeTuple = Impossible<Vec<u8>, TypedError>;
    type SerializeTupleStruct = Impossible<Vec<u8>, TypedError>;
    type SerializeTupleVariant = Impossible<Vec<u8>, TypedError>;
    type SerializeMap = Impossible<Vec<u8>, TypedError>;
    type SerializeStruct = Impossible<Vec<u8>, TypedError>;
    type SerializeStructVariant = Impossible<Vec<u8>, TypedError>;

    fn serialize_bool(self, v: bool) -> Result<Vec<u8>, TypedError> {
        text(if v { "true" } else { "false" })
    }
    fn serialize_i8(self, v: i8) -> Result<Vec<u8>, TypedError> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<Vec<u8>, TypedError> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<Vec<u8>, TypedError> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result<Vec<u8>, TypedError> {
        text(&alloc::format!("{v}"))
    }
    fn serialize_i128(self, v: i128) -> Result<Vec<u8>, TypedError> {
        text(&alloc::format!("{v}"))
    }
    fn serialize_u8(self, v: u8) -> Result<Vec<u8>, TypedError> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<Vec<u8>, TypedError> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<Vec<u8>, TypedError> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result<Vec<u8>, TypedError> {
        text(&alloc::format!("{v}"))
    }
    fn serialize_u128(self, v: u128) -> Result<Vec<u8>, TypedError> {
        text(&alloc::format!("{v}"))
    }
    fn serialize_f32(self, v: f32) -> Result<Vec<u8>, TypedError> {
        let mut s = String::new();
        go_g32(v, &mut s);
        Ok(s.into_bytes())
    }
    fn serialize_f64(self, v: f64) -> Result<Vec<u8>, TypedError> {
        let mut s = String::new();
        go_g64(v, &mut s);
        Ok(s.into_bytes())
    }
    fn serialize_char(self, v: char) -> Result<Vec<u8>, TypedError> {
        let mut buf = [0u8; 4];
        text(v.encode_utf8(&mut buf))
    }
    fn serialize_str(self, v: &str) -> Result<Vec<u8>, TypedError> {
        text(v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Vec<u8>, TypedError> {
        Ok(v.to_vec())
    }
    fn serialize_none(self) -> Result<Vec<u8>, TypedError> {
        Ok(Vec::new())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<Vec<u8>, TypedError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Vec<u8>, TypedError> {
        Ok(Vec::new())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Vec<u8>, TypedError> {
        Ok(Vec::new())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
    ) -> Result<Vec<u8>, TypedError> {
        text(variant)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<Vec<u8>, TypedError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _i: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<Vec<u8>, TypedError> {
        Err(nested())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, TypedError> {
        Err(nested())
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, TypedError> {
        Err(nested())
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, TypedError> {
        Err(nested())
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _i: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, TypedError> {
        Err(nested())
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, TypedError> {
        Err(nested())
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, TypedError> {
        Err(nested())
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _i: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, TypedError> {
        Err(nested())
    }
}

/// A record's (field name, cell text) pairs in serialization order.
type Pairs = Vec<(String, Vec<u8>)>;

/// Collects the fields of a struct or the entries of a map.
struct Record;

struct RecordFields {
    pairs: Pairs,
    key: Option<String>,
}

fn not_a_record() -> TypedError {
    msg("a record must be a struct or a map")
}

impl ser::SerializeStruct for RecordFields {
    type Ok = Pairs;
    type Error = TypedError;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), TypedError> {
        self.pairs.push((String::from(key), cell(value)?));
        Ok(())
    }
    fn end(self) -> Result<Pairs, TypedError> {
        Ok(self.pairs)
    }
}

impl ser::SerializeMap for RecordFields {
    type Ok = Pairs;
    type Error = TypedError;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), TypedError> {
        self.key = Some(key.serialize(MapKey)?);
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), TypedError> {
        let key = self.key.take().unwrap_or_default();
        self.pairs.push((key, cell(value)?));
        Ok(())
    }
    fn end(self) -> Result<Pairs, TypedError> {
        Ok(self.pairs)
    }
}

macro_rules! refuse {
    ($($method:ident($($arg:ty),*)),*) => {$(
        fn $method(self, $(_: $arg),*) -> Result<Pairs, TypedError> {
            Err(not_a_record())
        }
    )*};
}

impl ser::Serializer for Record {
    type Ok = Pairs;
    type Error = TypedError;
    type SerializeSeq = Impossible<Pairs, TypedError>;
    type SerializeTuple = Impossible<Pairs, TypedError>;
    type SerializeTupleStruct = Impossible<Pairs, TypedError>;
    type SerializeTupleVariant = Impossible<Pairs, TypedError>;
    type SerializeMap = RecordFields;
    type SerializeStruct = RecordFields;
    type SerializeStructVariant = Impossible<Pairs, TypedError>;

    refuse!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str)
    );

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<Pairs, TypedError> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<Pairs, TypedError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _i: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<Pairs, TypedError> {
        Err(not_a_record())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, TypedError> {
        Err(not_a_record())
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, TypedError> {
        Err(not_a_record())
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, TypedError> {
        Err(not_a_record())
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _i: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, TypedError> {
        Err(not_a_record())
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<RecordFields, TypedError> {
        Ok(RecordFields {
            pairs: Vec::new(),
            key: None,
        })
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<RecordFields, TypedError> {
        Ok(RecordFields {
            pairs: Vec::new(),
            key: None,
        })
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _i: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, TypedError> {
        Err(not_a_record())
    }
}

/// A header whose fields come from the first record.
#[derive(Clone, Debug)]
pub(crate) struct PendingHeader {
    tool: Vec<u8>,
    meta: Vec<(Vec<u8>, Vec<u8>)>,
}

impl Encoder {
    /// Declares the next section for typed records: its field list is
    /// taken from the first record passed to [`Encoder::serialize`], in
    /// serialization order, and the header is written then. (To write
    /// comments before the first record, give the fields explicitly with
    /// [`Encoder::header_meta`] instead.)
    ///
    /// ```
    /// #[derive(serde::Serialize)]
    /// struct Hit<'a> { id: &'a str, line: u32, score: Option<f64> }
    ///
    /// let mut enc = gcx_wire::encode::Encoder::new();
    /// enc.typed_header("search", &[("total", "2")]);
    /// enc.serialize(&Hit { id: "a.go::F", line: 3, score: Some(1e21) })?;
    /// enc.serialize(&Hit { id: "#b", line: 4, score: None })?;
    /// assert_eq!(
    ///     enc.finish(),
    ///     b"GCX1 tool=search fields=id,line,score total=2\na.go::F\t3\t1e+21\n\\#b\t4\t\n"
    /// );
    /// # Ok::<(), gcx_wire::typed::TypedError>(())
    /// ```
    pub fn typed_header<T, K, V>(&mut self, tool: T, meta: &[(K, V)])
    where
        T: AsRef<[u8]>,
        K: AsRef<[u8]>,
        V: AsRef<[u8]>,
    {
        self.pending = Some(PendingHeader {
            tool: tool.as_ref().to_vec(),
            meta: meta
                .iter()
                .map(|(k, v)| (k.as_ref().to_vec(), v.as_ref().to_vec()))
                .collect(),
        });
    }

    /// Writes a `Serialize` struct (or map) as a row of the current
    /// section, matching its fields to the header by name: a header field
    /// the record lacks is an empty cell; a record field the header lacks
    /// is an error. `None` and `()` are empty cells; bools, integers,
    /// floats (Go `'g'` text), strings and bytes are written as §7.1 says;
    /// nested values as Go `encoding/json` text.
    ///
    /// # Errors
    /// [`TypedError`] for an unknown field or a value serde refuses;
    /// [`TypedError::Encode`] for what the encoder refuses.
    ///
    /// ```
    /// #[derive(serde::Serialize)]
    /// struct Edge { to: &'static str, tags: Vec<&'static str> }
    ///
    /// let mut enc = gcx_wire::encode::Encoder::new();
    /// enc.header("edges", &["from", "to", "tags"])?;
    /// enc.serialize(&Edge { to: "b", tags: vec!["<x>"] })?;
    /// assert!(enc.as_bytes().ends_with(b"\n\tb\t[\"\\\\u003cx\\\\u003e\"]\n"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn serialize<R: ?Sized + Serialize>(&mut self, record: &R) -> Result<(), TypedError> {
        let pairs = record.serialize(Record)?;
        if let Some(pending) = self.pending.take() {
            let names: Vec<&[u8]> = pairs.iter().map(|(k, _)| k.as_bytes()).collect();
            self.header_meta(&pending.tool, &names, &pending.meta)?;
        }
        let fields = self.field_names();
        if let Some((unknown, _)) = pairs
            .iter()
            .find(|(k, _)| !fields.iter().any(|f| f.as_slice() == k.as_bytes()))
        {
            return Err(msg(alloc::format!(
                "field `{unknown}` is not in the section's header"
            )));
        }
        // For each header field, the record's (last) value of that name.
        let order: Vec<Option<usize>> = fields
            .iter()
            .map(|f| {
                pairs
                    .iter()
                    .rposition(|(k, _)| k.as_bytes() == f.as_slice())
            })
            .collect();
        let cells: Vec<&[u8]> = order
            .iter()
            .map(|i| {
                i.and_then(|i| pairs.get(i))
                    .map_or(&[][..], |(_, v)| v.as_slice())
            })
            .collect();
        self.row(cells.into_iter().map(Cell::Bytes))?;
        Ok(())
    }
}
