//! Python `repr(float)`: the shortest digits that round-trip, fixed
//! notation for exponents −4 to 15, `d[.ddd]e±XX` otherwise.

use alloc::string::String;
use core::fmt::Write;

/// The shortest round-trip digits of a positive finite `x` (no leading
/// or trailing zeros), their count, and the decimal exponent of the first
/// digit. ryu writes them in one of its forms (`1.5E-5`, `123.45`, `1E16`,
/// `0.001`); this reads any of them back into digits and an exponent.
fn shortest_digits(x: f64) -> ([u8; 20], usize, i32) {
    let mut buf = ryu::Buffer::new();
    let text = buf.format_finite(x).as_bytes();
    let e_at = text
        .iter()
        .position(|&b| b == b'e' || b == b'E')
        .unwrap_or(text.len());
    let mantissa = text.get(..e_at).unwrap_or_default();
    let mut exp = parse_exp(text.get(e_at + 1..).unwrap_or_default());
    let mut digits = [0u8; 20];
    let mut n = 0;
    // Digits before the point shift the exponent; leading zeros do not
    // count as digits.
    let mut before_point = 0i32;
    let mut seen_point = false;
    let mut leading_zeros_after_point = 0i32;
    for &b in mantissa {
        if b == b'.' {
            seen_point = true;
            continue;
        }
        if n == 0 && b == b'0' {
            if seen_point {
                leading_zeros_after_point += 1;
            }
            continue;
        }
        if !seen_point {
            before_point += 1;
        }
        if let Some(slot) = digits.get_mut(n) {
            *slot = b;
            n += 1;
        }
    }
    exp += if before_point > 0 {
        before_point - 1
    } else {
        -(leading_zeros_after_point + 1)
    };
    while n > 1 && digits.get(n - 1) == Some(&b'0') {
        n -= 1;
    }
    (digits, n, exp)
}

