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
    match first_attention(s.as_bytes()) {
        None => out.push_str(s),
        Some(at) => escape_from(out, s, at),
    }
    out.push('"');
}

/// Appends `json`, a JSON text, as a JSON string: a string value with
/// nothing to escape in it is only quoted again (`"x"` → `"\"x\""`).
pub(crate) fn write_json_as_str(out: &mut String, json: &str) {
    let inner = json
        .strip_prefix('"')
        .and_then(|j| j.strip_suffix('"'))
        .filter(|i| first_attention(i.as_bytes()).is_none());
    match inner {
        Some(inner) => {
            out.reserve(inner.len() + 6);
            out.push_str("\"\\\"");
            out.push_str(inner);
            out.push_str("\\\"\"");
        }
        None => write_str(out, json),
    }
}

/// Bytes of one `u64` each.
const ONES: u64 = 0x0101_0101_0101_0101;

/// Whether a byte of `x` is zero.
const fn zero_byte(x: u64) -> bool {
    x.wrapping_sub(ONES) & !x & (ONES * 0x80) != 0
}

/// The first byte a JSON string writer must look at ([`ATTENTION`]),
/// eight bytes at a time.
fn first_attention(bytes: &[u8]) -> Option<usize> {
    let mut at = 0;
    for chunk in bytes.chunks_exact(8) {
        let Ok(word) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let x = u64::from_le_bytes(word);
        // A byte below 0x20 (the test is exact for bounds up to 0x80), or
        // one equal to `"`, `\\` or 0xE2.
        let control = x.wrapping_sub(ONES * 0x20) & !x & (ONES * 0x80) != 0;
        if control
            || zero_byte(x ^ (ONES * u64::from(b'"')))
            || zero_byte(x ^ (ONES * u64::from(b'\\')))
            || zero_byte(x ^ (ONES * 0xE2))
        {
            break;
        }
        at += 8;
    }
    let rest = bytes.get(at..)?;
    rest.iter()
        .position(|&b| ATTENTION.get(usize::from(b)).copied().unwrap_or(true))
        .map(|i| at + i)
}

/// The escaping part of [`write_str`], from `start`, the first byte that
/// needs attention: each run that needs nothing copied in one piece, each
/// escape written where it is decided (a constant the compiler stores).
fn escape_from(out: &mut String, s: &str, start: usize) {
    let bytes = s.as_bytes();
    let mut from = 0;
    let mut i = start;
    while let Some(&b) = bytes.get(i) {
        let after = match b {
            0xE2 if bytes.get(i + 1) == Some(&0x80)
                && matches!(bytes.get(i + 2), Some(0xA8 | 0xA9)) =>
            {
                i + 3
            }
            b'"' | b'\\' | 0x00..0x20 => i + 1,
            // A lead byte of another character.
            _ => {
                i += 1;
                i += first_attention(bytes.get(i..).unwrap_or_default()).unwrap_or(bytes.len() - i);
                continue;
            }
        };
        out.push_str(s.get(from..i).unwrap_or_default());
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0C => out.push_str("\\f"),
            0xE2 if bytes.get(i + 2) == Some(&0xA8) => out.push_str("\\u2028"),
            0xE2 => out.push_str("\\u2029"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\u00");
                for nibble in [b >> 4, b & 0xF] {
                    out.push(char::from(
                        HEX.get(usize::from(nibble)).copied().unwrap_or(b'0'),
                    ));
                }
            }
        }
        i = after;
        from = i;
        i = next_attention(bytes, i);
    }
    out.push_str(s.get(from..).unwrap_or_default());
}

/// The next byte from `at` that needs attention, or the end: the next few
/// bytes one at a time (in JSON text written as a string a quote comes
/// every few bytes), then eight at a time.
fn next_attention(bytes: &[u8], at: usize) -> usize {
    const NEAR: usize = 16;
    let near = bytes.get(at..).unwrap_or_default();
    let head = near.get(..NEAR).unwrap_or(near);
    if let Some(i) = head
        .iter()
        .position(|&b| ATTENTION.get(usize::from(b)).copied().unwrap_or(true))
    {
        return at + i;
    }
    let far = at + head.len();
    far + first_attention(bytes.get(far..).unwrap_or_default()).unwrap_or(bytes.len() - far)
}

/// Whether string content (written by the engine, or of a strict text)
/// is its own compact JSON text: its escapes are only those
/// `Value::to_json` writes for the same characters (`\"`, `\\`, `\n`,
/// `\r`, `\t`, `\b`, `\f`) and no U+2028 or U+2029 stands raw.
pub(crate) fn compact_escapes(raw: &[u8]) -> bool {
    scan_content(raw).1
}

