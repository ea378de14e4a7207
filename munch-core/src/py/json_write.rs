//! Python `json.dumps(v, separators=(",", ":"))` with `ensure_ascii` and
//! `allow_nan`: key order kept, ints as int text, floats as `repr`,
//! `NaN`/`Infinity`/`-Infinity`, every code point outside U+0020–007E
//! (U+007F included) as a lowercase `\uXXXX` escape.

use alloc::string::String;
use serde_json::Value;
use wire_lex::Presence;

use super::float_repr::write_float_repr;
use super::walk::{Steps, walk};
use crate::value::{Kind, kind, write_int};

/// Where JSON text goes: a string, or a counter of its bytes.
trait Out {
    fn push(&mut self, c: char);
    fn push_str(&mut self, s: &str);
    /// Text made by a formatter that writes into a `String`.
    fn push_formatted(&mut self, f: impl FnOnce(&mut String));
    /// A JSON string literal of `s`.
    fn string(&mut self, s: &str, ascii: bool)
    where
        Self: Sized,
    {
        write_string(s, ascii, self);
    }
    /// An integer's text.
    fn int(&mut self, n: &serde_json::Number) {
        self.push_formatted(|s| write_int(n, s));
    }
    /// A finite float's `repr`.
    fn float(&mut self, f: f64) {
        self.push_formatted(|s| write_float_repr(f, s));
    }
    /// A string literal's opening or closing quote.
    fn quote(&mut self) {
        self.push('"');
    }
    /// An escape sequence of a string literal (it starts with `\\`).
    fn escape(&mut self, e: &str) {
        self.push_str(e);
    }
}

impl Out for String {
    fn push(&mut self, c: char) {
        String::push(self, c);
    }
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s);
    }
    fn push_formatted(&mut self, f: impl FnOnce(&mut String)) {
        f(self);
    }
}

/// JSON text in the form the scalar line quotes it in (spec §3): every
/// `"` and `\\` doubled (JSON text holds no LF or CR), with whether the
/// line must quote it at all.
struct LineQuoted<'s> {
    out: &'s mut String,
    /// A comma or a string was written: the line quotes the value (its
    /// other trigger characters only stand inside strings, and no W
    /// character stands outside them in ASCII JSON text).
    quoted: bool,
}

impl Out for LineQuoted<'_> {
    fn push(&mut self, c: char) {
        // (Brackets, braces, the comma and the colon.)
        self.quoted |= c == ',';
        self.out.push(c);
    }
    fn push_str(&mut self, s: &str) {
        // (Runs of a string that need no escape, words and numbers.)
        self.out.push_str(s);
    }
    fn push_formatted(&mut self, f: impl FnOnce(&mut String)) {
        f(self.out);
    }
    fn quote(&mut self) {
        self.quoted = true;
        self.out.push_str("\"\"");
    }
    fn escape(&mut self, e: &str) {
        for c in e.chars() {
            if matches!(c, '"' | '\\') {
                self.out.push(c);
            }
            self.out.push(c);
        }
    }
}

/// Counts bytes without keeping the text.
struct Count {
    n: usize,
    scratch: String,
}

impl Out for Count {
    fn push(&mut self, c: char) {
        self.n += c.len_utf8();
    }
    fn push_str(&mut self, s: &str) {
        self.n += s.len();
    }
    fn push_formatted(&mut self, f: impl FnOnce(&mut String)) {
        self.scratch.clear();
        f(&mut self.scratch);
        self.n += self.scratch.len();
    }
    fn string(&mut self, s: &str, ascii: bool) {
        self.n += string_len(s, ascii);
    }
    fn float(&mut self, f: f64) {
        self.n += super::float_repr::float_repr_len(f);
    }
    fn int(&mut self, n: &serde_json::Number) {
        match (n.as_u64(), n.as_i64()) {
            (Some(v), _) => self.n += digits(v),
            (None, Some(v)) => self.n += 1 + digits(v.unsigned_abs()),
            _ => self.push_formatted(|s| write_int(n, s)),
        }
    }
}

/// The number of decimal digits of `v`.
pub(crate) fn digits(mut v: u64) -> usize {
    let mut n = 1;
    while v >= 10 {
        v /= 10;
        n += 1;
    }
    n
}

