//! A `Serializer` into `serde_json::Value` that keeps NaN and the
//! infinities (as the `{"$float": …}` sentinel) where `serde_json` writes
//! `null`. Everything else is `serde_json::to_value`'s mapping.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::ser::{self, Serialize};
use serde_json::{Map, Value};

use super::TypedError;
use crate::py::number::float_value;

type Error = serde_json::Error;

/// Converts any `Serialize` value into a `Value`, NaN and infinities as
/// floats.
///
/// # Errors
/// The value cannot be JSON (a map key that is not a string, number,
/// boolean or char).
///
/// ```
/// let v = munch_core::to_value(&[1.0, f64::NAN])?;
/// assert_eq!(v, serde_json::json!([1.0, {"$float": "nan"}]));
/// # Ok::<(), munch_core::TypedError>(())
/// ```
pub fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<Value, TypedError> {
    value
        .serialize(Ser)
        .map_err(|e| TypedError::Serde(e.to_string()))
}

struct Ser;

fn json<T: Serialize + ?Sized>(v: &T) -> Result<Value, Error> {
    serde_json::to_value(v)
}

/// A map key as `serde_json` makes one: strings as they are, numbers,
/// booleans and chars as their text.
fn key<T: Serialize + ?Sized>(k: &T) -> Result<String, Error> {
    match json(k)? {
        Value::String(s) => Ok(s),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        _ => Err(ser::Error::custom("map key must be a string")),
    }
}

impl ser::Serializer for Ser {
    type Ok = Value;
    type Error = Error;
    type SerializeSeq = Seq;
    type SerializeTuple = Seq;
    type SerializeTupleStruct = Seq;
    type SerializeTupleVariant = Variant<Seq>;
    type SerializeMap = MapSer;
    type SerializeStruct = MapSer;
    type SerializeStructVariant = Variant<MapSer>;

    fn serialize_bool(self, v: bool) -> Result<Value, Error> {
        Ok(Value::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_i128(self, v: i128) -> Result<Value, Error> {
        json(&v)
    }
    fn serialize_u8(self, v: u8) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_u128(self, v: u128) -> Result<Value, Error> {
        json(&v)
    }
    fn serialize_f32(self, v: f32) -> Result<Value, Error> {
        if v.is_finite() {
            json(&v)
        } else {
            Ok(float_value(f64::from(v)))
        }
    }
    fn serialize_f64(self, v: f64) -> Result<Value, Error> {
        Ok(float_value(v))
    }
    fn serialize_char(self, v: char) -> Result<Value, Error> {
        Ok(Value::String(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Value, Error> {
        Ok(Value::String(v.into()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Value, Error> {
        Ok(Value::Array(v.iter().map(|&b| Value::from(b)).collect()))
    }
    fn serialize_none(self) -> Result<Value, Error> {
        Ok(Value::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<Value, Error> {
        v.serialize(Ser)
    }
    fn serialize_unit(self) -> Result<Value, Error> {
        Ok(Value::Null)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Value, Error> {
        Ok(Value::Null)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
    ) -> Result<Value, Error> {
        Ok(Value::String(variant.into()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        v: &T,
    ) -> Result<Value, Error> {
        v.serialize(Ser)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<Value, Error> {
        let mut m = Map::new();
        m.insert(variant.into(), v.serialize(Ser)?);
        Ok(Value::Object(m))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Seq, Error> {
        Ok(Seq(Vec::with_capacity(len.unwrap_or(0))))
    }
    fn serialize_tuple(self, len: usize) -> Result<Seq, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Seq, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Variant<Seq>, Error> {
        Ok(Variant {
            name: variant,
            inner: Seq(Vec::with_capacity(len)),
        })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<MapSer, Error> {
        Ok(MapSer {
            map: Map::new(),
            key: None,
        })
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<MapSer, Error> {
        self.serialize_map(None)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Variant<MapSer>, Error> {
        Ok(Variant {
            name: variant,
            inner: MapSer {
                map: Map::new(),
                key: None,
            },
        })
    }
}

struct Seq(Vec<Value>);

impl ser::SerializeSeq for Seq {
    type Ok = Value;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        self.0.push(v.serialize(Ser)?);
        Ok(())
    }
    fn end(self) -> Result<Value, Error> {
        Ok(Value::Array(self.0))
    }
}

impl ser::SerializeTuple for Seq {
    type Ok = Value;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<Value, Error> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for Seq {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<Value, Error> {
        ser::SerializeSeq::end(self)
    }
}

struct MapSer {
    map: Map<String, Value>,
    key: Option<String>,
}

impl ser::SerializeMap for MapSer {
    type Ok = Value;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result<(), Error> {
        self.key = Some(key(k)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        let k = self.key.take().unwrap_or_default();
        self.map.insert(k, v.serialize(Ser)?);
        Ok(())
    }
    fn end(self) -> Result<Value, Error> {
        Ok(Value::Object(self.map))
    }
}

impl ser::SerializeStruct for MapSer {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        name: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        self.map.insert(name.into(), v.serialize(Ser)?);
        Ok(())
    }
    fn end(self) -> Result<Value, Error> {
        Ok(Value::Object(self.map))
    }
}

/// An enum variant with content: `{variant: content}`.
struct Variant<T> {
    name: &'static str,
    inner: T,
}

impl<T> Variant<T> {
    fn wrap(name: &'static str, v: Value) -> Value {
        let mut m = Map::new();
        m.insert(name.into(), v);
        Value::Object(m)
    }
}

impl ser::SerializeTupleVariant for Variant<Seq> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(&mut self.inner, v)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(Self::wrap(self.name, Value::Array(self.inner.0)))
    }
}

impl ser::SerializeStructVariant for Variant<MapSer> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        name: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        ser::SerializeStruct::serialize_field(&mut self.inner, name, v)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(Self::wrap(self.name, Value::Object(self.inner.map)))
    }
}
