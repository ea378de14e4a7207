//! Deltas (spec §12.2): what a watch feed reports about the value being
//! built. One feed's deltas live in one buffer (paths and texts side by
//! side), so a feed allocates per buffer growth, not per delta.

use alloc::string::String;
use alloc::vec::Vec;

use crate::json::{write_json_as_str, write_str};
use crate::serialize::{array_into, write_int};

/// What a delta does to the streamed value.
///
/// ```
/// use jsonmend_engine::{DeltaOp, Options, Watch};
/// let mut w = Watch::new(Options::default());
/// let p = w.feed("[\"a\"]").unwrap();
/// let ops: Vec<DeltaOp> = p.deltas.iter().map(|d| d.op).collect();
/// assert_eq!(ops, [DeltaOp::Add, DeltaOp::Add, DeltaOp::Append, DeltaOp::Close, DeltaOp::Close]);
/// ```
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

/// One change to the value a watch stream is building (owned; a feed
/// lends them as [`DeltaRef`]s).
///
/// ```
/// use jsonmend_engine::{Delta, Options, Watch};
/// let mut w = Watch::new(Options::default());
/// let kept: Vec<Delta> = w.feed("{\"n\": 1}").unwrap().deltas.iter().map(|d| d.to_owned()).collect();
/// assert_eq!((kept[1].path.as_str(), kept[1].text.as_str(), kept[1].at), ("/n", "1", 8));
/// ```
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
        self.as_ref().to_json()
    }

    /// The borrowed form.
    ///
    /// ```
    /// use jsonmend_engine::{Delta, DeltaOp};
    /// let d = Delta { path: "".into(), op: DeltaOp::Close, text: String::new(), at: 3 };
    /// assert_eq!(d.as_ref().to_json(), r#"{"path":"","op":"close","value":null,"text":"","at":3}"#);
    /// ```
    pub fn as_ref(&self) -> DeltaRef<'_> {
        DeltaRef {
            path: &self.path,
            op: self.op,
            text: &self.text,
            at: self.at,
        }
    }
}

/// A delta borrowed from a feed's [`Deltas`].
///
/// ```
/// use jsonmend_engine::{Options, Watch};
/// let mut w = Watch::new(Options::default());
/// let p = w.feed("[true,").unwrap();
/// let d = p.deltas.get(1).unwrap();
/// assert_eq!((d.path, d.text), ("/0", "true"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeltaRef<'a> {
    /// JSON Pointer of the value changed.
    pub path: &'a str,
    /// What happens to it.
    pub op: DeltaOp,
    /// The compact JSON text of the delta's value (`""` for `close` and
    /// `reopen`).
    pub text: &'a str,
    /// The input length that decided it.
    pub at: usize,
}

impl DeltaRef<'_> {
    /// The owned form.
    ///
    /// ```
    /// use jsonmend_engine::{Options, Watch};
    /// let mut w = Watch::new(Options::default());
    /// let owned = w.feed("[1").unwrap().deltas.get(0).unwrap().to_owned();
    /// assert_eq!(owned.text, "[]");
    /// ```
    pub fn to_owned(&self) -> Delta {
        Delta {
            path: self.path.into(),
            op: self.op,
            text: self.text.into(),
            at: self.at,
        }
    }

    /// The protocol object `{path, op, value, text, at}`.
    ///
    /// ```
    /// use jsonmend_engine::{Options, Watch};
    /// let mut w = Watch::new(Options::default());
    /// let p = w.feed("[1").unwrap();
    /// assert_eq!(p.deltas.get(0).unwrap().to_json(), r#"{"path":"","op":"add","value":[],"text":"[]","at":1}"#);
    /// ```
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(48 + self.path.len() + 2 * self.text.len());
        self.write_json(&mut out);
        out
    }

    /// Appends the protocol object to `out`: the names and the operation
    /// between the path and the value written as one piece, and for a
    /// delta without text (`close`, `reopen`) everything up to `at`.
    pub(crate) fn write_json(&self, out: &mut String) {
        out.reserve(56 + self.path.len() + 2 * self.text.len());
        out.push_str("{\"path\":");
        write_str(out, self.path);
        if self.text.is_empty() {
            out.push_str(self.op.null_members());
        } else {
            out.push_str(self.op.value_member());
            out.push_str(self.text);
            out.push_str(",\"text\":");
            write_json_as_str(out, self.text);
            out.push_str(",\"at\":");
        }
        write_int(out, self.at.into());
        out.push('}');
    }
}

impl DeltaOp {
    /// What follows a delta's path up to its value.
    fn value_member(self) -> &'static str {
        match self {
            DeltaOp::Add => ",\"op\":\"add\",\"value\":",
            DeltaOp::Append => ",\"op\":\"append\",\"value\":",
            DeltaOp::Close => ",\"op\":\"close\",\"value\":",
            DeltaOp::Reopen => ",\"op\":\"reopen\",\"value\":",
            DeltaOp::Set => ",\"op\":\"set\",\"value\":",
        }
    }

    /// What follows the path of a delta without text, up to its `at`.
    fn null_members(self) -> &'static str {
        match self {
            DeltaOp::Add => ",\"op\":\"add\",\"value\":null,\"text\":\"\",\"at\":",
            DeltaOp::Append => ",\"op\":\"append\",\"value\":null,\"text\":\"\",\"at\":",
            DeltaOp::Close => ",\"op\":\"close\",\"value\":null,\"text\":\"\",\"at\":",
            DeltaOp::Reopen => ",\"op\":\"reopen\",\"value\":null,\"text\":\"\",\"at\":",
            DeltaOp::Set => ",\"op\":\"set\",\"value\":null,\"text\":\"\",\"at\":",
        }
    }
}