/// The byte length of [`write_string`]'s literal of `s`, computed without
/// writing it: two quotes, every byte, plus what each escape adds.
fn string_len(s: &str, ascii: bool) -> usize {
    let bytes = s.as_bytes();
    let mut n = bytes.len() + 2;
    // Most strings need no escape: one pass with no early exit (strings
    // are short; deciding per word costs more than reading on).
    if !any_special(bytes) {
        return n;
    }
    let mut i = 0;
    loop {
        i = skip_plain_words(bytes, i);
        let Some(&b) = bytes.get(i) else { break };
        match b {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => n += 1,
            0x00..=0x1f => n += 5,
            0x7f if ascii => n += 5,
            0xc0..=0xdf if ascii => {
                n += 4;
                i += 1;
            }
            0xe0..=0xef if ascii => {
                n += 3;
                i += 2;
            }
            0xf0..=0xff if ascii => {
                n += 8;
                i += 3;
            }
            _ => {}
        }
        i += 1;
    }
    n
}

/// The byte length of the Python JSON text of `v` (`ascii`: with
/// `ensure_ascii`), without building the text, and the nesting depth of
/// `v` (arrays and objects, a float sentinel too), found on the same walk.
pub(crate) fn python_json_len(v: &Value, ascii: bool) -> (usize, usize) {
    let mut c = Count {
        n: 0,
        scratch: String::new(),
    };
    let depth = write_json(v, ascii, &mut c);
    (c.n, depth)
}

/// [`python_json_len`] of one value, a scalar counted without a walk.
#[inline]
pub(crate) fn value_json_len(v: &Value, ascii: bool) -> (usize, usize) {
    if matches!(v, Value::Array(_) | Value::Object(_)) {
        return python_json_len(v, ascii);
    }
    match kind(v) {
        Kind::Str(s) => (string_len(s, ascii), 0),
        other => {
            let mut c = Count {
                n: 0,
                scratch: String::new(),
            };
            write_scalar(other, ascii, &mut c);
            (c.n, 0)
        }
    }
}

/// The length of the JSON string literal of `s` (a key), as
/// [`python_json_len`] counts it.
#[inline]
pub(crate) fn key_json_len(s: &str, ascii: bool) -> usize {
    string_len(s, ascii)
}

/// [`python_json_len`] of the dict `map`, taking the length and depth of
/// the values of the members named in `known` from there (measured by
/// whoever walked them already) instead of walking them again, and
/// telling `each` the key, length and depth of every member's value as it
/// is counted.
pub(crate) fn python_json_len_members<'m>(
    map: &'m serde_json::Map<String, Value>,
    ascii: bool,
    known: &[(&str, usize, usize)],
    mut each: impl FnMut(&'m str, usize, usize),
) -> (usize, usize) {
    let mut n = 2 + map.len().saturating_sub(1);
    let mut depth = 1;
    for (k, v) in map {
        let (len, d) = match known.iter().find(|m| m.0 == k) {
            Some(&(_, len, d)) => (len, d),
            None => value_json_len(v, ascii),
        };
        each(k, len, d);
        n += string_len(k, ascii) + 1 + len;
        depth = depth.max(1 + d);
    }
    (n, depth)
}

/// [`to_python_json`] and the nesting depth of `v`.
pub(crate) fn to_python_json_depth(v: &Value) -> (String, usize) {
    let mut out = String::new();
    let depth = write_json(v, true, &mut out);
    (out, depth)
}

/// Python JSON text of `v`.
///
/// ```
/// let v: serde_json::Value = serde_json::from_str(r#"{"a":[1,2.0,"é"]}"#).unwrap();
/// assert_eq!(munch_core::to_python_json(&v), r#"{"a":[1,2.0,"\u00e9"]}"#);
/// ```
#[must_use]
pub fn to_python_json(v: &Value) -> String {
    let mut out = String::new();
    write_python_json(v, &mut out);
    out
}

/// Appends the Python JSON text of `v` to `out` (no recursion: any depth).
pub(crate) fn write_python_json(v: &Value, out: &mut String) {
    write_json(v, true, out);
}

/// Appends the Python JSON text of `v` as the scalar line writes it as a
/// value (`format::scalars::write_pair`, either form: the text is ASCII
/// and has no W character outside its strings), quoted and escaped in the
/// same pass when it needs quotes.
pub(crate) fn write_python_json_line(v: &Value, out: &mut String) {
    line_form(out, |line| {
        write_json(v, true, line);
    });
}

