//! Strings counted in first-seen order, found by hash: what the legend
//! builder keeps of the strings it observes and of gen1's path prefixes.

use alloc::vec::Vec;
use core::hash::BuildHasher;
use hashbrown::{DefaultHashBuilder, HashTable};

/// Distinct strings with their counts, in the order they were first
/// added; a string's slot is its place in that order.
///
/// The index holds only slots, four bytes a string. A large response's
/// strings land in it in random order, so its size is what a lookup
/// costs in cache misses: a map keyed by `&str` (24 bytes an entry) took
/// a tenth of a gen1 encode's time in inserts alone.
#[derive(Debug, Default)]
pub(crate) struct Counts<'v> {
    /// Strings in first-seen order with their counts.
    pub(crate) order: Vec<(&'v str, usize)>,
    index: HashTable<u32>,
    hasher: DefaultHashBuilder,
}

impl<'v> Counts<'v> {
    /// Room for `n` distinct strings before the index grows, hashed by
    /// `hasher` (a clone of the one that made any hashes given to
    /// [`Counts::slot_hashed`]).
    pub(crate) fn with_hasher(n: usize, hasher: DefaultHashBuilder) -> Self {
        Counts {
            order: Vec::with_capacity(n),
            index: HashTable::with_capacity(n),
            hasher,
        }
    }

    /// The hash of `s` by `hasher`, four bytes (what a table cell has room
    /// for beside its tag): the 64-bit hash folded.
    #[inline]
    pub(crate) fn hash(hasher: &DefaultHashBuilder, s: &str) -> u32 {
        let h = hasher.hash_one(s);
        (h ^ (h >> 32)) as u32
    }

    /// The slot of `s` and whether it is new; a new string is added with
    /// count `uses`, a known one keeps its count. One hash per call.
    pub(crate) fn slot(&mut self, s: &'v str, uses: usize) -> (usize, bool) {
        let hash = Self::hash(&self.hasher, s);
        self.slot_hashed(s, hash, uses)
    }

    /// [`Counts::slot`] of a string whose [`Counts::hash`] by this table's
    /// hasher was taken beforehand (while its bytes were at hand).
    pub(crate) fn slot_hashed(&mut self, s: &'v str, hash: u32, uses: usize) -> (usize, bool) {
        let order = &self.order;
        let hasher = &self.hasher;
        let text = |k: &u32| order.get(*k as usize).map_or("", |e| e.0);
        // The index wants 64 bits: the table's place from the low ones,
        // the tag byte from the top seven.
        let wide = |h: u32| (u64::from(h) << 32) | u64::from(h);
        let hash = wide(hash);
        if let Some(&k) = self.index.find(hash, |k| text(k) == s) {
            return (k as usize, false);
        }
        let slot = self.order.len();
        // Past `u32::MAX` distinct strings (more than any memory this
        // runs in holds) a string is counted apart: never merged with
        // another.
        if let Ok(k) = u32::try_from(slot) {
            self.index
                .insert_unique(hash, k, |k| wide(Self::hash(hasher, text(k))));
        }
        self.order.push((s, uses));
        (slot, true)
    }

    /// Adds `by` to the count of the string in `slot`.
    pub(crate) fn add(&mut self, slot: usize, by: usize) {
        if let Some(e) = self.order.get_mut(slot) {
            e.1 += by;
        }
    }

    /// Adds `by` to the count of `s` (a new string starts at `by`); its
    /// slot.
    pub(crate) fn bump(&mut self, s: &'v str, by: usize) -> usize {
        let hash = Self::hash(&self.hasher, s);
        self.bump_hashed(s, hash, by)
    }

    /// [`Counts::bump`] of a string whose [`Counts::hash`] was taken
    /// beforehand.
    pub(crate) fn bump_hashed(&mut self, s: &'v str, hash: u32, by: usize) -> usize {
        let (slot, new) = self.slot_hashed(s, hash, by);
        if !new {
            self.add(slot, by);
        }
        slot
    }
}

#[cfg(test)]
mod tests {
    use super::{Counts, DefaultHashBuilder};

    #[test]
    fn counts_in_first_seen_order() {
        let mut c = Counts::with_hasher(1, DefaultHashBuilder::default());
        for s in ["b", "a", "b", "c", "b", "a"] {
            c.bump(s, 1);
        }
        assert_eq!(c.order, [("b", 3), ("a", 2), ("c", 1)]);
        assert_eq!(c.slot("a", 9), (1, false));
        assert_eq!(c.slot("d", 9), (3, true));
        assert_eq!(c.order.last(), Some(&("d", 9)));
        // Grown past its first room, every string is still found.
        let words: alloc::vec::Vec<alloc::string::String> =
            (0..500).map(|i| alloc::format!("w{i}")).collect();
        for w in &words {
            c.bump(w, 2);
        }
        for (i, w) in words.iter().enumerate() {
            assert_eq!(c.slot(w, 0), (i + 4, false));
        }
    }
}
