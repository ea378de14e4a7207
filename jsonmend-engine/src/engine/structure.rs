//! Containers and separators (spec §4.5): the document loop, the grammar
//! states of objects and arrays, commas written only when the next item
//! begins, implicit objects and merges. Keys are in `member_key.rs`,
//! closers and the end of input in `close.rs`, bare values in `bare.rs`.

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
        self.token_steps()
    }

    /// The token of a document step, its trivia passed (or the end of the
    /// document).
    pub(crate) fn token_step(&mut self) -> Result<(), Error> {
        // (The trivia examined `pos`.)
        if self.stop || self.at_end_seen() {
            // The end of a partial input starves the step, which is taken
            // back: nothing to end before more input comes.
            if !self.stop && self.is_partial() {
                return Ok(());
            }
            self.end_document();
            return Ok(());
        }
        if !self.stack.is_empty() && self.fast_lane && self.fast_token() {
            // A fast-lane token always consumes input.
            self.guard = 0;
            self.lane_step = true;
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
    pub(super) fn begin_at(&mut self, ctx: Ctx, at: usize) {
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
}