/// [`write_python_json_line`] of the list `items` (without a list value
/// made of them).
pub(crate) fn write_python_json_line_list(items: &[Value], out: &mut String) {
    line_form(out, |line| {
        line.push('[');
        for (i, v) in items.iter().enumerate() {
            if i > 0 {
                line.push(',');
            }
            write_json(v, true, line);
        }
        line.push(']');
    });
}

/// What `write` writes through a [`LineQuoted`], between quotes when it
/// needs them.
fn line_form(out: &mut String, write: impl FnOnce(&mut LineQuoted<'_>)) {
    let start = out.len();
    out.push('"');
    let mut line = LineQuoted { out, quoted: false };
    write(&mut line);
    if line.quoted {
        out.push('"');
    } else {
        // No string and no comma: nothing was escaped either.
        out.remove(start);
    }
}

#[cfg(test)]
/// The same text with non-ASCII characters left as they are (for sizes
/// counted in UTF-8 bytes).
pub(crate) fn write_python_json_unescaped(v: &Value, out: &mut String) {
    write_json(v, false, out);
}

/// Writes `v`; returns its nesting depth.
fn write_json<O: Out>(v: &Value, ascii: bool, out: &mut O) -> usize {
    walk(v, &mut JsonSteps { out, ascii })
}

/// JSON text, written to `out`.
struct JsonSteps<'o, O> {
    out: &'o mut O,
    ascii: bool,
}

impl<'v, O: Out> Steps<'v> for JsonSteps<'_, O> {
    #[inline]
    fn open(&mut self, list: bool) {
        self.out.push(if list { '[' } else { '{' });
    }
    #[inline]
    fn scalar(&mut self, k: Kind<'v>) {
        write_scalar(k, self.ascii, self.out);
    }
    #[inline]
    fn separator(&mut self) {
        self.out.push(',');
    }
    #[inline]
    fn key(&mut self, k: &'v str) {
        self.out.string(k, self.ascii);
        self.out.push(':');
    }
    #[inline]
    fn close(&mut self, list: bool) {
        self.out.push(if list { ']' } else { '}' });
    }
}

#[inline(always)]
fn write_scalar<O: Out>(k: Kind<'_>, ascii: bool, out: &mut O) {
    match k {
        Kind::Null => out.push_str("null"),
        Kind::Bool(true) => out.push_str("true"),
        Kind::Bool(false) => out.push_str("false"),
        Kind::Int(n) => out.int(n),
        Kind::Float(f) if f.is_nan() => out.push_str("NaN"),
        Kind::Float(f) if f.is_infinite() => {
            out.push_str(if f > 0.0 { "Infinity" } else { "-Infinity" });
        }
        Kind::Float(f) => out.float(f),
        Kind::Str(s) => out.string(s, ascii),
        Kind::List(_) | Kind::Dict(_) => {}
    }
}

/// Whether any byte of the word needs a look: below 0x20, `"`, `\\`,
/// 0x7F or above (SWAR; a false positive only costs the slow path).
fn word_has_special(w: u64) -> bool {
    special_bits(w) != 0
}

/// Nonzero when some byte of the word is below 0x20, `"`, `\\`, 0x7F or
/// above (SWAR).
fn special_bits(w: u64) -> u64 {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let zero = |v: u64| v.wrapping_sub(LO) & !v & HI;
    let below_space = w.wrapping_sub(LO * 0x20) & !w & HI;
    below_space | zero(w ^ (LO * 0x22)) | zero(w ^ (LO * 0x5c)) | zero(w ^ (LO * 0x7f)) | (w & HI)
}

/// The bytes a JSON string escapes besides controls and non-ASCII, and
/// the CSV delimiter: what [`Presence`] is asked about a string.
const JSON_CSV: [u8; 4] = [b'"', b'\\', 0x7f, b','];

/// Whether any byte needs a look: below 0x20, `"`, `\\`, 0x7F or above.
pub(crate) fn any_special(bytes: &[u8]) -> bool {
    let p = Presence::of(bytes, JSON_CSV);
    let [quote, backslash, del, _] = p.needles();
    p.outside() || quote || backslash || del
}

/// How the CSV writer writes a string, as far as [`string_len_csv`] saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CsvForm {
    /// No byte it quotes for (`,` `"` LF CR): as it is.
    Bare,
    /// Commas, but no quote, LF or CR: between quotes, as it is.
    Wrapped,
    /// Not looked at closely (a string that needs a JSON escape).
    Unknown,
}

