//! Bare runs (spec §4.2): unquoted keys and values, numbers (§4.3),
//! literals (§4.4) and calls.

use alloc::string::String;
use alloc::vec::Vec;

use super::scan::{is_ident, is_ident_start, is_quote};
use super::{Ctx, Engine, Kind, State, Track};
use crate::error::Error;
use crate::rules::Rule;

/// How one word of a bare run reads.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Word {
    /// A JSON number as written.
    Number,
    /// A normalized number and the rules that made it.
    Normalized(String, Vec<Rule>),
    /// A JSON literal (`true`, `false`, `null`) as written.
    Literal,
    /// Another literal spelling: its JSON text and rule.
    Spelled(&'static str, Rule),
    /// Looks like a number but is not JSON: kept as a string (R036).
    NumberLike,
    /// `...` or `…`.
    Ellipsis,
    /// Anything else.
    Text,
}

/// Whether `s` is a JSON number.
pub(crate) fn is_json_number(s: &[u8]) -> bool {
    crate::json::number_len(s) == Some(s.len())
}

/// Whether a word starts like a number.
pub(crate) fn number_like(w: &[u8]) -> bool {
    let body = w
        .strip_prefix("\u{2212}".as_bytes())
        .or_else(|| w.strip_prefix(b"-"))
        .or_else(|| w.strip_prefix(b"+"))
        .unwrap_or(w);
    let body = body.strip_prefix(b".").unwrap_or(body);
    body.first().is_some_and(u8::is_ascii_digit)
}

/// The literal spellings of spec §4.4.
pub(crate) fn literal(w: &[u8]) -> Option<Word> {
    match w {
        b"true" | b"false" | b"null" => return Some(Word::Literal),
        b"undefined" => return Some(Word::Spelled("null", Rule::UndefinedLiteral)),
        b"NaN" => return Some(Word::Spelled("\"NaN\"", Rule::NonFinite)),
        b"Infinity" | b"+Infinity" => return Some(Word::Spelled("\"Infinity\"", Rule::NonFinite)),
        b"-Infinity" => return Some(Word::Spelled("\"-Infinity\"", Rule::NonFinite)),
        _ => {}
    }
    let lower = |s: &[u8]| w.eq_ignore_ascii_case(s);
    if lower(b"true") {
        Some(Word::Spelled("true", Rule::PythonLiteral))
    } else if lower(b"false") {
        Some(Word::Spelled("false", Rule::PythonLiteral))
    } else if lower(b"null") || lower(b"none") {
        Some(Word::Spelled("null", Rule::PythonLiteral))
    } else {
        None
    }
}

