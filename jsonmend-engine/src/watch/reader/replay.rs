//! Reading a logged step (`engine/tok_log.rs`): its tokens come with their
//! output spans and the input lengths that decide them, so the reader
//! moves its state on token by token without parsing the output; only the
//! separators between tokens are read as text. Each token is read exactly
//! as [`Reader::read`] would read it, and where the reader's state does not
//! fit the log (a string is open, holes are pending, the text before the
//! token is not a separator) the token is read as text.

use alloc::vec::Vec;

use super::{Decided, Note, Reader, cut_to, push_token};
use crate::engine::{Tok, TokKind};
use crate::watch::delta::{DeltaOp, Deltas};
use crate::watch::output_text::trailing_run;

impl Reader {
    /// Reads the logged token `tok` of the output `text` (its `holes` cut).
    pub(crate) fn replay(
        &mut self,
        text: &str,
        holes: &[(usize, usize)],
        tok: &Tok,
        (sink, notes): (&mut Deltas, &mut Vec<Note>),
    ) {
        self.take_holes(holes);
        let out = text.as_bytes();
        if self.open.is_none() && self.holes.is_empty() && self.separators(out, tok.start) {
            self.token_start = self.pos;
            match tok.kind {
                TokKind::Open(object) => {
                    return self.open_container(object, out, holes, tok.at, (sink, notes));
                }
                TokKind::Close => return self.close_container(tok.at, (sink, notes)),
                TokKind::Key => {
                    if self.frames.last().is_some_and(|f| f.expect_key) && self.key(text, tok.end) {
                        return;
                    }
                }
                TokKind::Scalar => {
                    let len = tok.end - tok.start;
                    return self.scalar(text, len, holes, tok.at, (sink, notes));
                }
                TokKind::Str => {
                    if self.plain_string(text, tok, sink) {
                        return;
                    }
                }
                TokKind::Mark => return,
            }
        }
        let decided = match tok.kind {
            // What the step that read the string whole marks.
            TokKind::Str => Decided {
                at: tok.at,
                run: Some((tok.end - 2, tok.end - 1, tok.last_at - 1)),
                open: Some((tok.start, tok.open_at)),
            },
            _ => Decided {
                at: tok.at,
                run: None,
                open: None,
            },
        };
        self.read(text, tok.end, holes, decided, (sink, notes));
    }

    /// A whole string value with nothing to decode, at `pos`, whose value
    /// reports no event: its `add`, `append` and `close` written straight
    /// from the token. False (nothing done) otherwise.
    fn plain_string(&mut self, text: &str, tok: &Tok, sink: &mut Deltas) -> bool {
        let Some(f) = self.frames.last() else {
            return false;
        };
        if self.decls.is_some() || (self.frames.len() == 1 && f.object) {
            return false;
        }
        let Some(content) = text.get(tok.start + 1..tok.end - 1) else {
            return false;
        };
        let raw = content.as_bytes();
        if raw.iter().any(|&b| b == b'\\' || b == 0xE2) {
            return false;
        }
        cut_to(&mut self.path, f.len);
        if f.object {
            push_token(&mut self.path, (f.key.as_str(), f.key_plain));
        } else {
            self.path.push('/');
            crate::serialize::write_int(&mut self.path, f.items.into());
        }
        sink.push(DeltaOp::Add, tok.open_at, &self.path, "\"\"");
        if !raw.is_empty() {
            // The last character decides the content, unless it ends in a
            // run R076 could move out: that waits for the close.
            let at = if trailing_run(raw) > 0 {
                tok.at
            } else {
                tok.last_at
            };
            // The token, quotes included, is the append's JSON text.
            let json = text.get(tok.start..tok.end).unwrap_or_default();
            sink.push_again(DeltaOp::Append, at, json);
        }
        sink.push_again(DeltaOp::Close, tok.at, "");
        self.pos = tok.end;
        if let Some(f) = self.frames.last_mut() {
            f.items += 1;
        }
        true
    }

    /// Passes the blanks, colons and commas from `pos` to `to` as
    /// [`Reader::read`] reads them; false where something else comes first
    /// (`pos` is left there).
    fn separators(&mut self, out: &[u8], to: usize) -> bool {
        while self.pos < to {
            match out.get(self.pos) {
                Some(b' ' | b'\t' | b'\n' | b'\r' | b':') => {}
                Some(b',') => {
                    if let Some(f) = self.frames.last_mut() {
                        f.expect_key = f.object;
                    }
                }
                _ => return false,
            }
            self.pos += 1;
        }
        self.pos == to
    }
}
