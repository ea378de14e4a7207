//! A `Deserializer` over a [`BorrowedValue`]: strings the payload holds
//! verbatim arrive borrowed (`&'de str` fields work), the
//! `{"$float": …}` sentinel arrives as an `f64`.

use alloc::borrow::Cow;
use alloc::string::ToString;
use alloc::vec;
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use serde::forward_to_deserialize_any;

use super::BorrowedValue;
use crate::error::DecodeError;
use crate::typed::TypedError;

/// Converts a borrowed value into `T`, lending it the value's borrowed
/// strings.
///
/// # Errors
/// The value does not fit `T`.
///
/// ```
/// #[derive(serde::Deserialize)]
/// struct Hit<'a> { file: &'a str, line: u32 }
/// #[derive(serde::Deserialize)]
/// struct Hits<'a> { #[serde(borrow)] hits: Vec<Hit<'a>> }
///
/// let payload = "#MUNCH/1 tool=x enc=gen1\n\n\
///     __tables=t:hits:file|line:str|int\n\nt,src/a.py,3\n";
/// let v = munch_core::decode_borrowed(payload)?;
/// let r: Hits<'_> = munch_core::from_borrowed(v).unwrap();
/// assert_eq!((r.hits[0].file, r.hits[0].line), ("src/a.py", 3));
/// # Ok::<(), munch_core::DecodeError>(())
/// ```
pub fn from_borrowed<'de, T: Deserialize<'de>>(v: BorrowedValue<'de>) -> Result<T, TypedError> {
    T::deserialize(De(v)).map_err(|e| TypedError::Serde(e.to_string()))
}

/// Decodes a MUNCH payload (or JSON) into `T` through
/// [`decode_borrowed`](crate::decode_borrowed): fields of type `&'de str`
/// borrow from a MUNCH `text` where it holds the string verbatim (JSON
/// text and the regrouped tier-1 schemas give owned strings); NaN and
/// infinities arrive as `f64`.
///
/// # Errors
/// The text cannot be decoded, or its value does not fit `T` (a `&str`
/// field whose string is owned included: use `Cow<str>` with
/// `#[serde(borrow)]` to take both).
///
/// ```
/// use std::borrow::Cow;
/// #[derive(serde::Deserialize)]
/// struct Row<'a> { #[serde(borrow)] file: Cow<'a, str>, line: u32 }
/// #[derive(serde::Deserialize)]
/// struct Resp<'a> { #[serde(borrow)] hits: Vec<Row<'a>> }
///
/// let payload = "#MUNCH/1 tool=x enc=gen1\n\n\
///     __tables=t:hits:file|line:str|int\n\nt,src/a.py,3\n";
/// let r: Resp<'_> = munch_core::decode_borrowed_into(payload)?;
/// assert!(matches!(r.hits[0].file, Cow::Borrowed("src/a.py")));
/// # Ok::<(), munch_core::TypedError>(())
/// ```
pub fn decode_borrowed_into<'de, T: Deserialize<'de>>(text: &'de str) -> Result<T, TypedError> {
    // Tables without regrouping fill `T` from their cells directly.
    if let Some(doc) = super::table_de::decode(text) {
        return T::deserialize(doc).map_err(|e| TypedError::Serde(e.to_string()));
    }
    let v = super::decode_borrowed(text).map_err(|e: DecodeError| TypedError::Decode(e))?;
    from_borrowed(v)
}

/// The float a `{"$float": …}` sentinel stands for.
pub(crate) fn sentinel(members: &[(Cow<'_, str>, BorrowedValue<'_>)]) -> Option<f64> {
    let [(key, BorrowedValue::String(name))] = members else {
        return None;
    };
    if key != crate::py::number::FLOAT_KEY {
        return None;
    }
    match name.as_ref() {
        "nan" => Some(f64::NAN),
        "inf" => Some(f64::INFINITY),
        "-inf" => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

/// A deserializer over one tree value.
pub(super) struct De<'de>(pub(super) BorrowedValue<'de>);

impl<'de> de::Deserializer<'de> for De<'de> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            BorrowedValue::Null => visitor.visit_unit(),
            BorrowedValue::Bool(b) => visitor.visit_bool(b),
            BorrowedValue::Number(n) => de::Deserializer::deserialize_any(n, visitor),
            BorrowedValue::String(Cow::Borrowed(s)) => visitor.visit_borrowed_str(s),
            BorrowedValue::String(Cow::Owned(s)) => visitor.visit_string(s),
            BorrowedValue::Array(items) => visitor.visit_seq(Items {
                iter: items.into_iter(),
            }),
            BorrowedValue::Object(members) => {
                if let Some(f) = sentinel(&members) {
                    return visitor.visit_f64(f);
                }
                visitor.visit_map(Members {
                    iter: members.into_iter(),
                    value: None,
                })
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            BorrowedValue::Null => visitor.visit_none(),
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
        // Enums are rare in responses: serde_json's own handling.
        de::Deserializer::deserialize_enum(self.0.into_value(), name, variants, visitor)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

/// A member's key, borrowed from the payload where it is.
pub(super) fn key<'de, K: DeserializeSeed<'de>>(
    seed: K,
    k: Cow<'de, str>,
) -> Result<K::Value, serde_json::Error> {
    match k {
        Cow::Borrowed(k) => {
            seed.deserialize(de::value::BorrowedStrDeserializer::<serde_json::Error>::new(k))
        }
        Cow::Owned(k) => {
            let k: de::value::StringDeserializer<serde_json::Error> = k.into_deserializer();
            seed.deserialize(k)
        }
    }
}

struct Items<'de> {
    iter: vec::IntoIter<BorrowedValue<'de>>,
}

impl<'de> SeqAccess<'de> for Items<'de> {
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

struct Members<'de> {
    iter: vec::IntoIter<(Cow<'de, str>, BorrowedValue<'de>)>,
    value: Option<BorrowedValue<'de>>,
}

impl<'de> MapAccess<'de> for Members<'de> {
    type Error = serde_json::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        let Some((k, v)) = self.iter.next() else {
            return Ok(None);
        };
        self.value = Some(v);
        key(seed, k).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        let v = self.value.take().unwrap_or(BorrowedValue::Null);
        seed.deserialize(De(v))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}
