//! Python `str()` of a list or dict (the reference's lossy text for
//! containers in cells and scalars): `[a, b]`, `{'k': v}`,
//! `True`/`False`/`None`, strings quoted and escaped as `repr` does.

use alloc::string::String;
use core::fmt::Write;
use serde_json::Value;

use super::float_repr::write_float_repr;
use super::walk::{Steps, walk};
use crate::unicode::is_printable;
use crate::value::{Kind, write_int};

/// Appends Python's `repr` of `v`, at any depth (no recursion).
pub(crate) fn write_repr(v: &Value, out: &mut String) {
    walk(v, &mut ReprSteps(out));
}

/// Python `repr` text, written to the string.
struct ReprSteps<'o>(&'o mut String);

impl<'v> Steps<'v> for ReprSteps<'_> {
    fn open(&mut self, list: bool) {
        self.0.push(if list { '[' } else { '{' });
    }
    fn scalar(&mut self, k: Kind<'v>) {
        let out = &mut *self.0;
        match k {
            Kind::Null => out.push_str("None"),
            Kind::Bool(true) => out.push_str("True"),
            Kind::Bool(false) => out.push_str("False"),
            Kind::Int(n) => write_int(n, out),
            Kind::Float(f) => write_float_repr(f, out),
            Kind::Str(s) => write_str_repr(s, out),
            // Containers come as their own steps.
            Kind::List(_) | Kind::Dict(_) => {}
        }
    }
    fn separator(&mut self) {
        self.0.push_str(", ");
    }
    fn key(&mut self, k: &'v str) {
        write_str_repr(k, self.0);
        self.0.push_str(": ");
    }
    fn close(&mut self, list: bool) {
        self.0.push(if list { ']' } else { '}' });
    }
}

/// Python `repr(str)`.
pub(crate) fn write_str_repr(s: &str, out: &mut String) {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if is_printable(c) => out.push(c),
            c => {
                let cp = c as u32;
                let _ = if cp < 0x100 {
                    write!(out, "\\x{cp:02x}")
                } else if cp < 0x10000 {
                    write!(out, "\\u{cp:04x}")
                } else {
                    write!(out, "\\U{cp:08x}")
                };
            }
        }
    }
    out.push(quote);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_python() {
        let v: Value = serde_json::from_str(
            r#"[1, 2.5, true, null, "it's", "a\"b'c", "\u0001\u00a0\u2028é", {"k": [1e16]}]"#,
        )
        .unwrap();
        let mut s = String::new();
        write_repr(&v, &mut s);
        assert_eq!(
            s,
            r#"[1, 2.5, True, None, "it's", 'a"b\'c', '\x01\xa0\u2028é', {'k': [1e+16]}]"#
        );
    }
}