/// Normalizes a number-like word (R033–R035, R037 or, at the end of input,
/// R073 for the exponent and point).
pub(crate) fn normalize_number(w: &[u8], at_eof: bool) -> Option<(String, Vec<Rule>)> {
    let mut rules = Vec::new();
    let mut s = String::new();
    let mut body = w;
    if let Some(rest) = body.strip_prefix(b"+") {
        rules.push(Rule::NumberSign);
        body = rest;
    } else if let Some(rest) = body.strip_prefix("\u{2212}".as_bytes()) {
        rules.push(Rule::NumberSign);
        s.push('-');
        body = rest;
    } else if let Some(rest) = body.strip_prefix(b"-") {
        s.push('-');
        body = rest;
    }
    let text = core::str::from_utf8(body).ok()?;
    if text.contains('_') {
        let bytes = text.as_bytes();
        let ok = bytes.iter().enumerate().all(|(i, &b)| {
            b != b'_'
                || (i > 0
                    && bytes.get(i - 1).is_some_and(u8::is_ascii_digit)
                    && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
        });
        if !ok {
            return None;
        }
        rules.push(Rule::DigitSeparator);
    }
    let mut t: String = text.chars().filter(|&c| c != '_').collect();
    if t.starts_with('.') {
        rules.push(Rule::NumberPoint);
        t.insert(0, '0');
    }
    // A dangling exponent: `1e`, `1e+`.
    let trimmed = t.trim_end_matches(['+', '-']);
    if (trimmed.ends_with('e') || trimmed.ends_with('E'))
        && trimmed.len() > 1
        && trimmed[..trimmed.len() - 1]
            .bytes()
            .last()
            .is_some_and(|b| b.is_ascii_digit() || b == b'.')
    {
        rules.push(if at_eof {
            Rule::TruncatedNumber
        } else {
            Rule::DanglingExponent
        });
        let keep = trimmed.len() - 1;
        t.truncate(keep);
    }
    if t.ends_with('.') {
        rules.push(if at_eof {
            Rule::TruncatedNumber
        } else {
            Rule::NumberPoint
        });
        t.push('0');
    }
    s.push_str(&t);
    (is_json_number(s.as_bytes()) && !rules.is_empty()).then_some((s, rules))
}

/// Classifies one word of a bare run.
pub(crate) fn classify(w: &[u8], at_eof: bool) -> Word {
    if w == b"..." || w == "\u{2026}".as_bytes() {
        return Word::Ellipsis;
    }
    if let Some(lit) = literal(w) {
        return lit;
    }
    if is_json_number(w) {
        return Word::Number;
    }
    if number_like(w) {
        return match normalize_number(w, at_eof) {
            Some((s, rules)) => Word::Normalized(s, rules),
            None => Word::NumberLike,
        };
    }
    Word::Text
}

/// The literals a prefix cut off at the end of input may complete to.
const CANDIDATES: &[(&[u8], &str)] = &[
    (b"true", "true"),
    (b"false", "false"),
    (b"null", "null"),
    (b"True", "true"),
    (b"False", "false"),
    (b"None", "null"),
    (b"TRUE", "true"),
    (b"FALSE", "false"),
    (b"NULL", "null"),
    (b"undefined", "null"),
    (b"NaN", "\"NaN\""),
    (b"Infinity", "\"Infinity\""),
];

/// The completion of a literal prefix, if every candidate agrees.
pub(crate) fn complete_literal(w: &[u8]) -> Option<&'static str> {
    let mut found: Option<&'static str> = None;
    for &(cand, out) in CANDIDATES {
        if cand.len() > w.len() && cand.starts_with(w) {
            match found {
                Some(prev) if prev != out => return None,
                _ => found = Some(out),
            }
        }
    }
    found
}

/// Known constructors (R057).
const KNOWN_CALLS: &[&[u8]] = &[
    b"ObjectId",
    b"ISODate",
    b"Date",
    b"new Date",
    b"NumberLong",
    b"NumberInt",
    b"NumberDecimal",
    b"NumberDouble",
    b"UUID",
    b"Timestamp",
    b"BinData",
    b"Decimal",
    b"array",
    b"np.array",
    b"tuple",
    b"list",
];

