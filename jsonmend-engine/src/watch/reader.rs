//! Deltas (spec §12.2), read from the engine's decided output: the output
//! is strict JSON, written token by token, and the part of it no later
//! input can rewrite grows step by step. This reader turns that part into
//! `add`/`append`/`close` deltas as it grows, `reopen` when R054/R055 take
//! a closer back, and the one `set` of R080 when a second document starts;
//! it also tells the event layer which values settled. Steps the fast lane
//! logged are read from their tokens instead (`reader/replay.rs`).

use alloc::string::String;
use alloc::vec::Vec;

use super::decl::Decls;
use super::delta::{DeltaOp, Deltas};
use super::output_text::{decode_content, ends_in_run, key_end, trailing_run, without_holes};
use crate::json::{compact_escapes, content_end};
use crate::value::Value;

mod replay;

/// Where one step's deltas are decided: `at`, the plain run it copied
/// into a string (output span, input start: a piece ending inside it is
/// decided by its last character), and the opening of a string value it
/// read whole (output offset, `at` of the opening's own step).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Decided {
    pub(crate) at: usize,
    pub(crate) run: Option<(usize, usize, usize)>,
    pub(crate) open: Option<(usize, usize)>,
}

/// What the reader reports besides deltas.
pub(crate) enum Note {
    /// A value is complete: its path, whether it is a member of the root
    /// object, its declaration, and the value (containers empty).
    Settled {
        path: String,
        root_member: bool,
        decl: Decl,
        value: Value,
    },
    /// A declared object opened: its required fields count from now on.
    Declared(usize),
    /// A root value is complete.
    Complete,
}

/// What a value is declared as: its declaration node, and for a declared
/// object member whether it is required.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Decl {
    pub(crate) node: Option<usize>,
    pub(crate) member: Option<bool>,
}

#[derive(Clone)]
struct Frame {
    object: bool,
    /// The length of the container's own path: the reader's path buffer
    /// starts with it while the container is open.
    len: usize,
    items: usize,
    /// The current member's key (its buffer reused member to member).
    key: String,
    /// The key is its own JSON Pointer token (no `~` or `/` in it).
    key_plain: bool,
    expect_key: bool,
    /// The container's declaration node.
    node: Option<usize>,
    /// The declaration of the container as a value.
    decl: Decl,
}

/// The incremental reader over the engine's output.
#[derive(Clone)]
pub(crate) struct Reader {
    /// Output offset read so far.
    pos: usize,
    frames: Vec<Frame>,
    /// Root values completed.
    roots: usize,
    /// Output span of the first root value (for R080's wrap).
    first: (usize, usize),
    root_start: usize,
    wrapped: bool,
    /// The container closed last and its path (R054/R055 may reopen it).
    last_closed: Option<Frame>,
    closed_path: String,
    /// Holes not yet passed, sorted.
    holes: Vec<(usize, usize)>,
    holes_seen: usize,
    decls: Option<Decls>,
    /// The next container replaces the value at its path (R053).
    replace_next: bool,
    /// Where the token being read starts.
    token_start: usize,
    /// The string value being read.
    open: Option<Open>,
    /// R053 took back a complete root (the watch counts it open again).
    pub(crate) reopened_root: bool,
    /// The path of the value being read, which starts with the path of
    /// every open container (each frame keeps its length), so a value's
    /// path is its container's with one token added, not a copy of it.
    path: String,
    /// Key buffers of closed frames, for the next ones.
    spare: Vec<String>,
    /// The output from `pos` to the next logged token holds separators
    /// only: the last thing read was a logged token, and every step since
    /// was a logged one (whose output between its tokens is blanks,
    /// colons and commas), so the gap needs no scan (`reader/replay.rs`).
    gap_clean: bool,
    /// A key read from the token log whose value is not read yet: its
    /// content's output span and whether it is its own JSON Pointer token
    /// (the top frame's `key` is stale until [`Reader::take_key`]).
    pending_key: Option<(usize, usize, bool)>,
}

/// A string value whose closing quote is not decided yet (its path is the
/// reader's `path` until it closes: a string holds no value of its own).
#[derive(Clone)]
struct Open {
    decl: Decl,
    /// The content so far (kept only when an event needs it).
    content: String,
    keep: bool,
}