/// A leaf value's path, lent in two parts: its container's path and the
/// value's own token, joined where the delta stores it.
pub(crate) struct LeafPath<'a> {
    pub(crate) parent: &'a str,
    pub(crate) token: Token<'a>,
}

/// The last token of a [`LeafPath`].
pub(crate) enum Token<'a> {
    /// A member's key (`true`: it has no `~` or `/` to escape).
    Key(&'a str, bool),
    /// An element's index.
    Index(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Item {
    op: DeltaOp,
    at: usize,
    path: (usize, usize),
    text: (usize, usize),
}

/// The deltas of one feed, in order (appends to one path in a row merged).
///
/// ```
/// use jsonmend_engine::{Options, Watch};
/// let mut w = Watch::new(Options::default());
/// let p = w.feed("[\"ab").unwrap();
/// let ops: Vec<_> = p.deltas.iter().map(|d| (d.op.as_str(), d.path, d.text)).collect();
/// assert_eq!(ops, [("add", "", "[]"), ("add", "/0", "\"\""), ("append", "/0", "\"ab\"")]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Deltas {
    buf: String,
    items: Vec<Item>,
}

/// Texts a delta does not copy: `close`'s and `reopen`'s, a string's,
/// an object's and an array's opening value. An item's text span
/// `(STATIC, i)` is `STATIC_TEXTS[i]`.
const STATIC_TEXTS: [&str; 4] = ["", "\"\"", "{}", "[]"];
const STATIC: usize = usize::MAX;

/// Equal when they hold the same deltas in the same order (however their
/// buffers are laid out).
///
/// ```
/// use jsonmend_engine::{Options, Watch};
/// let mut a = Watch::new(Options::default());
/// let mut b = Watch::new(Options::default());
/// assert_eq!(a.feed("[1]").unwrap().deltas, b.feed("[1]").unwrap().deltas);
/// ```
impl PartialEq for Deltas {
    fn eq(&self, other: &Deltas) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Deltas {}

impl Deltas {
    /// Room for the deltas of about `bytes` of input (a feed's deltas take
    /// up to about three times as many bytes of paths and texts as the
    /// input they come from — every delta repeats its path — and a delta per
    /// ten bytes or so), so a feed grows its buffers rarely.
    pub(crate) fn for_input(bytes: usize) -> Deltas {
        Deltas {
            buf: String::with_capacity(3 * bytes),
            items: Vec::with_capacity(bytes / 8),
        }
    }

    /// How many deltas.
    ///
    /// ```
    /// use jsonmend_engine::{Options, Watch};
    /// let mut w = Watch::new(Options::default());
    /// assert_eq!(w.feed("[1, 2]").unwrap().deltas.len(), 4);
    /// ```
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are none.
    ///
    /// ```
    /// use jsonmend_engine::{Options, Watch};
    /// let mut w = Watch::new(Options::default());
    /// assert!(w.feed("  ").unwrap().deltas.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    fn get_ref(&self, it: &Item) -> DeltaRef<'_> {
        let text = match it.text {
            (STATIC, i) => STATIC_TEXTS.get(i).copied(),
            (s, e) => self.buf.get(s..e),
        };
        DeltaRef {
            path: self.buf.get(it.path.0..it.path.1).unwrap_or_default(),
            op: it.op,
            text: text.unwrap_or_default(),
            at: it.at,
        }
    }

    /// The `i`-th delta.
    ///
    /// ```
    /// use jsonmend_engine::{Options, Watch};
    /// let mut w = Watch::new(Options::default());
    /// let p = w.feed("[1,").unwrap();
    /// assert_eq!(p.deltas.get(1).map(|d| d.path), Some("/0"));
    /// assert!(p.deltas.get(2).is_none());
    /// ```
    pub fn get(&self, i: usize) -> Option<DeltaRef<'_>> {
        self.items.get(i).map(|it| self.get_ref(it))
    }

    /// The deltas in order.
    ///
    /// ```
    /// use jsonmend_engine::{Options, Watch};
    /// let mut w = Watch::new(Options::default());
    /// let p = w.feed("{\"k\": \"v\"}").unwrap();
    /// let paths: Vec<&str> = p.deltas.iter().map(|d| d.path).collect();
    /// assert_eq!(paths, ["", "/k", "/k", "/k", ""]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = DeltaRef<'_>> {
        self.items.iter().map(|it| self.get_ref(it))
    }

    /// The protocol array.
    pub(crate) fn write_json(&self, out: &mut String) {
        // Each delta's path and text, the text again as its value, and
        // the names around them; escapes are rare.
        out.reserve(2 * self.buf.len() + 48 * self.items.len() + 2);
        array_into(out, self.iter(), |out, d| d.write_json(out));
    }

    fn put(&mut self, s: &str) -> (usize, usize) {
        let start = self.buf.len();
        self.buf.push_str(s);
        (start, self.buf.len())
    }

    /// Stores a leaf's path: its container's and its own token.
    #[inline(always)]
    fn put_leaf(&mut self, path: LeafPath<'_>) -> (usize, usize) {
        let start = self.buf.len();
        self.buf.push_str(path.parent);
        match path.token {
            Token::Key(key, true) => {
                self.buf.push('/');
                self.buf.push_str(key);
            }
            Token::Key(key, false) => crate::json::push_pointer_token(&mut self.buf, key),
            Token::Index(i) => {
                self.buf.push('/');
                write_int(&mut self.buf, i.into());
            }
        }
        (start, self.buf.len())
    }

    /// The span of a delta's text: one of the static texts, or a copy.
    #[inline]
    fn text_span(&mut self, text: &str) -> (usize, usize) {
        let i = match text {
            "" => 0,
            "\"\"" => 1,
            "{}" => 2,
            "[]" => 3,
            _ => return self.put(text),
        };
        (STATIC, i)
    }

    /// Room for a small feed's deltas the first time it decides one (a
    /// few deltas and their paths), instead of growing from nothing.
    #[inline(always)]
    fn first_room(&mut self) {
        if self.items.capacity() == 0 {
            self.make_room();
        }
    }

    /// What [`Deltas::first_room`] makes (out of the way of every push).
    #[cold]
    #[inline(never)]
    fn make_room(&mut self) {
        self.items.reserve(8);
        self.buf.reserve(256);
    }

    /// Adds a delta.
    #[inline(always)]
    pub(crate) fn push(&mut self, op: DeltaOp, at: usize, path: &str, text: &str) {
        self.first_room();
        let path = self.put(path);
        let text = self.text_span(text);
        self.items.push(Item { op, at, path, text });
    }

    /// [`Deltas::push`] of a text the caller knows is none of the static
    /// ones (a number, a literal, a string with content): copied without
    /// comparing it with them.
    #[inline(always)]
    pub(crate) fn push_copied(&mut self, op: DeltaOp, at: usize, path: LeafPath<'_>, text: &str) {
        self.first_room();
        let path = self.put_leaf(path);
        let text = self.put(text);
        self.items.push(Item { op, at, path, text });
    }

    /// The deltas of a whole string value at `path`: its `add` at
    /// `open_at`, the append of its content (`json`, quotes included: a
    /// compact JSON string) at `last_at` unless it is empty, and its
    /// `close` at `close_at`; the path copied once.
    #[inline(always)]
    pub(crate) fn push_string(
        &mut self,
        path: LeafPath<'_>,
        (open_at, last_at, close_at): (usize, usize, usize),
        json: &str,
    ) {
        self.first_room();
        let path = self.put_leaf(path);
        let content = (json.len() > 2).then(|| self.put(json));
        self.items.reserve(3);
        self.items.push(Item {
            op: DeltaOp::Add,
            at: open_at,
            path,
            text: (STATIC, 1),
        });
        if let Some(text) = content {
            self.items.push(Item {
                op: DeltaOp::Append,
                at: last_at,
                path,
                text,
            });
        }
        self.items.push(Item {
            op: DeltaOp::Close,
            at: close_at,
            path,
            text: (STATIC, 0),
        });
    }

    /// [`Deltas::push_append`] of text that needs no escaping.
    pub(crate) fn push_append_text(&mut self, at: usize, path: &str, text: &str) {
        if self.merge_append(at, path) {
            self.buf.push_str(text);
            self.buf.push('"');
            if let Some(last) = self.items.last_mut() {
                last.text.1 = self.buf.len();
            }
            return;
        }
        self.first_room();
        let path = self.put(path);
        let start = self.buf.len();
        self.buf.push('"');
        self.buf.push_str(text);
        self.buf.push('"');
        self.items.push(Item {
            op: DeltaOp::Append,
            at,
            path,
            text: (start, self.buf.len()),
        });
    }

    /// Opens the previous append to `path` for more text (its closing
    /// quote removed), when the previous delta is one.
    fn merge_append(&mut self, at: usize, path: &str) -> bool {
        let Some(last) = self.items.last_mut() else {
            return false;
        };
        let same = last.op == DeltaOp::Append
            && last.text.1 == self.buf.len()
            && self.buf.get(last.path.0..last.path.1) == Some(path);
        if same {
            self.buf.pop();
            last.at = at;
        }
        same
    }

    /// Adds an append (`json` a JSON string), merged into the previous
    /// delta when that is an append to the same path.
    pub(crate) fn push_append(&mut self, at: usize, path: &str, json: &str) {
        if self.merge_append(at, path) {
            self.buf.push_str(json.get(1..).unwrap_or_default());
            if let Some(last) = self.items.last_mut() {
                last.text.1 = self.buf.len();
            }
            return;
        }
        self.push(DeltaOp::Append, at, path, json);
    }
}
