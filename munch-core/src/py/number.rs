//! Python `int(s)` and `float(s)` over text, and the values they give.

use alloc::string::String;
use serde_json::{Map, Number, Value};

use crate::unicode::{decimal_value, is_space};

/// CPython's default limit on the digits of an `int` parsed from text.
pub(crate) const MAX_INT_DIGITS: usize = 4300;

/// The key of the non-finite float sentinel object (spec D5).
pub(crate) const FLOAT_KEY: &str = "$float";

/// The whitespace Python's `int()` and `float()` strip: ASCII space, TAB,
/// LF, VT, FF and CR, and every non-ASCII W character. The ASCII
/// separators U+001C–U+001F are W for `str.split` but not here: CPython
/// passes ASCII through unchanged and strips it with `Py_ISSPACE`.
fn number_space(c: char) -> bool {
    matches!(c, '\t'..='\r' | ' ') || (!c.is_ascii() && is_space(c))
}

/// `s` without the whitespace `int()`/`float()` strip at either end.
fn strip_number_space(s: &str) -> &str {
    s.trim_matches(number_space)
}

/// Python `int(s)` in base 10: whitespace stripped (`number_space`), optional sign, decimal digits
/// of any script with single `_` between digits, at most 4,300 digits.
/// Returns the value, or `None` where Python raises.
pub(crate) fn parse_int(s: &str) -> Option<Value> {
    if let Some(v) = plain_int(s) {
        return Some(Value::from(v));
    }
    int_text(s).map(|t| int_from_canonical(&t))
}

/// [`parse_int`]'s fast path: plain ASCII digits with an optional `-`
/// (what encoders write), at most 18 of them; `None` for anything else
/// (which may still be an int).
#[inline]
pub(crate) fn plain_int(s: &str) -> Option<i64> {
    let bytes = s.as_bytes();
    let digits = bytes.strip_prefix(b"-").unwrap_or(bytes);
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut v: i64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        v = v * 10 + i64::from(d - b'0');
    }
    Some(if digits.len() < bytes.len() { -v } else { v })
}

/// The canonical text (optional `-`, no leading zeros, never `-0`) of
/// Python `int(s)`; `None` where Python raises.
pub(crate) fn int_text(s: &str) -> Option<String> {
    let s = strip_number_space(s);
    let (negative, body) = match s.as_bytes().first() {
        Some(b'-') => (true, s.get(1..)?),
        Some(b'+') => (false, s.get(1..)?),
        _ => (false, s),
    };
    let ascii = ascii_number(body, false)?;
    let count = ascii.len();
    if count > MAX_INT_DIGITS {
        return None;
    }
    let mut digits = String::with_capacity(count + 1);
    if negative {
        digits.push('-');
    }
    // Leading zeros are dropped (the text becomes canonical).
    digits.push_str(ascii.trim_start_matches('0'));
    if count == 0 {
        return None;
    }
    if digits.len() == usize::from(negative) {
        digits.clear();
        digits.push('0');
    }
    Some(digits)
}

/// A JSON number value from canonical integer text (optional `-`, no
/// leading zeros, not `-0`).
pub(crate) fn int_from_canonical(text: &str) -> Value {
    if let Ok(v) = text.parse::<u64>() {
        return Value::from(v);
    }
    if let Ok(v) = text.parse::<i64>() {
        return Value::from(v);
    }
    big_int(text)
}

/// An integer beyond i64/u64: exact when serde_json keeps number text
/// (`arbitrary_precision`), else the nearest f64 (spec D5).
fn big_int(text: &str) -> Value {
    match serde_json::from_str::<Number>(text) {
        Ok(n) => Value::Number(n),
        Err(_) => float_value(text.parse::<f64>().unwrap_or(f64::NAN)),
    }
}

/// Number text as Python reads it: decimal digits of any script become
/// ASCII digits, a `_` is dropped when it stands between two digits (and
/// fails anywhere else). Other characters fail, or pass through when
/// `other_ascii` and they are ASCII (signs, points, exponents, letters).
fn ascii_number(s: &str, other_ascii: bool) -> Option<String> {
    let mut ascii = String::with_capacity(s.len());
    let mut prev_digit = false;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '_' {
            let next_digit = chars.peek().is_some_and(|&n| decimal_value(n).is_some());
            if !prev_digit || !next_digit {
                return None;
            }
            prev_digit = false;
            continue;
        }
        if let Some(d) = decimal_value(c) {
            ascii.push(char::from(b'0' + d as u8));
            prev_digit = true;
        } else if other_ascii && c.is_ascii() {
            ascii.push(c);
            prev_digit = false;
        } else {
            return None;
        }
    }
    Some(ascii)
}

/// Python `float(s)`: whitespace stripped (`number_space`), decimal digits of any script, `_`
/// between digits, `inf`/`infinity`/`nan` in any case, correctly rounded.
pub(crate) fn parse_float(s: &str) -> Option<f64> {
    // Fast path: a plain ASCII decimal (what encoders write). Every text
    // Rust's `f64` grammar accepts Python's `float` accepts too, with the
    // same value (both round correctly); Python accepts more (whitespace,
    // `_`, other scripts' digits), read below. So Rust's answer is taken
    // as it is when it is a finite number; words (`inf`, `nan`) and
    // overflows are left to the Python reading.
    if s.as_bytes()
        .first()
        .is_some_and(|b| b.is_ascii_digit() || *b == b'-' || *b == b'.')
    {
        if let Some(x) = s.parse::<f64>().ok().filter(|x| x.is_finite()) {
            return Some(x);
        }
    }
    python_float(s)
}

