//! Nested values of typed records as Go `encoding/json` text (§7.3/§7.4):
//! compact, HTML-escaped strings, map keys sorted, struct fields in
//! declaration order, floats in `encoding/json` notation, `[]byte` as
//! base64.

use alloc::string::String;
use alloc::vec::Vec;

use serde::ser::{self, Serialize};

use super::error::{TypedError, msg};
use crate::encode::{go_json_float, go_json_float32};
use crate::json::write_go_string;

/// Writes one value as Go JSON into `out`.
pub(crate) struct GoJson<'o> {
    pub(crate) out: &'o mut Vec<u8>,
}

fn base64(bytes: &[u8], out: &mut String) {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for chunk in bytes.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(
                    ABC.get((n >> (18 - 6 * i)) as usize & 63)
                        .copied()
                        .unwrap_or(b'A'),
                ));
            } else {
                out.push('=');
            }
        }
    }
}

fn float_error() -> TypedError {
    msg("json: unsupported value: NaN or infinity")
}

/// An open `[`…`]` or `{`…`}`; `close` is what ends it (`]`, `}`, or
/// `]}` / `}}` for enum variants).
pub(crate) struct Compound<'o> {
    out: &'o mut Vec<u8>,
    first: bool,
    close: &'static [u8],
}

impl Compound<'_> {
    fn comma(&mut self) {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
    }
}

/// A map: entries buffered, then written sorted by key (Go sorts maps).
pub(crate) struct SortedMap<'o> {
    out: &'o mut Vec<u8>,
    entries: Vec<(String, Vec<u8>)>,
    key: Option<String>,
}

impl<'o> GoJson<'o> {
    fn open(self, open: &[u8], close: &'static [u8]) -> Compound<'o> {
        self.out.extend_from_slice(open);
        Compound {
            out: self.out,
            first: true,
            close,
        }
    }

    fn variant_open(self, variant: &str, open: &[u8], close: &'static [u8]) -> Compound<'o> {
        self.out.push(b'{');
        write_go_string(variant, self.out);
        self.out.push(b':');
        self.open(open, close)
    }
}

impl<'o> ser::Serializer for GoJson<'o> {
    type Ok = ();
    type Error = TypedError;
    type SerializeSeq = Compound<'o>;
    type SerializeTuple = Compound<'o>;
    type SerializeTupleStruct = Compound<'o>;
    type SerializeTupleVariant = Compound<'o>;
    type SerializeMap = SortedMap<'o>;
    type SerializeStruct = Compound<'o>;
    type SerializeStructVariant = Compound<'o>;

    fn serialize_bool(self, v: bool) -> Result<(), TypedError> {
        self.out
            .extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), TypedError> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<(), TypedError> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<(), TypedError> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result<(), TypedError> {
        self.out.extend_from_slice(alloc::format!("{v}").as_bytes());
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<(), TypedError> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<(), TypedError> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<(), TypedError> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result<(), TypedError> {
        self.out.extend_from_slice(alloc::format!("{v}").as_bytes());
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), TypedError> {
        let mut s = String::new();
        if !go_json_float32(v, &mut s) {
            return Err(float_error());
        }
        self.out.extend_from_slice(s.as_bytes());
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), TypedError> {
        let mut s = String::new();
        if !go_json_float(v, &mut s) {
            return Err(float_error());
        }
        self.out.extend_from_slice(s.as_bytes());
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), TypedError> {
        let mut buf = [0u8; 4];
        self.serialize_str(v.encode_utf8(&mut buf))
    }
    fn serialize_str(self, v: &str) -> Result<(), TypedError> {
        write_go_string(v, self.out);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), TypedError> {
        let mut s = String::new();
        base64(v, &mut s);
        write_go_string(&s, self.out);
        Ok(())
    }
    fn serialize_none(self) -> Result<(), TypedError> {
        self.serialize_unit()
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), TypedError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), TypedError> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), TypedError> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), TypedError> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), TypedError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), TypedError> {
        self.out.push(b'{');
        write_go_string(variant, self.out);
        self.out.push(b':');
        value.serialize(GoJson {
            out: &mut *self.out,
        })?;
        self.out.push(b'}');
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'o>, TypedError> {
        Ok(self.open(b"[", b"]"))
    }
    fn serialize_tuple(self, _len: usize) -> Result<Compound<'o>, TypedError> {
        Ok(self.open(b"[", b"]"))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Compound<'o>, TypedError> {
        Ok(self.open(b"[", b"]"))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'o>, TypedError> {
        Ok(self.variant_open(variant, b"[", b"]}"))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<SortedMap<'o>, TypedError> {
        Ok(SortedMap {
            out: self.out,
            entries: Vec::new(),
            key: None,
        })
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Compound<'o>, TypedError> {
        Ok(self.open(b"{", b"}"))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'o>, TypedError> {
        Ok(self.variant_open(variant, b"{", b"}}"))
    }
}

impl Compound<'_> {
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), TypedError> {
        self.comma();
        value.serialize(GoJson {
            out: &mut *self.out,
        })
    }

    fn field<T: ?Sized + Serialize>(&mut self, key: &str, value: &T) -> Result<(), TypedError> {
        self.comma();
        write_go_string(key, self.out);
        self.out.push(b':');
        value.serialize(GoJson {
            out: &mut *self.out,
        })
    }

    fn close(self) -> Result<(), TypedError> {
        self.out.extend_from_slice(self.close);
        Ok(())
    }
}

