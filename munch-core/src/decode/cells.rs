//! Cell and scalar text to values (spec §4 "Cell to value").

use alloc::borrow::Cow;
use alloc::string::String;
use serde_json::Value;

use crate::py::number::{float_value, parse_float, parse_int};

/// Converts raw text by a type name: empty → null; `bool` → `raw == "T"`;
/// `int`/`float` → the number, or the raw string when it does not parse;
/// anything else → the raw string.
pub(crate) fn coerce(raw: Cow<'_, str>, hint: &str) -> Value {
    if raw.is_empty() {
        return Value::Null;
    }
    match hint {
        "bool" => Value::Bool(raw == "T"),
        "int" | "float" => {
            coerce_number(&raw, hint).unwrap_or_else(|| Value::String(raw.into_owned()))
        }
        _ => Value::String(String::from(raw)),
    }
}

/// The number an `int` or `float` cell reads as (`None` when it does not
/// parse, or for other type names).
pub(crate) fn coerce_number(raw: &str, hint: &str) -> Option<Value> {
    match hint {
        "int" => parse_int(raw),
        "float" => parse_float(raw).map(float_value),
        _ => None,
    }
}
