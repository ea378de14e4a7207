//! Deltas (spec §12.2), read from the engine's decided output: the output
//! is strict JSON, written token by token, and the part of it no later
//! input can rewrite grows step by step. This reader turns that part into
//! `add`/`append`/`close` deltas as it grows, `reopen` when R054/R055 take
//! a closer back, and the one `set` of R080 when a second document starts;
//! it also tells the event layer which values settled.

use alloc::string::String;
use alloc::vec::Vec;

use super::decl::Decls;
use crate::json::quoted;
use crate::serialize::Obj;
use crate::value::Value;

/// What a delta does to the streamed value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeltaOp {
    /// A member or element begins.
    Add,
    /// Characters of an open string are decided.
    Append,
    /// A string or container ends.
    Close,
    /// A closed container continues (R054, R055).
    Reopen,
    /// A decided value is replaced: R080 wraps the root in an array, R053
    /// turns a string item into an object keyed by it.
    Set,
}

impl DeltaOp {
    /// The protocol name.
    ///
    /// ```
    /// assert_eq!(jsonmend_engine::DeltaOp::Append.as_str(), "append");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            DeltaOp::Add => "add",
            DeltaOp::Append => "append",
            DeltaOp::Close => "close",
            DeltaOp::Reopen => "reopen",
            DeltaOp::Set => "set",
        }
    }
}

/// One change to the value a watch stream is building.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delta {
    /// JSON Pointer of the value changed.
    pub path: String,
    /// What happens to it.
    pub op: DeltaOp,
    /// The compact JSON text of the delta's value (`""` for `close` and
    /// `reopen`, whose value is `null`).
    pub text: String,
    /// The input length that decided it.
    pub at: usize,
}

impl Delta {
    /// The protocol object `{path, op, value, text, at}`.
    ///
    /// ```
    /// use jsonmend_engine::{Delta, DeltaOp};
    /// let d = Delta { path: "/a".into(), op: DeltaOp::Append, text: "\"x\"".into(), at: 7 };
    /// assert_eq!(d.to_json(), r#"{"path":"/a","op":"append","value":"x","text":"\"x\"","at":7}"#);
    /// ```
    pub fn to_json(&self) -> String {
        let value = if self.text.is_empty() {
            "null"
        } else {
            &self.text
        };
        Obj::new()
            .str("path", &self.path)
            .str("op", self.op.as_str())
            .raw("value", value)
            .str("text", &self.text)
            .num("at", self.at)
            .end()
    }

    /// Appends of one path in a row merged into one (the later `at`).
    pub(crate) fn merge_appends(list: &mut Vec<Delta>) {
        let mut merged: Vec<Delta> = Vec::with_capacity(list.len());
        for d in list.drain(..) {
            if let Some(last) = merged.last_mut() {
                if d.op == DeltaOp::Append && last.op == DeltaOp::Append && last.path == d.path {
                    if let (Some(a), Some(b)) = (
                        Value::parse(&last.text).ok().and_then(Value::into_string),
                        Value::parse(&d.text).ok().and_then(Value::into_string),
                    ) {
                        last.text = quoted(&(a + &b));
                        last.at = d.at;
                        continue;
                    }
                }
            }
            merged.push(d);
        }
        *list = merged;
    }
}

/// What the reader reports besides deltas.
pub(crate) enum Note {
    Delta(Delta),
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
    path: String,
    items: usize,
    key: Option<String>,
    expect_key: bool,
    /// The container's declaration node.
    node: Option<usize>,
    /// The declaration of the container as a value.
    decl: Decl,
}

/// The incremental reader over the engine's output.
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
    last_closed: Option<Frame>,
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
}

/// A string value whose closing quote is not decided yet.
struct Open {
    path: String,
    decl: Decl,
    /// The content so far.
    content: String,
}

