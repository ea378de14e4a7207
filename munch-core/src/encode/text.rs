//! Values to cell and scalar text (spec §3 "Value to text").

use alloc::string::String;
use serde_json::Value;

use crate::py::float_repr::write_float_repr;
use crate::py::repr::write_repr;
use crate::value::{Kind, kind, write_int};

/// Appends the reference's text of a value: empty for null, `T`/`F`, int
/// text, float `repr`, strings as they are, Python `repr` for containers
/// (lossy: it decodes as that string).
pub(crate) fn write_value_text(v: &Value, out: &mut String) {
    match kind(v) {
        Kind::Null => {}
        Kind::Bool(b) => out.push(if b { 'T' } else { 'F' }),
        Kind::Int(n) => write_int(n, out),
        Kind::Float(f) => write_float_repr(f, out),
        Kind::Str(s) => out.push_str(s),
        Kind::List(_) | Kind::Dict(_) => write_repr(v, out),
    }
}

/// The type name of a non-null, non-string scalar in `__stypes`
/// (`str` for containers, which travel as their `repr`).
pub(crate) fn stype(v: &Value) -> Option<&'static str> {
    match kind(v) {
        Kind::Null | Kind::Str(_) => None,
        Kind::Bool(_) => Some("bool"),
        Kind::Int(_) => Some("int"),
        Kind::Float(_) => Some("float"),
        Kind::List(_) | Kind::Dict(_) => Some("str"),
    }
}

/// Adds `name:type` to a `__stypes` list for a non-null, non-string
/// scalar.
pub(crate) fn push_stype(name: &str, v: &Value, list: &mut String) {
    if let Some(t) = stype(v) {
        if !list.is_empty() {
            list.push('|');
        }
        list.push_str(name);
        list.push(':');
        list.push_str(t);
    }
}

/// Whether a value is a container (not the float sentinel).
pub(crate) fn is_container(v: &Value) -> bool {
    matches!(kind(v), Kind::List(_) | Kind::Dict(_))
}
