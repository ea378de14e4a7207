//! Go's shortest `'g'` float text (`strconv.FormatFloat(x, 'g', -1, 64|32)`,
//! §7.2 of the spec), byte for byte. Rust's `Display` differs and must not
//! be used.

use alloc::string::String;

/// Shortest round-trip digits of a finite float: `0.d1…dn × 10^dp`.
struct Decimal {
    digits: [u8; 32],
    len: usize,
    dp: i32,
}

/// Splits `ryu`'s text (`1.5e-7`, `0.0001`, `123.0`) into digits and the
/// decimal point position.
fn decimal(text: &str) -> Decimal {
    let text = text.trim_start_matches('-');
    let (mantissa, exp) = match text.split_once('e') {
        Some((m, e)) => (m, e.parse::<i32>().unwrap_or(0)),
        None => (text, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut d = Decimal {
        digits: [0; 32],
        len: 0,
        dp: i32::try_from(int.len()).unwrap_or(0) + exp,
    };
    let mut leading = true;
    for b in int.bytes().chain(frac.bytes()) {
        if leading && b == b'0' {
            d.dp -= 1;
            continue;
        }
        leading = false;
        if let Some(slot) = d.digits.get_mut(d.len) {
            *slot = b;
            d.len += 1;
        }
    }
    while d.len > 0 && d.digits.get(d.len - 1) == Some(&b'0') {
        d.len -= 1;
    }
    d
}

fn layout(negative: bool, d: &Decimal, out: &mut String) {
    let digits = d.digits.get(..d.len).unwrap_or_default();
    if negative {
        out.push('-');
    }
    if digits.is_empty() {
        out.push('0');
        return;
    }
    let push_digits = |out: &mut String, ds: &[u8]| out.extend(ds.iter().map(|&b| char::from(b)));
    let x = d.dp - 1;
    if !(-4..6).contains(&x) {
        // Scientific: d1[.d2…dn]e±XX (at least two exponent digits).
        let (first, rest) = digits.split_at(1);
        push_digits(out, first);
        if !rest.is_empty() {
            out.push('.');
            push_digits(out, rest);
        }
        out.push('e');
        out.push(if x < 0 { '-' } else { '+' });
        let abs = x.unsigned_abs();
        if abs < 10 {
            out.push('0');
        }
        use core::fmt::Write;
        let _ = write!(out, "{abs}");
    } else {
        // The sign is already written.
        layout_fixed(false, d, out);
    }
}

/// Appends Go's `FormatFloat(x, 'g', -1, 64)` text.
///
/// ```
/// let mut s = String::new();
/// gcx_wire::encode::go_g64(1234567.0, &mut s);
/// assert_eq!(s, "1.234567e+06");
/// ```
pub fn go_g64(x: f64, out: &mut String) {
    if !special(x, out) {
        let mut buf = ryu::Buffer::new();
        layout(x.is_sign_negative(), &decimal(buf.format_finite(x)), out);
    }
}

/// Appends Go's `FormatFloat(x, 'g', -1, 32)` text (shortest digits that
/// round-trip at 32 bits).
///
/// ```
/// let mut s = String::new();
/// gcx_wire::encode::go_g32(16777216.0, &mut s);
/// assert_eq!(s, "1.6777216e+07");
/// ```
pub fn go_g32(x: f32, out: &mut String) {
    if !special(f64::from(x), out) {
        let mut buf = ryu::Buffer::new();
        layout(x.is_sign_negative(), &decimal(buf.format_finite(x)), out);
    }
}

/// `NaN`, `+Inf`, `-Inf`; `false` for a finite value.
fn special(x: f64, out: &mut String) -> bool {
    let text = if x.is_nan() {
        "NaN"
    } else if x == f64::INFINITY {
        "+Inf"
    } else if x == f64::NEG_INFINITY {
        "-Inf"
    } else {
        return false;
    };
    out.push_str(text);
    true
}

/// Appends Go `encoding/json`'s float text (§7.4): shortest digits, fixed
/// notation for `1e-6 <= |x| < 1e21` (and zero), otherwise scientific with
/// an exponent without leading zeros. `false` (nothing written) for NaN
/// and infinities, which JSON cannot carry.
///
/// ```
/// let mut s = String::new();
/// assert!(gcx_wire::encode::go_json_float(1e-7, &mut s));
/// s.push(' ');
/// assert!(gcx_wire::encode::go_json_float(1234567.0, &mut s));
/// assert_eq!(s, "1e-7 1234567");
/// ```
pub fn go_json_float(x: f64, out: &mut String) -> bool {
    if !x.is_finite() {
        return false;
    }
    let mut buf = ryu::Buffer::new();
    json_layout(x, &decimal(buf.format_finite(x)), out);
    true
}

/// [`go_json_float`] for `f32` values (shortest digits at 32 bits).
///
/// ```
/// let mut s = String::new();
/// assert!(gcx_wire::encode::go_json_float32(0.1, &mut s));
/// assert_eq!(s, "0.1");
/// ```
pub fn go_json_float32(x: f32, out: &mut String) -> bool {
    if !x.is_finite() {
        return false;
    }
    let mut buf = ryu::Buffer::new();
    json_layout(f64::from(x), &decimal(buf.format_finite(x)), out);
    true
}

fn json_layout(x: f64, d: &Decimal, out: &mut String) {
    let abs = x.abs();
    if abs == 0.0 || (1e-6..1e21).contains(&abs) {
        // Fixed: the 'g' layout's fixed branch, for every exponent.
        layout_fixed(x.is_sign_negative(), d, out);
        return;
    }
    let digits = d.digits.get(..d.len).unwrap_or_default();
    if x.is_sign_negative() {
        out.push('-');
    }
    let (first, rest) = digits.split_at(1.min(digits.len()));
    out.extend(first.iter().map(|&b| char::from(b)));
    if !rest.is_empty() {
        out.push('.');
        out.extend(rest.iter().map(|&b| char::from(b)));
    }
    let x = d.dp - 1;
    out.push('e');
    out.push(if x < 0 { '-' } else { '+' });
    use core::fmt::Write;
    let _ = write!(out, "{}", x.unsigned_abs());
}

fn layout_fixed(negative: bool, d: &Decimal, out: &mut String) {
    let digits = d.digits.get(..d.len).unwrap_or_default();
    if negative {
        out.push('-');
    }
    let push = |out: &mut String, ds: &[u8]| out.extend(ds.iter().map(|&b| char::from(b)));
    if digits.is_empty() {
        out.push('0');
    } else if d.dp <= 0 {
        out.push_str("0.");
        for _ in 0..-d.dp {
            out.push('0');
        }
        push(out, digits);
    } else {
        let dp = usize::try_from(d.dp).unwrap_or(0);
        if dp >= digits.len() {
            push(out, digits);
            for _ in digits.len()..dp {
                out.push('0');
            }
        } else {
            let (int, frac) = digits.split_at(dp);
            push(out, int);
            out.push('.');
            push(out, frac);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(x: f64) -> String {
        let mut s = String::new();
        go_g64(x, &mut s);
        s
    }

    #[test]
    fn go_examples() {
        for (x, want) in [
            (0.1, "0.1"),
            (1.0, "1"),
            (0.95, "0.95"),
            (87.4, "87.4"),
            (123456.0, "123456"),
            (1234567.0, "1.234567e+06"),
            (1e20, "1e+20"),
            (1e21, "1e+21"),
            (0.0001, "0.0001"),
            (1e-5, "1e-05"),
            (1e-7, "1e-07"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (0.0, "0"),
            (-0.0, "-0"),
            (-2.5, "-2.5"),
            (100.0, "100"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-Inf"),
        ] {
            assert_eq!(g(x), want, "{x:e}");
        }
        let mut s = String::new();
        go_g32(0.1, &mut s);
        assert_eq!(s, "0.1");
    }

    #[test]
    fn encoding_json_float_text() {
        for (x, want) in [
            (1234567.0, "1234567"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (0.000001, "0.000001"),
            (1e-7, "1e-7"),
            (0.0, "0"),
            (-0.0, "-0"),
            (-1.5e300, "-1.5e+300"),
        ] {
            let mut s = String::new();
            assert!(go_json_float(x, &mut s));
            assert_eq!(s, want, "{x:e}");
        }
        assert!(!go_json_float(f64::NAN, &mut String::new()));
    }

    #[test]
    fn output_round_trips() {
        let mut bits = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            bits ^= bits << 13;
            bits ^= bits >> 7;
            bits ^= bits << 17;
            let x = f64::from_bits(bits);
            if x.is_finite() {
                assert_eq!(g(x).parse::<f64>().unwrap(), x, "{}", g(x));
            }
            let y = f32::from_bits(bits as u32);
            if y.is_finite() {
                let mut s = String::new();
                go_g32(y, &mut s);
                assert_eq!(s.parse::<f32>().unwrap(), y, "{s}");
            }
        }
    }
}
