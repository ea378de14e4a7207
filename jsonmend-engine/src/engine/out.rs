//! The engine's output: text from the start, so the repaired document needs
//! no UTF-8 check at the end.
//!
//! Every piece the engine writes is text already: structure and escapes are
//! ASCII, characters are `char`s, and pieces of a text source are `&str`
//! slices (a slice check is two byte compares). Only pieces of a byte
//! source are checked, one by one. A check of the whole output at the end
//! was about a tenth of a repair's time on text dense in non-ASCII
//! characters (`docs/performance.md`).

use alloc::string::String;

/// Text written by the engine, addressed by byte offsets.
#[derive(Clone, Debug, Default)]
pub(crate) struct Out(String);

impl Out {
    pub(crate) fn with_capacity(n: usize) -> Out {
        Out(String::with_capacity(n))
    }

    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    #[inline(always)]
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }

    #[inline(always)]
    pub(crate) fn as_bytes(&self) -> &[u8] {
        self.0.as_bytes()
    }

    /// The bytes at `range` (`None` out of range).
    #[inline(always)]
    pub(crate) fn get<R: core::slice::SliceIndex<[u8]>>(&self, range: R) -> Option<&R::Output> {
        self.0.as_bytes().get(range)
    }

    #[inline(always)]
    pub(crate) fn last(&self) -> Option<&u8> {
        self.0.as_bytes().last()
    }

    /// Writes an ASCII byte (structure, escapes, whitespace). Nothing else
    /// is written a byte at a time; a byte past ASCII would be written as
    /// U+FFFD.
    #[inline(always)]
    pub(crate) fn push(&mut self, b: u8) {
        if b.is_ascii() {
            self.0.push(char::from(b));
        } else {
            self.0.push(char::REPLACEMENT_CHARACTER);
        }
    }

    #[inline(always)]
    pub(crate) fn push_str(&mut self, s: &str) {
        self.0.push_str(s);
    }

    #[inline(always)]
    pub(crate) fn push_char(&mut self, c: char) {
        self.0.push(c);
    }

    /// Writes bytes not known to be text: checked, an invalid sequence
    /// written as U+FFFD (the engine replaces those itself before, so this
    /// is a guard).
    #[inline]
    pub(crate) fn push_bytes(&mut self, b: &[u8]) {
        match core::str::from_utf8(b) {
            Ok(s) => self.0.push_str(s),
            Err(_) => self.0.push_str(&String::from_utf8_lossy(b)),
        }
    }

    /// Takes the text back to `len` bytes (to the character boundary at or
    /// before it: the engine only cuts where a piece ended).
    pub(crate) fn truncate(&mut self, len: usize) {
        if len < self.0.len() {
            self.0.truncate(self.floor(len));
        }
    }

    /// Inserts the ASCII byte `b` at `at` (a character boundary at or
    /// before it).
    pub(crate) fn insert(&mut self, at: usize, b: u8) {
        let at = self.floor(at.min(self.0.len()));
        let c = if b.is_ascii() {
            char::from(b)
        } else {
            char::REPLACEMENT_CHARACTER
        };
        self.0.insert(at, c);
    }

    /// Removes the character at `at` if one starts there.
    pub(crate) fn remove(&mut self, at: usize) {
        if at < self.0.len() && self.0.is_char_boundary(at) {
            self.0.remove(at);
        }
    }

    /// The text from `s` to `e` (each moved to the character boundary at or
    /// before it).
    pub(crate) fn text(&self, s: usize, e: usize) -> &str {
        let e = self.floor(e.min(self.0.len()));
        let s = self.floor(s.min(e));
        self.0.get(s..e).unwrap_or_default()
    }

    pub(crate) fn into_string(self) -> String {
        self.0
    }

    /// The character boundary at or before `at` (`at <= len`).
    fn floor(&self, mut at: usize) -> usize {
        while at > 0 && !self.0.is_char_boundary(at) {
            at -= 1;
        }
        at
    }
}
