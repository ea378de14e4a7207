//! Python `json.loads`: RFC 8259 plus `NaN`, `Infinity` and `-Infinity`,
//! big integers (at most 4,300 digits), last duplicate key wins at the
//! first key's position, raw control characters refused. Iterative: the
//! nesting depth is bounded by a limit, never by the call stack. What it
//! builds is a [`Sink`]'s: `serde_json` values, or borrowed ones.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::Value;

use super::json_sink::{Borrowed, Owned, Sink};
use super::json_write::any_special;
use super::number::{MAX_INT_DIGITS, float_value, int_from_canonical};
use crate::borrowed::BorrowedValue;
use crate::error::{DecodeError, DecodeErrorKind as K};

/// The default nesting limit (spec D1.3).
pub(crate) const DEFAULT_DEPTH_LIMIT: usize = 1000;

enum Frame<'a, S: Sink<'a>> {
    Array(Vec<S::Value>),
    Object(S::Object, Cow<'a, str>),
}

pub(super) struct Parser<'a> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
}

/// Parses `text` as Python's `json.loads` does.
pub(crate) fn parse(text: &str, depth_limit: usize) -> Result<Value, DecodeError> {
    parse_into::<Owned<'_>>(text, depth_limit)
}

/// [`parse`] into a borrowed value: strings without escapes borrow from
/// `text`.
pub(crate) fn parse_borrowed(
    text: &str,
    depth_limit: usize,
) -> Result<BorrowedValue<'_>, DecodeError> {
    parse_into::<Borrowed>(text, depth_limit)
}

fn parse_into<'a, S: Sink<'a> + Default>(
    text: &'a str,
    depth_limit: usize,
) -> Result<S::Value, DecodeError> {
    if text.starts_with('\u{feff}') {
        return Err(DecodeError::new(K::ByteOrderMark, 0));
    }
    let mut p = Parser::new(text);
    p.skip_ws();
    let value = p.value(&mut S::default(), depth_limit)?;
    p.skip_ws();
    if p.pos != p.bytes.len() {
        return Err(DecodeError::new(K::ExtraData, p.pos));
    }
    Ok(value)
}

impl<'a> Parser<'a> {
    /// A parser at the start of `text`.
    pub(super) fn new(text: &'a str) -> Self {
        Parser {
            bytes: text.as_bytes(),
            text,
            pos: 0,
        }
    }

    /// Whether the whole text was read.
    pub(super) fn at_end(&self) -> bool {
        self.pos == self.bytes.len()
    }

    /// Moves past the byte at the cursor.
    pub(super) fn bump(&mut self) {
        self.pos += 1;
    }

    fn err<T>(&self, kind: K) -> Result<T, DecodeError> {
        Err(DecodeError::new(kind, self.pos))
    }

    pub(super) fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    pub(super) fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn eat_word(&mut self, word: &str) -> bool {
        if self.bytes.get(self.pos..self.pos + word.len()) == Some(word.as_bytes()) {
            self.pos += word.len();
            true
        } else {
            false
        }
    }