/// `base` + `/token` as a JSON Pointer.
pub(crate) fn pointer(base: &str, token: &str) -> String {
    let mut p = String::with_capacity(base.len() + token.len() + 1);
    p.push_str(base);
    p.push('/');
    for c in token.chars() {
        match c {
            '~' => p.push_str("~0"),
            '/' => p.push_str("~1"),
            c => p.push(c),
        }
    }
    p
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
            holes: Vec::new(),
            holes_seen: 0,
            decls,
            replace_next: false,
            token_start: 0,
            open: None,
            reopened_root: false,
        }
    }

    /// A step took back the closer at `at` (R054/R055): its container is
    /// open again.
    pub(crate) fn retract(&mut self, at: usize, when: usize, notes: &mut Vec<Note>) {
        if self.pos <= at {
            return;
        }
        let Some(f) = self.last_closed.take() else {
            return;
        };
        self.pos = at;
        if self.frames.is_empty() {
            self.roots = self.roots.saturating_sub(1);
        }
        notes.push(Note::Delta(Delta {
            path: f.path.clone(),
            op: DeltaOp::Reopen,
            text: String::new(),
            at: when,
        }));
        self.frames.push(f);
    }

    /// R053 inserted `{` at `at` before a string item read as a value:
    /// that item becomes an object (reported as `set`).
    pub(crate) fn implicit(&mut self, at: usize) {
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
        out: &[u8],
        stable: usize,
        holes: &[(usize, usize)],
        (at, run): (usize, Option<(usize, usize, usize)>),
        notes: &mut Vec<Note>,
    ) {
        for &h in holes.get(self.holes_seen..).unwrap_or_default() {
            let i = self.holes.partition_point(|x| x.0 < h.0);
            self.holes.insert(i, h);
        }
        self.holes_seen = holes.len();
        while self.pos < stable {
            if self.open.is_some() {
                if !self.string_content(out, stable, (at, run), notes) {
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
                b' ' | b'\t' | b'\n' | b'\r' | b':' => self.pos += 1,
                b',' => {
                    if let Some(f) = self.frames.last_mut() {
                        f.expect_key = f.object;
                    }
                    self.pos += 1;
                }
                b'{' | b'[' => {
                    let object = b == b'{';
                    let (path, decl) = self.begin_value(out, holes, at, notes);
                    let op = if core::mem::take(&mut self.replace_next) {
                        DeltaOp::Set
                    } else {
                        DeltaOp::Add
                    };
                    notes.push(Note::Delta(Delta {
                        path: path.clone(),
                        op,
                        text: if object { "{}".into() } else { "[]".into() },
                        at,
                    }));
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
                    self.frames.push(Frame {
                        object,
                        path,
                        items: 0,
                        key: None,
                        expect_key: object,
                        node,
                        decl,
                    });
                    self.pos += 1;
                }
                b'}' | b']' => {
                    self.pos += 1;
                    let Some(f) = self.frames.pop() else { continue };
                    notes.push(Note::Delta(Delta {
                        path: f.path.clone(),
                        op: DeltaOp::Close,
                        text: String::new(),
                        at,
                    }));
                    let value = if f.object {
                        Value::Object(Vec::new())
                    } else {
                        Value::Array(Vec::new())
                    };
                    let (path, decl) = (f.path.clone(), f.decl);
                    self.last_closed = Some(f);
                    self.settle(path, decl, value, notes);
                }
                b'"' => {
                    let end = string_end(out, self.pos).filter(|&e| e <= stable);
                    if self.frames.last().is_some_and(|f| f.expect_key) {
                        // A key: read once it is complete.
                        let Some(end) = end else { break };
                        let text = core::str::from_utf8(out.get(self.pos..end).unwrap_or_default())
                            .unwrap_or("\"\"");
                        let key = Value::parse(text)
                            .ok()
                            .and_then(Value::into_string)
                            .unwrap_or_default();
                        if let Some(f) = self.frames.last_mut() {
                            f.key = Some(key);
                            f.expect_key = false;
                        }
                        self.pos = end;
                        continue;
                    }
                    let (path, decl) = self.begin_value(out, holes, at, notes);
                    notes.push(Note::Delta(Delta {
                        path: path.clone(),
                        op: DeltaOp::Add,
                        text: "\"\"".into(),
                        at,
                    }));
                    self.pos += 1;
                    self.open = Some(Open {
                        path,
                        decl,
                        content: String::new(),
                    });
                }
                _ => {
                    let len = out
                        .get(self.pos..stable)
                        .unwrap_or_default()
                        .iter()
                        .position(|&c| {
                            matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r' | b':')
                        })
                        .unwrap_or(stable - self.pos);
                    let token = out.get(self.pos..self.pos + len).unwrap_or_default();
                    let text = String::from_utf8_lossy(token).into_owned();
                    self.pos += len.max(1);
                    let (path, decl) = self.begin_value(out, holes, at, notes);
                    let value = Value::parse(&text).unwrap_or(Value::Null);
                    notes.push(Note::Delta(Delta {
                        path: path.clone(),
                        op: DeltaOp::Add,
                        text,
                        at,
                    }));
                    self.settle(path, decl, value, notes);
                }
            }
        }
    }

    /// Reads the open string's decided content (R076's candidates — a
    /// trailing run of closers and whitespace — wait for what follows) and
    /// its end; false when it has to wait for more output.
    fn string_content(
        &mut self,
        out: &[u8],
        stable: usize,
        (at, run): (usize, Option<(usize, usize, usize)>),
        notes: &mut Vec<Note>,
    ) -> bool {
        let Some(open) = self.open.as_mut() else {
            return true;
        };
        let rest = out.get(self.pos..stable).unwrap_or_default();
        let close = content_end(rest);
        let upto = close.unwrap_or_else(|| rest.len() - trailing_run(rest));
        if upto > 0 {
            let mut text = String::with_capacity(upto + 2);
            text.push('"');
            text.push_str(&String::from_utf8_lossy(
                rest.get(..upto).unwrap_or_default(),
            ));
            text.push('"');
            let piece = Value::parse(&text)
                .ok()
                .and_then(Value::into_string)
                .unwrap_or_default();
            open.content.push_str(&piece);
            // A piece ending inside the plain run just copied is decided by
            // its last character.
            let end = self.pos + upto;
            let at = match run {
                Some((o, e, i)) if o < end && end <= e => i + (end - o),
                _ => at,
            };
            notes.push(Note::Delta(Delta {
                path: open.path.clone(),
                op: DeltaOp::Append,
                text: quoted(&piece),
                at,
            }));
            self.pos += upto;
        }
        if close.is_none() {
            return false;
        }
        self.pos += 1;
        let Some(open) = self.open.take() else {
            return true;
        };
        notes.push(Note::Delta(Delta {
            path: open.path.clone(),
            op: DeltaOp::Close,
            text: String::new(),
            at,
        }));
        self.settle(open.path, open.decl, Value::String(open.content), notes);
        true
    }

    /// A value begins: its path and declaration (R080's wrap when a
    /// second root value begins).
    fn begin_value(
        &mut self,
        out: &[u8],
        holes: &[(usize, usize)],
        at: usize,
        notes: &mut Vec<Note>,
    ) -> (String, Decl) {
        let Some(f) = self.frames.last() else {
            if self.roots == 1 && !self.wrapped {
                self.wrapped = true;
                let text = without_holes(out, self.first, holes);
                let first = Value::parse(&text).map_or_else(|_| "null".into(), |v| v.to_json());
                let mut wrapped = String::from("[");
                wrapped.push_str(&first);
                wrapped.push(']');
                notes.push(Note::Delta(Delta {
                    path: String::new(),
                    op: DeltaOp::Set,
                    text: wrapped,
                    at,
                }));
            }
            self.root_start = self.token_start;
            if self.wrapped {
                return (alloc::format!("/{}", self.roots), Decl::default());
            }
            let node = self.decls.as_ref().map(|_| 0);
            return (String::new(), Decl { node, member: None });
        };
        let decls = self.decls.as_ref();
        if f.object {
            let key = f.key.clone().unwrap_or_default();
            let found = decls.zip(f.node).and_then(|(d, n)| d.field(n, &key));
            let decl = Decl {
                node: found.map(|x| x.0),
                member: found.map(|x| x.1),
            };
            (pointer(&f.path, &key), decl)
        } else {
            let node = decls.zip(f.node).and_then(|(d, n)| d.item(n));
            (
                alloc::format!("{}/{}", f.path, f.items),
                Decl { node, member: None },
            )
        }
    }

    /// The output offset read so far.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// The path of the string value being read.
    pub(crate) fn open_string(&self) -> Option<&str> {
        self.open.as_ref().map(|o| o.path.as_str())
    }

    /// Root values completed.
    pub(crate) fn roots(&self) -> usize {
        self.roots
    }

    /// The declarations, with a schema.
    pub(crate) fn decls(&self) -> Option<&Decls> {
        self.decls.as_ref()
    }

    /// A value is complete.
    fn settle(&mut self, path: String, decl: Decl, value: Value, notes: &mut Vec<Note>) {
        let root_member = self.frames.len() == 1 && self.frames.first().is_some_and(|f| f.object);
        match self.frames.last_mut() {
            Some(f) => {
                f.items += 1;
                notes.push(Note::Settled {
                    path,
                    root_member,
                    decl,
                    value,
                });
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

/// The offset of the closing quote in `rest` (string content that follows
/// an opening quote or earlier content).
fn content_end(rest: &[u8]) -> Option<usize> {
    let mut i = 0;
    loop {
        match rest.get(i)? {
            b'"' => return Some(i),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
}

/// The length of the trailing run of closers and (escaped) whitespace in
/// string content: what R076 would move out of a string cut off here.
fn trailing_run(content: &[u8]) -> usize {
    let mut n = content.len();
    loop {
        match content.get(..n) {
            Some([.., b'}' | b']' | b')' | b' ']) => n -= 1,
            Some([head @ .., b'\\', b't' | b'n' | b'r']) => {
                // An escape only if the backslash itself is not escaped.
                let slashes = head.iter().rev().take_while(|&&b| b == b'\\').count();
                if slashes % 2 == 1 {
                    break;
                }
                n -= 2;
            }
            _ => break,
        }
    }
    content.len() - n
}

/// The end (past the closing quote) of the JSON string at `at`.
fn string_end(out: &[u8], at: usize) -> Option<usize> {
    let mut i = at + 1;
    loop {
        match out.get(i)? {
            b'"' => return Some(i + 1),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
}

/// `out[s..e]` without the holes inside it, as text.
fn without_holes(out: &[u8], (s, e): (usize, usize), holes: &[(usize, usize)]) -> String {
    let mut sorted: Vec<(usize, usize)> = holes
        .iter()
        .copied()
        .filter(|h| h.1 > s && h.0 < e)
        .collect();
    sorted.sort_unstable();
    let mut text = Vec::with_capacity(e.saturating_sub(s));
    let mut at = s;
    for (hs, he) in sorted {
        if hs > at {
            text.extend_from_slice(out.get(at..hs).unwrap_or_default());
        }
        at = at.max(he);
    }
    if at < e {
        text.extend_from_slice(out.get(at..e).unwrap_or_default());
    }
    String::from_utf8_lossy(&text).into_owned()
}
