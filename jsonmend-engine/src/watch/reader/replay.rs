//! Reading a logged step (`engine/tok_log.rs`): its tokens come with their
//! output spans and the input lengths that decide them, so the reader
//! moves its state on token by token without parsing the output; only the
//! separators between tokens are read as text, and not even those between
//! two logged tokens with nothing but logged steps in between (a logged
//! step writes only separators between its tokens; debug builds check
//! each such gap as the scan would read it). Each token is read exactly
//! as [`Reader::read`] would read it, and where the reader's state does not
//! fit the log (a string is open, holes are pending, the text before the
//! token is not a separator) the token is read as text.

use alloc::vec::Vec;

use super::{Decided, Decl, Note, Reader, cut_to, push_token};
use crate::engine::{Tok, TokKind};
use crate::watch::delta::{DeltaOp, Deltas, LeafPath, Token};
use crate::watch::output_text::ends_in_run;

/// The key bytes [`Reader::key_lean`] looks at: those a JSON Pointer
/// token escapes (`~`, `/`) and those that need decoding (a backslash, the
/// lead byte of U+2028 and U+2029).
#[allow(
    clippy::indexing_slicing,
    reason = "const evaluation: an index out of range fails the build"
)]
const KEY_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    t[b'~' as usize] = true;
    t[b'/' as usize] = true;
    t[b'\\' as usize] = true;
    t[0xE2] = true;
    t
};

/// Whether `gap` holds only blanks, colons and commas (and whether a
/// comma): what the gap between two logged tokens holds.
fn only_separators(gap: &[u8]) -> Option<bool> {
    gap.iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b':' | b','))
        .then(|| gap.contains(&b','))
}

impl Reader {
    /// Reads the logged token `tok` of the output `text` (its `holes` cut,
    /// taken in by [`Reader::take_holes`] before its batch is read).
    ///
    /// Tokens are logged only without declarations, so a value's path is
    /// its container's and one token, and only a value that settles in
    /// the root object (or completes a root) reports an event: those, and
    /// whatever else is out of the ordinary, go the text reader's way.
    /// True where a lean path read it (which notes nothing).
    #[inline(always)]
    pub(crate) fn replay(
        &mut self,
        text: &str,
        holes: &[(usize, usize)],
        tok: &Tok,
        (sink, notes): (&mut Deltas, &mut Vec<Note>),
    ) -> bool {
        let out = text.as_bytes();
        // (Tokens are logged only without declarations.)
        debug_assert!(self.decls.is_none());
        let gap = if self.open.is_none() && self.holes.is_empty() {
            self.gap(out, tok)
        } else {
            None
        };
        if let Some(unread) = gap {
            // (No lean read begins a root value: `read` below sets the
            // token's start for one.)
            let done = match tok.kind {
                TokKind::Open(object) => self.open_lean(text, object, tok.at, sink),
                TokKind::Close => self.close_lean(tok.at, sink),
                TokKind::Key(pointer) => self.key_lean(text, tok, pointer, unread),
                TokKind::Scalar => self.scalar_lean(text, tok, sink),
                TokKind::Str(true) => self.compact_string(text, tok, sink),
                TokKind::Str(false) => false,
                TokKind::Mark | TokKind::Repair(..) => true,
            };
            if done {
                self.gap_clean = true;
                return true;
            }
        }
        let decided = match tok.kind {
            // What the step that read the string whole marks.
            TokKind::Str(_) => Decided {
                at: tok.at,
                run: Some((
                    tok.end.saturating_sub(2),
                    tok.end.saturating_sub(1),
                    tok.last_at.saturating_sub(1),
                )),
                open: Some((tok.start, tok.open_at)),
            },
            _ => Decided {
                at: tok.at,
                run: None,
                open: None,
            },
        };
        self.take_key(text);
        self.read(text, tok.end, holes, decided, (sink, notes));
        false
    }

    /// Whether a value completing now settles nothing that reports an
    /// event: it is not a root value or a member of the root object.
    fn settles_quietly(&self) -> bool {
        match self.frames.first() {
            Some(root) => self.frames.len() > 1 || !root.object,
            None => false,
        }
    }

