//! Keys in an object (spec §4.1, §4.5): a key written, its duplicate
//! check (R062), bare keys (R013) and a container met where a key is
//! expected.

use super::{Ctx, Engine, Kind, Sep, State, Track};
use crate::error::Error;
use crate::rules::Rule;

impl<'a, T: Track> Engine<'a, T> {
    /// The last key of the top object, as a source slice (for messages).
    pub(super) fn key_detail(&self) -> &'a [u8] {
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
    pub(super) fn bare_key(&mut self) {
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
    pub(super) fn container_in_key_position(&mut self, b: u8) -> Result<(), Error> {
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
}
