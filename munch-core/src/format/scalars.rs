//! The scalar line (spec §3): `key=value` pairs, values quoted with `""`
//! and `\n \r \\` escapes when they hold a trigger character.

use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::unicode::is_space;
use wire_lex::{ByteSet, byte_eq_mask};

/// The pairs of a scalar block in first-key order; a later duplicate
/// replaces the value at the first key's position.
#[derive(Debug, Default)]
pub(crate) struct Scalars<'a> {
    pairs: Vec<(&'a str, Cow<'a, str>)>,
    index: BTreeMap<&'a str, usize>,
}

impl<'a> Scalars<'a> {
    fn insert(&mut self, key: &'a str, value: Cow<'a, str>) {
        match self.index.get(key) {
            Some(&i) => {
                if let Some(slot) = self.pairs.get_mut(i) {
                    slot.1 = value;
                }
            }
            None => {
                self.index.insert(key, self.pairs.len());
                self.pairs.push((key, value));
            }
        }
    }

    /// The value of `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&str> {
        let i = *self.index.get(key)?;
        self.pairs.get(i).map(|(_, v)| v.as_ref())
    }

    /// The value of `key` as stored: borrowed from the block when it was
    /// not quoted with escapes.
    pub(crate) fn get_raw(&self, key: &str) -> Option<&Cow<'a, str>> {
        let i = *self.index.get(key)?;
        self.pairs.get(i).map(|(_, v)| v)
    }

    /// Pairs in order (`__tables` and `__stypes` included).
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&'a str, &str)> + '_ {
        self.pairs.iter().map(|(k, v)| (*k, v.as_ref()))
    }

    /// Parses a whole scalar block.
    pub(crate) fn parse(block: &'a str) -> Scalars<'a> {
        let mut out = Scalars::default();
        let bytes = block.as_bytes();
        let mut i = 0;
        loop {
            // Skip W.
            while let Some(c) = block.get(i..).and_then(|r| r.chars().next()) {
                if !is_space(c) {
                    break;
                }
                i += c.len_utf8();
            }
            if i >= bytes.len() {
                break;
            }
            let Some(eq) = memchr::memchr(b'=', bytes.get(i..).unwrap_or_default()) else {
                break;
            };
            let key = block.get(i..i + eq).unwrap_or_default();
            i += eq + 1;
            if bytes.get(i) == Some(&b'"') {
                let (value, next) = quoted(block, i + 1);
                out.insert(key, value);
                i = next;
            } else {
                let rest = block.get(i..).unwrap_or_default();
                let len = rest.find(is_space).unwrap_or(rest.len());
                out.insert(key, Cow::Borrowed(rest.get(..len).unwrap_or_default()));
                i += len;
            }
        }
        out
    }
}

/// A quoted value starting after its opening quote: `""` → `"`, `\n`,
/// `\r`, `\\` unescaped, other backslash pairs verbatim; ends at a lone
/// `"` or the end of the block. Returns the value and the offset after it.
fn quoted(block: &str, start: usize) -> (Cow<'_, str>, usize) {
    let bytes = block.as_bytes();
    let mut owned: Option<String> = None;
    let mut from = start;
    let mut i = start;
    while let Some(at) = next_quote_or_backslash(bytes, i) {
        let piece = block.get(from..at).unwrap_or_default();
        if bytes.get(at) == Some(&b'"') {
            if bytes.get(at + 1) == Some(&b'"') {
                // The run with one quote.
                let s = owned.get_or_insert_with(String::new);
                s.push_str(block.get(from..=at).unwrap_or_default());
                from = at + 2;
                i = at + 2;
                continue;
            }
            return match owned {
                Some(mut s) => {
                    s.push_str(piece);
                    (Cow::Owned(s), at + 1)
                }
                None => (Cow::Borrowed(piece), at + 1),
            };
        }
        let un = match bytes.get(at + 1) {
            Some(b'n') => Some('\n'),
            Some(b'r') => Some('\r'),
            Some(b'\\') => Some('\\'),
            _ => None,
        };
        match un {
            Some(c) => {
                let s = owned.get_or_insert_with(String::new);
                s.push_str(piece);
                s.push(c);
                from = at + 2;
                i = at + 2;
            }
            None => i = at + 1,
        }
    }
    let tail = block.get(from..).unwrap_or_default();
    let value = match owned {
        Some(mut s) => {
            s.push_str(tail);
            Cow::Owned(s)
        }
        None => Cow::Borrowed(tail),
    };
    (value, bytes.len())
}