    /// The path of a value beginning in the top frame: the frame's path and
    /// the value's key or index.
    fn value_path(&mut self, text: &str) {
        let Some(f) = self.frames.last() else {
            return;
        };
        cut_to(&mut self.path, f.len);
        if f.object {
            match self.pending_key.take() {
                Some((s, e, plain)) => {
                    push_token(&mut self.path, (text.get(s..e).unwrap_or_default(), plain));
                }
                None => push_token(&mut self.path, (f.key.as_str(), f.key_plain)),
            }
        } else {
            self.path.push('/');
            crate::serialize::write_int(&mut self.path, f.items.into());
        }
    }

    /// The path of a leaf value (a scalar, a string read whole) beginning
    /// in the top frame, as [`Reader::value_path`] would build it, lent
    /// as its container's path and the value's token: the delta stores it
    /// joined, and no later read needs it in `path` (the next value cuts
    /// `path` to its container's length first).
    fn leaf_path<'t>(&'t mut self, text: &'t str) -> Option<LeafPath<'t>> {
        let f = self.frames.last()?;
        // (As `cut_to`: a length that is no boundary cuts nothing.)
        let parent = self.path.get(..f.len).unwrap_or(&self.path);
        let token = if f.object {
            match self.pending_key.take() {
                Some((s, e, plain)) => Token::Key(text.get(s..e).unwrap_or_default(), plain),
                None => Token::Key(f.key.as_str(), f.key_plain),
            }
        } else {
            Token::Index(f.items)
        };
        Some(LeafPath { parent, token })
    }

    /// A container opens at `pos` inside another one (as
    /// [`Reader::open_container`] opens it there).
    fn open_lean(&mut self, text: &str, object: bool, at: usize, sink: &mut Deltas) -> bool {
        if self.frames.is_empty() || self.replace_next {
            return false;
        }
        self.value_path(text);
        sink.push(
            DeltaOp::Add,
            at,
            &self.path,
            if object { "{}" } else { "[]" },
        );
        self.push_frame(object, None, Decl::default());
        true
    }

    /// The innermost container closes at `pos` and settles quietly (as
    /// [`Reader::close_container`] closes it).
    fn close_lean(&mut self, at: usize, sink: &mut Deltas) -> bool {
        if self.frames.len() < 2
            || (self.frames.len() == 2 && self.frames.first().is_some_and(|f| f.object))
        {
            return false;
        }
        let Some(len) = self.frames.last().map(|f| f.len) else {
            return false;
        };
        self.pos += 1;
        cut_to(&mut self.path, len);
        sink.push(DeltaOp::Close, at, &self.path, "");
        self.keep_closed();
        if let Some(f) = self.frames.last_mut() {
            f.items += 1;
        }
        true
    }

    /// A key at `pos` with nothing to decode (as [`Reader::key`] reads it;
    /// `pointer`: the engine knows it is its own JSON Pointer token;
    /// `unread`: the gap before it was passed unread, so the comma before
    /// it, or its object's opener, makes its object expect it — as
    /// [`Reader::comma`] records a comma the scan finds).
    fn key_lean(&mut self, text: &str, tok: &Tok, pointer: bool, unread: bool) -> bool {
        let Some(f) = self.frames.last_mut() else {
            return false;
        };
        if unread {
            f.expect_key = f.object;
        }
        if !f.expect_key {
            return false;
        }
        let (start, end) = (tok.start + 1, tok.end.saturating_sub(1));
        // (The engine logs a key within the output, quotes included.)
        debug_assert!(start <= end && end < text.len());
        let mut plain = true;
        if !pointer {
            // (Bytes: the quotes around them are character boundaries.)
            let Some(content) = text.as_bytes().get(start..end) else {
                return false;
            };
            for &b in content {
                // (One test of most bytes.)
                if KEY_BYTE.get(usize::from(b)).copied().unwrap_or(true) {
                    if b == b'\\' || b == 0xE2 {
                        return false;
                    }
                    plain = false;
                }
            }
        }
        f.expect_key = false;
        self.pending_key = Some((start, end, plain));
        self.pos = tok.end;
        true
    }

    /// The key read from the log, into the top frame (before anything but
    /// a lean path reads its value).
    pub(crate) fn take_key(&mut self, text: &str) {
        if let Some((s, e, plain)) = self.pending_key.take() {
            if let Some(f) = self.frames.last_mut() {
                f.key.clear();
                f.key.push_str(text.get(s..e).unwrap_or_default());
                f.key_plain = plain;
            }
        }
    }

