//! Framing (spec §3): where the payload starts, prose, code fences, markup,
//! SSE `data:` lines, and what happens between documents.

use super::bare::{complete_literal, literal, number_like};
use super::scan::{is_ident, is_quote, is_special_ws};
use super::{Engine, Kind, Phase, Sep, State, Track};
use crate::error::Error;
use crate::rules::Rule;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Input start or fence start: a value may begin here.
    Leading,
    /// Inside prose; `leading` before the first document.
    Prose { leading: bool },
    /// After a document.
    Between,
}

/// What a prose scan found.
enum Found {
    /// On a partial input: one character read, more to come.
    More,
    Eof,
    Fence(u8, usize),
    Sse(usize),
    Value,
}

/// How many tag names are remembered (`</NAME>` ends a document).
const MAX_TAGS: usize = 16;

/// Markup blocks skipped whole.
const SKIPPED_TAGS: &[&[u8]] = &[b"think", b"thinking", b"reasoning"];

impl<T: Track> Engine<'_, T> {
    /// Runs the whole input: documents and the prose, fences and markup
    /// around them.
    pub(crate) fn run(&mut self) -> Result<(), Error> {
        while self.advance()? {}
        Ok(())
    }

    /// Runs one unit of work (a framing decision, or document tokens);
    /// false once the input is done. On a partial input each call is one
    /// step a watch stream can undo.
    pub(crate) fn advance(&mut self) -> Result<bool, Error> {
        match self.phase {
            Phase::Start => {
                if self.lit_at(0, b"\xEF\xBB\xBF") {
                    self.note(Rule::Bom, 0);
                    self.pos = 3;
                }
                self.phase = Phase::Frame(Mode::Leading);
            }
            Phase::Frame(mode) => self.framing_step(mode)?,
            Phase::Doc if self.is_partial() => self.doc_step()?,
            Phase::Doc => {
                while self.phase == Phase::Doc {
                    self.doc_step()?;
                }
            }
            Phase::Done => return Ok(false),
        }
        Ok(true)
    }

    /// The input is done (a fence left open closes with it).
    fn end_input(&mut self) {
        self.fence = None;
        self.phase = Phase::Done;
    }

    /// One framing decision in `mode`.
    fn framing_step(&mut self, mode: Mode) -> Result<(), Error> {
        match mode {
            Mode::Leading => {
                self.plain_trivia();
                if self.eof() {
                    self.end_input();
                    return Ok(());
                }
                if let Some(next) = self.fence_closed(self.docs.is_empty()) {
                    self.phase = Phase::Frame(next);
                    return Ok(());
                }
                if let Some((c, n)) = self.fence_open_at(self.pos) {
                    self.open_fence(c, n);
                    return Ok(());
                }
                if self.leading_value_at(self.pos, true) {
                    self.start_document();
                    return Ok(());
                }
                if !self.skip_prose {
                    return Err(Error::new(crate::ErrorCode::E002, "no JSON value found")
                        .at(self.src, self.pos));
                }
                self.phase = Phase::Frame(Mode::Prose {
                    leading: self.docs.is_empty(),
                });
            }
            Mode::Prose { leading } => {
                let start = match self.prose_from {
                    Some(start) => start,
                    None => {
                        self.prose_text = false;
                        self.prose_from = Some(self.pos);
                        self.pos
                    }
                };
                let found = self.scan_prose(leading);
                if let Found::More = found {
                    return Ok(());
                }
                self.prose_from = None;
                if self.prose_text {
                    let rule = if leading {
                        Rule::LeadingProse
                    } else {
                        Rule::TrailingProse
                    };
                    if !leading && self.payload_end.is_none() {
                        self.payload_end = Some(start);
                    }
                    self.note_weighted(rule, start, super::Detail::None, 0);
                }
                match found {
                    Found::More => {}
                    Found::Eof => self.end_input(),
                    Found::Fence(c, n) => {
                        self.open_fence(c, n);
                        self.phase = Phase::Frame(Mode::Leading);
                    }
                    Found::Sse(len) => {
                        self.note_with(Rule::WrapperMarkup, self.pos, b"data:");
                        self.saw_wrapper = true;
                        self.pos += len;
                        if self.lit_at(self.pos, b"[DONE]") {
                            self.pos += 6;
                        } else {
                            self.phase = Phase::Frame(Mode::Leading);
                        }
                    }
                    Found::Value => {
                        self.payload_end = None;
                        self.start_document();
                    }
                }
            }
            Mode::Between => {
                self.plain_trivia();
                if self.eof() {
                    self.end_input();
                    return Ok(());
                }
                if let Some(next) = self.fence_closed(false) {
                    self.phase = Phase::Frame(next);
                    return Ok(());
                }
                if let Some(n) = self.closing_tag_len(self.pos) {
                    let tag = self.slice(self.pos, self.pos + n);
                    self.note_with(Rule::WrapperMarkup, self.pos, tag);
                    self.pos += n;
                    return Ok(());
                }
                let at = self.pos;
                match self.peek() {
                    Some(b'}' | b']' | b')') => {
                        self.note(Rule::RedundantCloser, at);
                        self.pos += 1;
                    }
                    Some(b',') if self.can_reopen() && self.key_colon_at(at + 1, true) => {
                        self.note(Rule::ObjectContinuation, at);
                        self.reopen(at)?;
                    }
                    Some(b',' | b';') => {
                        self.note(Rule::ExtraComma, at);
                        self.pos += 1;
                    }
                    _ => {
                        if let Some((c, n)) = self.fence_open_at(at) {
                            self.open_fence(c, n);
                            self.phase = Phase::Frame(Mode::Leading);
                        } else if self.byte(at) != Some(b'`') && self.leading_value_at(at, false) {
                            self.start_document();
                        } else {
                            self.phase = Phase::Frame(Mode::Prose { leading: false });
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// A closing fence at `pos`: consumed; what follows is prose.
    fn fence_closed(&mut self, leading: bool) -> Option<Mode> {
        let n = self.fence_close_len(self.pos)?;
        self.pos += n;
        self.fence = None;
        Some(Mode::Prose { leading })
    }

    fn start_document(&mut self) {
        self.unconfirmed = false;
        self.doc_in.push(self.pos);
        let start = self.out.len();
        self.enter_document(start);
    }

    /// Whether the last document is an object that R054 may reopen.
    fn can_reopen(&self) -> bool {
        self.docs
            .last()
            .is_some_and(|&(s, e)| self.out.get(s) == Some(&b'{') && e == self.out.len())
    }

    /// R054: retract the last document's `}` and continue its members.
    fn reopen(&mut self, comma: usize) -> Result<(), Error> {
        let Some((start, end)) = self.pop_doc() else {
            return Ok(());
        };
        let members = self
            .out
            .get(start + 1..end.saturating_sub(1))
            .unwrap_or_default();
        self.work.add(members.len());
        let has_members = members.iter().any(|b| !b.is_ascii_whitespace());
        self.truncate_out(end.saturating_sub(1));
        self.retracted = Some((end.saturating_sub(1), false));
        self.push(Kind::Object, State::Key, b"")?;
        if let Some(f) = self.stack.top_mut::<T>() {
            f.open_out = start;
            f.items = usize::from(has_members);
        }
        self.held.clear();
        if has_members {
            self.held.push(b',');
            self.sep = Sep::Comma(comma);
        }
        self.pos = comma + 1;
        self.enter_document(start);
        Ok(())
    }

    /// Whitespace and comments outside documents (nothing is written).
    fn plain_trivia(&mut self) {
        loop {
            while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
                self.pos += 1;
            }
            match self.peek() {
                Some(b'/') if self.byte(self.pos + 1) == Some(b'/') => self.line_comment(),
                Some(b'/') if self.byte(self.pos + 1) == Some(b'*') => self.block_comment(),
                Some(b'#') => self.line_comment(),
                Some(b) if b >= 0x80 => match self.ch(self.pos) {
                    Some(ch) if is_special_ws(ch.c) => {
                        let code = super::Detail::Code(ch.c as u32);
                        self.note_weighted(Rule::SpecialWhitespace, self.pos, code, 1);
                        self.pos += ch.len;
                    }
                    _ => return,
                },
                _ => return,
            }
        }
    }

    /// A code fence opening at `at`: 3+ backticks or tildes, or one
    /// backtick right before `{`/`[` (inline code).
    fn fence_open_at(&self, at: usize) -> Option<(u8, usize)> {
        let c = self.byte(at)?;
        if c != b'`' && c != b'~' {
            return None;
        }
        let run = self.run_of(at, c);
        if run >= 3 {
            return Some((c, run));
        }
        if c == b'`' && run == 1 && matches!(self.byte(at + 1), Some(b'{' | b'[')) {
            return Some((c, 1));
        }
        None
    }

    /// Consumes a fence opener and its info string (R005).
    fn open_fence(&mut self, c: u8, n: usize) {
        self.note(Rule::CodeFence, self.pos);
        self.saw_wrapper = true;
        self.pos += n;
        while self
            .peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'.' | b'-'))
        {
            self.pos += 1;
        }
        self.fence = Some((c, n));
    }

    /// Whether the rest of the line from `at` is empty or starts with a
    /// separator, closer or comment.
    fn rest_of_line_ok(&self, at: usize) -> bool {
        let at = self.skip_blank(at);
        match self.byte(at) {
            None | Some(b'\n' | b'\r' | b',' | b';' | b'}' | b']' | b')' | b'#') => true,
            Some(b'/') => self.comment_at(at),
            Some(_) => self.fence_close_len(at).is_some() || self.closing_tag_len(at).is_some(),
        }
    }

    /// The leading-position test of spec §3.1.
    fn leading_value_at(&self, at: usize, allow_backtick: bool) -> bool {
        let Some(ch) = self.ch(at) else { return false };
        match ch.c {
            '{' | '[' => return true,
            '`' => return allow_backtick,
            c if is_quote(c) => return true,
            '\\' => return self.byte(at + 1) == Some(b'"'),
            '(' => return self.paren_ok(at),
            _ => {}
        }
        if self.call_at(at).is_some() {
            return true;
        }
        // The word at `at`.
        let outer = self.scan_begin(at);
        let mut end = self.memo_resume(super::MEMO_WORD, at).map_or(at, |m| m.0);
        let mut seen;
        loop {
            // What the word examined before the character at `end`.
            seen = self.track.horizon();
            let Some(c) = self.ch(end) else { break };
            if self.cut_at(end) {
                // A character cut by the end of a partial input.
                break;
            }
            if c.c.is_whitespace()
                || matches!(c.c, ',' | ';' | '}' | ']' | ')' | ':')
                || is_quote(c.c)
            {
                break;
            }
            end += c.len;
        }
        self.scan_end(outer);
        if T::TRACKS && self.starved() {
            // The end of a partial input stopped the word (or an earlier
            // probe): what was read of it stays read.
            self.memo_keep(super::MEMO_WORD, at, (end.min(self.src.len()), 0), seen);
            return false;
        }
        let word = self.slice(at, end);
        if word.is_empty() {
            return false;
        }
        let at_eof = self.at_end(end);
        if at_eof && (matches!(word, b"-" | b"+") || word == "\u{2212}".as_bytes()) {
            return true;
        }
        if number_like(word)
            || literal(word).is_some()
            || (at_eof && complete_literal(word).is_some())
        {
            return self.rest_of_line_ok(end);
        }
        // A lone bare word ending in a quote at the end of its line (R017).
        if self.ch(end).is_some_and(|q| is_quote(q.c)) {
            let q = self.ch(end).map_or(1, |c| c.len);
            let next = self.skip_blank(end + q);
            return matches!(self.byte(next), None | Some(b'\n' | b'\r'));
        }
        false
    }

    /// `(` starts a tuple unless a non-literal word follows it or text
    /// follows its `)` on the line.
    fn paren_ok(&self, at: usize) -> bool {
        let next = self.skip_blank(at + 1);
        if let Some(b) = self.byte(next) {
            if b.is_ascii_alphabetic() {
                let mut end = next;
                while self.byte(end).is_some_and(is_ident) {
                    end += 1;
                }
                if literal(self.slice(next, end)).is_none() {
                    return false;
                }
            }
        }
        match self.find_on_line(at + 1, |c| c == ')') {
            Some(close) => self.rest_of_line_ok(close + 1),
            None => true,
        }
    }

    /// Skips prose up to the next document start.
    fn scan_prose(&mut self, leading: bool) -> Found {
        let entry = self.pos;
        loop {
            let at = self.pos;
            if self.is_partial() && at > entry {
                // A watch step reads one character of prose.
                return Found::More;
            }
            let Some(b) = self.byte(at) else {
                return Found::Eof;
            };
            let line_start = at == 0 || self.byte(at - 1) == Some(b'\n');
            match b {
                b'd' if line_start && self.lit_at(at, b"data:") => {
                    let len = if self.byte(at + 5) == Some(b' ') {
                        6
                    } else {
                        5
                    };
                    return Found::Sse(len);
                }
                b'`' | b'~' => {
                    let run = self.run_of(at, b);
                    if run >= 3 {
                        return Found::Fence(b, run);
                    }
                    self.prose_text = true;
                    self.pos += run;
                    continue;
                }
                b'{' if leading || self.after_marker(at) => return Found::Value,
                b'[' if self.after_marker(at) || self.bracket_starts(at) => return Found::Value,
                b'<' if self.markup(at) => continue,
                _ => {}
            }
            // Only JSON whitespace is not text (a form feed is).
            if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                self.prose_text = true;
            }
            self.pos += self.ch(at).map_or(1, |c| c.len);
        }
    }

    /// Line start, or after `:`, `=`, `>` (spaces ignored).
    fn after_marker(&self, at: usize) -> bool {
        let mut i = at;
        while i > 0 && matches!(self.byte(i - 1), Some(b' ' | b'\t')) {
            i -= 1;
        }
        i == 0 || matches!(self.byte(i - 1), Some(b'\n' | b'\r' | b':' | b'=' | b'>'))
    }

    /// `[` before `{`, `[` or `"`.
    fn bracket_starts(&self, at: usize) -> bool {
        let next = self.skip_space(at + 1);
        matches!(self.byte(next), Some(b'{' | b'[' | b'"'))
    }

    /// A tag at `at`: skips `<think>` blocks whole (R008), remembers other
    /// tag names. Returns whether `pos` moved.
    fn markup(&mut self, at: usize) -> bool {
        let name_start = at + 1;
        let mut end = name_start;
        while self
            .byte(end)
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        {
            end += 1;
        }
        if end == name_start {
            return false;
        }
        let name = self.slice(name_start, end);
        if SKIPPED_TAGS.contains(&name) && self.byte(end) == Some(b'>') {
            let close = alloc::format!("</{}>", core::str::from_utf8(name).unwrap_or(""));
            let from = self
                .memo_resume(super::MEMO_TAG, at)
                .map_or(end, |m| m.0.saturating_sub(close.len()).max(end));
            let rest = self.src.get(from..).unwrap_or_default();
            let stop = rest
                .windows(close.len())
                .position(|w| w == close.as_bytes())
                .map_or(self.src.len(), |p| from + p + close.len());
            self.memo_keep(super::MEMO_TAG, at, (stop, 0), 0);
            self.saw(if stop >= self.src.len() {
                self.src.len()
            } else {
                stop - 1
            });
            self.work.add(stop.saturating_sub(end) * close.len());
            let token = self.slice(at, end + 1);
            self.note_with(Rule::WrapperMarkup, at, token);
            self.pos = stop;
            return true;
        }
        // At most a few names are remembered: each one is checked at every
        // token, so an unbounded list would make prose full of tags
        // quadratic.
        if matches!(self.byte(end), Some(b'>' | b'=' | b' '))
            && self.tags.len() < MAX_TAGS
            && !self.tags.iter().any(|t| t == name)
        {
            self.tags.push(name.to_vec());
            self.saw_wrapper = true;
        }
        false
    }
}