/// The next `"` or `\\` at or after `i`: the first eight bytes by one
/// word test (a quoted JSON blob has one every few bytes), the rest by a
/// search.
#[inline]
fn next_quote_or_backslash(bytes: &[u8], i: usize) -> Option<usize> {
    let rest = bytes.get(i..)?;
    let Some(word) = rest.get(..8).and_then(|w| <[u8; 8]>::try_from(w).ok()) else {
        return memchr::memchr2(b'"', b'\\', rest).map(|k| i + k);
    };
    let word = u64::from_le_bytes(word);
    let hits = byte_eq_mask(word, b'"') | byte_eq_mask(word, b'\\');
    if hits != 0 {
        return Some(i + (hits.trailing_zeros() / 8) as usize);
    }
    memchr::memchr2(b'"', b'\\', rest.get(8..)?).map(|k| i + 8 + k)
}

/// Whether a scalar value needs quotes on the reference's rules.
fn needs_quotes(value: &str, hardened: bool) -> bool {
    if hardened {
        value
            .chars()
            .any(|c| matches!(c, ',' | '=' | '"' | '\\') || is_space(c))
    } else {
        value
            .bytes()
            .any(|b| matches!(b, b',' | b'=' | b' ' | b'\t' | b'\n' | b'\r' | b'"' | b'\\'))
    }
}

/// Whether the hardened form quotes `value` where the reference form
/// does not (a W character other than the reference's triggers).
pub(crate) fn quoting_hazard(value: &str) -> bool {
    !value.is_empty() && needs_quotes(value, true) && !needs_quotes(value, false)
}

/// Appends `key=value` with the value quoted as needed. `hardened` also
/// quotes values holding any W character (spec D3).
pub(crate) fn write_pair(key: &str, value: &str, hardened: bool, out: &mut String) {
    out.push_str(key);
    out.push('=');
    if value.is_empty() {
        out.push_str("\"\"");
    } else if needs_quotes(value, hardened) {
        out.push('"');
        // Runs between the four escaped bytes (all ASCII, so every run
        // ends on a character boundary) are copied whole; a quote or a
        // backslash is copied with its run and written again.
        const ESCAPED: ByteSet = ByteSet::new(b"\\\"\n\r");
        let mut from = 0;
        let bytes = value.as_bytes();
        while let Some(at) = ESCAPED
            .find(bytes.get(from..).unwrap_or_default())
            .map(|k| from + k)
        {
            match bytes.get(at) {
                Some(&b @ (b'"' | b'\\')) => {
                    out.push_str(value.get(from..=at).unwrap_or_default());
                    out.push(char::from(b));
                }
                Some(b'\n') => {
                    out.push_str(value.get(from..at).unwrap_or_default());
                    out.push_str("\\n");
                }
                _ => {
                    out.push_str(value.get(from..at).unwrap_or_default());
                    out.push_str("\\r");
                }
            }
            from = at + 1;
        }
        out.push_str(value.get(from..).unwrap_or_default());
        out.push('"');
    } else {
        out.push_str(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_like_python() {
        let s = Scalars::parse("a=1 b=\"x \"\"y\"\"\\n\\q\" c=\"\"d=2 a=3\u{a0}e=5 \n f=\"open");
        let got: Vec<(&str, &str)> = s.iter().collect();
        assert_eq!(
            got,
            [
                ("a", "3"),
                ("b", "x \"y\"\n\\q"),
                ("c", ""),
                ("d", "2"),
                ("e", "5"),
                ("f", "open")
            ]
        );
        assert_eq!(Scalars::parse("novalue").iter().count(), 0);
    }

    /// Quoted values of every mix of escaped bytes, plain runs and
    /// non-ASCII text read back as they were written.
    #[test]
    fn quoted_values_read_back() {
        let pieces = ["\\", "\"", "\n", "\r", "a b", "é", "x=y,", "\t", "日本語"];
        let mut next = crate::test_rng::xorshift32(0x7f4a_7c15);
        for _ in 0..2000 {
            let mut v = String::new();
            for _ in 0..1 + next() % 8 {
                v.push_str(pieces[next() as usize % pieces.len()]);
            }
            for hardened in [false, true] {
                let mut out = String::new();
                write_pair("k", &v, hardened, &mut out);
                let s = Scalars::parse(&out);
                assert_eq!(s.iter().collect::<Vec<_>>(), [("k", v.as_str())], "{out:?}");
            }
        }
    }

    #[test]
    fn write_and_read_back() {
        let mut out = String::new();
        for (k, v) in [
            ("a", ""),
            ("b", "x=y"),
            ("c", "q\"\\\n\r\t"),
            ("d", "\u{a0}z"),
        ] {
            write_pair(k, v, false, &mut out);
            out.push(' ');
        }
        assert_eq!(out, "a=\"\" b=\"x=y\" c=\"q\"\"\\\\\\n\\r\t\" d=\u{a0}z ");
        let mut h = String::new();
        write_pair("d", "\u{a0}z", true, &mut h);
        assert_eq!(h, "d=\"\u{a0}z\"");
    }
}
