//! Python `repr(float)`: the shortest digits that round-trip, fixed
//! notation for exponents −4 to 15, `d[.ddd]e±XX` otherwise.

use alloc::string::String;
use core::fmt::Write;

/// A small stack buffer for `core::fmt` output.
struct Stack {
    buf: [u8; 40],
    len: usize,
}

impl Write for Stack {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let end = self.len + s.len();
        let dst = self.buf.get_mut(self.len..end).ok_or(core::fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
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
    if x.is_sign_negative() {
        out.push('-');
    }
    if x == 0.0 {
        out.push_str("0.0");
        return;
    }
    // `{:e}` prints the shortest round-trip digits as `d.ddde<exp>`.
    let mut s = Stack {
        buf: [0; 40],
        len: 0,
    };
    if write!(s, "{:e}", x.abs()).is_err() {
        return;
    }
    let text = s.buf.get(..s.len).unwrap_or_default();
    let e_at = text.iter().position(|&b| b == b'e').unwrap_or(text.len());
    let mantissa = text.get(..e_at).unwrap_or_default();
    let exp: i32 = core::str::from_utf8(text.get(e_at + 1..).unwrap_or_default())
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0);
    let mut digits = [0u8; 20];
    let mut n = 0;
    for &b in mantissa.iter().filter(|b| b.is_ascii_digit()) {
        if let Some(slot) = digits.get_mut(n) {
            *slot = b;
            n += 1;
        }
    }
    let digits = digits.get(..n).unwrap_or_default();
    let push = |out: &mut String, bytes: &[u8]| {
        out.extend(bytes.iter().map(|&b| char::from(b)));
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
        ];
        for &(x, want) in cases {
            assert_eq!(repr(x), want);
        }
    }
}