impl<T: Track> Engine<'_, T> {
    /// `IDENT(` at `at`: the identifier's end (the `(` offset).
    pub(crate) fn call_at(&self, at: usize) -> Option<usize> {
        let mut i = at;
        if self.lit_at(at, b"new ") {
            i += 4;
        }
        if !self.byte(i).is_some_and(is_ident_start) {
            return None;
        }
        while self.byte(i).is_some_and(|b| is_ident(b) || b == b'.') {
            i += 1;
        }
        (self.byte(i) == Some(b'(')).then_some(i)
    }

    pub(crate) fn is_known_call(name: &[u8]) -> bool {
        KNOWN_CALLS.contains(&name)
    }

    /// Scans a bare run from `pos`; returns its trimmed end, where the scan
    /// stopped, and (R017) the offset past a quote that ends it as a missing
    /// opening quote.
    pub(crate) fn scan_run(&self, ctx: Ctx) -> (usize, usize, Option<usize>) {
        let start = self.pos;
        let kind = super::MEMO_RUN + ctx as u8;
        let outer = self.scan_begin(start);
        let (mut at, mut depth) = self.memo_resume(kind, start).unwrap_or((start, 0));
        let mut safe = (at, depth, self.track.horizon());
        let key = ctx == Ctx::Key;
        while let Some(&b) = self.src.get(at) {
            if T::TRACKS {
                // A watch step that reached the end is taken back: keep
                // how far the run is decided and stop.
                if self.starved() {
                    break;
                }
                safe = (at, depth, self.track.horizon());
            }
            self.work.add(1);
            if b >= 0x80 {
                let Some(ch) = self.ch(at) else { break };
                if at > start && is_quote(ch.c) {
                    break;
                }
                if key && ch.c == '\u{FF1A}' {
                    break;
                }
                at += ch.len;
                continue;
            }
            if at > start {
                if matches!(b, b'"' | b'\'' | b'`') {
                    break;
                }
                if matches!(b, b'`' | b'~' | b'<')
                    && (self.fence_close_len(at).is_some() || self.closing_tag_len(at).is_some())
                {
                    break;
                }
            }
            match b {
                b'\n' | b'\r' => break,
                b':' if key => break,
                b',' if depth == 0 => break,
                b';' if depth == 0 && matches!(ctx, Ctx::Elem | Ctx::Top) => break,
                b'}' | b']' | b')' if depth == 0 => break,
                b'}' | b']' | b')' => depth -= 1,
                b'{' | b'[' | b'(' if !key => {
                    // After a number or literal, a bracket starts the next
                    // value; after text it is part of the run.
                    let so_far = self.slice(start, at);
                    if depth == 0 && (number_like(so_far) || literal(so_far).is_some()) {
                        break;
                    }
                    depth += 1;
                }
                b'{' | b'[' if key => break,
                b' ' | b'\t' if !key => {
                    let next = self.skip_blank(at);
                    if self.comment_at(next) || self.byte(next) == Some(b'#') {
                        break;
                    }
                }
                _ => {}
            }
            at += 1;
        }
        if T::TRACKS {
            let (a, d, seen) = if self.starved() {
                safe
            } else {
                (at, depth, self.track.horizon())
            };
            self.memo_keep(kind, start, (a, d), seen);
        }
        self.scan_end(outer);
        let mut end = at;
        while end > start && matches!(self.byte(end - 1), Some(b' ' | b'\t')) {
            end -= 1;
        }
        // R017: the run ends at a quote followed by a delimiter.
        let quote = self.ch(at).filter(|c| is_quote(c.c)).and_then(|q| {
            let next = self.skip_blank(at + q.len);
            let delim = matches!(
                self.byte(next),
                None | Some(b'\n' | b'\r' | b',' | b'}' | b']' | b')' | b':')
            );
            (delim && end == at).then_some(at + q.len)
        });
        (end, at, quote)
    }
}

impl<'a, T: Track> Engine<'a, T> {
    /// A bare run in value position.
    pub(super) fn bare_value(&mut self, ctx: Ctx) -> Result<(), Error> {
        let at = self.pos;
        if let Some(paren) = self.call_at(at) {
            let name = self.slice(at, paren);
            let jsonp = ctx == Ctx::Top && !Self::is_known_call(name);
            let rule = if Self::is_known_call(name) {
                Rule::KnownCall
            } else if jsonp {
                Rule::JsonpWrapper
            } else {
                Rule::UnknownCall
            };
            self.note_with(rule, at, name);
            self.saw_wrapper = true;
            self.begin_at(ctx, at);
            self.push(Kind::Call, State::Elem, b"[")?;
            if let Some(f) = self.stack.top_mut::<T>() {
                f.jsonp = jsonp;
            }
            self.pos = paren + 1;
            return Ok(());
        }
        let (end, stop, quote) = self.scan_run(ctx);
        if T::TRACKS && self.starved() {
            // Taken back: the run goes on past what arrived.
            return Ok(());
        }
        if end == at {
            let len = self.ch(at).map_or(1, |c| c.len);
            let token = self.slice(at, at + len);
            self.note_with(Rule::Garbage, at, token);
            self.pos = (at + len).max(stop);
            return Ok(());
        }
        let text = self.slice(at, end);
        self.content = true;
        if let Some(q) = quote {
            self.note(Rule::MissingOpenQuote, at);
            self.begin_at(ctx, at);
            self.write_string(text);
            self.pos = q;
            self.value_done(None, true);
            return Ok(());
        }
        let at_eof = self.at_end(stop);
        let words = || {
            text.split(|&b| b == b' ' || b == b'\t')
                .filter(|w| !w.is_empty())
        };
        let several = words().nth(1).is_some();
        let scalar = |w: &[u8]| {
            matches!(
                classify(w, false),
                Word::Number | Word::Normalized(..) | Word::Literal | Word::Spelled(..)
            )
        };
        if several && ctx != Ctx::ObjValue && words().all(scalar) {
            let first = words().next().unwrap_or_default();
            self.pos = at + first.len();
            return self.bare_word(ctx, at, first, false);
        }
        self.pos = stop;
        if several {
            self.note_with(Rule::UnquotedString, at, text);
            self.begin_at(ctx, at);
            self.write_string(text);
            self.value_done(None, true);
            return Ok(());
        }
        self.bare_word(ctx, at, text, at_eof)
    }