/// Cuts `p` back to `len` bytes, a container's path length. (Always a
/// character boundary while the container is open; anything else leaves
/// `p` as it is rather than panic.)
fn cut_to(p: &mut String, len: usize) {
    if p.is_char_boundary(len) {
        p.truncate(len);
    }
}

/// Adds `/token` to `p` as a JSON Pointer token (`plain`: the token has no
/// `~` or `/` to escape).
fn push_token(p: &mut String, (token, plain): (&str, bool)) {
    if plain {
        p.push('/');
        p.push_str(token);
    } else {
        crate::json::push_pointer_token(p, token);
    }
}

impl Reader {
    pub(crate) fn new(decls: Option<Decls>) -> Reader {
        Reader {
            pos: 0,
            frames: Vec::new(),
            roots: 0,
            first: (0, 0),
            root_start: 0,
            wrapped: false,
            last_closed: None,
            closed_path: String::new(),
            holes: Vec::new(),
            holes_seen: 0,
            decls,
            replace_next: false,
            token_start: 0,
            open: None,
            reopened_root: false,
            path: String::new(),
            spare: Vec::new(),
            gap_clean: false,
            pending_key: None,
        }
    }

    /// A step the batch reads as text ran: the output from `pos` on may
    /// hold more than separators before the next logged token.
    pub(crate) fn text_step_ran(&mut self) {
        self.gap_clean = false;
    }

    /// A step took back the closer at `at` (R054/R055): its container is
    /// open again.
    pub(crate) fn retract(&mut self, at: usize, when: usize, sink: &mut Deltas) {
        self.gap_clean = false;
        if self.pos <= at {
            return;
        }
        let Some(f) = self.last_closed.take() else {
            return;
        };
        self.pos = at;
        if self.frames.is_empty() {
            self.roots = self.roots.saturating_sub(1);
            self.reopened_root = true;
        }
        self.path.clear();
        self.path.push_str(&self.closed_path);
        sink.push(DeltaOp::Reopen, when, &self.path, "");
        self.frames.push(f);
    }

    /// R053 inserted `{` at `at` before a string item read as a value:
    /// that item becomes an object (reported as `set`).
    pub(crate) fn implicit(&mut self, at: usize) {
        self.gap_clean = false;
        if self.pos <= at {
            return;
        }
        self.pos = at;
        match self.frames.last_mut() {
            Some(f) => f.items = f.items.saturating_sub(1),
            None => self.roots = self.roots.saturating_sub(1),
        }
        self.replace_next = true;
        self.reopened_root = self.frames.is_empty();
    }

    /// Reads `out[pos..stable]` (whole tokens; `holes` are cut).
    pub(crate) fn read(
        &mut self,
        text: &str,
        stable: usize,
        holes: &[(usize, usize)],
        decided: Decided,
        (sink, notes): (&mut Deltas, &mut Vec<Note>),
    ) {
        let Decided { at, run, open } = decided;
        self.gap_clean = false;
        // Bytes to scan; pieces are taken from `text` (the output is text,
        // and every piece starts and ends at an ASCII byte or a lead byte).
        let out = text.as_bytes();
        self.take_holes(holes);
        while self.pos < stable {
            if self.open.is_some() {
                if !self.string_content(text, stable, (at, run), (sink, notes)) {
                    break;
                }
                continue;
            }
            if let Some(&(hs, he)) = self.holes.first() {
                if hs <= self.pos {
                    self.pos = self.pos.max(he);
                    self.holes.remove(0);
                    continue;
                }
            }
            let Some(&b) = out.get(self.pos) else { break };
            self.token_start = self.pos;
            match b {
                b' ' | b'\t' | b'\n' | b'\r' | b':' | b',' => {
                    // The whole run of blanks and separators, up to the
                    // next hole (passed over at the next token).
                    let end = match self.holes.first() {
                        Some(&(hs, _)) => hs.min(stable),
                        None => stable,
                    };
                    let rest = out.get(self.pos..end).unwrap_or_default();
                    let mut n = 0;
                    for &c in rest {
                        match c {
                            b' ' | b'\t' | b'\n' | b'\r' | b':' => {}
                            b',' => {
                                if let Some(f) = self.frames.last_mut() {
                                    f.expect_key = f.object;
                                }
                            }
                            _ => break,
                        }
                        n += 1;
                    }
                    self.pos += n.max(1);
                }
                b'{' | b'[' => self.open_container(b == b'{', out, holes, at, (sink, notes)),
                b'}' | b']' => self.close_container(at, (sink, notes)),
                b'"' if self.frames.last().is_some_and(|f| f.expect_key) => {
                    // A key: read once it is complete.
                    if !self.key(text, stable) {
                        break;
                    }
                }
                b'"' => self.string_value(out, holes, (at, open), sink),
                _ => {
                    let len = out
                        .get(self.pos..stable)
                        .unwrap_or_default()
                        .iter()
                        .position(|&c| {
                            matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r' | b':')
                        })
                        .unwrap_or(stable - self.pos);
                    self.scalar(text, len, holes, at, (sink, notes));
                }
            }
        }
    }

