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
        Value::Number(n) => number_kind(n),
        Value::String(s) => Kind::Str(s),
        Value::Array(a) => Kind::List(a),
        // (Only a one-member dict can be a sentinel.)
        Value::Object(m) if m.len() == 1 => match sentinel_float(m) {
            Some(f) => Kind::Float(f),
            None => Kind::Dict(m),
        },
        Value::Object(m) => Kind::Dict(m),
    }
}

/// Python's type of a number: a float (its text has `.`, `e` or `E`) or
/// an int.
#[inline]
pub(crate) fn number_kind(n: &Number) -> Kind<'_> {
    match number_float(n) {
        Some(f) => Kind::Float(f),
        None => Kind::Int(n),
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

/// The member `key` of `map`: a map of up to [`SCANNED_MEMBERS`] members
/// is scanned (its keys compared by length first) instead of hashing the
/// key, which costs more than a few compares.
pub(crate) fn member<'v>(map: &'v serde_json::Map<String, Value>, key: &str) -> Option<&'v Value> {
    if map.len() <= SCANNED_MEMBERS {
        let found = map
            .iter()
            .find(|(k, _)| same_bytes(k.as_bytes(), key.as_bytes()));
        found.map(|(_, v)| v)
    } else {
        map.get(key)
    }
}

/// The most members [`member`] scans.
pub(crate) const SCANNED_MEMBERS: usize = 32;

/// Where `key` first is among the keys of `items` (`key_of` each,
/// compared by length first). A few keys are scanned faster than a tree
/// or a hash finds one; the lists that use it keep an index past
/// [`SCANNED_KEYS`] keys.
#[inline]
pub(crate) fn key_position<T>(
    items: &[T],
    key_of: impl Fn(&T) -> &str,
    key: &str,
) -> Option<usize> {
    let key = key.as_bytes();
    items
        .iter()
        .position(|item| same_bytes(key_of(item).as_bytes(), key))
}

/// The most keys a list searches with [`key_position`] before it keeps
/// an index of them.
pub(crate) const SCANNED_KEYS: usize = 32;

/// Byte equality without a library call for short strings (keys, cells).
/// Up to 64 bytes it is overlapping eight-byte loads and no loop (two per
/// side up to 16 bytes, four up to 32, eight up to 64), so the branches
/// depend on the length class only (keys and cells of a row differ in
/// length, and a loop's exit mispredicts).
#[inline(always)]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n >= 8 {
        let d = |at: usize| diff::<8>(a, b, at);
        if n > 16 {
            if n > 64 {
                return a == b;
            }
            // The first and the last 16 (or 32) bytes, overlapping.
            let mut x = d(0) | d(8) | d(n - 16) | d(n - 8);
            if n > 32 {
                x |= d(16) | d(24) | d(n - 32) | d(n - 24);
            }
            return x == 0;
        }
        return d(0) | d(n - 8) == 0;
    }
    if n >= 4 {
        return diff::<4>(a, b, 0) | diff::<4>(a, b, n - 4) == 0;
    }
    if n == 0 {
        return true;
    }
    // One to three bytes: the first, middle and last cover them all.
    let d = |k: usize| a.get(k).zip(b.get(k)).map_or(u8::MAX, |(x, y)| x ^ y);
    d(0) | d(n / 2) | d(n - 1) == 0
}

/// The bits in which the `N` bytes (at most eight) of `a` and `b` at `at`
/// differ; all ones where either has fewer.
#[inline(always)]
fn diff<const N: usize>(a: &[u8], b: &[u8], at: usize) -> u64 {
    let word = |s: &[u8]| {
        let w = <[u8; N]>::try_from(s.get(at..at + N)?).ok()?;
        let mut full = [0u8; 8];
        full.get_mut(..N)?.copy_from_slice(&w);
        Some(u64::from_le_bytes(full))
    };
    match (word(a), word(b)) {
        (Some(x), Some(y)) => x ^ y,
        _ => u64::MAX,
    }
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
pub(crate) fn push_u64(v: u64, out: &mut String) {
    // Most ints written are line numbers and legend handles: below 10,000
    // they are written digit by digit with no loop.
    if v < 10_000 {
        let v = v as u32;
        let digit = |d: u32| char::from(b'0' + (d % 10) as u8);
        if v >= 1000 {
            out.push(digit(v / 1000));
        }
        if v >= 100 {
            out.push(digit(v / 100));
        }
        if v >= 10 {
            out.push(digit(v / 10));
        }
        out.push(digit(v));
        return;
    }
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut v = v;
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
    // ASCII digits: pushed as chars, with no UTF-8 check of the buffer.
    out.extend(
        buf.get(i..)
            .unwrap_or_default()
            .iter()
            .map(|&d| char::from(d)),
    );
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

#[cfg(test)]
mod tests {
    use super::{SCANNED_MEMBERS, member, push_u64, same_bytes};
    use alloc::string::String;
    use alloc::vec::Vec;

    /// `member` finds what `Map::get` finds, scanned or hashed: maps of 0
    /// to twice the scanned size, every key and some absent ones.
    #[test]
    fn member_is_get() {
        for n in 0..=2 * SCANNED_MEMBERS {
            let map: serde_json::Map<String, serde_json::Value> = (0..n)
                .map(|i| {
                    (
                        alloc::format!("key{}", "x".repeat(i % 3)) + &i.to_string(),
                        i.into(),
                    )
                })
                .collect();
            for k in map
                .keys()
                .map(String::as_str)
                .chain(["", "key", "key0x", "absent"])
            {
                assert_eq!(member(&map, k), map.get(k), "{n} {k}");
            }
        }
    }

    /// Digits as `to_string` writes them, around every length change.
    #[test]
    fn push_u64_writes_decimal_digits() {
        let mut values: Vec<u64> = (0..=20_000).collect();
        values.extend([99_999, 100_000, u64::from(u32::MAX), u64::MAX - 1, u64::MAX]);
        for v in values {
            let mut out = String::from("x");
            push_u64(v, &mut out);
            assert_eq!(out, alloc::format!("x{v}"));
        }
    }

    /// Every length up to 80 (each path of `same_bytes`), a difference at
    /// every place, and lengths that differ.
    #[test]
    fn same_bytes_is_slice_equality() {
        let base: alloc::vec::Vec<u8> = (0..80u8).map(|i| i.wrapping_mul(37)).collect();
        for n in 0..=80 {
            let a = base.get(..n).unwrap_or_default();
            assert!(same_bytes(a, a), "{n}");
            for at in 0..n {
                let mut b = a.to_vec();
                if let Some(x) = b.get_mut(at) {
                    *x ^= 0x80;
                }
                assert!(!same_bytes(a, &b), "{n} {at}");
                assert!(!same_bytes(&b, a), "{n} {at}");
            }
            if n > 0 {
                assert!(!same_bytes(a, base.get(..n - 1).unwrap_or_default()), "{n}");
            }
        }
    }
}
