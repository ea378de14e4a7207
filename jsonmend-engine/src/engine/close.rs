//! Closers and the end of input (spec §4.5, R050–R055, R075): a closer
//! in the input, the top container closed, open paths recorded and every
//! frame finished at the end.

use super::{Closed, Engine, Kind, Sep, State, Track};
use crate::error::Error;
use crate::rules::Rule;

impl<'a, T: Track> Engine<'a, T> {
    /// A closer in the input.
    pub(super) fn closer(&mut self, c: u8) -> Result<(), Error> {
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
        let Some(f) = self.stack.last().map(|top| top.st) else {
            return;
        };
        self.stack.drop_top::<T>();
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

    pub(super) fn finish_frames(&mut self) {
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
