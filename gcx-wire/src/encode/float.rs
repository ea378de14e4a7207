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
    } else if d.dp <= 0 {
        out.push_str("0.");
        for _ in 0..-d.dp {
            out.push('0');
        }
        push_digits(out, digits);
    } else {
        let dp = usize::try_from(d.dp).unwrap_or(0);
        if dp >= digits.len() {
            push_digits(out, digits);
            for _ in digits.len()..dp {
                out.push('0');
            }
        } else {
            let (int, frac) = digits.split_at(dp);
            push_digits(out, int);
            out.push('.');
            push_digits(out, frac);
        }
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
    if x.is_nan() {
        out.push_str("NaN");
    } else if x.is_infinite() {
        out.push_str(if x > 0.0 { "+Inf" } else { "-Inf" });
    } else {
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
    if x.is_nan() {
        out.push_str("NaN");
    } else if x.is_infinite() {
        out.push_str(if x > 0.0 { "+Inf" } else { "-Inf" });
    } else {
        let mut buf = ryu::Buffer::new();
        layout(x.is_sign_negative(), &decimal(buf.format_finite(x)), out);
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
