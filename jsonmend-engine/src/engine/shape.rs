//! Object shapes: duplicate-key detection without a lookup for records
//! that repeat their keys.
//!
//! Arrays of records repeat the same keys in the same order. When an object
//! closes with no repeated key, its keys become the shape of its depth; the
//! next object at that depth follows the shape while each key is, byte for
//! byte, the shape's next one. Such keys differ from each other (the
//! shape's did), so they need no fingerprint and no lookup: they are only
//! pushed to the key list. At the first key that is not the shape's next,
//! the object leaves the shape: the keys so far are fingerprinted and
//! indexed as they would have been one by one, and detection goes on as
//! usual. The result is the same either way.
//!
//! Watch streams use shapes too. A shape is only a list of distinct keys,
//! each prediction checked byte for byte, so a shape set by a step that is
//! undone is still a good one: shapes need no journal. A frame's `follow`
//! is frame state (the journal keeps it); its key index is empty while it
//! follows, and a step that leaves the shape records that emptiness so an
//! undo restores it. What a frame's count of matched keys means depends
//! on the shape it counted against, and an undo can bring back a frame
//! that followed a shape replaced since (a later object at its depth
//! closed, then the steps were taken back): each shape has a generation,
//! the frame keeps the one it follows, and a frame whose shape changed
//! leaves it at its next key, its keys so far indexed as usual. A
//! predicted key is examined to the same offset as a scanned one (the
//! byte that ends it), so every `at` is unchanged.
//!
//! A shape holds at most one object's keys per depth, so its memory is
//! bounded by the output.

use alloc::vec::Vec;

use super::string::PLAIN_SET;
use super::{Engine, Kind, Track};

/// The keys of the last object closed at one depth with no repeated key.
#[derive(Clone, Debug, Default)]
pub(crate) struct Shape {
    /// Per key: its first eight bytes (zero-padded, little-endian), its
    /// start and length in `text`, and what it can be predicted as.
    keys: Vec<(u64, usize, usize, Spelling)>,
    /// The keys' raw texts, one after another.
    text: Vec<u8>,
    /// Counts the times the keys were set.
    generation: u64,
}

/// Which spellings of a shape key a lane reads without scanning it: its
/// bytes tell where the key ends.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Spelling {
    /// In `"`: non-empty, and every byte plain string content (the scan
    /// for the closing quote passes over all of them and stops at the
    /// quote after them).
    quoted: bool,
    /// Bare: an identifier (the scan for its end stops right after it).
    bare: bool,
    /// No `~` or `/` in it: written as it is (plain content, in `"`), it
    /// is its own JSON Pointer token.
    pointer: bool,
}

impl Shape {
    /// `plain`: the `PLAIN_SET` bits of string content the engine copies
    /// in a run.
    fn set<'k>(&mut self, keys: impl Iterator<Item = &'k [u8]>, plain: u8) {
        self.generation = self.generation.wrapping_add(1);
        self.text.clear();
        self.keys.clear();
        for k in keys {
            let mut w = [0u8; 8];
            for (d, s) in w.iter_mut().zip(k) {
                *d = *s;
            }
            let spelling = Spelling {
                quoted: !k.is_empty()
                    && k.iter().all(|&b| {
                        PLAIN_SET
                            .get(usize::from(b))
                            .is_some_and(|&f| f & plain != 0)
                    }),
                bare: !k.is_empty() && k.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'_'),
                pointer: !k.iter().any(|&b| b == b'~' || b == b'/'),
            };
            self.keys
                .push((u64::from_le_bytes(w), self.text.len(), k.len(), spelling));
            self.text.extend_from_slice(k);
        }
    }

    /// Whether `key` is key `i` (`word`: the eight bytes from the key's
    /// start, when there are eight).
    #[inline(always)]
    fn is_key(&self, i: usize, key: &[u8], word: Option<&[u8; 8]>) -> bool {
        let Some(&(first, start, len, _)) = self.keys.get(i) else {
            return false;
        };
        if key.len() != len {
            return false;
        }
        match word {
            Some(w) if len <= 8 => {
                // (An empty key: no bytes to compare.)
                let mask = u64::MAX.checked_shr(8 * (8 - len) as u32).unwrap_or(0);
                (u64::from_le_bytes(*w) & mask) == first
            }
            _ => self.text.get(start..start + len) == Some(key),
        }
    }
}