    /// One word in value position.
    fn bare_word(&mut self, ctx: Ctx, at: usize, w: &[u8], at_eof: bool) -> Result<(), Error> {
        let r = self.bare_word_inner(ctx, at, w, at_eof);
        // Nothing after it confirms a scalar that ends the input.
        if at_eof || self.at_end(self.pos) {
            self.unconfirmed = true;
        }
        r
    }

    fn bare_word_inner(
        &mut self,
        ctx: Ctx,
        at: usize,
        w: &[u8],
        at_eof: bool,
    ) -> Result<(), Error> {
        match classify(w, at_eof) {
            Word::Number | Word::Literal => {
                self.begin_at(ctx, at);
                self.put(w);
                self.value_done(None, false);
            }
            Word::Normalized(s, rules) => {
                for r in rules {
                    if r == Rule::TruncatedNumber {
                        self.synthesized += s.len().saturating_sub(w.len());
                        self.note_with(r, self.src.len(), w);
                    } else {
                        self.note_with(r, at, w);
                    }
                }
                self.begin_at(ctx, at);
                self.out.push_str(&s);
                self.value_done(None, false);
            }
            Word::Spelled(text, rule) => {
                self.note_with(rule, at, w);
                self.begin_at(ctx, at);
                self.out.push_str(text);
                self.value_done(None, text.starts_with('"'));
            }
            Word::NumberLike => {
                self.note_with(Rule::NumberLikeString, at, w);
                self.begin_at(ctx, at);
                self.write_string(w);
                self.value_done(None, true);
            }
            Word::Ellipsis => {
                self.note_with(Rule::Ellipsis, at, w);
                if ctx == Ctx::ObjValue {
                    self.out.push_str("null");
                    self.value_done(None, false);
                }
            }
            Word::Text => {
                if at_eof {
                    if let Some(done) = complete_literal(w) {
                        self.note_with(Rule::TruncatedLiteral, self.src.len(), w);
                        self.synthesized += done.len().saturating_sub(w.len());
                        self.begin_at(ctx, at);
                        self.out.push_str(done);
                        self.value_done(None, false);
                        return Ok(());
                    }
                    if matches!(w, b"-" | b"+") || w == "\u{2212}".as_bytes() {
                        self.note_with(Rule::TruncatedNumber, self.src.len(), w);
                        if ctx == Ctx::Top {
                            // Dropping it would leave no value at all: the
                            // top-level sign completes to zero instead.
                            let zero = if w == b"+" { "0" } else { "-0" };
                            self.synthesized += 1;
                            self.out.push_str(zero);
                            self.value_done(None, false);
                        }
                        return Ok(());
                    }
                }
                if matches!(w, b"-" | b"+") {
                    self.note_with(Rule::Garbage, at, w);
                    return Ok(());
                }
                self.note_with(Rule::UnquotedString, at, w);
                self.begin_at(ctx, at);
                self.write_string(w);
                self.value_done(None, true);
            }
        }
        Ok(())
    }
}