    /// Takes in the engine's holes not seen yet (kept sorted).
    pub(crate) fn take_holes(&mut self, holes: &[(usize, usize)]) {
        for &h in holes.get(self.holes_seen..).unwrap_or_default() {
            let i = self.holes.partition_point(|x| x.0 < h.0);
            self.holes.insert(i, h);
        }
        self.holes_seen = holes.len();
    }

    /// A container opens at `pos` (`{` when `object`).
    fn open_container(
        &mut self,
        object: bool,
        out: &[u8],
        holes: &[(usize, usize)],
        at: usize,
        (sink, notes): (&mut Deltas, &mut Vec<Note>),
    ) {
        let decl = self.begin_value(out, holes, at, sink);
        let op = if core::mem::take(&mut self.replace_next) {
            DeltaOp::Set
        } else {
            DeltaOp::Add
        };
        sink.push(op, at, &self.path, if object { "{}" } else { "[]" });
        let node = self
            .decls
            .as_ref()
            .zip(decl.node)
            .and_then(|(d, n)| d.container(n, object));
        // The root's required fields count from the start.
        if let (Some(d), Some(n), true) = (&self.decls, node, object) {
            if decl.member.is_some() {
                notes.push(Note::Declared(d.required(n)));
            }
        }
        self.push_frame(object, node, decl);
    }

    /// The container whose opener is at `pos` (its path just built) opens:
    /// its frame, a spare key buffer in it.
    fn push_frame(&mut self, object: bool, node: Option<usize>, decl: Decl) {
        let key = self.spare.pop().unwrap_or_default();
        self.frames.push(Frame {
            object,
            len: self.path.len(),
            items: 0,
            key,
            key_plain: true,
            expect_key: object,
            node,
            decl,
        });
        self.pos += 1;
    }

    /// The innermost open container closes at `pos`.
    fn close_container(&mut self, at: usize, (sink, notes): (&mut Deltas, &mut Vec<Note>)) {
        self.pos += 1;
        let Some((len, object, decl)) = self.frames.last().map(|f| (f.len, f.object, f.decl))
        else {
            return;
        };
        cut_to(&mut self.path, len);
        sink.push(DeltaOp::Close, at, &self.path, "");
        let value = move || {
            if object {
                Value::Object(Vec::new())
            } else {
                Value::Array(Vec::new())
            }
        };
        let path = if self.settles_with_value(decl) {
            self.path.clone()
        } else {
            String::new()
        };
        self.keep_closed();
        self.settle(path, decl, value, notes);
    }

    /// Keeps the innermost container, just closed (its path the reader's),
    /// which R054/R055 may reopen: its frame moves off the stack. (Moved
    /// from the stack straight into its place: a frame passed on by value
    /// was read back while its bytes were still being stored.)
    fn keep_closed(&mut self) {
        self.closed_path.clear();
        self.closed_path.push_str(&self.path);
        if let Some(old) = self.last_closed.take() {
            self.spare.push(old.key);
        }
        self.last_closed = self.frames.pop();
    }

