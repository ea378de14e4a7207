//! The decoded value borrowed from the payload: [`decode_borrowed`] gives
//! the same tree as [`decode`](crate::decode), with strings and table
//! column names that point into the payload wherever no escape changed
//! them, and objects as member lists in key order (no hashing).

mod de;
mod decode;

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Map, Number, Value};

pub use de::{decode_borrowed_into, from_borrowed};
pub use decode::{decode_borrowed, decode_borrowed_with};

/// A decoded value whose strings borrow from the payload.
///
/// Objects are member lists in the order [`decode`](crate::decode) gives
/// their keys, each key once. Non-finite floats are the one-key object
/// `{"$float": "nan" | "inf" | "-inf"}`, as in the owned value.
///
/// ```
/// use munch_core::BorrowedValue;
///
/// let payload = "#MUNCH/1 tool=find_importers enc=fi1\n\n\
///     file_path=src/a.py __tables=i:importers:file|specifier\n\n\
///     i,src/b.py,.a\n";
/// let v = munch_core::decode_borrowed(payload)?;
/// let first = &v.get("importers").and_then(BorrowedValue::as_array).unwrap()[0];
/// assert_eq!(first.get("file").and_then(BorrowedValue::as_str), Some("src/b.py"));
/// assert_eq!(v.into_value(), munch_core::decode(payload)?);
/// # Ok::<(), munch_core::DecodeError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum BorrowedValue<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// An int or a finite float.
    Number(Number),
    /// A string, borrowed where the payload holds it verbatim.
    String(Cow<'a, str>),
    /// A list.
    Array(Vec<BorrowedValue<'a>>),
    /// An object: its members in order, each key once.
    Object(Vec<(Cow<'a, str>, BorrowedValue<'a>)>),
}

impl<'a> BorrowedValue<'a> {
    /// The member `key` of an object (`None` for other values).
    ///
    /// ```
    /// let v = munch_core::decode_borrowed("{\"a\": [1, 2]}")?;
    /// assert_eq!(v.get("a").and_then(|a| a.as_array()).map(Vec::len), Some(2));
    /// assert!(v.get("b").is_none());
    /// # Ok::<(), munch_core::DecodeError>(())
    /// ```
    pub fn get(&self, key: &str) -> Option<&BorrowedValue<'a>> {
        self.as_object()?
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// The text of a string.
    ///
    /// ```
    /// let v = munch_core::decode_borrowed("\"hi\"")?;
    /// assert_eq!(v.as_str(), Some("hi"));
    /// # Ok::<(), munch_core::DecodeError>(())
    /// ```
    pub fn as_str(&self) -> Option<&str> {
        match self {
            BorrowedValue::String(s) => Some(s),
            _ => None,
        }
    }

    /// The items of a list.
    ///
    /// ```
    /// let v = munch_core::decode_borrowed("[true, null]")?;
    /// assert_eq!(v.as_array().map(Vec::len), Some(2));
    /// # Ok::<(), munch_core::DecodeError>(())
    /// ```
    pub fn as_array(&self) -> Option<&Vec<BorrowedValue<'a>>> {
        match self {
            BorrowedValue::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The members of an object.
    ///
    /// ```
    /// let v = munch_core::decode_borrowed("{\"a\": 1, \"b\": 2}")?;
    /// let keys: Vec<&str> = v.as_object().unwrap().iter().map(|(k, _)| k.as_ref()).collect();
    /// assert_eq!(keys, ["a", "b"]);
    /// # Ok::<(), munch_core::DecodeError>(())
    /// ```
    pub fn as_object(&self) -> Option<&Vec<(Cow<'a, str>, BorrowedValue<'a>)>> {
        match self {
            BorrowedValue::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The number, if this is one.
    ///
    /// ```
    /// let v = munch_core::decode_borrowed("7")?;
    /// assert_eq!(v.as_number().and_then(|n| n.as_i64()), Some(7));
    /// # Ok::<(), munch_core::DecodeError>(())
    /// ```
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            BorrowedValue::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The boolean, if this is one.
    ///
    /// ```
    /// let v = munch_core::decode_borrowed("false")?;
    /// assert_eq!(v.as_bool(), Some(false));
    /// # Ok::<(), munch_core::DecodeError>(())
    /// ```
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            BorrowedValue::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// Whether this is `null`.
    ///
    /// ```
    /// assert!(munch_core::decode_borrowed("null")?.is_null());
    /// # Ok::<(), munch_core::DecodeError>(())
    /// ```
    pub fn is_null(&self) -> bool {
        matches!(self, BorrowedValue::Null)
    }

    /// The owned `serde_json::Value` (what [`decode`](crate::decode)
    /// returns for the same payload).
    ///
    /// ```
    /// let v = munch_core::decode_borrowed("{\"a\": [1, \"x\"]}")?;
    /// assert_eq!(v.into_value(), serde_json::json!({"a": [1, "x"]}));
    /// # Ok::<(), munch_core::DecodeError>(())
    /// ```
    pub fn into_value(self) -> Value {
        // Open lists and objects on a stack: no recursion on deep input.
        enum Frame<'a> {
            List(Vec<Value>, alloc::vec::IntoIter<BorrowedValue<'a>>),
            Dict(
                Map<String, Value>,
                alloc::vec::IntoIter<(Cow<'a, str>, BorrowedValue<'a>)>,
                String,
            ),
        }
        let mut stack: Vec<Frame<'a>> = Vec::new();
        let mut next = self;
        loop {
            let mut finished = match next {
                BorrowedValue::Null => Some(Value::Null),
                BorrowedValue::Bool(b) => Some(Value::Bool(b)),
                BorrowedValue::Number(n) => Some(Value::Number(n)),
                BorrowedValue::String(s) => Some(Value::String(s.into_owned())),
                BorrowedValue::Array(items) => {
                    stack.push(Frame::List(
                        Vec::with_capacity(items.len()),
                        items.into_iter(),
                    ));
                    None
                }
                BorrowedValue::Object(members) => {
                    let map = Map::with_capacity(members.len());
                    stack.push(Frame::Dict(map, members.into_iter(), String::new()));
                    None
                }
            };
            // Hand finished values to their parents until one has another
            // child to convert.
            loop {
                let Some(top) = stack.last_mut() else {
                    return finished.unwrap_or(Value::Null);
                };
                let child = match top {
                    Frame::List(out, rest) => {
                        out.extend(finished.take());
                        rest.next()
                    }
                    Frame::Dict(out, rest, key) => {
                        if let Some(v) = finished.take() {
                            out.insert(core::mem::take(key), v);
                        }
                        rest.next().map(|(k, v)| {
                            *key = k.into_owned();
                            v
                        })
                    }
                };
                if let Some(child) = child {
                    next = child;
                    break;
                }
                finished = match stack.pop() {
                    Some(Frame::List(out, _)) => Some(Value::Array(out)),
                    Some(Frame::Dict(out, _, _)) => Some(Value::Object(out)),
                    None => None,
                };
            }
        }
    }
}

impl From<Value> for BorrowedValue<'_> {
    /// The owned value as a borrowed one (every string owned).
    ///
    /// ```
    /// use munch_core::BorrowedValue;
    /// let v = BorrowedValue::from(serde_json::json!({"a": ["x"]}));
    /// assert_eq!(v.get("a").and_then(|a| a.as_array()).map(Vec::len), Some(1));
    /// ```
    fn from(v: Value) -> Self {
        enum Frame {
            List(Vec<BorrowedValue<'static>>, alloc::vec::IntoIter<Value>),
            Dict(
                Vec<(Cow<'static, str>, BorrowedValue<'static>)>,
                serde_json::map::IntoIter,
                String,
            ),
        }
        let mut stack: Vec<Frame> = Vec::new();
        let mut next = v;
        loop {
            let mut finished = match next {
                Value::Null => Some(BorrowedValue::Null),
                Value::Bool(b) => Some(BorrowedValue::Bool(b)),
                Value::Number(n) => Some(BorrowedValue::Number(n)),
                Value::String(s) => Some(BorrowedValue::String(Cow::Owned(s))),
                Value::Array(items) => {
                    stack.push(Frame::List(
                        Vec::with_capacity(items.len()),
                        items.into_iter(),
                    ));
                    None
                }
                Value::Object(members) => {
                    let list = Vec::with_capacity(members.len());
                    stack.push(Frame::Dict(list, members.into_iter(), String::new()));
                    None
                }
            };
            loop {
                let Some(top) = stack.last_mut() else {
                    return finished.unwrap_or(BorrowedValue::Null);
                };
                let child = match top {
                    Frame::List(out, rest) => {
                        out.extend(finished.take());
                        rest.next()
                    }
                    Frame::Dict(out, rest, key) => {
                        if let Some(v) = finished.take() {
                            out.push((Cow::Owned(core::mem::take(key)), v));
                        }
                        rest.next().map(|(k, v)| {
                            *key = k;
                            v
                        })
                    }
                };
                if let Some(child) = child {
                    next = child;
                    break;
                }
                finished = match stack.pop() {
                    Some(Frame::List(out, _)) => Some(BorrowedValue::Array(out)),
                    Some(Frame::Dict(out, _, _)) => Some(BorrowedValue::Object(out)),
                    None => None,
                };
            }
        }
    }
}

impl Serialize for BorrowedValue<'_> {
    /// Serializes as the owned value would (keys in order).
    ///
    /// ```
    /// let v = munch_core::decode_borrowed("{\"a\": [1, \"x\"]}")?;
    /// assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"a":[1,"x"]}"#);
    /// # Ok::<(), munch_core::DecodeError>(())
    /// ```
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            BorrowedValue::Null => s.serialize_unit(),
            BorrowedValue::Bool(b) => s.serialize_bool(*b),
            BorrowedValue::Number(n) => n.serialize(s),
            BorrowedValue::String(t) => s.serialize_str(t),
            BorrowedValue::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            BorrowedValue::Object(members) => {
                let mut map = s.serialize_map(Some(members.len()))?;
                for (k, v) in members {
                    map.serialize_entry(k.as_ref(), v)?;
                }
                map.end()
            }
        }
    }
}