    /// One whole value, containers included, with an explicit stack.
    fn value<S: Sink<'a>>(
        &mut self,
        sink: &mut S,
        depth_limit: usize,
    ) -> Result<S::Value, DecodeError> {
        let mut stack: Vec<Frame<'a, S>> = Vec::new();
        'value: loop {
            // Read a value start; containers push a frame.
            let mut done = match self.peek() {
                Some(b'[') | Some(b'{') if stack.len() >= depth_limit => {
                    return self.err(K::DepthLimit);
                }
                Some(b'[') => {
                    self.pos += 1;
                    self.skip_ws();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        S::array(Vec::new())
                    } else {
                        stack.push(Frame::Array(Vec::new()));
                        continue 'value;
                    }
                }
                Some(b'{') => {
                    self.pos += 1;
                    self.skip_ws();
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                        let empty = sink.begin();
                        sink.object(empty, stack.len())
                    } else {
                        let key = self.key()?;
                        stack.push(Frame::Object(sink.begin(), key));
                        continue 'value;
                    }
                }
                _ => self.scalar::<S>()?,
            };
            // Attach the finished value to its parent; close parents.
            loop {
                let Some(frame) = stack.last_mut() else {
                    return Ok(done);
                };
                self.skip_ws();
                let close = match frame {
                    Frame::Array(items) => {
                        items.push(done);
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.skip_ws();
                                continue 'value;
                            }
                            Some(b']') => true,
                            None => return self.err(K::UnexpectedEnd),
                            _ => return self.err(K::ExpectedDelimiter),
                        }
                    }
                    Frame::Object(map, key) => {
                        sink.insert(map, core::mem::take(key), done);
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.skip_ws();
                                *key = self.key()?;
                                continue 'value;
                            }
                            Some(b'}') => true,
                            None => return self.err(K::UnexpectedEnd),
                            _ => return self.err(K::ExpectedDelimiter),
                        }
                    }
                };
                debug_assert!(close);
                self.pos += 1;
                done = match stack.pop() {
                    Some(Frame::Array(items)) => S::array(items),
                    Some(Frame::Object(map, _)) => sink.object(map, stack.len()),
                    None => S::null(),
                };
            }
        }
    }

    /// `"key" :` with the whitespace around, leaving the cursor on the value.
    pub(super) fn key(&mut self) -> Result<Cow<'a, str>, DecodeError> {
        if self.peek() != Some(b'"') {
            return self.err(if self.peek().is_none() {
                K::UnexpectedEnd
            } else {
                K::ExpectedKey
            });
        }
        let key = self.string()?;
        if !self.colon() {
            return self.err(K::ExpectedColon);
        }
        Ok(key)
    }

    /// Moves past `:` and the whitespace around it; false, the cursor on
    /// what stands there instead, when there is none.
    pub(super) fn colon(&mut self) -> bool {
        self.skip_ws();
        if self.peek() != Some(b':') {
            return false;
        }
        self.pos += 1;
        self.skip_ws();
        true
    }

    /// Moves past the string `"s"` when the text at the cursor is exactly
    /// that and `s` needs no escape (no quote, backslash or control
    /// character, all ASCII): it then reads as `s`. False, the cursor
    /// left, for any other text (which may still read as `s`, written
    /// with escapes).
    pub(super) fn eat_plain_string(&mut self, s: &str) -> bool {
        let (at, n) = (self.pos, s.len());
        let written = self.bytes.get(at) == Some(&b'"')
            && self.bytes.get(at + 1..at + 1 + n) == Some(s.as_bytes())
            && self.bytes.get(at + 1 + n) == Some(&b'"');
        // (Non-ASCII and DEL, which the encoder escapes, are looked at
        // too: text holding them raw is left to the parse.)
        if !written || any_special(s.as_bytes()) {
            return false;
        }
        self.pos = at + n + 2;
        true
    }

    /// Moves past a string literal written with escapes (as the encoder
    /// writes a string holding a quote, a backslash, a control character or
    /// anything outside ASCII) when it reads as `s`, compared escape by
    /// escape without building the string. False, the cursor left, when it
    /// does not, or when it holds what the parse must judge: a raw control
    /// or non-ASCII byte, a surrogate escape outside a pair, a bad escape.
    pub(super) fn eat_escaped_string(&mut self, s: &str) -> bool {
        let want = s.as_bytes();
        if self.bytes.get(self.pos) != Some(&b'"') {
            return false;
        }
        let (mut i, mut j) = (self.pos + 1, 0usize);
        loop {
            // The plain run up to the next quote or backslash.
            let rest = self.bytes.get(i..).unwrap_or_default();
            let Some(end) = memchr::memchr2(b'"', b'\\', rest) else {
                return false;
            };
            let run = rest.get(..end).unwrap_or_default();
            if want.get(j..j + end) != Some(run) || run.iter().any(|&b| !(0x20..0x7f).contains(&b))
            {
                return false;
            }
            (i, j) = (i + end, j + end);
            if self.bytes.get(i) == Some(&b'"') {
                if j != want.len() {
                    return false;
                }
                self.pos = i + 1;
                return true;
            }
            let Some((c, len)) = self.escaped_char(i) else {
                return false;
            };
            let mut buf = [0u8; 4];
            let e = c.encode_utf8(&mut buf).as_bytes();
            if want.get(j..j + e.len()) != Some(e) {
                return false;
            }
            (i, j) = (i + len, j + e.len());
        }
    }

    /// The character the escape at `at` stands for and the escape's length;
    /// `None` for a bad escape or a surrogate outside a pair (the parse
    /// reads those).
    fn escaped_char(&self, at: usize) -> Option<(char, usize)> {
        let c = match self.bytes.get(at + 1)? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let hi = self.hex4(at + 2)?;
                if !(0xD800..0xE000).contains(&hi) {
                    return Some((char::from_u32(hi)?, 6));
                }
                if hi >= 0xDC00 || self.bytes.get(at + 6..at + 8) != Some(b"\\u") {
                    return None;
                }
                let lo = self
                    .hex4(at + 8)
                    .filter(|lo| (0xDC00..0xE000).contains(lo))?;
                let cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                return Some((char::from_u32(cp)?, 12));
            }
            _ => return None,
        };
        Some((c, 2))
    }

    /// Moves past an integer written as Python writes one — `0`, or
    /// digits not starting with `0`, after an optional `-` — of at most
    /// 18 digits and with neither a fraction nor an exponent after it:
    /// its value. `None`, the cursor left, for any other text.
    #[inline]
    pub(super) fn eat_small_int(&mut self) -> Option<i64> {
        let rest = self.bytes.get(self.pos..)?;
        let neg = rest.first() == Some(&b'-');
        let digits = rest.get(usize::from(neg)..)?;
        let n = digits
            .iter()
            .take(19)
            .take_while(|b| b.is_ascii_digit())
            .count();
        let leading_zero = n > 1 && digits.first() == Some(&b'0');
        if n == 0 || n > 18 || leading_zero || matches!(digits.get(n), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        let v = digits
            .get(..n)?
            .iter()
            .fold(0i64, |v, &d| v * 10 + i64::from(d - b'0'));
        self.pos += usize::from(neg) + n;
        Some(if neg { -v } else { v })
    }

    pub(super) fn scalar<S: Sink<'a>>(&mut self) -> Result<S::Value, DecodeError> {
        match self.peek() {
            None => self.err(K::ExpectedValue),
            Some(b'"') => self.string().map(S::string),
            Some(b'n') if self.eat_word("null") => Ok(S::null()),
            Some(b't') if self.eat_word("true") => Ok(S::bool(true)),
            Some(b'f') if self.eat_word("false") => Ok(S::bool(false)),
            Some(b'N') if self.eat_word("NaN") => Ok(S::number(float_value(f64::NAN))),
            Some(b'I') if self.eat_word("Infinity") => Ok(S::number(float_value(f64::INFINITY))),
            Some(b'-') if self.bytes.get(self.pos + 1) == Some(&b'I') => {
                if self.eat_word("-Infinity") {
                    Ok(S::number(float_value(f64::NEG_INFINITY)))
                } else {
                    self.err(K::ExpectedValue)
                }
            }
            Some(b'-' | b'0'..=b'9') => self.number().map(S::number),
            Some(_) => self.err(K::ExpectedValue),
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        self.pos - start
    }

    fn number(&mut self) -> Result<Value, DecodeError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        let int_start = self.pos;
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => {
                self.pos = start;
                return self.err(K::ExpectedValue);
            }
        }
        let int_end = self.pos;
        let mut float = false;
        if self.peek() == Some(b'.') && matches!(self.bytes.get(self.pos + 1), Some(b'0'..=b'9')) {
            self.pos += 1;
            self.digits();
            float = true;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            let save = self.pos;
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if self.digits() == 0 {
                self.pos = save;
            } else {
                float = true;
            }
        }
        let text = self.text.get(start..self.pos).unwrap_or_default();
        if float {
            return Ok(float_value(text.parse::<f64>().unwrap_or(f64::NAN)));
        }
        if int_end - int_start > MAX_INT_DIGITS {
            return Err(DecodeError::new(K::IntTooLong, start));
        }
        if text == "-0" {
            return Ok(Value::from(0u64));
        }
        Ok(int_from_canonical(text))
    }

    /// The length of the run of plain string bytes at the cursor (up to a
    /// quote, a backslash or a control character).
    fn plain_run(&self) -> Result<usize, DecodeError> {
        let rest = self.bytes.get(self.pos..).unwrap_or_default();
        // The quote or backslash ending the run, then a control character
        // before it (rare: checked over the run without a branch a byte).
        let end = memchr::memchr2(b'"', b'\\', rest).unwrap_or(rest.len());
        let run = rest.get(..end).unwrap_or_default();
        let end = if run.iter().fold(false, |c, &b| c | (b < 0x20)) {
            run.iter().position(|&b| b < 0x20).unwrap_or(end)
        } else {
            end
        };
        if end == rest.len() {
            return Err(DecodeError::new(K::UnexpectedEnd, self.bytes.len()));
        }
        Ok(end)
    }

    /// A string at the cursor (which is on its opening quote), borrowed
    /// from the text when it has no escape.
    fn string(&mut self) -> Result<Cow<'a, str>, DecodeError> {
        self.pos += 1;
        let start = self.pos;
        let mut run = self.plain_run()?;
        if self.bytes.get(start + run) == Some(&b'"') {
            self.pos = start + run + 1;
            return Ok(Cow::Borrowed(
                self.text.get(start..start + run).unwrap_or_default(),
            ));
        }
        let mut out = String::new();
        loop {
            out.push_str(self.text.get(self.pos..self.pos + run).unwrap_or_default());
            self.pos += run;
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(Cow::Owned(out));
                }
                Some(b'\\') => self.escape(&mut out)?,
                _ => return self.err(K::ControlCharacter),
            }
            run = self.plain_run()?;
        }
    }

    fn hex4(&self, at: usize) -> Option<u32> {
        let h = self.bytes.get(at..at + 4)?;
        // Four ASCII hex digits, either case (a non-ASCII byte is none).
        h.iter()
            .try_fold(0u32, |n, &b| Some(n << 4 | char::from(b).to_digit(16)?))
    }

    fn escape(&mut self, out: &mut String) -> Result<(), DecodeError> {
        let at = self.pos;
        if let Some((c, len)) = self.escaped_char(at) {
            out.push(c);
            self.pos = at + len;
            return Ok(());
        }
        match (self.bytes.get(at + 1), self.hex4(at + 2)) {
            (None, _) => Err(DecodeError::new(K::UnexpectedEnd, at)),
            (Some(b'u'), Some(_)) => {
                // A lone surrogate decodes to U+FFFD (spec D1.2).
                out.push('\u{fffd}');
                self.pos = at + 6;
                Ok(())
            }
            _ => Err(DecodeError::new(K::InvalidEscape, at)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn p(s: &str) -> Result<Value, DecodeError> {
        parse(s, DEFAULT_DEPTH_LIMIT)
    }

    #[test]
    fn values() {
        let v =
            p(r#" {"a":[1,-0,2.5,1e2,"x\u00e9\ud83d\ude00",true,null],"a":NaN,"b":{}} "#).unwrap();
        assert_eq!(v.to_string(), r#"{"a":{"$float":"nan"},"b":{}}"#);
        let v = p(r#"[1,-0,2.5,1e2,"\ud800x",-Infinity]"#).unwrap();
        assert_eq!(v.to_string(), r#"[1,0,2.5,100.0,"�x",{"$float":"-inf"}]"#);
    }

    #[test]
    fn errors_with_offsets() {
        let cases: &[(&str, K, usize)] = &[
            ("hello", K::ExpectedValue, 0),
            ("[1,]", K::ExpectedValue, 3),
            ("[1 2]", K::ExpectedDelimiter, 3),
            ("{1:2}", K::ExpectedKey, 1),
            ("{\"a\" 2}", K::ExpectedColon, 5),
            ("\"a\nb\"", K::ControlCharacter, 2),
            ("\"\\x\"", K::InvalidEscape, 1),
            ("1 2", K::ExtraData, 2),
            ("01", K::ExtraData, 1),
            ("1.", K::ExtraData, 1),
            ("[", K::ExpectedValue, 1),
            ("\"abc", K::UnexpectedEnd, 4),
        ];
        for &(text, kind, offset) in cases {
            assert_eq!(p(text), Err(DecodeError::new(kind, offset)), "{text}");
        }
    }

    /// The borrowed parse gives what the owned one gives, converted, or
    /// the same error at the same offset; strings without escapes borrow.
    #[test]
    fn borrowed_parse_equals_the_owned_one() {
        let many: String = (0..40)
            .chain(0..40)
            .map(|i| alloc::format!("\"k{}\":{i},", i % 23))
            .collect();
        let texts = [
            r#" {"a":[1,-0,2.5,1e2,"x\u00e9\ud83d\ude00",true,null],"a":NaN,"b":{}} "#.to_string(),
            r#"[1,-0,2.5,1e2,"\ud800x",-Infinity, "a\"b", "", "plain"]"#.to_string(),
            alloc::format!("{{{many}\"z\":[]}}"),
            "{\"a\": 1, \"b\": {\"a\": 2, \"a\": 3}, \"a\": 4}".to_string(),
            r#"["ok", "bad\u12"]"#.to_string(),
            "\"tab\there\"".to_string(),
            "{\"a\" 1}".to_string(),
            "[1, 2".to_string(),
        ];
        for text in &texts {
            let owned = p(text);
            let borrowed = parse_borrowed(text, DEFAULT_DEPTH_LIMIT);
            match (owned, borrowed) {
                (Ok(o), Ok(b)) => assert_eq!(BorrowedValue::from(o), b, "{text}"),
                (Err(o), Err(b)) => assert_eq!(o, b, "{text}"),
                (o, b) => panic!("{text}: {o:?} against {b:?}"),
            }
        }
        let v = parse_borrowed(r#"{"k": ["v", "e\n"]}"#, DEFAULT_DEPTH_LIMIT).unwrap();
        let BorrowedValue::Object(members) = v else {
            panic!("not an object")
        };
        assert!(matches!(members[0].0, Cow::Borrowed("k")));
        let BorrowedValue::Array(items) = &members[0].1 else {
            panic!("not a list")
        };
        assert!(matches!(
            items[0],
            BorrowedValue::String(Cow::Borrowed("v"))
        ));
        assert!(matches!(&items[1], BorrowedValue::String(Cow::Owned(s)) if s == "e\n"));
    }

    /// Records that repeat their keys (filled in from a shape), change
    /// them, repeat one, or nest: what `serde_json` reads, key order
    /// included (its maps keep the last duplicate at the first place, as
    /// Python does).
    #[test]
    fn records_read_as_serde_json_reads_them() {
        let texts = [
            r#"[{"a":1,"b":"x"},{"a":2,"b":"y"},{"a":3,"b":"z"},{"b":4,"a":5},{"a":6,"b":7}]"#,
            r#"[{"a":1,"b":2},{"a":1,"b":2},{"a":3,"a":4},{"a":5,"b":6},{"a":7,"b":8,"c":9}]"#,
            r#"[{"a":1,"b":2},{"a":1,"b":2},{"a":1,"b":2,"a":3},{"a":{"k":1},"b":{"k":2}},{"a":{"k":3},"b":{"j":4}}]"#,
            r#"[{},{},{"a":[{"x":1},{"x":2},{"x":3,"y":4}]},{"a":[]}]"#,
        ];
        for text in texts {
            let ours = p(text).unwrap();
            let theirs: Value = serde_json::from_str(text).unwrap();
            assert_eq!(ours.to_string(), theirs.to_string(), "{text}");
        }
    }

    #[test]
    fn depth_is_bounded() {
        let deep = "[".repeat(100_000);
        assert_eq!(p(&deep).unwrap_err().kind, K::DepthLimit);
        let ok = alloc::format!("{}{}", "[".repeat(1000), "]".repeat(1000));
        assert!(p(&ok).is_ok());
        let over = alloc::format!("{}{}", "[".repeat(1001), "]".repeat(1001));
        assert_eq!(p(&over).unwrap_err().kind, K::DepthLimit);
        let deep_objects = "{\"a\":".repeat(100_000);
        let err = parse_borrowed(&deep_objects, DEFAULT_DEPTH_LIMIT).unwrap_err();
        assert_eq!(err.kind, K::DepthLimit);
    }
    /// A string literal compared escape by escape reads as the string: the
    /// encoder's own literal of every string does, and whenever a literal
    /// (its escapes written otherwise, cut, changed, holding lone
    /// surrogates or raw bytes) is said to read as a string, the parse
    /// reads exactly that string from it and stops at the same place.
    #[test]
    fn escaped_strings_compared_in_place() {
        let mut next = crate::test_rng::xorshift32(0x7f4a_7c15);
        let pieces = [
            "a",
            "Z",
            "\"",
            "\\",
            "/",
            "\n",
            "\r",
            "\t",
            "\u{8}",
            "\u{c}",
            "\u{1}",
            "\u{1f}",
            "\u{7f}",
            "\u{e9}",
            "\u{2028}",
            "\u{fffd}",
            "\u{1f600}",
            " ",
            "\u{d7ff}",
            "\u{e000}",
        ];
        let escapes = [
            "\\u00e9",
            "\\u00E9",
            "\\/",
            "/",
            "\\ud800",
            "\\udc00",
            "\\ud83d\\ude00",
            "\\ud83d",
            "\\x",
            "\\u12",
            "\u{e9}",
            "\u{1}",
            "\\\"",
            "\"",
            "\\",
        ];
        for round in 0..20_000 {
            let len = (next() % 8) as usize;
            let s: String = (0..len)
                .map(|_| pieces[next() as usize % pieces.len()])
                .collect();
            let mut literal = String::new();
            crate::py::json_write::write_python_json(&Value::String(s.clone()), &mut literal);
            let mut own = Parser::new(&literal);
            assert!(own.eat_escaped_string(&s), "{s:?} {literal}");
            assert_eq!(own.pos, literal.len());
            // Another literal: an escape put in, a byte dropped or the end
            // cut, then whatever follows it.
            let mut other = literal.clone();
            match round % 3 {
                0 if other.len() > 2 => {
                    let at = 1 + next() as usize % (other.len() - 2);
                    if other.is_char_boundary(at) {
                        other.insert_str(at, escapes[next() as usize % escapes.len()]);
                    }
                }
                1 if other.len() > 2 => {
                    let at = 1 + next() as usize % (other.len() - 2);
                    if other.is_char_boundary(at) && other.is_char_boundary(at + 1) {
                        other.remove(at);
                    }
                }
                _ => other.truncate(next() as usize % (other.len() + 1)),
            }
            other.push_str(",1]");
            let mut ours = Parser::new(&other);
            if ours.eat_escaped_string(&s) {
                let mut theirs = Parser::new(&other);
                let read = theirs.string().unwrap();
                assert_eq!(
                    (read.as_ref(), theirs.pos),
                    (s.as_str(), ours.pos),
                    "{other}"
                );
            } else {
                assert_eq!(ours.pos, 0);
            }
        }
    }
}
