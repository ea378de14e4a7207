//! The scalar line (spec §3): `key=value` pairs, values quoted with `""`
//! and `\n \r \\` escapes when they hold a trigger character.

use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::unicode::{is_space, leading_space, space_at};
use crate::value::{SCANNED_KEYS, key_position};
use wire_lex::{ByteSet, byte_eq_mask};

/// The pairs of a scalar block in first-key order; a later duplicate
/// replaces the value at the first key's position.
#[derive(Debug, Default)]
pub(crate) struct Scalars<'a> {
    pairs: Vec<(&'a str, Cow<'a, str>)>,
    /// Each key's position, made once there are more than
    /// [`Scalars::SCANNED`] pairs (fewer are found by a scan).
    index: BTreeMap<&'a str, usize>,
}

impl<'a> Scalars<'a> {
    /// The most pairs found by scanning them: a usual scalar line's few
    /// keys need no tree, and a long one does not cost a scan per key.
    const SCANNED: usize = SCANNED_KEYS;

    fn position(&self, key: &str) -> Option<usize> {
        if self.pairs.len() <= Self::SCANNED {
            key_position(&self.pairs, |(k, _)| k, key)
        } else {
            self.index.get(key).copied()
        }
    }

    fn insert(&mut self, key: &'a str, value: Cow<'a, str>) {
        if let Some(i) = self.position(key) {
            if let Some(slot) = self.pairs.get_mut(i) {
                slot.1 = value;
            }
            return;
        }
        self.pairs.push((key, value));
        let n = self.pairs.len();
        if n == Self::SCANNED + 1 {
            let keys = self.pairs.iter().enumerate().map(|(i, (k, _))| (*k, i));
            self.index.extend(keys);
        } else if n > Self::SCANNED {
            self.index.insert(key, n - 1);
        }
    }

    /// The value of `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&str> {
        let i = self.position(key)?;
        self.pairs.get(i).map(|(_, v)| v.as_ref())
    }

    /// The value of `key` as stored: borrowed from the block when it was
    /// not quoted with escapes.
    pub(crate) fn get_raw(&self, key: &str) -> Option<&Cow<'a, str>> {
        let i = self.position(key)?;
        self.pairs.get(i).map(|(_, v)| v)
    }

    /// How many pairs there are (`__tables` and `__stypes` included).
    pub(crate) fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Pairs in order as stored (values borrowed from the block where
    /// they were not quoted with escapes).
    pub(crate) fn iter_raw(&self) -> impl Iterator<Item = (&'a str, &Cow<'a, str>)> + '_ {
        self.pairs.iter().map(|(k, v)| (*k, v))
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
            i += leading_space(block.get(i..).unwrap_or_default());
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
                let len = space_at(rest);
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
    // Up to the first escape that changes the text, the value is the
    // block's own text.
    let mut i = start;
    let first = loop {
        let Some(at) = next_quote_or_backslash(bytes, i) else {
            let tail = block.get(start..).unwrap_or_default();
            return (Cow::Borrowed(tail), bytes.len());
        };
        match (bytes.get(at), bytes.get(at + 1)) {
            (Some(b'"'), Some(b'"')) | (Some(b'\\'), Some(b'n' | b'r' | b'\\')) => break at,
            (Some(b'"'), _) => {
                let value = block.get(start..at).unwrap_or_default();
                return (Cow::Borrowed(value), at + 1);
            }
            // Another backslash pair stays as it is.
            _ => i = at + 1,
        }
    };
    let (text, end) = unescape(bytes, start, first);
    // (Only ASCII bytes were dropped or replaced by ASCII.)
    let text = String::from_utf8(text)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    (Cow::Owned(text), end)
}