/// [`string_len`] of `s`, and how the CSV writer writes it, found in one
/// pass for the strings that need no JSON escape.
#[inline]
pub(crate) fn string_len_csv(s: &str, ascii: bool) -> (usize, CsvForm) {
    let bytes = s.as_bytes();
    let p = Presence::of(bytes, JSON_CSV);
    let [quote, backslash, del, comma] = p.needles();
    let special = p.outside() || quote || backslash || del;
    if special {
        return (string_len(s, ascii), CsvForm::Unknown);
    }
    // No JSON special: no quote, no control character.
    let form = if !comma {
        CsvForm::Bare
    } else {
        CsvForm::Wrapped
    };
    (bytes.len() + 2, form)
}

/// The first offset at or after `i` whose eight-byte word holds a byte
/// that needs a look (or where fewer than eight bytes are left).
fn skip_plain_words(bytes: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = bytes.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        if word_has_special(u64::from_le_bytes(word)) {
            break;
        }
        i += 8;
    }
    i
}

/// The four lowercase hex digits of a UTF-16 unit, as `\\uXXXX` writes
/// them (without the formatting machinery: a non-ASCII text escapes
/// every character this way).
fn hex4(u: u16) -> [u8; 4] {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let digit = |shift: u16| {
        DIGITS
            .get(usize::from((u >> shift) & 0xf))
            .copied()
            .unwrap_or(b'0')
    };
    [digit(12), digit(8), digit(4), digit(0)]
}

fn write_string<O: Out>(s: &str, ascii: bool, out: &mut O) {
    out.quote();
    let bytes = s.as_bytes();
    let mut plain_from = 0;
    let mut i = 0;
    loop {
        i = skip_plain_words(bytes, i);
        let Some(&b) = bytes.get(i) else { break };
        if (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\' {
            i += 1;
            continue;
        }
        let c = s
            .get(i..)
            .and_then(|r| r.chars().next())
            .unwrap_or('\u{fffd}');
        let width = c.len_utf8();
        if (b >= 0x7f) && !ascii {
            i += width;
            continue;
        }
        out.push_str(s.get(plain_from..i).unwrap_or_default());
        match c {
            '"' => out.escape("\\\""),
            '\\' => out.escape("\\\\"),
            '\n' => out.escape("\\n"),
            '\r' => out.escape("\\r"),
            '\t' => out.escape("\\t"),
            '\u{8}' => out.escape("\\b"),
            '\u{c}' => out.escape("\\f"),
            _ => {
                let mut units = [0u16; 2];
                for &mut u in c.encode_utf16(&mut units) {
                    out.escape("\\u");
                    let hex = hex4(u);
                    out.push_str(core::str::from_utf8(&hex).unwrap_or("fffd"));
                }
            }
        }
        i += width;
        plain_from = i;
    }
    out.push_str(s.get(plain_from..).unwrap_or_default());
    out.quote();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::py::json_parse::{DEFAULT_DEPTH_LIMIT, parse};

    #[test]
    fn like_python() {
        let v = parse(
            r#"{"a":[1,-5,2.0,1e16,0.0001,NaN,-Infinity],"s":"é\u2028\u007f\"\\\n\b😀"}"#,
            DEFAULT_DEPTH_LIMIT,
        )
        .unwrap();
        assert_eq!(
            to_python_json(&v),
            r#"{"a":[1,-5,2.0,1e+16,0.0001,NaN,-Infinity],"s":"\u00e9\u2028\u007f\"\\\n\b\ud83d\ude00"}"#
        );
        assert_eq!(to_python_json(&parse("[[],{}]", 10).unwrap()), "[[],{}]");
    }

    /// A blob written in the line's form is what the line makes of its
    /// JSON text, in either form: on fixed values and on 3,000 random
    /// ones mixing every escaped and trigger character.
    #[test]
    fn line_form_is_the_quoted_json_text() {
        let same = |v: &Value| {
            let mut line = String::from("x");
            write_python_json_line(v, &mut line);
            for hardened in [false, true] {
                let mut want = String::new();
                crate::format::scalars::write_pair("", &to_python_json(v), hardened, &mut want);
                assert_eq!(line.get(1..), want.get(1..), "{v}");
            }
        };
        for text in [
            "[]",
            "{}",
            "[1]",
            "[[[null]]]",
            "[1,2]",
            "[NaN,-Infinity,1e400]",
            r#"{"a":1}"#,
            r#"[""]"#,
        ] {
            same(&parse(text, 10).unwrap());
        }
        let pieces = [
            "\"", "\\", "\n", "\r", "\t", " ", ",", "=", "é", "\u{a0}", "\u{1c}", "😀", "a", "@1",
        ];
        let mut next = crate::test_rng::xorshift32(0x2545_f491);
        let string = |next: &mut dyn FnMut() -> u32| {
            let mut s = String::new();
            for _ in 0..next() % 5 {
                s.push_str(pieces[next() as usize % pieces.len()]);
            }
            s
        };
        for _ in 0..3000 {
            let mut items = Vec::new();
            for _ in 0..next() % 4 {
                items.push(match next() % 5 {
                    0 => Value::String(string(&mut next)),
                    1 => serde_json::json!({ string(&mut next): string(&mut next) }),
                    2 => serde_json::json!([next() % 7, -1.5]),
                    3 => Value::Null,
                    _ => serde_json::json!([[]]),
                });
            }
            let mut list = String::new();
            write_python_json_line_list(&items, &mut list);
            let value = Value::Array(items);
            same(&value);
            let mut whole = String::new();
            write_python_json_line(&value, &mut whole);
            assert_eq!(list, whole);
        }
    }
}

