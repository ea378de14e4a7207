//! How a `serde_json::Value` is seen with Python's eyes: ints and floats
//! by number text (spec D5), the `{"$float": …}` sentinel as a float.

use alloc::string::String;
use core::fmt::Write;
use core::sync::atomic::{AtomicU8, Ordering};
use serde_json::{Map, Number, Value};

use crate::py::number::sentinel_float;

/// A JSON value sorted into Python's types.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind<'a> {
    Null,
    Bool(bool),
    Int(&'a Number),
    Float(f64),
    Str(&'a str),
    List(&'a [Value]),
    Dict(&'a Map<String, Value>),
}

/// Python's type of `v`.
#[inline]
pub(crate) fn kind(v: &Value) -> Kind<'_> {
    match v {
        Value::Null => Kind::Null,
        Value::Bool(b) => Kind::Bool(*b),
        Value::Number(n) => match number_float(n) {
            Some(f) => Kind::Float(f),
            None => Kind::Int(n),
        },
        Value::String(s) => Kind::Str(s),
        Value::Array(a) => Kind::List(a),
        Value::Object(m) => match sentinel_float(m) {
            Some(f) => Kind::Float(f),
            None => Kind::Dict(m),
        },
    }
}

/// The f64 of a number that Python reads as a float (its text has `.`,
/// `e` or `E`); `None` for an int. Works whether or not serde_json's
/// `arbitrary_precision` is on (another crate may turn it on).
pub(crate) fn number_float(n: &Number) -> Option<f64> {
    if n.is_u64() || n.is_i64() {
        return None;
    }
    if !arbitrary_precision() {
        return n.as_f64();
    }
    number_text_float(n)
}

/// [`number_float`] under `arbitrary_precision`: a big int, or a float
/// whose text may not be finite (`1e400`).
#[cold]
fn number_text_float(n: &Number) -> Option<f64> {
    let mut text = String::new();
    let _ = write!(text, "{n}");
    if text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
        Some(text.parse::<f64>().unwrap_or(f64::NAN))
    } else {
        None
    }
}

/// Whether serde_json keeps number text (its `arbitrary_precision`).
pub(crate) fn arbitrary_precision() -> bool {
    match KNOWN_PRECISION.load(Ordering::Relaxed) {
        1 => false,
        2 => true,
        _ => detect_arbitrary_precision(),
    }
}

/// What [`arbitrary_precision`] found: 0 not yet looked, 1 off, 2 on.
static KNOWN_PRECISION: AtomicU8 = AtomicU8::new(0);

/// Looks once: without the feature a u64-overflowing integer parses as a
/// float.
#[cold]
fn detect_arbitrary_precision() -> bool {
    let ap = serde_json::from_str::<Number>("18446744073709551616").is_ok_and(|n| !n.is_f64());
    KNOWN_PRECISION.store(if ap { 2 } else { 1 }, Ordering::Relaxed);
    ap
}

/// Byte equality without a library call for short strings (keys, cells):
/// eight bytes at a time, inline.
#[inline(always)]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    if a.len() > 64 {
        return a == b;
    }
    let mut x = a.chunks_exact(8);
    let mut y = b.chunks_exact(8);
    for (p, q) in (&mut x).zip(&mut y) {
        if p != q {
            return false;
        }
    }
    x.remainder().iter().zip(y.remainder()).all(|(p, q)| p == q)
}

/// Appends the canonical decimal text of an int number.
pub(crate) fn write_int(n: &Number, out: &mut String) {
    if let Some(v) = n.as_u64() {
        push_u64(v, out);
    } else if let Some(v) = n.as_i64() {
        out.push('-');
        push_u64(v.unsigned_abs(), out);
    } else {
        write_big_int(n, out);
    }
}

/// Appends the decimal digits of `v` (no formatter machinery).
pub(crate) fn push_u64(mut v: u64, out: &mut String) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        if let Some(slot) = buf.get_mut(i) {
            *slot = b'0' + (v % 10) as u8;
        }
        v /= 10;
        if v == 0 || i == 0 {
            break;
        }
    }
    out.push_str(core::str::from_utf8(buf.get(i..).unwrap_or_default()).unwrap_or_default());
}

fn write_big_int(n: &Number, out: &mut String) {
    let _ = write!(out, "{n}");
}

/// Whether two ints are equal by value.
pub(crate) fn int_eq(a: &Number, b: &Number) -> bool {
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        return x == y;
    }
    if let (Some(x), Some(y)) = (a.as_u64(), b.as_u64()) {
        return x == y;
    }
    let mut x = String::new();
    let mut y = String::new();
    write_int(a, &mut x);
    write_int(b, &mut y);
    x == y
}