    /// The key at `pos`, if it ends by `stable`: false while it is cut.
    fn key(&mut self, text: &str, stable: usize) -> bool {
        let out = text.as_bytes();
        let Some(key) = key_end(out, self.pos).filter(|k| k.end <= stable) else {
            return false;
        };
        let end = key.end;
        if let Some(f) = self.frames.last_mut() {
            f.key.clear();
            match text.get(self.pos + 1..end - 1) {
                Some(text) if !key.decode => {
                    f.key.push_str(text);
                    f.key_plain = key.plain;
                }
                _ => {
                    let raw = out.get(self.pos + 1..end - 1).unwrap_or_default();
                    f.key.push_str(&decode_content(raw).0);
                    f.key_plain = !f.key.bytes().any(|b| b == b'~' || b == b'/');
                }
            }
            f.expect_key = false;
        }
        self.pos = end;
        true
    }

    /// A string value opens at `pos` (its content read next); `open` is
    /// the opening of a string the step read whole, with its own `at`.
    fn string_value(
        &mut self,
        out: &[u8],
        holes: &[(usize, usize)],
        (at, open): (usize, Option<(usize, usize)>),
        sink: &mut Deltas,
    ) {
        let decl = self.begin_value(out, holes, at, sink);
        // A string read whole: its opening's own `at`.
        let opened = match open {
            Some((o, a)) if o == self.pos => a,
            _ => at,
        };
        sink.push(DeltaOp::Add, opened, &self.path, "\"\"");
        self.pos += 1;
        let keep = self.settles_with_value(decl);
        self.open = Some(Open {
            decl,
            content: String::new(),
            keep,
        });
    }

    /// A number or literal of `len` bytes at `pos`.
    fn scalar(
        &mut self,
        text: &str,
        len: usize,
        holes: &[(usize, usize)],
        at: usize,
        (sink, notes): (&mut Deltas, &mut Vec<Note>),
    ) {
        let token = text.get(self.pos..self.pos + len).unwrap_or("null");
        self.pos += len.max(1);
        let decl = self.begin_value(text.as_bytes(), holes, at, sink);
        sink.push(DeltaOp::Add, at, &self.path, token);
        let path = if self.settles_with_value(decl) {
            self.path.clone()
        } else {
            String::new()
        };
        self.settle(
            path,
            decl,
            || Value::parse(token).unwrap_or(Value::Null),
            notes,
        );
    }