macro_rules! seq_like {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = TypedError;
            fn $method<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), TypedError> {
                self.element(value)
            }
            fn end(self) -> Result<(), TypedError> {
                self.close()
            }
        }
    )*};
}
seq_like!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

macro_rules! struct_like {
    ($($trait:ident),*) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = TypedError;
            fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<(), TypedError> {
                self.field(key, value)
            }
            fn end(self) -> Result<(), TypedError> {
                self.close()
            }
        }
    )*};
}
struct_like!(SerializeStruct, SerializeStructVariant);

impl ser::SerializeMap for SortedMap<'_> {
    type Ok = ();
    type Error = TypedError;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), TypedError> {
        self.key = Some(key.serialize(MapKey)?);
        Ok(())
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), TypedError> {
        let mut buf = Vec::new();
        value.serialize(GoJson { out: &mut buf })?;
        self.entries
            .push((self.key.take().unwrap_or_default(), buf));
        Ok(())
    }

    fn end(mut self) -> Result<(), TypedError> {
        self.entries
            .sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        self.out.push(b'{');
        for (i, (k, v)) in self.entries.iter().enumerate() {
            if i > 0 {
                self.out.push(b',');
            }
            write_go_string(k, self.out);
            self.out.push(b':');
            self.out.extend_from_slice(v);
        }
        self.out.push(b'}');
        Ok(())
    }
}

/// Map keys: strings, and integers as their decimal text (as Go does).
pub(crate) struct MapKey;

fn key_error() -> TypedError {
    msg("json: map keys must be strings or integers")
}

impl ser::Serializer for MapKey {
    type Ok = String;
    type Error = TypedError;
    type SerializeSeq = ser::Impossible<String, TypedError>;
    type SerializeTuple = ser::Impossible<String, TypedError>;
    type SerializeTupleStruct = ser::Impossible<String, TypedError>;
    type SerializeTupleVariant = ser::Impossible<String, TypedError>;
    type SerializeMap = ser::Impossible<String, TypedError>;
    type SerializeStruct = ser::Impossible<String, TypedError>;
    type SerializeStructVariant = ser::Impossible<String, TypedError>;

    fn serialize_str(self, v: &str) -> Result<String, TypedError> {
        Ok(String::from(v))
    }
    fn serialize_char(self, v: char) -> Result<String, TypedError> {
        Ok(String::from(v))
    }
    fn serialize_i8(self, v: i8) -> Result<String, TypedError> {
        Ok(alloc::format!("{v}"))
    }
    fn serialize_i16(self, v: i16) -> Result<String, TypedError> {
        Ok(alloc::format!("{v}"))
    }
    fn serialize_i32(self, v: i32) -> Result<String, TypedError> {
        Ok(alloc::format!("{v}"))
    }
    fn serialize_i64(self, v: i64) -> Result<String, TypedError> {
        Ok(alloc::format!("{v}"))
    }
    fn serialize_u8(self, v: u8) -> Result<String, TypedError> {
        Ok(alloc::format!("{v}"))
    }
    fn serialize_u16(self, v: u16) -> Result<String, TypedError> {
        Ok(alloc::format!("{v}"))
    }
    fn serialize_u32(self, v: u32) -> Result<String, TypedError> {
        Ok(alloc::format!("{v}"))
    }
    fn serialize_u64(self, v: u64) -> Result<String, TypedError> {
        Ok(alloc::format!("{v}"))
    }
    fn serialize_unit_variant(
        self,
        _n: &'static str,
        _i: u32,
        variant: &'static str,
    ) -> Result<String, TypedError> {
        Ok(String::from(variant))
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _n: &'static str,
        value: &T,
    ) -> Result<String, TypedError> {
        value.serialize(self)
    }
    fn serialize_bool(self, _v: bool) -> Result<String, TypedError> {
        Err(key_error())
    }
    fn serialize_f32(self, _v: f32) -> Result<String, TypedError> {
        Err(key_error())
    }
    fn serialize_f64(self, _v: f64) -> Result<String, TypedError> {
        Err(key_error())
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<String, TypedError> {
        Err(key_error())
    }
    fn serialize_none(self) -> Result<String, TypedError> {
        Err(key_error())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _value: &T) -> Result<String, TypedError> {
        Err(key_error())
    }
    fn serialize_unit(self) -> Result<String, TypedError> {
        Err(key_error())
    }
    fn serialize_unit_struct(self, _n: &'static str) -> Result<String, TypedError> {
        Err(key_error())
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _n: &'static str,
        _i: u32,
        _v: &'static str,
        _value: &T,
    ) -> Result<String, TypedError> {
        Err(key_error())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, TypedError> {
        Err(key_error())
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, TypedError> {
        Err(key_error())
    }
    fn serialize_tuple_struct(
        self,
        _n: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, TypedError> {
        Err(key_error())
    }
    fn serialize_tuple_variant(
        self,
        _n: &'static str,
        _i: u32,
        _v: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, TypedError> {
        Err(key_error())
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, TypedError> {
        Err(key_error())
    }
    fn serialize_struct(
        self,
        _n: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, TypedError> {
        Err(key_error())
    }
    fn serialize_struct_variant(
        self,
        _n: &'static str,
        _i: u32,
        _v: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, TypedError> {
        Err(key_error())
    }
}
