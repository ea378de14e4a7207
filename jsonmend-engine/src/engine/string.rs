//! Strings (spec §4.1): any quote character opens one; the close decision,
//! inner quotes, early close, key split, escapes, control characters,
//! concatenation and end of input.

use super::scan::is_quote;
use super::{Ctx, Engine, L, Track};
use crate::rules::Rule;

pub(crate) const PLAIN_ASCII: u8 = 1;
pub(crate) const PLAIN_UTF8: u8 = 2;

/// Which bytes a string segment copies without a look: printable ASCII but
/// the quotes, backslash, `,` and `:`; non-ASCII (when the source is known
/// UTF-8) but the lead bytes of the typographic quotes (`C2`, `E2`).
// Evaluated at compile time: an out-of-range index would fail the build.
#[allow(clippy::indexing_slicing)]
pub(crate) static PLAIN_SET: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0x20;
    while b < 0x7F {
        t[b] = PLAIN_ASCII;
        b += 1;
    }
    t[b'"' as usize] = 0;
    t[b'\'' as usize] = 0;
    t[b'`' as usize] = 0;
    t[b'\\' as usize] = 0;
    t[b',' as usize] = 0;
    t[b':' as usize] = 0;
    let mut b = 0x80;
    while b < 0x100 {
        t[b] = PLAIN_UTF8;
        b += 1;
    }
    t[0xC2] = 0;
    t[0xE2] = 0;
    t
};

/// A byte of string content R076 may move out of a string cut after it: a
/// blank or a closer.
fn moved_out(b: u8) -> bool {
    matches!(b, b' ' | b'}' | b']' | b')')
}

/// Whether `content` starts with an escaped tab or line break (R076 may
/// move those out too).
fn moved_out_escape(content: &[u8]) -> bool {
    matches!(content, [b'\\', b't' | b'n' | b'r', ..])
}

/// Whether string content `rest` starts with something R076 may move out
/// of a string cut after it: a plain run (its first `plain` bytes) of
/// blanks and closers only, or an escaped tab or line break.
fn ends_piece(rest: &[u8], plain: usize) -> bool {
    match rest.get(..plain) {
        Some(run) if plain > 0 => run.iter().all(|&b| moved_out(b)),
        _ => moved_out_escape(rest),
    }
}

/// The characters that close a string opened by `open`.
fn closers(open: char) -> (char, char) {
    match open {
        '\u{201C}' | '\u{201D}' => ('\u{201D}', '"'),
        '\u{2018}' | '\u{2019}' => ('\u{2019}', '\u{2019}'),
        '`' | '\u{B4}' => ('`', '\u{B4}'),
        c => (c, c),
    }
}

/// How a string segment ended.
enum End {
    /// At its closing quote (consumed).
    Closed,
    /// Before a separator, key colon or closer run (not consumed).
    Early,
    /// At the end of the input (the input offset where the content began).
    Eof(usize),
}

/// What the reader of a string does once it ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Then {
    /// It was a key written at `key_out`, its opening quote at `at`.
    Key { key_out: usize, at: usize },
    /// It was a value.
    Value,
}

/// A string being read: where it started, and the segment in progress
/// (`None` at a segment's opening quote).
#[derive(Clone, Copy, Debug)]
pub(crate) struct OpenStr {
    ctx: Ctx,
    out_start: usize,
    in_start: usize,
    then: Then,
    seg: Option<Seg>,
}

/// A quoted segment after its opening quote: its closing characters,
/// whether it opened doubled (R018), where its content began.
#[derive(Clone, Copy, Debug)]
struct Seg {
    c1: char,
    c2: char,
    doubled: bool,
    from: usize,
}