#[cfg(test)]
mod len_tests {
    use super::*;
    use crate::py::json_parse::parse;

    /// A string's CSV form is found at every position of every short
    /// length, and its length is [`string_len`]'s.
    #[test]
    fn csv_forms_are_found_at_every_position() {
        for len in 0..20 {
            for b in [b',', b'"', b'\n', b'\r', b'\\', b'x', 0x80] {
                for at in 0..len {
                    let mut bytes = alloc::vec![b'a'; len];
                    bytes[at] = b;
                    if b == 0x80 {
                        bytes[at] = 0xc3;
                        if at + 1 < len {
                            bytes[at + 1] = 0xa9;
                        } else {
                            continue;
                        }
                    }
                    let s = core::str::from_utf8(&bytes).unwrap();
                    for ascii in [true, false] {
                        let (n, form) = string_len_csv(s, ascii);
                        assert_eq!(n, string_len(s, ascii), "{s:?}");
                        let want = match b {
                            b'x' => CsvForm::Bare,
                            b',' => CsvForm::Wrapped,
                            _ => CsvForm::Unknown,
                        };
                        assert_eq!(form, want, "{s:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn any_special_sees_every_position_of_every_length() {
        let plain = |b: u8| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\';
        for len in 0..20 {
            for special in [0x00u8, 0x1f, b'"', b'\\', 0x7f, 0x80, 0xff] {
                for at in 0..len {
                    let mut bytes = alloc::vec![b'a'; len];
                    bytes[at] = special;
                    assert!(any_special(&bytes), "{len} {special} {at}");
                }
            }
            let bytes: Vec<u8> = (0..len).map(|i| b' ' + (i as u8 * 7) % 95).collect();
            assert_eq!(any_special(&bytes), !bytes.iter().all(|&b| plain(b)));
        }
    }

    #[test]
    fn counted_length_equals_text_length() {
        let v = parse(
            r#"{"a":[1,-5,2.0,[],{},"é😀\n"],"b":NaN,"c":{"d":[[1],[]]}}"#,
            100,
        )
        .unwrap();
        assert_eq!(python_json_len(&v, true).0, to_python_json(&v).len());
        let mut s = String::new();
        write_python_json_unescaped(&v, &mut s);
        assert_eq!(python_json_len(&v, false).0, s.len());
    }

    /// Strings of every escape class at every position and length, and
    /// integers of every width: the counted length is the written one.
    #[test]
    fn counted_strings_and_integers_match_the_text() {
        let pieces = [
            "a", "\"", "\\", "\n", "\r", "\t", "\u{8}", "\u{c}", "\u{1}", "\u{1f}", "\u{7f}", "é",
            "€", "😀", " ", "~", "/",
        ];
        let mut x = 7u64;
        for _ in 0..3000 {
            let mut text = String::new();
            for _ in 0..(x % 23) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                text.push_str(pieces[(x % pieces.len() as u64) as usize]);
            }
            let n = x >> (x % 64);
            let v = serde_json::json!({ text.clone(): [text, n, -(n as i64 >> 1)] });
            assert_eq!(python_json_len(&v, true).0, to_python_json(&v).len(), "{v}");
            let mut s = String::new();
            write_python_json_unescaped(&v, &mut s);
            assert_eq!(python_json_len(&v, false).0, s.len(), "{v}");
        }
    }
}
