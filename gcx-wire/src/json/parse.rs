//! A JSON reader that keeps number literals verbatim (Go `UseNumber`, §7.4)
//! and normalises as Go's `encoding/json` does: object keys unique (last
//! wins), invalid UTF-8 in strings replaced by one U+FFFD per byte, lone
//! surrogate escapes replaced by U+FFFD. Iterative (an explicit stack), so
//! nesting depth costs heap, bounded by [`MAX_DEPTH`].

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::Value;

/// The deepest nesting accepted.
///
/// ```
/// use gcx_wire::json::{MAX_DEPTH, parse};
/// let nested = |n: usize| "[".repeat(n) + "1" + &"]".repeat(n);
/// assert!(parse(nested(MAX_DEPTH).as_bytes()).is_ok());
/// assert!(parse(nested(MAX_DEPTH + 1).as_bytes()).is_err());
/// ```
pub const MAX_DEPTH: usize = 512;

/// Why JSON text was rejected, and where.
///
/// ```
/// let err = gcx_wire::json::parse(b"[1, 2").unwrap_err();
/// assert_eq!(err.offset, 5);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid JSON at byte {offset}: {what}")]
pub struct JsonError {
    /// Byte offset of the problem.
    pub offset: usize,
    /// What was expected or found.
    pub what: &'static str,
}

enum Frame<'a> {
    Array(Vec<Value<'a>>),
    Object(Vec<(Cow<'a, str>, Value<'a>)>, Option<Cow<'a, str>>),
}

struct Parser<'a> {
    input: &'a [u8],
    pos: usize,
}

impl<'a> Parser<'a> {
    fn err(&self, what: &'static str) -> JsonError {
        JsonError {
            offset: self.pos,
            what,
        }
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.input.get(self.pos) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    fn expect_lit(&mut self, lit: &[u8], what: &'static str) -> Result<(), JsonError> {
        if self
            .input
            .get(self.pos..)
            .is_some_and(|r| r.starts_with(lit))
        {
            self.pos += lit.len();
            Ok(())
        } else {
            Err(self.err(what))
        }
    }

    fn number(&mut self) -> Result<&'a str, JsonError> {
        let start = self.pos;
        let digits = |p: &mut Self| {
            let s = p.pos;
            while p.peek().is_some_and(|b| b.is_ascii_digit()) {
                p.pos += 1;
            }
            p.pos - s
        };
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                digits(self);
            }
            _ => return Err(self.err("a digit")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if digits(self) == 0 {
                return Err(self.err("a digit after '.'"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if digits(self) == 0 {
                return Err(self.err("a digit in the exponent"));
            }
        }
        let text = self.input.get(start..self.pos).unwrap_or_default();
        // Only ASCII digits, signs, '.', 'e' were consumed.
        core::str::from_utf8(text).map_err(|_| self.err("a number"))
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = self
                .peek()
                .and_then(|b| char::from(b).to_digit(16))
                .ok_or_else(|| self.err("four hex digits"))?;
            v = v * 16 + d;
            self.pos += 1;
        }
        Ok(v)
    }

    fn string(&mut self) -> Result<Cow<'a, str>, JsonError> {
        // At the opening quote.
        self.pos += 1;
        let start = self.pos;
        // Fast path: no escape, valid UTF-8, no control byte.
        let rest = self.input.get(start..).unwrap_or_default();
        if let Some(end) = memchr2(b'"', b'\\', rest) {
            let raw = rest.get(..end).unwrap_or_default();
            if rest.get(end) == Some(&b'"') && !raw.iter().any(|&b| b < 0x20) {
                if let Ok(s) = core::str::from_utf8(raw) {
                    self.pos = start + end + 1;
                    return Ok(Cow::Borrowed(s));
                }
            }
        }
        let mut out = String::new();
        loop {
            let Some(b) = self.peek() else {
                return Err(self.err("a closing quote"));
            };
            match b {
                b'"' => {
                    self.pos += 1;
                    return Ok(Cow::Owned(out));
                }
                b'\\' => {
                    self.pos += 1;
                    let esc = self.peek().ok_or_else(|| self.err("an escape"))?;
                    self.pos += 1;
                    match esc {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let c = if (0xD800..0xDC00).contains(&hi)
                                && self.input.get(self.pos..self.pos + 2) == Some(b"\\u")
                            {
                                let save = self.pos;
                                self.pos += 2;
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                                } else {
                                    // Lone high surrogate: U+FFFD, and the
                                    // second escape is read on its own.
                                    self.pos = save;
                                    None
                                }
                            } else {
                                char::from_u32(hi)
                            };
                            out.push(c.unwrap_or('\u{FFFD}'));
                        }
                        _ => {
                            self.pos -= 1;
                            return Err(self.err("a valid escape"));
                        }
                    }
                }
                0..=0x1F => return Err(self.err("no control character in a string")),
                _ => {
                    // A run of plain bytes up to the next quote/backslash.
                    let rest = self.input.get(self.pos..).unwrap_or_default();
                    let end = memchr2(b'"', b'\\', rest).unwrap_or(rest.len());
                    let run = rest.get(..end).unwrap_or_default();
                    if let Some(i) = run.iter().position(|&b| b < 0x20) {
                        self.pos += i;
                        return Err(self.err("no control character in a string"));
                    }
                    for chunk in run.utf8_chunks() {
                        out.push_str(chunk.valid());
                        for _ in chunk.invalid() {
                            out.push('\u{FFFD}');
                        }
                    }
                    self.pos += end;
                }
            }
        }
    }
}

