//! The iterative strict parser behind [`Value::parse`](crate::Value::parse).

use alloc::string::String;
use alloc::vec::Vec;

use crate::value::{Number, ParseError, Value};

enum Open {
    Array(Vec<Value>),
    Object(Vec<(String, Value)>, String),
}

struct Parser<'a> {
    src: &'a [u8],
    text: &'a str,
    pos: usize,
    /// When kept: every value's span, in document (pre-)order.
    spans: Option<Vec<(usize, usize)>>,
    /// Lone surrogate escapes decode to U+FFFD instead of failing (requests).
    lone_surrogates_ok: bool,
}

/// Parses a request line: strict JSON, except that a lone surrogate escape
/// decodes to U+FFFD (spec §16); with the spans.
pub(crate) fn parse_request(text: &str) -> Result<(Value, Vec<(usize, usize)>), ParseError> {
    let mut p = Parser {
        src: text.as_bytes(),
        text,
        pos: 0,
        spans: Some(Vec::new()),
        lone_surrogates_ok: true,
    };
    let v = p.run().map_err(|()| ParseError { offset: p.pos })?;
    p.ws();
    if p.pos != p.src.len() {
        return Err(ParseError { offset: p.pos });
    }
    Ok((v, p.spans.unwrap_or_default()))
}

/// Parses and returns each value's byte span in document order (a value's
/// span comes before its children's).
pub(crate) fn parse_with_spans(text: &str) -> Result<(Value, Vec<(usize, usize)>), ParseError> {
    let mut p = Parser {
        src: text.as_bytes(),
        text,
        pos: 0,
        spans: Some(Vec::new()),
        lone_surrogates_ok: false,
    };
    let v = p.run().map_err(|()| ParseError { offset: p.pos })?;
    p.ws();
    if p.pos != p.src.len() {
        return Err(ParseError { offset: p.pos });
    }
    Ok((v, p.spans.unwrap_or_default()))
}