    /// Reads the open string's decided content (R076's candidates — a
    /// trailing run of closers and whitespace — wait for what follows) and
    /// its end; false when it has to wait for more output.
    fn string_content(
        &mut self,
        text: &str,
        stable: usize,
        (at, run): (usize, Option<(usize, usize, usize)>),
        (sink, notes): (&mut Deltas, &mut Vec<Note>),
    ) -> bool {
        let Some(open) = self.open.as_mut() else {
            return true;
        };
        let rest = text.as_bytes().get(self.pos..stable).unwrap_or_default();
        // One scan finds the closing quote of a piece with nothing to
        // decode (no escape, no U+2028/U+2029 lead byte), the usual case.
        let stop = rest
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b == 0xE2);
        let (close, plain) = match stop.and_then(|i| rest.get(i).map(|&b| (i, b))) {
            Some((i, b'"')) => (Some(i), true),
            None => (None, true),
            Some(_) => (content_end(rest), false),
        };
        let upto = close.unwrap_or_else(|| rest.len() - trailing_run(rest));
        if upto > 0 {
            let raw = rest.get(..upto).unwrap_or_default();
            let plain = plain || !raw.iter().any(|&b| b == b'\\' || b == 0xE2);
            // The JSON text of the piece: the output bytes themselves when
            // its escapes are the ones `Value::to_json` writes.
            let (json, text) = match text.get(self.pos..self.pos + upto) {
                Some(piece) if plain => (None, Some(piece)),
                Some(piece) if compact_escapes(raw) => (None, Some(piece)),
                _ => (Some(decode_content(raw)), None),
            };
            if open.keep {
                match (&json, text) {
                    (Some((decoded, _)), _) => open.content.push_str(decoded),
                    (None, Some(text)) if plain => open.content.push_str(text),
                    _ => open.content.push_str(&decode_content(raw).0),
                }
            }
            // A piece ending inside the plain run just copied is decided by
            // its last character, unless it ends in a run R076 would move
            // out of a string cut there: that waits for the close.
            let end = self.pos + upto;
            let at = match run {
                Some(_) if close.is_some() && ends_in_run(raw) => at,
                Some((o, e, i)) if o < end && end <= e => i + (end - o),
                _ => at,
            };
            match (json, text) {
                (Some((_, json)), _) => sink.push_append(at, &self.path, &json),
                (None, text) => sink.push_append_text(at, &self.path, text.unwrap_or("")),
            }
            self.pos += upto;
        }
        if close.is_none() {
            return false;
        }
        self.pos += 1;
        let Some(open) = self.open.take() else {
            return true;
        };
        sink.push(DeltaOp::Close, at, &self.path, "");
        let path = if open.keep {
            self.path.clone()
        } else {
            String::new()
        };
        let content = open.content;
        self.settle(path, open.decl, || Value::String(content), notes);
        true
    }

    /// A value begins: its path and declaration (R080's wrap when a
    /// second root value begins).
    fn begin_value(
        &mut self,
        out: &[u8],
        holes: &[(usize, usize)],
        at: usize,
        sink: &mut Deltas,
    ) -> Decl {
        let Some(f) = self.frames.last() else {
            if self.roots == 1 && !self.wrapped {
                self.wrapped = true;
                let text = without_holes(out, self.first, holes);
                let first = Value::parse(&text).map_or_else(|_| "null".into(), |v| v.to_json());
                let mut wrapped = String::from("[");
                wrapped.push_str(&first);
                wrapped.push(']');
                sink.push(DeltaOp::Set, at, "", &wrapped);
            }
            self.root_start = self.token_start;
            self.path.clear();
            if self.wrapped {
                use core::fmt::Write;
                let _ = write!(self.path, "/{}", self.roots);
                return Decl::default();
            }
            let node = self.decls.as_ref().map(|_| 0);
            return Decl { node, member: None };
        };
        let decls = self.decls.as_ref();
        cut_to(&mut self.path, f.len);
        if f.object {
            let key = f.key.as_str();
            let found = decls.zip(f.node).and_then(|(d, n)| d.field(n, key));
            push_token(&mut self.path, (key, f.key_plain));
            Decl {
                node: found.map(|x| x.0),
                member: found.map(|x| x.1),
            }
        } else {
            let node = decls.zip(f.node).and_then(|(d, n)| d.item(n));
            self.path.push('/');
            crate::serialize::write_int(&mut self.path, f.items.into());
            Decl { node, member: None }
        }
    }

    /// The output offset read so far.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// The path of the string value being read.
    pub(crate) fn open_string(&self) -> Option<&str> {
        self.open.as_ref().map(|_| self.path.as_str())
    }

    /// Root values completed.
    pub(crate) fn roots(&self) -> usize {
        self.roots
    }

    /// The declarations, with a schema.
    pub(crate) fn decls(&self) -> Option<&Decls> {
        self.decls.as_ref()
    }

    /// Whether a value settling now is reported (a member of the root
    /// object, or declared): only then is its value built.
    fn settles_with_value(&self, decl: Decl) -> bool {
        decl.node.is_some()
            || (self.frames.len() == 1 && self.frames.first().is_some_and(|f| f.object))
    }

    /// A value is complete.
    /// (`value` builds the value, only when it is reported.)
    fn settle(
        &mut self,
        path: String,
        decl: Decl,
        value: impl FnOnce() -> Value,
        notes: &mut Vec<Note>,
    ) {
        let root_member = self.frames.len() == 1 && self.frames.first().is_some_and(|f| f.object);
        let wanted = self.settles_with_value(decl);
        match self.frames.last_mut() {
            Some(f) => {
                f.items += 1;
                if wanted {
                    notes.push(Note::Settled {
                        path,
                        root_member,
                        decl,
                        value: value(),
                    });
                }
            }
            None => {
                if self.roots == 0 {
                    self.first = (self.root_start, self.pos);
                }
                self.roots += 1;
                notes.push(Note::Complete);
            }
        }
    }
}