/// The bytes of a quoted value from `start` unescaped, its first escape
/// at `first`, with the offset after its closing quote (the block's
/// length if it has none). Plain text is copied eight bytes at a time:
/// a quoted JSON blob has an escape every few bytes, too close together
/// for a search per escape.
fn unescape(bytes: &[u8], start: usize, first: usize) -> (Vec<u8>, usize) {
    let mut out = Vec::with_capacity(first - start + 64);
    out.extend_from_slice(bytes.get(start..first).unwrap_or_default());
    let mut i = first;
    loop {
        while let Some(chunk) = bytes.get(i..i + 8) {
            let chunk = <[u8; 8]>::try_from(chunk).unwrap_or_default();
            let word = u64::from_le_bytes(chunk);
            let hits = byte_eq_mask(word, b'"') | byte_eq_mask(word, b'\\');
            // The whole word is copied, and the bytes from the first hit
            // on taken back.
            out.extend_from_slice(&chunk);
            if hits != 0 {
                let k = (hits.trailing_zeros() / 8) as usize;
                out.truncate(out.len() - (8 - k));
                i += k;
                break;
            }
            i += 8;
        }
        let Some(&b) = bytes.get(i) else {
            return (out, bytes.len());
        };
        let next = bytes.get(i + 1).copied();
        match (b, next) {
            (b'"', Some(b'"')) => {
                out.push(b'"');
                i += 2;
            }
            (b'"', _) => return (out, i + 1),
            (b'\\', Some(b'n')) => {
                out.push(b'\n');
                i += 2;
            }
            (b'\\', Some(b'r')) => {
                out.push(b'\r');
                i += 2;
            }
            (b'\\', Some(b'\\')) => {
                out.push(b'\\');
                i += 2;
            }
            // Another backslash pair, or a byte of the last few.
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
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
    // The W characters the reference's triggers miss are control bytes
    // (U+000B, U+000C, U+001C to U+001F) or not ASCII: a value with
    // neither is written alike. (Then the reference's byte test: a value
    // it quotes, as a long text with a space soon is, needs no more.)
    value.bytes().any(|b| !(0x20..0x80).contains(&b))
        && !needs_quotes(value, false)
        && needs_quotes(value, true)
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

    /// A later duplicate replaces the first key's value whether the keys
    /// are scanned or indexed: lines of 1 to 120 pairs over 48 keys,
    /// against a list searched from the start.
    #[test]
    fn duplicates_replace_in_place_at_any_length() {
        let mut next = crate::test_rng::xorshift32(0x9e37_79b9);
        for n in 1..=120 {
            let mut line = String::new();
            let mut want: Vec<(String, String)> = Vec::new();
            for v in 0..n {
                let key = alloc::format!("k{}", next() % 48);
                line.push_str(&alloc::format!("{key}={v} "));
                match want.iter_mut().find(|(k, _)| *k == key) {
                    Some(slot) => slot.1 = v.to_string(),
                    None => want.push((key, v.to_string())),
                }
            }
            let s = Scalars::parse(&line);
            let got: Vec<(String, String)> = s.iter().map(|(k, v)| (k.into(), v.into())).collect();
            assert_eq!(got, want, "{line}");
            for (k, v) in &want {
                assert_eq!(s.get(k), Some(v.as_str()), "{line}");
            }
            assert_eq!(s.get("absent"), None);
        }
    }

    /// Quoted values of every mix of escaped bytes, plain runs and
    /// non-ASCII text read back as they were written.
    #[test]
    fn quoted_matches_the_plain_reading() {
        // Every mix of quotes, doubled quotes, backslash pairs, plain runs
        // of every length around eight, and non-ASCII text, with and
        // without a closing quote: the same value and end as a reading
        // that goes one escape at a time.
        let pieces = [
            "\"\"",
            "\"",
            "\\n",
            "\\r",
            "\\\\",
            "\\q",
            "\\",
            "a",
            "abcdefg",
            "abcdefghijk",
            "é",
            "日本語",
            " x=y,",
        ];
        let mut next = crate::test_rng::xorshift32(0x1b87_3593);
        for _ in 0..20_000 {
            let mut block = String::from("k=\"");
            for _ in 0..next() % 12 {
                block.push_str(pieces[next() as usize % pieces.len()]);
            }
            if next() % 3 > 0 {
                block.push_str("\" z=1");
            }
            assert_eq!(quoted(&block, 3), plain_reading(&block, 3), "{block:?}");
        }
    }

    /// [`quoted`] one escape at a time (how it was written first).
    fn plain_reading(block: &str, start: usize) -> (Cow<'_, str>, usize) {
        let bytes = block.as_bytes();
        let mut owned: Option<String> = None;
        let mut from = start;
        let mut i = start;
        while let Some(off) = memchr::memchr2(b'"', b'\\', bytes.get(i..).unwrap_or_default()) {
            let at = i + off;
            let piece = block.get(from..at).unwrap_or_default();
            let un = match (bytes.get(at), bytes.get(at + 1)) {
                (Some(b'"'), Some(b'"')) => Some('"'),
                (Some(b'"'), _) => {
                    return match owned {
                        Some(mut s) => {
                            s.push_str(piece);
                            (Cow::Owned(s), at + 1)
                        }
                        None => (Cow::Borrowed(piece), at + 1),
                    };
                }
                (_, Some(b'n')) => Some('\n'),
                (_, Some(b'r')) => Some('\r'),
                (_, Some(b'\\')) => Some('\\'),
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
        match owned {
            Some(mut s) => {
                s.push_str(tail);
                (Cow::Owned(s), bytes.len())
            }
            None => (Cow::Borrowed(tail), bytes.len()),
        }
    }

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