fn memchr2(a: u8, b: u8, hay: &[u8]) -> Option<usize> {
    wire_lex::Cursor::new(hay).find_any(&[a, b])
}

/// Sorts pairs by key bytewise and keeps the last of repeated keys (Go
/// decodes into a map, then marshals sorted).
type Pairs<'a> = Vec<(Cow<'a, str>, Value<'a>)>;

fn normalise(mut pairs: Pairs<'_>) -> Pairs<'_> {
    // Stable sort keeps input order among equal keys; keep the last.
    pairs.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let mut out: Pairs<'_> = Vec::with_capacity(pairs.len());
    for pair in pairs {
        match out.last_mut() {
            Some(last) if last.0 == pair.0 => *last = pair,
            _ => out.push(pair),
        }
    }
    out
}

/// Parses one JSON document (surrounding whitespace allowed).
///
/// # Errors
/// [`JsonError`] with the offset of the first problem; nesting deeper than
/// [`MAX_DEPTH`] is an error too.
///
/// ```
/// use gcx_wire::json::{Value, parse};
///
/// let v = parse(br#"{"b": 5E+3, "a": [true, null], "b": 1.0}"#)?;
/// let Value::Object(pairs) = v else { unreachable!() };
/// assert_eq!(pairs[0].0, "a");
/// assert_eq!(pairs[1].1, Value::Number("1.0")); // last wins, literal kept
/// # Ok::<(), gcx_wire::json::JsonError>(())
/// ```
pub fn parse(input: &[u8]) -> Result<Value<'_>, JsonError> {
    let mut p = Parser { input, pos: 0 };
    let mut stack: Vec<Frame<'_>> = Vec::new();
    loop {
        // Read one value (or open a container).
        p.skip_ws();
        let mut value = match p.peek() {
            Some(b'{') => {
                p.pos += 1;
                p.skip_ws();
                if p.peek() == Some(b'}') {
                    p.pos += 1;
                    Value::Object(Vec::new())
                } else {
                    if stack.len() >= MAX_DEPTH {
                        return Err(p.err("less nesting"));
                    }
                    if p.peek() != Some(b'"') {
                        return Err(p.err("a key"));
                    }
                    let key = p.string()?;
                    p.skip_ws();
                    if p.peek() != Some(b':') {
                        return Err(p.err("':'"));
                    }
                    p.pos += 1;
                    stack.push(Frame::Object(Vec::new(), Some(key)));
                    continue;
                }
            }
            Some(b'[') => {
                p.pos += 1;
                p.skip_ws();
                if p.peek() == Some(b']') {
                    p.pos += 1;
                    Value::Array(Vec::new())
                } else {
                    if stack.len() >= MAX_DEPTH {
                        return Err(p.err("less nesting"));
                    }
                    stack.push(Frame::Array(Vec::new()));
                    continue;
                }
            }
            Some(b'"') => Value::String(p.string()?),
            Some(b't') => {
                p.expect_lit(b"true", "a value")?;
                Value::Bool(true)
            }
            Some(b'f') => {
                p.expect_lit(b"false", "a value")?;
                Value::Bool(false)
            }
            Some(b'n') => {
                p.expect_lit(b"null", "a value")?;
                Value::Null
            }
            Some(b'-' | b'0'..=b'9') => Value::Number(p.number()?),
            _ => return Err(p.err("a value")),
        };
        // Attach it to its container; close containers that end here.
        loop {
            p.skip_ws();
            match stack.last_mut() {
                None => {
                    if p.pos != input.len() {
                        return Err(p.err("the end of the input"));
                    }
                    return Ok(value);
                }
                Some(Frame::Array(items)) => {
                    items.push(value);
                    match p.peek() {
                        Some(b',') => {
                            p.pos += 1;
                            break;
                        }
                        Some(b']') => {
                            p.pos += 1;
                            let Some(Frame::Array(items)) = stack.pop() else {
                                return Err(p.err("an array"));
                            };
                            value = Value::Array(items);
                        }
                        _ => return Err(p.err("',' or ']'")),
                    }
                }
                Some(Frame::Object(pairs, key)) => {
                    if let Some(k) = key.take() {
                        pairs.push((k, value));
                    }
                    match p.peek() {
                        Some(b',') => {
                            p.pos += 1;
                            p.skip_ws();
                            if p.peek() != Some(b'"') {
                                return Err(p.err("a key"));
                            }
                            let k = p.string()?;
                            p.skip_ws();
                            if p.peek() != Some(b':') {
                                return Err(p.err("':'"));
                            }
                            p.pos += 1;
                            *key = Some(k);
                            break;
                        }
                        Some(b'}') => {
                            p.pos += 1;
                            let Some(Frame::Object(pairs, _)) = stack.pop() else {
                                return Err(p.err("an object"));
                            };
                            value = Value::Object(normalise(pairs));
                        }
                        _ => return Err(p.err("',' or '}'")),
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_are_verbatim() {
        let v = parse(b"[1.0, -0, 1e400, 0.1e-7, 5E+3, 12345678901234567890123]").unwrap();
        let Value::Array(items) = v else { panic!() };
        let lits: Vec<&str> = items
            .iter()
            .map(|i| match i {
                Value::Number(n) => *n,
                _ => "",
            })
            .collect();
        assert_eq!(
            lits,
            [
                "1.0",
                "-0",
                "1e400",
                "0.1e-7",
                "5E+3",
                "12345678901234567890123"
            ]
        );
    }

    #[test]
    fn strings_normalise_like_go() {
        assert_eq!(
            parse(br#""\ud800x""#).unwrap(),
            Value::String("\u{FFFD}x".into())
        );
        assert_eq!(
            parse(b"\"a\xFF\xFEb\"").unwrap(),
            Value::String("a\u{FFFD}\u{FFFD}b".into())
        );
        assert_eq!(
            parse(br#""\ud83d\ude00""#).unwrap(),
            Value::String("😀".into())
        );
    }

    #[test]
    fn rejects_with_offsets() {
        assert_eq!(parse(b"[1,]").unwrap_err().offset, 3);
        assert_eq!(parse(b"01").unwrap_err().offset, 1);
        assert_eq!(parse(b"{\"a\" 1}").unwrap_err().offset, 5);
        assert!(parse(b"").is_err());
        let deep = "[".repeat(MAX_DEPTH + 1);
        assert!(parse(deep.as_bytes()).is_err());
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(ok.as_bytes()).is_ok());
    }
}
