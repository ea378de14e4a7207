//! Containers and separators (spec §4.5): the document loop, the grammar
//! states of objects and arrays, commas written only when the next item
//! begins, closers, implicit objects, merges and end of input.

use super::bare::{Word, classify, complete_literal};
use super::scan::is_quote;
use super::{Closed, Ctx, Engine, Frame, Kind, Sep, State, Track};
use crate::error::Error;
use crate::rules::Rule;

impl<'a, T: Track> Engine<'a, T> {
    /// Enters the document loop for a document whose output starts at
    /// `start` (or the reopened one on the stack).
    pub(crate) fn enter_document(&mut self, start: usize) {
        self.stop = false;
        if self.stack.is_empty() {
            self.top_done = false;
        }
        self.doc_start = start;
        self.guard = 0;
        self.phase = super::Phase::Doc;
    }

    /// One turn of the document loop: trivia and one token (or the end of
    /// the document).
    pub(crate) fn doc_step(&mut self) -> Result<(), Error> {
        if T::TRACKS && self.open_str.is_some() {
            // A partial input reads strings a step at a time.
            if self.string_step() && !self.starved() {
                self.comma_examined();
            }
            return Ok(());
        }
        self.trivia();
        if self.stop || self.eof() {
            self.end_document();
            return Ok(());
        }
        if !self.stack.is_empty() && self.fast_lane && self.fast_token() {
            // A fast-lane token always consumes input.
            self.guard = 0;
            return Ok(());
        }
        // (No lane token starts with a backtick or a tilde.)
        if matches!(self.peek(), Some(b'`' | b'~')) && self.stray_fence_here() {
            self.stop = true;
            self.end_document();
            return Ok(());
        }
        let before = (self.pos, self.stack.len(), self.top_done, false);
        if self.stack.is_empty() {
            if self.top_done {
                if self.top_string && self.colon_at(self.pos) {
                    return self.implicit_object(self.doc_start, true);
                }
                self.end_document();
                return Ok(());
            }
            self.value(Ctx::Top)?;
        } else {
            self.step()?;
        }
        // Every step consumes input or changes the structure; a step
        // that did neither would loop forever, so drop one character.
        // (A string opened on a partial input is progress too.)
        let now = (
            self.pos,
            self.stack.len(),
            self.top_done,
            self.open_str.is_some(),
        );
        if now == before {
            self.guard += 1;
            if self.guard > 2 {
                let len = self.ch(self.pos).map_or(1, |c| c.len);
                let token = self.slice(self.pos, self.pos + len);
                self.note_with(Rule::Garbage, self.pos, token);
                self.pos += len;
                self.guard = 0;
            }
        } else {
            self.guard = 0;
        }
        Ok(())
    }

    /// The document ends: open containers are completed, its span kept.
    fn end_document(&mut self) {
        self.finish_frames();
        if self.out.len() > self.doc_start {
            self.docs.push((self.doc_start, self.out.len()));
        } else {
            self.pop_doc_in();
        }
        self.phase = super::Phase::Frame(super::Mode::Between);
    }

    pub(crate) fn colon_at(&self, at: usize) -> bool {
        let at = self.skip_blank(at);
        self.byte(at) == Some(b':') || self.ch(at).is_some_and(|c| c.c == '\u{FF1A}')
    }

    /// Whether a value can start at `at` (the probe of R050).
    pub(crate) fn value_start_at(&self, at: usize) -> bool {
        match self.ch(at) {
            Some(c) => {
                is_quote(c.c)
                    || matches!(c.c, '{' | '[' | '(' | '-' | '+' | '.')
                    || c.c.is_ascii_alphanumeric()
            }
            None => false,
        }
    }