impl<T: Track> Engine<'_, T> {
    /// Reads a string starting at its opening quote and writes it as a JSON
    /// string (joining `+` concatenations), then does `then`. On a partial
    /// input only the opening quote is read here: the rest goes one step
    /// at a time ([`Engine::string_step`]), so a long string never waits
    /// whole for its end.
    pub(crate) fn string_then(&mut self, ctx: Ctx, then: Then) {
        let out_start = self.out.len();
        let in_start = self.pos + self.ch(self.pos).map_or(1, |c| c.len);
        self.out.push(b'"');
        self.open_str = Some(OpenStr {
            ctx,
            out_start,
            in_start,
            then,
            seg: None,
        });
        if !self.is_partial() {
            while !self.string_step() {}
        }
    }

    /// One step of the open string; true once it ended.
    pub(crate) fn string_step(&mut self) -> bool {
        let Some(st) = self.open_str else {
            return true;
        };
        let end = match st.seg {
            None => {
                let before = self.repairs.len();
                match self.segment_open(st.ctx) {
                    Ok(seg) => {
                        self.open_str = Some(OpenStr {
                            seg: Some(seg),
                            ..st
                        });
                        // The content follows in the same step when the
                        // opening decided nothing (no repair): it writes
                        // nothing, and the content's first step examines
                        // what it did.
                        if T::TRACKS && self.repairs.len() != before && !self.cut_here() {
                            return false;
                        }
                        match self.segment_step(st.ctx, seg) {
                            Some(end) => end,
                            None => return false,
                        }
                    }
                    Err(end) => end,
                }
            }
            Some(seg) => match self.segment_step(st.ctx, seg) {
                Some(end) => end,
                None => return false,
            },
        };
        if T::TRACKS && self.starved() {
            // A watch step that reached the end of what arrived is taken
            // back: no need to finish the string.
            return false;
        }
        match end {
            End::Closed => {
                if let Some(next) = self.concat_next() {
                    self.note(Rule::StringConcat, self.pos);
                    self.pos = next;
                    self.open_str = Some(OpenStr { seg: None, ..st });
                    return false;
                }
                self.out.push(b'"');
            }
            End::Early => self.out.push(b'"'),
            End::Eof(from) => self.string_eof(st.out_start, from),
        }
        let end = self.src.len().min(self.pos);
        // The content span, without the closing quote.
        let close = self
            .slice(st.in_start, end)
            .last()
            .map_or(0, |&b| usize::from(b == b'"' || b == b'\'' || b >= 0x80));
        self.last_string = (
            st.in_start.min(end),
            end.saturating_sub(close).max(st.in_start.min(end)),
        );
        self.open_str = None;
        match st.then {
            Then::Key { key_out, at } => {
                let key_in = self.last_string;
                self.key_written(key_out, at, key_in);
                self.set_state(super::State::Colon);
            }
            Then::Value => self.value_done(None, true),
        }
        true
    }

    /// After a closed string: the offset of the next string's opening quote
    /// when a `+` joins them (comments and newlines allowed around it).
    fn concat_next(&self) -> Option<usize> {
        let mut at = self.skip_space(self.pos);
        if self.byte(at) != Some(b'+') {
            return None;
        }
        at += 1;
        loop {
            at = self.skip_space(at);
            if self.byte(at) == Some(b'/') && self.byte(at + 1) == Some(b'*') {
                let rest = self.src.get(at + 2..)?;
                let len = rest.windows(2).position(|w| w == b"*/");
                self.work.add(len.unwrap_or(rest.len()) + 2);
                self.saw(len.map_or(self.src.len(), |l| at + 2 + l + 1));
                at += 2 + len? + 2;
            } else if self.byte(at) == Some(b'/') && self.byte(at + 1) == Some(b'/') {
                let rest = self.src.get(at..)?;
                let len = rest.iter().position(|&b| b == b'\n');
                self.work.add(len.unwrap_or(rest.len()) + 1);
                self.saw(len.map_or(self.src.len(), |l| at + l));
                at += len?;
            } else {
                break;
            }
        }
        self.ch(at).filter(|c| is_quote(c.c)).map(|_| at)
    }

    /// A segment's opening quote (and R018's doubled quotes): its state, or
    /// how it already ended (an empty string, the end of input).
    fn segment_open(&mut self, _ctx: Ctx) -> Result<Seg, End> {
        let Some(open) = self.ch(self.pos) else {
            return Err(End::Eof(self.pos));
        };
        match open.c {
            '"' => {}
            '\'' => self.note(Rule::SingleQuotes, self.pos),
            _ => self.note(Rule::TypographicQuotes, self.pos),
        }
        let (c1, c2) = closers(open.c);
        self.pos += open.len;
        let from = self.pos;
        // R018: `""x""` / `''x''`.
        let mut doubled = false;
        if self.ch(self.pos).is_some_and(|c| c.c == open.c) {
            let after = self.ch(self.pos + open.len);
            if after.is_some_and(|c| {
                !c.c.is_whitespace()
                    && !is_quote(c.c)
                    && !matches!(c.c, ',' | ':' | '}' | ']' | ')')
            }) {
                self.note(Rule::DoubledQuotes, self.pos - open.len);
                doubled = true;
                self.pos += open.len;
            } else {
                // An empty string.
                self.pos += open.len;
                return Err(End::Closed);
            }
        }
        Ok(Seg {
            c1,
            c2,
            doubled,
            from,
        })
    }

    /// Reads the segment's content: in one go to its end, or on a partial
    /// input one plain run or one special character (`None`: not ended).
    fn segment_step(&mut self, ctx: Ctx, seg: Seg) -> Option<End> {
        let Seg {
            c1,
            c2,
            doubled,
            from,
        } = seg;
        // A watch step that went on past its first run or character.
        let mut went_on = false;
        loop {
            // Copy plain bytes in one go.
            let rest = self.src.get(self.pos..).unwrap_or_default();
            let mask = self.content_mask();
            let plain = rest
                .iter()
                .position(|&b| PLAIN_SET.get(usize::from(b)).is_none_or(|&f| f & mask == 0))
                .unwrap_or(rest.len());
            self.work.add(plain + 1);
            if went_on && ends_piece(rest, plain) {
                // What R076 may move out of a string cut after it starts
                // here: the step ends before it, so the piece the reader
                // holds it back from ends where this step ends.
                return None;
            }
            if plain > 0 {
                self.content = true;
                self.put(rest.get(..plain).unwrap_or_default());
                self.pos += plain;
                if self.is_partial() {
                    // Plain bytes are content whatever follows: each is
                    // decided by itself (a watch step ends here, unless it
                    // goes on in a batch).
                    self.saw(self.pos - 1);
                    let out_end = self.out.len();
                    self.plain_run = Some((out_end - plain, out_end, self.pos - plain));
                    let trailing = self.out.last().is_some_and(|&b| moved_out(b));
                    if !self.content_goes_on(trailing) {
                        return None;
                    }
                    went_on = true;
                    if ends_piece(self.src.get(self.pos..).unwrap_or_default(), 0) {
                        return None;
                    }
                }
            }
            let ch = match self.ch(self.pos) {
                Some(ch) => ch,
                None => return Some(End::Eof(from)),
            };
            self.content = true;
            if ch.c == c1 || ch.c == c2 {
                if doubled {
                    if self.ch(self.pos + ch.len).is_some_and(|n| n.c == ch.c) {
                        self.pos += 2 * ch.len;
                        return Some(End::Closed);
                    }
                } else if self.closes(ctx, self.pos + ch.len) {
                    self.pos += ch.len;
                    return Some(End::Closed);
                } else {
                    self.note(Rule::InnerQuote, self.pos);
                }
                self.write_char(ch.c);
                self.pos += ch.len;
            } else {
                match ch.c {
                    '\\' => {
                        if !self.escape() {
                            return Some(End::Eof(from));
                        }
                    }
                    ',' if matches!(ctx, Ctx::ObjValue | Ctx::Elem) && self.early_close(ctx) => {
                        self.note(Rule::MissingCloseQuote, self.pos);
                        return Some(End::Early);
                    }
                    ':' if ctx == Ctx::Key && self.key_split() => {
                        self.note(Rule::KeyColonSplit, self.pos);
                        return Some(End::Early);
                    }
                    c if (c as u32) < 0x20 => {
                        let code = super::Detail::Code(c as u32);
                        self.note_weighted(Rule::RawControlChar, self.pos, code, 1);
                        self.write_char(c);
                        self.pos += 1;
                    }
                    c => {
                        if ch.valid && ch.len > 1 {
                            self.slice(self.pos, self.pos + ch.len);
                            self.out.push_char(c);
                        } else {
                            if !ch.valid {
                                self.note(Rule::InvalidUtf8, self.pos);
                            }
                            self.write_char(c);
                        }
                        self.pos += ch.len;
                    }
                }
            }
            if self.is_partial() {
                // An escaped tab or line break may be moved out of a string
                // cut after it (R076), like a trailing run of blanks and
                // closers.
                let trailing = self
                    .src
                    .get(self.pos.saturating_sub(2)..self.pos)
                    .is_some_and(moved_out_escape);
                if !self.content_goes_on(trailing) {
                    return None;
                }
                went_on = true;
                // The character just read is decided by itself.
                let out_end = self.out.len();
                self.plain_run = Some((out_end - 1, out_end, self.pos - 1));
            }
        }
    }

    /// Whether a watch step reading string content goes on to the next run
    /// or character: in a batch far from the end of what arrived, while the
    /// step recorded no repair and examined nothing past what it read (a
    /// piece of content is decided by its last character, and appends to
    /// one path in a row are one delta, so the deltas are those of a step
    /// per run or character). Not past content ending in what R076 would
    /// move out of a string cut there (`trailing`): the reader holds that
    /// back, and the piece before it must end where a step ended.
    fn content_goes_on(&self, trailing: bool) -> bool {
        !trailing
            && self.whole_strings == Some(self.totals.count)
            && self.track.horizon() < self.pos
            // (No probe of what follows reaches the end: probes look at
            // most `L` bytes ahead.)
            && self.pos + L + 2 < self.src.len()
    }

    /// The close decision at a candidate closing quote; `after` is the
    /// offset just past it.
    /// Which `PLAIN_SET` bits count for this source.
    pub(crate) fn plain_mask(&self) -> u8 {
        if self.utf8_known {
            PLAIN_ASCII | PLAIN_UTF8
        } else {
            PLAIN_ASCII
        }
    }

    /// Which `PLAIN_SET` bits a string content step copies in one run (a
    /// watch stream's whole UTF-8 characters too).
    pub(crate) fn content_mask(&self) -> u8 {
        if self.utf8_known || self.utf8_runs {
            PLAIN_ASCII | PLAIN_UTF8
        } else {
            PLAIN_ASCII
        }
    }

    pub(crate) fn closes(&self, ctx: Ctx, after: usize) -> bool {
        // The common cases, decided by the very next byte.
        match self.byte(after) {
            None | Some(b'}' | b']' | b'\n') => return true,
            Some(b',') if ctx != Ctx::ObjValue => return true,
            // An object value's comma right before a line break, a quote or
            // `}`: what the probe after the comma finds first.
            Some(b',') if matches!(self.byte(after + 1), Some(b'\n' | b'\r' | b'"' | b'}')) => {
                return true;
            }
            Some(b':') if ctx != Ctx::ObjValue => return true,
            _ => {}
        }
        let at = self.skip_blank(after);
        let Some(ch) = self.ch(at) else { return true };
        match ch.c {
            '\n' | '\r' | '}' | ']' | ')' | '+' | '#' => true,
            c if is_quote(c) => true,
            '/' => self.comment_at(at),
            ':' | '\u{FF1A}' => ctx != Ctx::ObjValue,
            ',' | '\u{FF0C}' | ';' => ctx != Ctx::ObjValue || self.value_comma_closes(at + ch.len),
            _ => {
                if self.fence_close_len(at).is_some() || self.closing_tag_len(at).is_some() {
                    return true;
                }
                // Nothing on the rest of the line could close the string.
                self.find_on_line(at, is_quote).is_none()
            }
        }
    }

    /// In an object value, a quote before `,` closes only if the probe after
    /// the comma finds a quote, `}`, LF, the end, or a bare key and `:`.
    fn value_comma_closes(&self, after: usize) -> bool {
        let at = self.skip_blank(after);
        if self.comment_at(at) {
            return true;
        }
        match self.ch(at) {
            None => true,
            Some(c) if is_quote(c.c) || matches!(c.c, '}' | '\n' | '\r') => true,
            Some(_) => self.key_colon_at(at, true),
        }
    }

    /// R024: at a `,` inside an object value or array string, close before
    /// it when what follows is clearly the next item.
    fn early_close(&self, ctx: Ctx) -> bool {
        self.early_close_at(ctx, self.pos)
    }

    /// [`Self::early_close`] for the comma at `comma`.
    pub(crate) fn early_close_at(&self, ctx: Ctx, comma: usize) -> bool {
        let after = comma + 1;
        let at = self.skip_blank(after);
        if self.ch(at).is_some_and(|c| is_quote(c.c)) && self.key_colon_at(at, false) {
            return true;
        }
        // A comma ending the line.
        if !matches!(self.byte(at), Some(b'\n' | b'\r')) {
            return false;
        }
        let next = self.skip_space(at);
        match ctx {
            Ctx::Elem => match self.ch(next) {
                Some(c) if is_quote(c.c) => self.find_on_line(next + c.len, is_quote).is_some(),
                _ => false,
            },
            _ => self.key_colon_at(next, true),
        }
    }

    /// R025: a `:` in a key ends it unless the next quote on the line is
    /// followed by `:`.
    fn key_split(&self) -> bool {
        self.key_split_at(self.pos)
    }

    /// [`Self::key_split`] for the colon at `colon`.
    pub(crate) fn key_split_at(&self, colon: usize) -> bool {
        match self.find_on_line(colon + 1, is_quote) {
            Some(q) => {
                let len = self.ch(q).map_or(1, |c| c.len);
                let next = self.skip_blank(q + len);
                self.byte(next) != Some(b':')
            }
            None => true,
        }
    }

    /// An escape at `pos` (a backslash). Returns false at the end of input.
    fn escape(&mut self) -> bool {
        let at = self.pos;
        let Some(e) = self.byte(at + 1) else {
            self.note(Rule::TruncatedEscape, at);
            self.pos = self.src.len();
            return false;
        };
        match e {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {
                self.put(self.slice(at, at + 2));
                self.pos += 2;
            }
            b'\'' => {
                self.note_with(Rule::JsEscape, at, b"\\'");
                self.out.push(b'\'');
                self.pos += 2;
            }
            b'\n' => {
                self.note_with(Rule::JsEscape, at, b"\\\n");
                self.out.push_str("\\n");
                self.pos += 2;
            }
            b'\r' => {
                self.note_with(Rule::JsEscape, at, b"\\\r");
                self.out.push_str("\\n");
                self.pos += if self.byte(at + 2) == Some(b'\n') {
                    3
                } else {
                    2
                };
            }
            b'u' => return self.unicode_escape(),
            _ => {
                let len = self.ch(at + 1).map_or(1, |c| c.len);
                let token = self.slice(at, at + 1 + len);
                self.note_with(Rule::InvalidEscape, at, token);
                self.out.push_str("\\\\");
                self.pos += 1;
            }
        }
        true
    }

    fn hex4(&self, at: usize) -> Option<u32> {
        self.saw(at + 3);
        crate::json::hex4(self.src, at)
    }

    /// Whether the input ends within `[at, at + n)` with only hex digits
    /// (an escape cut off by the end of input).
    fn hex_cut(&self, at: usize, n: usize) -> bool {
        let rest = self.src.get(at..).unwrap_or_default();
        self.work.add(n);
        self.saw(at + n - 1);
        rest.len() < n && rest.iter().all(u8::is_ascii_hexdigit)
    }

    fn unicode_escape(&mut self) -> bool {
        let at = self.pos;
        if self.hex_cut(at + 2, 4) {
            self.note(Rule::TruncatedEscape, at);
            self.pos = self.src.len();
            return false;
        }
        let Some(unit) = self.hex4(at + 2) else {
            let token = self.slice(at, (at + 6).min(self.src.len()));
            self.note_with(Rule::InvalidEscape, at, token);
            self.out.push_str("\\\\");
            self.pos += 1;
            return true;
        };
        if (0xD800..0xDC00).contains(&unit) {
            let next = at + 6;
            self.saw(next + 5);
            let rest = self.src.get(next..).unwrap_or_default();
            if rest.is_empty()
                || (rest.len() < 6
                    && b"\\u".starts_with(rest.get(..rest.len().min(2)).unwrap_or_default())
                    && self.hex_cut(next + 2, 4))
            {
                self.note(Rule::TruncatedEscape, at);
                self.pos = self.src.len();
                return false;
            }
            if rest.starts_with(b"\\u") {
                if let Some(lo) = self.hex4(next + 2) {
                    if (0xDC00..0xE000).contains(&lo) {
                        self.put(self.slice(at, at + 12));
                        self.pos += 12;
                        return true;
                    }
                }
            }
        }
        if (0xD800..0xE000).contains(&unit) {
            let token = self.slice(at, at + 6);
            self.note_with(Rule::LoneSurrogate, at, token);
            self.out.push_char('\u{FFFD}');
        } else {
            self.put(self.slice(at, at + 6));
        }
        self.pos += 6;
        true
    }

    /// End of input inside a string: R070, and R076 when a trailing run of
    /// closers closes exactly the innermost open containers.
    fn string_eof(&mut self, out_start: usize, from: usize) {
        let n = self.src.len();
        // The trailing run of closers and whitespace.
        let mut start = n;
        let mut closers = 0usize;
        while start > 0 {
            match self.byte(start - 1) {
                Some(b'}' | b']' | b')') => closers += 1,
                Some(b' ' | b'\t' | b'\n' | b'\r') => {}
                _ => break,
            }
            start -= 1;
        }
        // The run starts at its first closer.
        while start < n && !matches!(self.byte(start), Some(b'}' | b']' | b')')) {
            start += 1;
        }
        let run_fits = closers > 0 && closers == self.stack.len() && start > from && {
            let mut depth = self.stack.len();
            self.slice(start, n).iter().all(|&b| match b {
                b'}' | b']' | b')' => {
                    depth -= 1;
                    self.stack.get(depth).is_some_and(|f| f.kind.closer() == b)
                }
                _ => true,
            })
        };
        if run_fits && start + L >= n {
            let written: usize = self
                .slice(start, n)
                .iter()
                .map(|&b| {
                    if matches!(b, b'\n' | b'\r' | b'\t') {
                        2
                    } else {
                        1
                    }
                })
                .sum();
            let keep = self.out.len().saturating_sub(written).max(out_start + 1);
            self.truncate_out(keep);
            self.work.add(self.repairs.len());
            self.save_repairs();
            self.repairs
                .retain(|r| !(r.rule == Rule::RawControlChar && r.offset >= start));
            self.note(Rule::CloserInString, start);
            self.pos = start;
        }
        self.note_weighted(Rule::TruncatedString, n, super::Detail::None, 1);
        self.synthesized += 1;
        self.unconfirmed = true;
        self.out.push(b'"');
    }
}