impl<T: Track> Engine<'_, T> {
    /// Whether the object at the top follows its shape: then it is marked
    /// as such when it opens.
    pub(crate) fn start_shape(&mut self) {
        let depth = self.stack.len().wrapping_sub(1);
        let Some(shape) = self.shapes.get(depth).filter(|s| !s.keys.is_empty()) else {
            return;
        };
        if let Some(f) = self.stack.top_mut::<T>() {
            if f.kind == Kind::Object {
                f.follow = Some(0);
                f.follow_gen = shape.generation;
            }
        }
    }

    /// A key was written to the output at `span` (its raw text: the
    /// source's `key_in` when `verbatim`). True if the top object follows
    /// its shape and this is the shape's next key: then the key is recorded
    /// (it repeats no earlier one). Otherwise the object leaves its shape,
    /// and the caller looks the key up as usual.
    #[inline(always)]
    pub(crate) fn shape_key(
        &mut self,
        span: (usize, usize),
        key_in: (usize, usize),
        verbatim: bool,
    ) -> bool {
        let depth = self.stack.len().wrapping_sub(1);
        let Some(f) = self.stack.top_mut::<T>() else {
            return false;
        };
        let Some(matched) = f.follow else {
            return false;
        };
        // The source's copy when there is one: the output's was just
        // written, and reading it back at once stalls on those stores.
        let (bytes, at) = if verbatim {
            (self.src, key_in)
        } else {
            (self.out.as_bytes(), span)
        };
        let key = bytes.get(at.0..at.1).unwrap_or_default();
        let word = bytes.get(at.0..).and_then(<[u8]>::first_chunk::<8>);
        let followed = f.follow_gen;
        if self
            .shapes
            .get(depth)
            .is_some_and(|s| s.generation == followed && s.is_key(matched, key, word))
        {
            self.take_shape_key(span, key_in);
            return true;
        }
        f.follow = None;
        let base = f.key_base;
        // A watch step that leaves the shape empties the index again if it
        // is undone (it is empty while the object follows its shape).
        let mark = if T::TRACKS {
            self.stack.key_mark()
        } else {
            None
        };
        if let Some(f) = self.stack.top_mut::<T>() {
            self.keys.adopt(self.out.as_bytes(), base, &mut f.key_index);
        }
        if let Some(mark) = mark {
            self.stack.key_inserted(mark, 0);
        }
        false
    }

    /// Records the key at `span` (raw text in the output; `key_in` in the
    /// source) as the top object's shape's next key, which it is.
    #[inline(always)]
    pub(crate) fn take_shape_key(&mut self, span: (usize, usize), key_in: (usize, usize)) {
        if let Some(f) = self.stack.top_mut::<T>() {
            f.follow = f.follow.map(|m| m + 1);
            f.key = key_in;
            self.keys.push_distinct(span);
        }
    }

    /// The length of the key whose text starts at `at` in the source, if
    /// the top object follows its shape and the next key of the shape is
    /// written there, `bare` or in `"` as its spelling allows (the caller
    /// checks the byte after it). A lane then reads the key without a
    /// scan: the scan would end right after those bytes. With the key's
    /// length comes whether its spelling is its own JSON Pointer token
    /// ([`Spelling::pointer`]).
    #[inline(always)]
    pub(crate) fn predicted_key(&self, at: usize, bare: bool) -> Option<(usize, bool)> {
        let depth = self.stack.len().wrapping_sub(1);
        let frame = self.stack.last()?;
        let matched = frame.follow?;
        let shape = self
            .shapes
            .get(depth)
            .filter(|s| s.generation == frame.follow_gen)?;
        let &(_, _, len, spelling) = shape.keys.get(matched)?;
        if !(if bare { spelling.bare } else { spelling.quoted }) {
            return None;
        }
        let key = self.src.get(at..at + len)?;
        let word = self.src.get(at..).and_then(<[u8]>::first_chunk::<8>);
        shape
            .is_key(matched, key, word)
            .then_some((len, spelling.pointer))
    }

    /// An object closes: with no repeated key and not
    /// following a shape, its keys (from `key_base` on) become the shape
    /// of its depth (the stack's length once it is popped).
    pub(crate) fn end_shape(
        &mut self,
        kind: Kind,
        follow: Option<usize>,
        dup: bool,
        key_base: usize,
    ) {
        if kind != Kind::Object || follow.is_some() || dup {
            return;
        }
        let depth = self.stack.len();
        if self.shapes.len() <= depth {
            self.shapes.resize_with(depth + 1, Shape::default);
        }
        let out = self.out.as_bytes();
        let keys = self
            .keys
            .spans_from(key_base)
            .map(|(s, e)| out.get(s..e).unwrap_or_default());
        let plain = self.plain_mask();
        if let Some(shape) = self.shapes.get_mut(depth) {
            shape.set(keys, plain);
        }
    }
}
