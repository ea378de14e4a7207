//! The decoded value borrowed from the payload: [`decode_borrowed`] gives
//! the same tree as [`decode`](crate::decode), with strings and table
//! column names that point into the payload wherever no escape changed
//! them, and objects as member lists in key order (no hashing).

pub(crate) mod de;
mod decode;
mod table_de;

use alloc::borrow::Cow;
use alloc::vec::Vec;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Number, Value};

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
// A word-sized tag (the size stays 32 bytes): with a byte tag, moving a
// value copied the seven bytes after it in overlapping pieces, and
// reading them back stalled (borrowed decode 5 % slower).
#[repr(u64)]
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
        convert(
            self,
            |v| match v {
                BorrowedValue::Null => Node::Leaf(Value::Null),
                BorrowedValue::Bool(b) => Node::Leaf(Value::Bool(b)),
                BorrowedValue::Number(n) => Node::Leaf(Value::Number(n)),
                BorrowedValue::String(s) => Node::Leaf(Value::String(s.into_owned())),
                BorrowedValue::Array(items) => Node::List(items),
                BorrowedValue::Object(members) => Node::Dict(members),
            },
            Cow::into_owned,
            Value::Array,
            |members| Value::Object(members.into_iter().collect()),
        )
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
        convert(
            v,
            |v| match v {
                Value::Null => Node::Leaf(BorrowedValue::Null),
                Value::Bool(b) => Node::Leaf(BorrowedValue::Bool(b)),
                Value::Number(n) => Node::Leaf(BorrowedValue::Number(n)),
                Value::String(s) => Node::Leaf(BorrowedValue::String(Cow::Owned(s))),
                Value::Array(items) => Node::List(items),
                Value::Object(members) => Node::Dict(members.into_iter().collect()),
            },
            Cow::Owned,
            BorrowedValue::Array,
            BorrowedValue::Object,
        )
    }
}

/// A node of a tree being converted: a finished leaf, or a container's
/// children.
enum Node<N, K, O> {
    Leaf(O),
    List(Vec<N>),
    Dict(Vec<(K, N)>),
}

/// Converts a tree node by node with a stack of open containers (no
/// recursion on deep input): `split` takes a node apart, `key` converts
/// member keys, `list` and `dict` build the converted containers.
fn convert<N, K, K2, O>(
    root: N,
    split: impl Fn(N) -> Node<N, K, O>,
    key: impl Fn(K) -> K2,
    list: impl Fn(Vec<O>) -> O,
    dict: impl Fn(Vec<(K2, O)>) -> O,
) -> O {
    enum Open<N, K, K2, O> {
        List(Vec<O>, alloc::vec::IntoIter<N>),
        /// The members so far, the rest, the current child's key.
        Dict(Vec<(K2, O)>, alloc::vec::IntoIter<(K, N)>, Option<K2>),
    }
    let mut stack: Vec<Open<N, K, K2, O>> = Vec::new();
    let mut next = root;
    'descend: loop {
        // Down to the first leaf or empty container.
        let mut done = loop {
            match split(next) {
                Node::Leaf(v) => break v,
                Node::List(items) => {
                    let out = Vec::with_capacity(items.len());
                    let mut rest = items.into_iter();
                    let Some(first) = rest.next() else {
                        break list(out);
                    };
                    stack.push(Open::List(out, rest));
                    next = first;
                }
                Node::Dict(members) => {
                    let out = Vec::with_capacity(members.len());
                    let mut rest = members.into_iter();
                    let Some((k, first)) = rest.next() else {
                        break dict(out);
                    };
                    stack.push(Open::Dict(out, rest, Some(key(k))));
                    next = first;
                }
            }
        };
        // Up, handing each finished value to its parent, until a parent
        // has another child.
        loop {
            let Some(top) = stack.pop() else {
                return done;
            };
            match top {
                Open::List(mut out, mut rest) => {
                    out.push(done);
                    match rest.next() {
                        Some(child) => {
                            stack.push(Open::List(out, rest));
                            next = child;
                            continue 'descend;
                        }
                        None => done = list(out),
                    }
                }
                Open::Dict(mut out, mut rest, pending) => {
                    if let Some(k) = pending {
                        out.push((k, done));
                    }
                    match rest.next() {
                        Some((k, child)) => {
                            stack.push(Open::Dict(out, rest, Some(key(k))));
                            next = child;
                            continue 'descend;
                        }
                        None => done = dict(out),
                    }
                }
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

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    /// The word-sized tag costs no room: a value is four words, as with a
    /// byte tag.
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn a_value_is_four_words() {
        assert_eq!(core::mem::size_of::<BorrowedValue<'_>>(), 32);
        assert_eq!(core::mem::size_of::<Option<BorrowedValue<'_>>>(), 32);
    }

    /// Both conversions keep every node, key order and empty container,
    /// and deep trees convert without recursion.
    #[test]
    fn conversions_are_inverse_and_iterative() {
        let v = serde_json::json!({
            "z": [], "a": {}, "m": [1, {"k": [true, null, "s"], "e": {}}, []],
            "n": -2.5, "$float": "x"
        });
        let back = BorrowedValue::from(v.clone()).into_value();
        assert_eq!(back.to_string(), v.to_string());
        let mut deep = serde_json::Value::Null;
        // As deep as the decoder's JSON depth limit lets a value be.
        for i in 0..1_000 {
            deep = if i % 2 == 0 {
                serde_json::Value::Array(alloc::vec![deep])
            } else {
                let mut m = serde_json::Map::new();
                m.insert("k".to_string(), deep);
                serde_json::Value::Object(m)
            };
        }
        let text = deep.to_string();
        let round = BorrowedValue::from(deep).into_value();
        assert_eq!(round.to_string(), text);
    }
}
