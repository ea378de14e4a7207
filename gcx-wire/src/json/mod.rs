//! JSON for the JSON-driven encoders: a reader that keeps number literals
//! verbatim, and Go `encoding/json`'s compact writer (§7.3, §7.4).
//!
//! The crate reads JSON itself instead of through `serde_json`: even with
//! `arbitrary_precision`, `serde_json` rewrites `1e400` as `1e+400` and
//! `5E+3` as `5e+3`, while Go keeps every literal byte for byte.

mod parse;
mod write;

use alloc::borrow::Cow;
use alloc::vec::Vec;

pub use parse::{JsonError, MAX_DEPTH, parse};
pub use write::{write_go_json, write_go_string};

/// A JSON value with literal numbers; objects hold unique keys sorted
/// bytewise (as Go's maps marshal).
///
/// ```
/// use gcx_wire::json::{parse, Value};
/// assert_eq!(parse(b" 0.80 ")?, Value::Number("0.80"));
/// # Ok::<(), gcx_wire::json::JsonError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value<'a> {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number, as written.
    Number(&'a str),
    /// A string.
    String(Cow<'a, str>),
    /// An array.
    Array(Vec<Value<'a>>),
    /// An object: unique keys, sorted bytewise.
    Object(Vec<(Cow<'a, str>, Value<'a>)>),
}

impl Value<'_> {
    /// The value of `key` in an object.
    ///
    /// ```
    /// let v = gcx_wire::json::parse(br#"{"a": 1}"#)?;
    /// assert_eq!(v.get("a"), Some(&gcx_wire::json::Value::Number("1")));
    /// # Ok::<(), gcx_wire::json::JsonError>(())
    /// ```
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&Self> {
        match self {
            Value::Object(pairs) => pairs
                .binary_search_by(|(k, _)| k.as_bytes().cmp(key.as_bytes()))
                .ok()
                .and_then(|i| pairs.get(i))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    ///
    /// ```
    /// let v = gcx_wire::json::parse(b"[1, 2]")?;
    /// assert_eq!(v.as_array().map(<[_]>::len), Some(2));
    /// # Ok::<(), gcx_wire::json::JsonError>(())
    /// ```
    #[must_use]
    pub fn as_array(&self) -> Option<&[Self]> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }
}