/// ryu's exponent text (`-5`, `16`; empty for none) as a number.
fn parse_exp(text: &[u8]) -> i32 {
    let (neg, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    let v = digits
        .iter()
        .fold(0i32, |v, &d| v * 10 + i32::from(d.wrapping_sub(b'0') % 10));
    if neg { -v } else { v }
}

/// The byte length of [`write_float_repr`]'s text of a finite `x`,
/// without writing it.
pub(crate) fn float_repr_len(x: f64) -> usize {
    let mut buf = ryu::Buffer::new();
    let text = buf.format_finite(x);
    if ryu_text_is_repr(text) {
        return text.len();
    }
    let sign = usize::from(x.is_sign_negative());
    if x == 0.0 {
        return sign + 3;
    }
    let (_, n, exp) = shortest_digits(x.abs());
    sign + if (-4..=15).contains(&exp) {
        if exp >= 0 {
            let int_len = exp as usize + 1;
            if n <= int_len { int_len + 2 } else { n + 1 }
        } else {
            2 + (-exp - 1) as usize + n
        }
    } else {
        let a = exp.unsigned_abs();
        let exp_digits = if a < 100 { 2 } else { 3 };
        1 + if n > 1 { n } else { 0 } + 2 + exp_digits
    }
}

/// Appends Python's `repr` of `x` (`nan`, `inf`, `-inf` for non-finite
/// values).
pub(crate) fn write_float_repr(x: f64, out: &mut String) {
    if x.is_nan() {
        out.push_str("nan");
        return;
    }
    if x.is_infinite() {
        out.push_str(if x > 0.0 { "inf" } else { "-inf" });
        return;
    }
    let mut buf = ryu::Buffer::new();
    let text = buf.format_finite(x);
    // From 1e-4 up to 1e16 both write fixed notation (and zero as `0.0`),
    // so ryu's text is the `repr` without looking at it.
    if x == 0.0 || (1e-4..1e16).contains(&x.abs()) || ryu_text_is_repr(text) {
        out.push_str(text);
        return;
    }
    write_from_digits(x, out);
}

/// Whether ryu's text of a finite value is Python's `repr` as it is: ryu
/// writes fixed notation for decimal exponents −5 to 15 with the same
/// shortest digits (and `.0` after integers, a `-` sign, `0.0`), Python
/// for −4 to 15; so any fixed text but `0.0000…` (exponent −5).
fn ryu_text_is_repr(text: &str) -> bool {
    let b = text.as_bytes();
    let magnitude = b.strip_prefix(b"-").unwrap_or(b);
    !magnitude.starts_with(b"0.0000") && !b.iter().any(|&c| c == b'e' || c == b'E')
}

/// [`write_float_repr`] of a finite `x` built from its shortest digits.
fn write_from_digits(x: f64, out: &mut String) {
    if x.is_sign_negative() {
        out.push('-');
    }
    if x == 0.0 {
        out.push_str("0.0");
        return;
    }
    let (digits, n, exp) = shortest_digits(x.abs());
    let digits = digits.get(..n).unwrap_or_default();
    // The digits are ASCII.
    let push = |out: &mut String, bytes: &[u8]| {
        out.push_str(core::str::from_utf8(bytes).unwrap_or_default());
    };
    if (-4..=15).contains(&exp) {
        if exp >= 0 {
            let int_len = exp as usize + 1;
            if n <= int_len {
                push(out, digits);
                out.extend(core::iter::repeat_n('0', int_len - n));
                out.push_str(".0");
            } else {
                push(out, digits.get(..int_len).unwrap_or_default());
                out.push('.');
                push(out, digits.get(int_len..).unwrap_or_default());
            }
        } else {
            out.push_str("0.");
            out.extend(core::iter::repeat_n('0', (-exp - 1) as usize));
            push(out, digits);
        }
    } else {
        push(out, digits.get(..1).unwrap_or_default());
        if n > 1 {
            out.push('.');
            push(out, digits.get(1..).unwrap_or_default());
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        let a = exp.unsigned_abs();
        if a < 10 {
            out.push('0');
        }
        let _ = write!(out, "{a}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repr(x: f64) -> String {
        let mut s = String::new();
        write_float_repr(x, &mut s);
        s
    }

    #[test]
    fn random_values_round_trip() {
        let mut x: u64 = 0x1234_5678_9abc_def1;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let f = f64::from_bits(x);
            if !f.is_finite() {
                continue;
            }
            let text = repr(f);
            assert_eq!(
                text.parse::<f64>().unwrap().to_bits(),
                f.to_bits(),
                "{text}"
            );
            // As short as Rust's shortest `{:e}` (which rounds exact ties
            // away from even, where Python and ryu round to even).
            let (_, n, e) = shortest_digits(f.abs());
            let want = alloc::format!("{:e}", f.abs());
            let (m, we) = want.split_once('e').unwrap();
            let wn = m.chars().filter(char::is_ascii_digit).count();
            assert_eq!((n, e), (wn, we.parse().unwrap()), "{f:e}");
        }
    }

    #[test]
    fn ryu_fast_path_is_the_repr_built_from_digits() {
        let fixed = [
            0.0,
            -0.0,
            1e15,
            1e16,
            1e-4,
            1e-5,
            5e-5,
            9.99e-5,
            0.5,
            -123.25,
            1234567890123456.7,
            // The neighbours of the range written without a look.
            f64::from_bits(1e-4f64.to_bits() - 1),
            f64::from_bits(1e-4f64.to_bits() + 1),
            f64::from_bits(1e16f64.to_bits() - 1),
            f64::from_bits(1e16f64.to_bits() + 1),
            -f64::from_bits(1e-4f64.to_bits() - 1),
            -f64::from_bits(1e16f64.to_bits() - 1),
        ];
        let check = |f: f64| {
            let mut built = String::new();
            write_from_digits(f, &mut built);
            assert_eq!(repr(f), built, "{f:e}");
        };
        fixed
            .into_iter()
            .chain(samples(0x05ee_d0ff_10a7))
            .for_each(check);
    }

    /// 20,000 finite values from a xorshift seed: raw bit patterns, and
    /// values of everyday sizes.
    fn samples(mut x: u64) -> impl Iterator<Item = f64> {
        (0..20_000)
            .map(move |i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if i % 2 == 0 {
                    f64::from_bits(x)
                } else {
                    (x % 1_000_000) as f64 / 997.0 * 10f64.powi((x >> 40) as i32 % 30 - 15)
                }
            })
            .filter(|f| f.is_finite())
    }

    #[test]
    fn counted_length_is_the_written_one() {
        let fixed = [
            0.0, -0.0, 1e15, 1e16, 1e-4, 1e-5, 5e-324, 1e100, 0.5, -123.25,
        ];
        for f in fixed.into_iter().chain(samples(0x0bad_cafe_1234_5678)) {
            assert_eq!(float_repr_len(f), repr(f).len(), "{f:e}");
        }
    }

    #[test]
    fn like_python() {
        let cases: &[(f64, &str)] = &[
            (0.0001, "0.0001"),
            (3.0, "3.0"),
            (1e15, "1000000000000000.0"),
            (-0.0, "-0.0"),
            (1e-5, "1e-05"),
            (1e16, "1e+16"),
            (5e-324, "5e-324"),
            (1.2345678901234568e17, "1.2345678901234568e+17"),
            (0.1, "0.1"),
            (14.3, "14.3"),
            (123456.789, "123456.789"),
            (1.5e300, "1.5e+300"),
            (f64::NAN, "nan"),
            (f64::NEG_INFINITY, "-inf"),
            (0.00012, "0.00012"),
            (1234567890123456.7, "1234567890123456.8"),
            (100.0, "100.0"),
            (0.5, "0.5"),
            (123e-7, "1.23e-05"),
            (5e-5, "5e-05"),
            (9.99e-5, "9.99e-05"),
            (1e22, "1e+22"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (2.5e-308, "2.5e-308"),
            (99999999999999.98, "99999999999999.98"),
            // An exact tie (…567.25): Python rounds the last digit to even.
            (-981_446_413_237_567.2, "-981446413237567.2"),
        ];
        for &(x, want) in cases {
            assert_eq!(repr(x), want);
        }
    }
}
