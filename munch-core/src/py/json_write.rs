//! Python `json.dumps(v, separators=(",", ":"))` with `ensure_ascii` and
//! `allow_nan`: key order kept, ints as int text, floats as `repr`,
//! `NaN`/`Infinity`/`-Infinity`, every code point outside U+0020–007E
//! (U+007F included) as a lowercase `\uXXXX` escape.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;
use serde_json::Value;

use super::float_repr::write_float_repr;
use crate::value::{Kind, kind, write_int};

enum Open<'a> {
    List(core::slice::Iter<'a, Value>),
    Dict(serde_json::map::Iter<'a>),
}

/// Python JSON text of `v`.
///
/// ```
/// let v: serde_json::Value = serde_json::from_str(r#"{"a":[1,2.0,"é"]}"#).unwrap();
/// assert_eq!(munch_core::to_python_json(&v), r#"{"a":[1,2.0,"\u00e9"]}"#);
/// ```
#[must_use]
pub fn to_python_json(v: &Value) -> String {
    let mut out = String::new();
    write_python_json(v, &mut out);
    out
}

/// Appends the Python JSON text of `v` to `out` (no recursion: any depth).
pub(crate) fn write_python_json(v: &Value, out: &mut String) {
    write_json(v, true, out);
}

/// The same text with non-ASCII characters left as they are (for sizes
/// counted in UTF-8 bytes).
pub(crate) fn write_python_json_unescaped(v: &Value, out: &mut String) {
    write_json(v, false, out);
}

fn write_json(v: &Value, ascii: bool, out: &mut String) {
    let mut stack: Vec<Open<'_>> = Vec::new();
    let mut next = Some(v);
    loop {
        if let Some(v) = next.take() {
            match kind(v) {
                Kind::List(items) => {
                    out.push('[');
                    stack.push(Open::List(items.iter()));
                }
                Kind::Dict(map) => {
                    out.push('{');
                    stack.push(Open::Dict(map.iter()));
                }
                other => write_scalar(other, ascii, out),
            }
        }
        let Some(top) = stack.last_mut() else {
            return;
        };
        let first = matches!(out.as_bytes().last(), Some(b'[' | b'{'));
        match top {
            Open::List(it) => match it.next() {
                Some(item) => {
                    if !first {
                        out.push(',');
                    }
                    next = Some(item);
                }
                None => {
                    out.push(']');
                    stack.pop();
                }
            },
            Open::Dict(it) => match it.next() {
                Some((k, item)) => {
                    if !first {
                        out.push(',');
                    }
                    write_string(k, ascii, out);
                    out.push(':');
                    next = Some(item);
                }
                None => {
                    out.push('}');
                    stack.pop();
                }
            },
        }
    }
}

fn write_scalar(k: Kind<'_>, ascii: bool, out: &mut String) {
    match k {
        Kind::Null => out.push_str("null"),
        Kind::Bool(true) => out.push_str("true"),
        Kind::Bool(false) => out.push_str("false"),
        Kind::Int(n) => write_int(n, out),
        Kind::Float(f) if f.is_nan() => out.push_str("NaN"),
        Kind::Float(f) if f.is_infinite() => {
            out.push_str(if f > 0.0 { "Infinity" } else { "-Infinity" });
        }
        Kind::Float(f) => write_float_repr(f, out),
        Kind::Str(s) => write_string(s, ascii, out),
        Kind::List(_) | Kind::Dict(_) => {}
    }
}

/// A JSON string literal with ASCII-only output.
pub(crate) fn write_string(s: &str, ascii: bool, out: &mut String) {
    out.reserve(s.len() + 2);
    out.push('"');
    let mut plain_from = 0;
    for (i, c) in s.char_indices() {
        if (matches!(c, ' '..='~') || (!ascii && c > '~')) && c != '"' && c != '\\' {
            continue;
        }
        out.push_str(s.get(plain_from..i).unwrap_or_default());
        plain_from = i + c.len_utf8();
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            _ => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{u:04x}");
                }
            }
        }
    }
    out.push_str(s.get(plain_from..).unwrap_or_default());
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::py::json_parse::{DEFAULT_DEPTH_LIMIT, parse};

    #[test]
    fn like_python() {
        let v = parse(
            r#"{"a":[1,-5,2.0,1e16,0.0001,NaN,-Infinity],"s":"é\u2028\u007f\"\\\n\b😀"}"#,
            DEFAULT_DEPTH_LIMIT,
        )
        .unwrap();
        assert_eq!(
            to_python_json(&v),
            r#"{"a":[1,-5,2.0,1e+16,0.0001,NaN,-Infinity],"s":"\u00e9\u2028\u007f\"\\\n\b\ud83d\ude00"}"#
        );
        assert_eq!(to_python_json(&parse("[[],{}]", 10).unwrap()), "[[],{}]");
    }
}