/// The offset of the closing quote in `rest` (string content that follows
/// an opening quote or earlier content).
pub(crate) fn content_end(rest: &[u8]) -> Option<usize> {
    scan_content(rest).0
}

/// String content read up to its closing quote (its offset, `None` when
/// `rest` ends first), and whether the content before it is compact
/// ([`compact_escapes`]): one pass for both.
pub(crate) fn scan_content(rest: &[u8]) -> (Option<usize>, bool) {
    let mut compact = true;
    let mut i = 0;
    while let Some(&b) = rest.get(i) {
        match b {
            b'"' => return (Some(i), compact),
            b'\\' => {
                compact &= matches!(
                    rest.get(i + 1),
                    Some(b'"' | b'\\' | b'n' | b'r' | b't' | b'b' | b'f')
                );
                i += 2;
            }
            0xE2 if rest.get(i + 1) == Some(&0x80)
                && matches!(rest.get(i + 2), Some(0xA8 | 0xA9)) =>
            {
                compact = false;
                i += 3;
            }
            _ => i += 1,
        }
    }
    (None, compact)
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

#[cfg(test)]
mod tests {
    use super::{ATTENTION, first_attention, next_attention, write_json_as_str, write_str};
    use alloc::string::String;
    use alloc::vec::Vec;

    /// The eight-bytes-at-a-time search finds what a byte-by-byte one
    /// finds: every byte value, at every place of strings of up to 24
    /// bytes, over fillers that sit next to the thresholds.
    #[test]
    fn first_attention_is_the_first_byte_that_needs_it() {
        for filler in [b'a', b' ', 0x21, 0x7F, 0x80, 0xE1, 0xE3, 0xFF, 0x1F, b'"'] {
            for len in 0..24 {
                for at in 0..len {
                    for b in 0..=255u8 {
                        let mut s: Vec<u8> = alloc::vec![filler; len];
                        if let Some(x) = s.get_mut(at) {
                            *x = b;
                        }
                        let naive = s.iter().position(|&c| ATTENTION[usize::from(c)]);
                        assert_eq!(first_attention(&s), naive, "{filler} {len} {at} {b}");
                    }
                }
            }
        }
    }

    /// The search after an escape (a few bytes one at a time, then eight
    /// at a time) finds the next byte that needs attention wherever it
    /// is, before, at and after the switch, or the end.
    #[test]
    fn next_attention_is_the_next_byte_that_needs_it() {
        for len in 0..48 {
            for from in 0..=len {
                for at in 0..len {
                    for b in [b'"', b'\\', 0x00, 0x1F, 0xE2, b'a', 0x80] {
                        let mut s: Vec<u8> = alloc::vec![b'x'; len];
                        if let Some(x) = s.get_mut(at) {
                            *x = b;
                        }
                        let naive = s
                            .iter()
                            .skip(from)
                            .position(|&c| ATTENTION[usize::from(c)])
                            .map_or(len, |i| from + i);
                        assert_eq!(next_attention(&s, from), naive, "{len} {from} {at} {b}");
                    }
                }
            }
        }
    }

    /// Text with escapes at every distance reads back as itself.
    #[test]
    fn escaped_text_reads_back() {
        for gap in 0..40 {
            let run = "é".repeat(gap / 2) + &"k".repeat(gap % 2);
            let text = alloc::format!("\"{run}\\{run}\n{run}\u{2028}{run}\u{1}{run}\"");
            let mut out = String::new();
            write_str(&mut out, &text);
            let back: String = serde_json::from_str(&out).unwrap();
            assert_eq!(back, text, "{gap}");
        }
    }

    #[test]
    fn strings_escaped_minimally() {
        let mut out = String::new();
        write_str(&mut out, "plain text, long enough for words");
        write_str(&mut out, "q\"b\\n\n\t\u{1}\u{2028}é\u{2029}x");
        assert_eq!(
            out,
            r#""plain text, long enough for words""q\"b\\n\n\t\u0001\u2028é\u2029x""#
        );
        let mut out = String::new();
        for json in ["\"abc\"", "\"a\\nb\"", "12", "\"\"", "\"a\u{2028}\""] {
            write_json_as_str(&mut out, json);
            out.push(' ');
        }
        assert_eq!(out, r#""\"abc\"" "\"a\\nb\"" "12" "\"\"" "\"a\u2028\"" "#);
    }
}
