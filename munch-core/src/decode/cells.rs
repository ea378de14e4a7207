//! Cell and scalar text to values (spec §4 "Cell to value").

use alloc::borrow::Cow;
use alloc::string::String;
use serde_json::Value;

use crate::py::number::{float_value, parse_float, parse_int};
use crate::tier1::schema::Ty;

/// A table column's type name, read once per table rather than compared
/// as text for every cell. Names other than the four types convert a cell
/// as `str` does, but are not legend-expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Hint {
    Str,
    Int,
    Float,
    Bool,
    Other,
}

impl Hint {
    /// The hint a type name gives.
    pub(crate) fn of(name: &str) -> Hint {
        match name {
            "str" => Hint::Str,
            "int" => Hint::Int,
            "float" => Hint::Float,
            "bool" => Hint::Bool,
            _ => Hint::Other,
        }
    }

    /// A type name giving this hint.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Hint::Str => "str",
            Hint::Int => "int",
            Hint::Float => "float",
            Hint::Bool => "bool",
            Hint::Other => "",
        }
    }

    /// The type this hint names (`None` for other names).
    pub(crate) const fn ty(self) -> Option<Ty> {
        match self {
            Hint::Str => Some(Ty::Str),
            Hint::Int => Some(Ty::Int),
            Hint::Float => Some(Ty::Float),
            Hint::Bool => Some(Ty::Bool),
            Hint::Other => None,
        }
    }
}

impl From<Ty> for Hint {
    fn from(ty: Ty) -> Hint {
        match ty {
            Ty::Str => Hint::Str,
            Ty::Int => Hint::Int,
            Ty::Float => Hint::Float,
            Ty::Bool => Hint::Bool,
        }
    }
}

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