pub(crate) fn parse(text: &str) -> Result<Value, ParseError> {
    let mut p = Parser {
        src: text.as_bytes(),
        text,
        pos: 0,
        spans: None,
        lone_surrogates_ok: false,
    };
    let v = p.run().map_err(|()| ParseError { offset: p.pos })?;
    p.ws();
    if p.pos != p.src.len() {
        return Err(ParseError { offset: p.pos });
    }
    Ok(v)
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn eat(&mut self, b: u8) -> Result<(), ()> {
        self.ws();
        if self.peek() == Some(b) {
            self.pos += 1;
            Ok(())
        } else {
            Err(())
        }
    }

    fn open_span(&mut self) -> usize {
        match &mut self.spans {
            Some(s) => {
                s.push((self.pos, self.pos));
                s.len() - 1
            }
            None => 0,
        }
    }

    fn close_span(&mut self, index: usize) {
        let end = self.pos;
        if let Some(span) = self.spans.as_mut().and_then(|s| s.get_mut(index)) {
            span.1 = end;
        }
    }

    fn run(&mut self) -> Result<Value, ()> {
        let mut stack: Vec<Open> = Vec::new();
        // Span slots of the open containers.
        let mut slots: Vec<usize> = Vec::new();
        loop {
            self.ws();
            // A value starts here.
            let slot = self.open_span();
            let container = matches!(self.peek(), Some(b'{' | b'['));
            let mut value = match self.peek() {
                Some(b'{') => {
                    self.pos += 1;
                    self.ws();
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                        Value::Object(Vec::new())
                    } else {
                        let key = self.string()?;
                        self.eat(b':')?;
                        stack.push(Open::Object(Vec::new(), key));
                        slots.push(slot);
                        continue;
                    }
                }
                Some(b'[') => {
                    self.pos += 1;
                    self.ws();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        Value::Array(Vec::new())
                    } else {
                        stack.push(Open::Array(Vec::new()));
                        slots.push(slot);
                        continue;
                    }
                }
                Some(b'"') => Value::String(self.string()?),
                Some(b't') => self.word("true", Value::Bool(true))?,
                Some(b'f') => self.word("false", Value::Bool(false))?,
                Some(b'n') => self.word("null", Value::Null)?,
                Some(b'-' | b'0'..=b'9') => self.number()?,
                _ => return Err(()),
            };
            let _ = container;
            self.close_span(slot);
            // Attach the value and close what ends here.
            loop {
                match stack.last_mut() {
                    None => return Ok(value),
                    Some(Open::Array(items)) => {
                        items.push(value);
                        self.ws();
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                break;
                            }
                            Some(b']') => {
                                self.pos += 1;
                                let Some(Open::Array(items)) = stack.pop() else {
                                    return Err(());
                                };
                                if let Some(slot) = slots.pop() {
                                    self.close_span(slot);
                                }
                                value = Value::Array(items);
                            }
                            _ => return Err(()),
                        }
                    }
                    Some(Open::Object(pairs, key)) => {
                        pairs.push((core::mem::take(key), value));
                        self.ws();
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.ws();
                                let k = self.string()?;
                                self.eat(b':')?;
                                if let Some(Open::Object(_, key)) = stack.last_mut() {
                                    *key = k;
                                }
                                break;
                            }
                            Some(b'}') => {
                                self.pos += 1;
                                let Some(Open::Object(pairs, _)) = stack.pop() else {
                                    return Err(());
                                };
                                if let Some(slot) = slots.pop() {
                                    self.close_span(slot);
                                }
                                value = Value::Object(pairs);
                            }
                            _ => return Err(()),
                        }
                    }
                }
            }
        }
    }

    fn word(&mut self, w: &str, v: Value) -> Result<Value, ()> {
        if self.src.get(self.pos..self.pos + w.len()) == Some(w.as_bytes()) {
            self.pos += w.len();
            Ok(v)
        } else {
            Err(())
        }
    }

    fn number(&mut self) -> Result<Value, ()> {
        let start = self.pos;
        let len = crate::json::number_len(self.src.get(start..).unwrap_or_default()).ok_or(())?;
        self.pos += len;
        let text = self.text.get(start..self.pos).ok_or(())?;
        Ok(Value::Number(Number::from_text(text)))
    }

    fn hex4(&self, at: usize) -> Result<u32, ()> {
        crate::json::hex4(self.src, at).ok_or(())
    }

    fn string(&mut self) -> Result<String, ()> {
        if self.peek() != Some(b'"') {
            return Err(());
        }
        self.pos += 1;
        let mut out = String::new();
        loop {
            let rest = self.src.get(self.pos..).unwrap_or_default();
            let stop = crate::strict::find_string_stop(rest, false).ok_or(())?;
            out.push_str(self.text.get(self.pos..self.pos + stop).ok_or(())?);
            self.pos += stop;
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    let e = self.src.get(self.pos + 1).copied().ok_or(())?;
                    let c = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let unit = self.hex4(self.pos + 2)?;
                            let low = (self.src.get(self.pos + 6..self.pos + 8) == Some(b"\\u"))
                                .then(|| self.hex4(self.pos + 8).ok())
                                .flatten()
                                .filter(|lo| (0xDC00..0xE000).contains(lo));
                            match (unit, low) {
                                (0xD800..=0xDBFF, Some(lo)) => {
                                    self.pos += 6;
                                    char::from_u32(
                                        0x10000 + ((unit - 0xD800) << 10) + (lo - 0xDC00),
                                    )
                                    .ok_or(())?
                                }
                                (0xD800..=0xDFFF, _) if self.lone_surrogates_ok => '\u{FFFD}',
                                (0xD800..=0xDFFF, _) => return Err(()),
                                _ => char::from_u32(unit).ok_or(())?,
                            }
                        }
                        _ => return Err(()),
                    };
                    out.push(c);
                    self.pos += if e == b'u' { 6 } else { 2 };
                }
                _ => return Err(()),
            }
        }
    }
}
