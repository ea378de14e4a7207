//! The engine's output text as the delta reader scans it: a key's end
//! and form, a string's content, its escapes and the run R076 may move
//! out of it, and spans with the holes cut.

use alloc::string::String;
use alloc::vec::Vec;

use crate::json::quoted;

/// String content as written by the engine (`raw`, between quotes): its
/// text and its compact JSON text (minimal escaping, as `Value::to_json`).
/// The engine writes strict JSON, so its escapes decode as the validator's
/// keys do.
pub(super) fn decode_content(raw: &[u8]) -> (String, String) {
    let text = match crate::keys::key_text(raw) {
        alloc::borrow::Cow::Borrowed(b) => String::from_utf8_lossy(b).into_owned(),
        alloc::borrow::Cow::Owned(b) => String::from_utf8(b)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
    };
    let json = quoted(&text);
    (text, json)
}

/// The length of the trailing run of closers and (escaped) whitespace in
/// string content: what R076 would move out of a string cut off here.
pub(super) fn trailing_run(content: &[u8]) -> usize {
    let mut n = content.len();
    loop {
        match content.get(..n) {
            Some([.., b'}' | b']' | b')' | b' ']) => n -= 1,
            Some([head @ .., b'\\', b't' | b'n' | b'r']) => {
                // An escape only if the backslash itself is not escaped.
                let slashes = head.iter().rev().take_while(|&&b| b == b'\\').count();
                if slashes % 2 == 1 {
                    break;
                }
                n -= 2;
            }
            _ => break,
        }
    }
    content.len() - n
}

/// Whether string content ends in a run R076 could move out
/// ([`trailing_run`] above zero), its last byte looked at first: the
/// arms are the ends `trailing_run` passes over.
#[inline(always)]
pub(super) fn ends_in_run(content: &[u8]) -> bool {
    match content {
        [.., b'}' | b']' | b')' | b' '] => true,
        [.., b'\\', b't' | b'n' | b'r'] => trailing_run(content) > 0,
        _ => false,
    }
}

/// A key as the engine wrote it.
pub(super) struct Key {
    /// Past its closing quote.
    pub(super) end: usize,
    /// Its content has an escape or a U+2028/U+2029 lead byte: it is read
    /// through [`decode_content`].
    pub(super) decode: bool,
    /// No `~` or `/` in its content.
    pub(super) plain: bool,
}

/// The key (a JSON string) at `at`, in one pass over its bytes.
pub(super) fn key_end(out: &[u8], at: usize) -> Option<Key> {
    let mut key = Key {
        end: 0,
        decode: false,
        plain: true,
    };
    let mut i = at + 1;
    loop {
        match *out.get(i)? {
            b'"' => {
                key.end = i + 1;
                return Some(key);
            }
            b'\\' => {
                key.decode = true;
                i += 2;
            }
            0xE2 => {
                key.decode = true;
                i += 1;
            }
            b'~' | b'/' => {
                key.plain = false;
                i += 1;
            }
            _ => i += 1,
        }
    }
}

/// `out[s..e]` without the holes inside it, as text.
pub(super) fn without_holes(
    out: &[u8],
    (s, e): (usize, usize),
    holes: &[(usize, usize)],
) -> String {
    let mut sorted: Vec<(usize, usize)> = holes
        .iter()
        .copied()
        .filter(|h| h.1 > s && h.0 < e)
        .collect();
    sorted.sort_unstable();
    let mut text = Vec::with_capacity(e.saturating_sub(s));
    let mut at = s;
    for (hs, he) in sorted {
        if hs > at {
            text.extend_from_slice(out.get(at..hs).unwrap_or_default());
        }
        at = at.max(he);
    }
    if at < e {
        text.extend_from_slice(out.get(at..e).unwrap_or_default());
    }
    String::from_utf8_lossy(&text).into_owned()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::decode_content;
    use crate::json::compact_escapes;

    /// Content taken as its own JSON text is exactly what decoding and
    /// writing it again gives; every other escape is told apart.
    #[test]
    fn compact_escapes_are_the_written_form() {
        let same = [
            "plain",
            "a\\\"b",
            "\\\\",
            "x\\ny\\rz\\t",
            "\\b\\f",
            "caf\u{e9}",
            "\u{2027}",
            "",
        ];
        for raw in same {
            assert!(compact_escapes(raw.as_bytes()), "{raw}");
            let (_, json) = decode_content(raw.as_bytes());
            assert_eq!(json, alloc::format!("\"{raw}\""), "{raw}");
        }
        let other = ["\\/", "\\u00e9", "a\u{2028}b", "\u{2029}", "\\u0041"];
        for raw in other {
            assert!(!compact_escapes(raw.as_bytes()), "{raw}");
            let (_, json) = decode_content(raw.as_bytes());
            assert_ne!(json, alloc::format!("\"{raw}\""), "{raw}");
        }
    }
}