    /// One step in the top frame's grammar.
    fn step(&mut self) -> Result<(), Error> {
        let Some(top) = self.stack.last() else {
            return Ok(());
        };
        let (kind, state, items) = (top.kind, top.state, top.items);
        let Some(b) = self.peek() else {
            return Ok(());
        };
        let ch = if b < 0x80 {
            super::scan::Ch {
                c: char::from(b),
                len: 1,
                valid: true,
            }
        } else {
            match self.ch(self.pos) {
                Some(ch) => ch,
                None => return Ok(()),
            }
        };
        let at = self.pos;
        match state {
            State::Key => match b {
                b'}' | b']' | b')' => self.closer(b)?,
                b',' => {
                    self.note(Rule::ExtraComma, at);
                    self.pos += 1;
                }
                b':' => {
                    self.note(Rule::MissingKey, at);
                    self.begin_item();
                    self.out.push_str("\"\"");
                    self.set_state(State::Colon);
                }
                b'{' | b'[' => self.container_in_key_position(b)?,
                _ if self.ellipsis_len(at) > 0 => {
                    let len = self.ellipsis_len(at);
                    self.note_with(Rule::Ellipsis, at, self.slice(at, at + len));
                    self.pos += len;
                }
                _ if is_quote(ch.c) => {
                    self.begin_item();
                    let key_out = self.out.len();
                    self.string_then(Ctx::Key, super::string::Then::Key { key_out, at });
                }
                _ => self.bare_key(),
            },
            State::Colon => {
                if b == b':' || ch.c == '\u{FF1A}' {
                    if b != b':' {
                        self.note_with(Rule::SeparatorVariant, at, "\u{FF1A}".as_bytes());
                    }
                    self.out.push(b':');
                    self.pos += ch.len;
                    if self.byte(self.pos) == Some(b':') {
                        self.note_with(Rule::SeparatorVariant, at, b"::");
                        self.pos += 1;
                    }
                    self.set_state(State::Value);
                } else if b == b'=' {
                    self.note_with(Rule::SeparatorVariant, at, b"=");
                    self.out.push(b':');
                    self.pos += 1;
                    self.set_state(State::Value);
                } else if matches!(b, b',' | b'}' | b']' | b')') || self.comma_like(at) {
                    let key = self.key_detail();
                    self.note_with(Rule::KeyWithoutValue, at, key);
                    self.out.push_str(":null");
                    self.set_state(State::After);
                } else {
                    let key = self.key_detail();
                    self.note_with(Rule::MissingColon, at, key);
                    self.out.push(b':');
                    self.set_state(State::Value);
                }
            }
            State::Value => match b {
                b',' | b'}' | b']' | b')' => {
                    let key = self.key_detail();
                    self.note_with(Rule::MissingValue, at, key);
                    self.out.push_str("null");
                    self.value_done(None, false);
                }
                b':' => {
                    self.note_with(Rule::Garbage, at, b":");
                    self.pos += 1;
                }
                _ => self.value(Ctx::ObjValue)?,
            },
            State::Elem => match b {
                b'}' | b']' | b')' => self.closer(b)?,
                b',' | b';' => {
                    self.note(Rule::ExtraComma, at);
                    self.pos += 1;
                }
                b':' => {
                    self.note_with(Rule::Garbage, at, b":");
                    self.pos += 1;
                }
                _ if self.ellipsis_len(at) > 0 => {
                    let len = self.ellipsis_len(at);
                    self.note_with(Rule::Ellipsis, at, self.slice(at, at + len));
                    self.pos += len;
                }
                _ => self.value(Ctx::Elem)?,
            },
            State::After => {
                if b == b',' || b == b';' || ch.c == '\u{FF0C}' {
                    if b != b',' {
                        self.note_with(Rule::SeparatorVariant, at, self.slice(at, at + ch.len));
                    }
                    self.sep = Sep::Comma(at);
                    self.held.push(b',');
                    self.pos += ch.len;
                    if let Some(f) = self.stack.top_mut::<T>() {
                        f.had_comma = true;
                    }
                    self.set_state(if kind.is_object() {
                        State::Key
                    } else {
                        State::Elem
                    });
                } else if matches!(b, b'}' | b']' | b')') {
                    self.closer(b)?;
                } else if (b == b':' || ch.c == '\u{FF1A}') && !kind.is_object() {
                    let string = self.stack.last().is_some_and(|f| f.last_item_string);
                    if string {
                        self.implicit_object(0, false)?;
                    } else {
                        self.note_with(Rule::Garbage, at, b":");
                        self.pos += ch.len;
                    }
                } else if b == b':' {
                    self.note_with(Rule::Garbage, at, b":");
                    self.pos += 1;
                } else {
                    // Another item without a comma (R042 when it begins).
                    let _ = items;
                    self.set_state(if kind.is_object() {
                        State::Key
                    } else {
                        State::Elem
                    });
                }
            }
        }
        Ok(())
    }

