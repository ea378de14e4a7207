//! Small JSON text helpers: string quoting with minimal escaping.

use alloc::string::String;

/// Bytes a JSON string writer must look at: `"`, `\\`, control characters
/// and the lead byte of U+2028/U+2029.
// Evaluated at compile time: an out-of-range index would fail the build.
#[allow(clippy::indexing_slicing)]
static ATTENTION: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = true;
        b += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[0xE2] = true;
    t
};

/// Appends `s` as a JSON string (minimal escaping: `"`, `\`, control
/// characters, and U+2028/U+2029 so the text stays one line everywhere).
pub(crate) fn write_str(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    let mut from = 0;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        // Skip the run of bytes that need nothing, in one go.
        if !ATTENTION.get(usize::from(b)).copied().unwrap_or(true) {
            let run = bytes
                .get(i..)
                .unwrap_or_default()
                .iter()
                .position(|&b| ATTENTION.get(usize::from(b)).copied().unwrap_or(true))
                .unwrap_or(bytes.len() - i);
            i += run;
            continue;
        }
        let escape: Option<&str> = match b {
            b'"' => Some("\\\""),
            b'\\' => Some("\\\\"),
            b'\n' => Some("\\n"),
            b'\r' => Some("\\r"),
            b'\t' => Some("\\t"),
            0x08 => Some("\\b"),
            0x0C => Some("\\f"),
            0xE2 if bytes.get(i + 1) == Some(&0x80)
                && matches!(bytes.get(i + 2), Some(0xA8 | 0xA9)) =>
            {
                Some(if bytes.get(i + 2) == Some(&0xA8) {
                    "\\u2028"
                } else {
                    "\\u2029"
                })
            }
            b if b < 0x20 => None,
            _ => {
                i += 1;
                continue;
            }
        };
        out.push_str(s.get(from..i).unwrap_or_default());
        match escape {
            Some(e) => {
                out.push_str(e);
                i += if b == 0xE2 { 3 } else { 1 };
            }
            None => {
                out.push_str(&alloc::format!("\\u{:04x}", b));
                i += 1;
            }
        }
        from = i;
    }
    out.push_str(s.get(from..).unwrap_or_default());
    out.push('"');
}

/// Appends `/token` to a JSON Pointer (`~` and `/` escaped).
pub(crate) fn push_pointer_token(p: &mut String, token: &str) {
    p.push('/');
    if !token.bytes().any(|b| b == b'~' || b == b'/') {
        p.push_str(token);
        return;
    }
    for c in token.chars() {
        match c {
            '~' => p.push_str("~0"),
            '/' => p.push_str("~1"),
            c => p.push(c),
        }
    }
}

/// `s` as a JSON string.
pub(crate) fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    write_str(&mut out, s);
    out
}

/// The length of the JSON number (RFC 8259 grammar) at the start of `s`, or
/// `None` if `s` does not start with one. Shared by the validator, the value
/// parser and the engine's word classification.
#[inline]
pub(crate) fn number_len(s: &[u8]) -> Option<usize> {
    let at = |i: usize| s.get(i).copied();
    let digits = |mut i: usize| {
        while at(i).is_some_and(|b| b.is_ascii_digit()) {
            i += 1;
        }
        i
    };
    let mut i = usize::from(at(0) == Some(b'-'));
    i = match at(i) {
        Some(b'0') => i + 1,
        Some(b'1'..=b'9') => digits(i + 1),
        _ => return None,
    };
    if at(i) == Some(b'.') {
        let end = digits(i + 1);
        if end == i + 1 {
            return None;
        }
        i = end;
    }
    if let Some(b'e' | b'E') = at(i) {
        i += 1;
        if let Some(b'+' | b'-') = at(i) {
            i += 1;
        }
        let end = digits(i);
        if end == i {
            return None;
        }
        i = end;
    }
    Some(i)
}

/// The four hex digits of a `\uXXXX` escape at `s[at..at + 4]`.
#[inline]
pub(crate) fn hex4(s: &[u8], at: usize) -> Option<u32> {
    let h = s.get(at..at + 4)?;
    h.iter()
        .try_fold(0u32, |v, &b| Some(v * 16 + char::from(b).to_digit(16)?))
}