    /// A number or literal at `pos` that settles quietly (as
    /// [`Reader::scalar`] reads it).
    fn scalar_lean(&mut self, text: &str, tok: &Tok, sink: &mut Deltas) -> bool {
        if !self.settles_quietly() {
            return false;
        }
        let Some(token) = text.get(tok.start..tok.end) else {
            return false;
        };
        let Some(path) = self.leaf_path(text) else {
            return false;
        };
        sink.push_copied(DeltaOp::Add, tok.at, path, token);
        self.pos = tok.end;
        if let Some(f) = self.frames.last_mut() {
            f.items += 1;
        }
        true
    }

    /// A whole string value that is its own compact JSON text (the engine
    /// logged it so), at `pos`, whose value
    /// reports no event: its `add`, `append` and `close` written straight
    /// from the token. False (nothing done) otherwise.
    fn compact_string(&mut self, text: &str, tok: &Tok, sink: &mut Deltas) -> bool {
        if !self.settles_quietly() {
            return false;
        }
        // The token, quotes included, is the append's JSON text.
        let Some(json) = text.get(tok.start..tok.end) else {
            return false;
        };
        let Some(raw) = json.as_bytes().get(1..json.len().saturating_sub(1)) else {
            return false;
        };
        let Some(path) = self.leaf_path(text) else {
            return false;
        };
        // The last character decides the content, unless it ends in a run
        // R076 could move out: that waits for the close.
        let last = if ends_in_run(raw) {
            tok.at
        } else {
            tok.last_at
        };
        sink.push_string(path, (tok.open_at, last, tok.at), json);
        self.pos = tok.end;
        if let Some(f) = self.frames.last_mut() {
            f.items += 1;
        }
        true
    }

    /// Passes the gap before the logged token `tok`: without a look when
    /// it is known to hold separators only (a key's gap then ends in a
    /// comma or follows its object's opener), else as
    /// [`Reader::separators`] passes it.
    ///
    /// `Some(true)` where it passed the gap unread (a key's object then
    /// expects it, which [`Reader::key_lean`] records), `Some(false)` where
    /// it scanned it, `None` where something else comes first.
    #[inline(always)]
    fn gap(&mut self, out: &[u8], tok: &Tok) -> Option<bool> {
        if !self.gap_clean || self.pos > tok.start {
            return self.separators(out, tok.start).then_some(false);
        }
        let key = matches!(tok.kind, TokKind::Key(_));
        // (What the scan would find: separators only, and a comma where,
        // and only where, it makes the top object expect a key.)
        debug_assert!(
            out.get(self.pos..tok.start)
                .and_then(only_separators)
                .is_some_and(|comma| {
                    let top = self.frames.last();
                    let object = top.is_some_and(|f| f.object);
                    if key {
                        comma || top.is_some_and(|f| f.expect_key)
                    } else {
                        !(comma && object)
                    }
                }),
            "a logged token's gap holds something the scan would read otherwise"
        );
        self.pos = tok.start;
        Some(true)
    }

    /// Passes the blanks, colons and commas from `pos` to `to` as
    /// [`Reader::read`] reads them; false where something else comes first
    /// (`pos` is left there).
    fn separators(&mut self, out: &[u8], to: usize) -> bool {
        let Some(gap) = out.get(self.pos..to) else {
            return self.pos == to;
        };
        // (A key's colon and blank, the usual gap before a member's value.)
        if gap == b": " {
            self.pos = to;
            return true;
        }
        // (And a comma ending a line of a pretty-printed document.)
        if let [b',', b'\n', indent @ ..] = gap {
            if indent.iter().all(|&b| b == b' ') {
                self.pos = to;
                self.comma(true);
                return true;
            }
        }
        let mut comma = false;
        for (i, &b) in gap.iter().enumerate() {
            match b {
                b' ' | b'\t' | b'\n' | b'\r' | b':' => {}
                b',' => comma = true,
                _ => {
                    self.pos += i;
                    self.comma(comma);
                    return false;
                }
            }
        }
        self.pos = to;
        self.comma(comma);
        true
    }

    /// After a comma the innermost object expects a key.
    fn comma(&mut self, seen: bool) {
        if !seen {
            return;
        }
        if let Some(f) = self.frames.last_mut() {
            f.expect_key = f.object;
        }
    }
}
