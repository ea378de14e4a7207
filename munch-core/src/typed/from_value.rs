//! A `Deserializer` over a decoded value that turns the `{"$float": …}`
//! sentinel back into an `f64`.

use alloc::string::ToString;
use alloc::vec;
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor,
};
use serde::forward_to_deserialize_any;
use serde_json::Value;

use super::TypedError;
use crate::py::number::sentinel_float;

/// Converts a decoded value into `T`.
///
/// # Errors
/// The value does not fit `T`.
///
/// ```
/// let x: Vec<f64> = munch_core::from_value(serde_json::json!([1.0, {"$float": "-inf"}]))?;
/// assert_eq!(x, [1.0, f64::NEG_INFINITY]);
/// # Ok::<(), munch_core::TypedError>(())
/// ```
pub fn from_value<T: DeserializeOwned>(v: Value) -> Result<T, TypedError> {
    T::deserialize(De(v)).map_err(|e| TypedError::Serde(e.to_string()))
}

struct De(Value);

impl<'de> de::Deserializer<'de> for De {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Object(map) => {
                if let Some(f) = sentinel_float(&map) {
                    return visitor.visit_f64(f);
                }
                visitor.visit_map(Entries {
                    iter: map.into_iter(),
                    value: None,
                })
            }
            Value::Array(items) => visitor.visit_seq(Items {
                iter: items.into_iter(),
            }),
            other => de::Deserializer::deserialize_any(other, visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            v => visitor.visit_some(De(v)),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        de::Deserializer::deserialize_enum(self.0, name, variants, visitor)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

struct Items {
    iter: vec::IntoIter<Value>,
}

impl<'de> SeqAccess<'de> for Items {
    type Error = serde_json::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Self::Error> {
        self.iter
            .next()
            .map(|v| seed.deserialize(De(v)))
            .transpose()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

struct Entries {
    iter: serde_json::map::IntoIter,
    value: Option<Value>,
}

impl<'de> MapAccess<'de> for Entries {
    type Error = serde_json::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        match self.iter.next() {
            Some((k, v)) => {
                self.value = Some(v);
                let key: de::value::StringDeserializer<serde_json::Error> =
                    IntoDeserializer::into_deserializer(k);
                seed.deserialize(key).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        let v = self.value.take().unwrap_or(Value::Null);
        seed.deserialize(De(v))
    }
}