/// [`parse_float`] for what Rust's grammar rejects.
fn python_float(s: &str) -> Option<f64> {
    let ascii = ascii_number(strip_number_space(s), true)?;
    let (negative, body) = match ascii.as_bytes().first() {
        Some(b'-') => (true, ascii.get(1..)?),
        Some(b'+') => (false, ascii.get(1..)?),
        _ => (false, ascii.as_str()),
    };
    let special = if body.eq_ignore_ascii_case("inf") || body.eq_ignore_ascii_case("infinity") {
        Some(f64::INFINITY)
    } else if body.eq_ignore_ascii_case("nan") {
        Some(f64::NAN)
    } else {
        None
    };
    let magnitude = match special {
        Some(v) => v,
        None => {
            // Rust's grammar is Python's minus the words handled above; a
            // second sign or anything else fails in both.
            if !body
                .bytes()
                .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
            {
                return None;
            }
            if matches!(body.as_bytes().first(), Some(b'+' | b'-')) {
                return None;
            }
            body.parse::<f64>().ok()?
        }
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// A float as a value: a JSON number, or the `{"$float": …}` sentinel for
/// NaN and the infinities.
pub(crate) fn float_value(x: f64) -> Value {
    if let Some(n) = Number::from_f64(x) {
        return Value::Number(n);
    }
    let name = if x.is_nan() {
        "nan"
    } else if x > 0.0 {
        "inf"
    } else {
        "-inf"
    };
    let mut map = Map::new();
    map.insert(FLOAT_KEY.into(), Value::from(name));
    Value::Object(map)
}

/// The f64 of a sentinel object, if `map` is exactly one.
pub(crate) fn sentinel_float(map: &Map<String, Value>) -> Option<f64> {
    // The one member, compared by its key (not looked up by hashing it).
    let mut members = map.iter();
    let (Some((key, value)), None) = (members.next(), members.next()) else {
        return None;
    };
    if key != FLOAT_KEY {
        return None;
    }
    match value.as_str()? {
        "nan" => Some(f64::NAN),
        "inf" => Some(f64::INFINITY),
        "-inf" => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints_like_python() {
        assert_eq!(parse_int(" 0012 "), Some(Value::from(12)));
        assert_eq!(parse_int("-1_000"), Some(Value::from(-1000)));
        assert_eq!(parse_int("-0"), Some(Value::from(0)));
        assert_eq!(parse_int("٣"), Some(Value::from(3)));
        for bad in ["", "+", "1__0", "_1", "1_", "1.0", "²", "12a", "0x1"] {
            assert_eq!(parse_int(bad), None, "{bad}");
        }
        // U+001C–U+001F are W for `str.split`, not for `int()`.
        assert_eq!(parse_int("\u{85}12\u{a0}\u{2028}"), Some(Value::from(12)));
        assert_eq!(parse_int("\x0b12\x0c"), Some(Value::from(12)));
        for bad in ["\x1f12", "12\x1c", "\n\n12\x1f\u{2028}", "12\x7f"] {
            assert_eq!(parse_int(bad), None, "{bad:?}");
        }
        let long = "1".repeat(4301);
        assert_eq!(parse_int(&long), None);
    }

    #[test]
    fn floats_like_python() {
        assert_eq!(parse_float("1e+05"), Some(1e5));
        assert_eq!(parse_float(".5"), Some(0.5));
        assert_eq!(parse_float("5."), Some(5.0));
        assert_eq!(parse_float(" -Infinity\n"), Some(f64::NEG_INFINITY));
        assert!(parse_float("nan").is_some_and(f64::is_nan));
        assert_eq!(parse_float("1_0.2_5"), Some(10.25));
        assert_eq!(parse_float("1e400"), Some(f64::INFINITY));
        for bad in [
            "", "e5", "1e", ".", "--1", "+-1", "1_.5", "inf1", "0x10", "1,5", "\n0\x1f", "\x1e1.5",
        ] {
            assert_eq!(parse_float(bad), None, "{bad}");
        }
    }

    /// The fast path is only a shortcut: on every short text of the
    /// characters a float is made of, Rust's grammar accepts only what
    /// the Python reading accepts, with the same bits.
    #[test]
    fn rust_grammar_is_within_python_float() {
        let alphabet = b"09.eE+-naifty_ ";
        let mut texts = alloc::vec![String::new()];
        let mut accepted = 0;
        for _ in 0..5 {
            let mut longer = Vec::new();
            for t in &texts {
                for &c in alphabet {
                    let mut u = t.clone();
                    u.push(char::from(c));
                    if let Ok(x) = u.parse::<f64>() {
                        accepted += 1;
                        let y = python_float(&u).map(f64::to_bits);
                        assert_eq!(y, Some(x.to_bits()), "{u:?}");
                    }
                    longer.push(u);
                }
            }
            texts = longer;
        }
        assert!(accepted > 500, "{accepted}");
        for long in [
            "-InFiNiTy",
            "+nan",
            "-NAN",
            "4.9e-324",
            "1e-400",
            "-1e400",
            "2.2250738585072011e-308",
            "123456789012345678901234567890.5e-10",
            "0.7953861584754263",
        ] {
            let x = long.parse::<f64>().map(f64::to_bits).ok();
            assert_eq!(python_float(long).map(f64::to_bits), x, "{long}");
        }
    }
}