    fn comma_like(&self, at: usize) -> bool {
        self.ch(at).is_some_and(|c| c.c == '\u{FF0C}')
    }

    fn ellipsis_len(&self, at: usize) -> usize {
        let dots = self.lit_at(at, b"...")
            && !self.byte(at + 3).is_some_and(|b| b.is_ascii_alphanumeric());
        if dots || self.lit_at(at, "\u{2026}".as_bytes()) {
            3
        } else {
            0
        }
    }

    pub(crate) fn set_state(&mut self, state: State) {
        if let Some(f) = self.stack.top_mut::<T>() {
            f.state = state;
        }
    }

    /// The last key of the top object, as a source slice (for messages).
    fn key_detail(&self) -> &'a [u8] {
        let (s, e) = self.stack.last().map_or((0, 0), |f| f.key);
        self.slice(s, e)
    }

    /// A key string was written at `key_out`: remember its text and flag a
    /// duplicate (R062).
    pub(crate) fn key_written(&mut self, key_out: usize, at: usize, key_in: (usize, usize)) {
        let span = (key_out + 1, self.out.len().saturating_sub(1));
        if self.shape_key(span, key_in, false) {
            return;
        }
        let escaped = self
            .out
            .get(span.0..span.1)
            .is_some_and(|k| k.contains(&b'\\'));
        let h = crate::keys::key_fingerprint(self.out.as_bytes(), span, escaped);
        self.key_hashed(key_out, at, key_in, h);
    }

    /// [`Self::key_written`] for a key written as it is in the source
    /// (`key_in`, the text between the quotes; `escaped`: it holds a
    /// backslash): its fingerprint is taken there, not from the bytes just
    /// written (reading those back right away stalls on the stores that
    /// wrote them).
    pub(crate) fn key_verbatim(
        &mut self,
        key_out: usize,
        at: usize,
        key_in: (usize, usize),
        escaped: bool,
    ) {
        let span = (key_out + 1, self.out.len().saturating_sub(1));
        if self.shape_key(span, key_in, true) {
            return;
        }
        let h = crate::keys::key_fingerprint(self.src, key_in, escaped);
        self.key_hashed(key_out, at, key_in, h);
    }

    /// A key was written at `key_out`; `h` is its fingerprint.
    fn key_hashed(&mut self, key_out: usize, at: usize, key_in: (usize, usize), h: u64) {
        let span = (key_out + 1, self.out.len().saturating_sub(1));
        let mark = if T::TRACKS {
            self.stack.key_mark()
        } else {
            None
        };
        let Some(f) = self.stack.top_mut::<T>() else {
            return;
        };
        f.key = key_in;
        let dup =
            self.keys
                .insert_hashed(self.out.as_bytes(), f.key_base, &mut f.key_index, span, h);
        if let Some(mark) = mark {
            let h = self.keys.last_hash();
            self.stack.key_inserted(mark, h);
        }
        if dup {
            if let Some(f) = self.stack.top_mut::<T>() {
                f.dup = true;
            }
            let key = self.key_detail();
            self.note_with(Rule::DuplicateKey, at, key);
        }
    }

    /// An unquoted key (R013), or one missing its opening quote (R017).
    fn bare_key(&mut self) {
        let at = self.pos;
        let (end, stop, quote) = self.scan_run(Ctx::Key);
        if T::TRACKS && self.starved() {
            // Taken back: the run goes on past what arrived.
            return;
        }
        if end == at {
            let len = self.ch(at).map_or(1, |c| c.len);
            self.note_with(Rule::Garbage, at, self.slice(at, at + len));
            self.pos += len.max(stop.saturating_sub(at)).max(1);
            return;
        }
        let text = self.slice(at, end);
        self.begin_item();
        if quote.is_some() {
            self.note(Rule::MissingOpenQuote, at);
        } else {
            self.note_with(Rule::UnquotedKey, at, text);
        }
        self.content = true;
        let key_out = self.out.len();
        self.write_string(text);
        self.pos = quote.unwrap_or(stop);
        self.key_written(key_out, at, (at, end));
        self.set_state(State::Colon);
    }

    /// `{` or `[` where a key belongs: R052, R055 or R065.
    fn container_in_key_position(&mut self, b: u8) -> Result<(), Error> {
        let at = self.pos;
        let parent_is_array = self
            .stack
            .len()
            .checked_sub(2)
            .and_then(|i| self.stack.get(i))
            .is_some_and(|p| !p.kind.is_object());
        let top_kind = self.stack.last().map(|f| f.kind);
        if parent_is_array && top_kind == Some(Kind::Object) {
            self.note(Rule::ImplicitClose, at);
            // A comma before the new element separates it: not trailing.
            self.work.add(self.held.len());
            self.held.remove_comma();
            self.sep = Sep::None;
            self.close_top();
            self.sep = Sep::Implied;
            self.held.clear();
            return Ok(());
        }
        let last = self.stack.last().and_then(|f| f.last_member);
        if b == b'[' {
            if let Some(closed) = last.filter(|c| c.kind == Kind::Array) {
                // Reopen the array member: retract its `]`.
                self.note(Rule::MergedContainer, at);
                self.truncate_out(closed.closer_out);
                self.retracted = Some((closed.closer_out, false));
                self.held.clear();
                self.sep = if closed.items > 0 {
                    Sep::Implied
                } else {
                    Sep::None
                };
                self.push(Kind::Array, State::Elem, b"")?;
                if let Some(f) = self.stack.top_mut::<T>() {
                    f.items = closed.items;
                    if closed.items > 0 {
                        f.state = State::Elem;
                    }
                }
                self.pos += 1;
                return Ok(());
            }
            // Skip a stray bracketed group.
            let mut depth = 0usize;
            let mut end = at;
            while let Some(c) = self.byte(end) {
                end += 1;
                match c {
                    b'[' => depth += 1,
                    b']' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    b'\n' => break,
                    _ => {}
                }
            }
            self.note_with(Rule::Garbage, at, self.slice(at, end));
            self.pos = end;
            return Ok(());
        }
        self.note(Rule::MergedContainer, at);
        if let Some(f) = self.stack.top_mut::<T>() {
            f.absorbed += 1;
        }
        self.pos += 1;
        Ok(())
    }

    /// R053: the string just read is a key; open an object before it.
    fn implicit_object(&mut self, doc_start: usize, top: bool) -> Result<(), Error> {
        let at = self.pos;
        let insert = if top {
            doc_start
        } else {
            self.stack.last().map_or(doc_start, |f| f.last_item_out)
        };
        self.note(Rule::ImplicitObject, at);
        if self.stack.len() >= self.max_depth {
            return Err(crate::error::Error::new(
                crate::error::ErrorCode::E040,
                alloc::format!("nesting deeper than {} levels", self.max_depth),
            )
            .at(self.src, at));
        }
        if !top {
            self.out.push_str(self.held.as_str());
            self.held.clear();
            self.sep = Sep::None;
        }
        // The bytes after `insert` move by one.
        self.work.add(self.out.len().saturating_sub(insert));
        let insert = insert.min(self.out.len());
        self.out.insert(insert, b'{');
        if T::TRACKS && self.journal.on {
            self.journal.out_insert(insert, self.out.len());
        }
        self.retracted = Some((insert, true));
        let key = self.last_string;
        let mut frame = Frame::new(Kind::Implicit, State::Colon, insert, self.keys.base());
        frame.items = 1;
        frame.key = key;
        self.count(Kind::Implicit, true);
        self.stack.push(frame);
        self.max_seen_depth = self.max_seen_depth.max(self.stack.len());
        self.top_done = false;
        Ok(())
    }

    /// Writes the separator for a new item of the top container.
    pub(crate) fn begin_item(&mut self) {
        self.begin_item_at(self.pos);
    }

    /// [`Self::begin_item`] for an item that starts at `at` (a missing
    /// comma is reported there).
    pub(crate) fn begin_item_at(&mut self, at: usize) {
        self.unconfirmed = false;
        let Some(f) = self.stack.last() else { return };
        if f.items > 0 {
            match self.sep {
                Sep::Comma(_) => {}
                Sep::Implied => self.out.push(b','),
                Sep::None => {
                    self.note(Rule::MissingComma, at);
                    self.out.push(b',');
                }
            }
        }
        if self.held.len() > 0 {
            self.out.push_str(self.held.as_str());
            self.held.clear();
        }
        self.sep = Sep::None;
        let out = self.out.len();
        if let Some(f) = self.stack.top_mut::<T>() {
            f.items += 1;
            f.last_member = None;
            f.last_item_out = out;
            f.last_item_string = false;
        }
    }

    /// Starts a value in `ctx` (separator for elements).
    fn begin(&mut self, ctx: Ctx) {
        self.begin_at(ctx, self.pos);
    }

    /// Starts a value that begins at `at`.
    fn begin_at(&mut self, ctx: Ctx, at: usize) {
        if ctx == Ctx::Elem {
            self.begin_item_at(at);
        }
    }

    /// A value ended: the container moves on.
    pub(crate) fn value_done(&mut self, closed: Option<Closed>, string: bool) {
        match self.stack.top_mut::<T>() {
            None => {
                self.top_done = true;
                self.top_string = string;
            }
            Some(f) => {
                f.state = State::After;
                f.last_item_string = string;
                if f.kind.is_object() {
                    f.last_member = closed;
                }
            }
        }
    }

    /// Reads a value at `pos`.
    pub(crate) fn value(&mut self, ctx: Ctx) -> Result<(), Error> {
        let at = self.pos;
        let Some(ch) = self.ch(at) else { return Ok(()) };
        match ch.c {
            '{' => {
                self.begin(ctx);
                self.push(Kind::Object, State::Key, b"{")?;
                self.pos += 1;
            }
            '[' => {
                self.begin(ctx);
                self.push(Kind::Array, State::Elem, b"[")?;
                self.pos += 1;
            }
            '(' => {
                self.note(Rule::Tuple, at);
                self.begin(ctx);
                self.push(Kind::Tuple, State::Elem, b"[")?;
                self.pos += 1;
            }
            c if is_quote(c) => {
                self.begin(ctx);
                self.string_then(ctx, super::string::Then::Value);
            }
            _ => self.bare_value(ctx)?,
        }
        Ok(())
    }

    /// A bare run in value position.
    fn bare_value(&mut self, ctx: Ctx) -> Result<(), Error> {
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

    /// A closer in the input.
    fn closer(&mut self, c: u8) -> Result<(), Error> {
        let at = self.pos;
        let Some(top) = self.stack.last() else {
            self.note(Rule::RedundantCloser, at);
            self.pos += 1;
            return Ok(());
        };
        if c == b'}' && top.kind == Kind::Object && top.absorbed > 0 {
            if let Some(f) = self.stack.top_mut::<T>() {
                f.absorbed -= 1;
            }
            self.pos += 1;
            return Ok(());
        }
        if top.kind.closer() == c {
            self.pos += 1;
            self.close_top();
            return Ok(());
        }
        if top.kind == Kind::Implicit {
            self.close_top();
            return Ok(());
        }
        if self.open_count(c) > 0 {
            self.note_with(Rule::MismatchedCloser, at, &[c]);
            while let Some(f) = self.stack.last() {
                let matched = f.kind.closer() == c;
                self.close_top();
                if matched {
                    break;
                }
            }
            self.pos += 1;
            return Ok(());
        }
        let next = self.skip_space(at + 1);
        if self.byte(next) == Some(b',') || self.value_start_at(next) {
            self.note(Rule::RedundantCloser, at);
            self.pos += 1;
            return Ok(());
        }
        self.note_with(Rule::MismatchedCloser, at, &[c]);
        self.pos += 1;
        self.close_top();
        Ok(())
    }

    /// Pops the top frame and writes its closer.
    pub(crate) fn close_top(&mut self) {
        let Some(f) = self.stack.pop_top::<T>() else {
            return;
        };
        self.count(f.kind, false);
        if let Sep::Comma(off) = self.sep {
            if f.items > 0 {
                self.note(Rule::TrailingComma, off);
            }
            self.work.add(self.held.len());
            self.held.remove_comma();
        }
        self.sep = Sep::None;
        match f.kind {
            Kind::Object | Kind::Implicit => {
                self.out.push_str(self.held.as_str());
                self.out.push(b'}');
                self.end_shape(f.kind, f.follow, f.dup, f.key_base);
                self.cut_keys(f.key_base);
            }
            Kind::Array => {
                self.out.push_str(self.held.as_str());
                self.out.push(b']');
            }
            Kind::Tuple | Kind::Call if f.items == 1 && (f.kind == Kind::Call || !f.had_comma) => {
                // Unwrap: the `[` and the whitespace before the item become
                // a hole, cut once when the text is assembled (shifting the
                // item here would move nested content once per level).
                let item = f.last_item_out.clamp(f.open_out + 1, self.out.len());
                if f.open_out < item {
                    self.holes.push((f.open_out, item));
                }
            }
            Kind::Call if f.items == 0 => {
                self.truncate_out(f.open_out);
                self.out.push_str("null");
            }
            Kind::Tuple | Kind::Call => {
                self.out.push_str(self.held.as_str());
                self.out.push(b']');
            }
        }
        self.held.clear();
        let closed = Closed {
            kind: f.kind,
            closer_out: self.out.len().saturating_sub(1),
            items: f.items,
        };
        if f.jsonp {
            let next = self.skip_space(self.pos);
            if self.byte(next) == Some(b';') {
                self.pos = next + 1;
            }
        }
        self.value_done(Some(closed), false);
    }

    /// Closes every open frame at the end of the input or of a fence/tag.
    /// The JSON Pointers of the open values (readiness: never settled).
    fn record_open_paths(&mut self) {
        let mut paths = alloc::vec::Vec::new();
        let mut path = alloc::string::String::new();
        let depth = self.stack.len();
        for (i, f) in self.stack.iter().enumerate() {
            paths.push(path.clone());
            let top = i + 1 == depth;
            let segment = if f.kind.is_object() {
                if f.state == State::Key {
                    None
                } else {
                    let raw = self.slice(f.key.0, f.key.1);
                    Some(
                        alloc::string::String::from_utf8_lossy(&crate::keys::key_text(raw))
                            .into_owned(),
                    )
                }
            } else {
                f.items.checked_sub(1).map(|i| alloc::format!("{i}"))
            };
            let Some(segment) = segment else { break };
            crate::json::push_pointer_token(&mut path, &segment);
            let child_open = !top
                || matches!(f.state, State::Colon | State::Value)
                || (f.state == State::After && self.unconfirmed);
            if top && child_open {
                paths.push(path.clone());
            }
        }
        if depth == 0 && self.unconfirmed {
            paths.push(alloc::string::String::new());
        }
        self.set_open_paths(paths);
    }

    fn finish_frames(&mut self) {
        self.record_open_paths();
        // Completions sit at the end of the input, or at the fence or tag
        // that ended the document.
        let n = if self.stop { self.pos } else { self.src.len() };
        while let Some(f) = self.stack.last() {
            let (kind, state) = (f.kind, f.state);
            match state {
                State::Colon => {
                    let key = self.key_detail();
                    self.note_with(Rule::TruncatedMember, n, key);
                    self.out.push_str(":null");
                    self.synthesized += 5;
                }
                State::Value => {
                    let key = self.key_detail();
                    self.note_with(Rule::TruncatedMember, n, key);
                    self.out.push_str("null");
                    self.synthesized += 4;
                }
                _ => {}
            }
            if kind != Kind::Implicit {
                self.note(Rule::TruncatedContainer, n);
                self.synthesized += 1;
            }
            if let Sep::Comma(off) = self.sep {
                self.note(Rule::TrailingComma, off);
                self.work.add(self.held.len());
                self.held.remove_comma();
                self.sep = Sep::None;
            }
            self.held.clear();
            self.close_top();
        }
    }
}
