//! The `@N` legend (spec §5) built by an encoder: strings observed and
//! counted, gen1's path prefixes, the entries chosen and their order,
//! the legend block written and values prefix-encoded with it.

use alloc::string::String;
use alloc::vec::Vec;

use super::counts::Counts;
use super::legend_tree::{Tree, common_len};
use crate::unicode::{is_break, is_digit};

/// The slot of an observed string, four bytes (a slot list has one per
/// cell of a large response). Slots past `u32::MAX - 1` have none: their
/// cells are written without a memo.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SlotId(core::num::NonZeroU32);

impl SlotId {
    fn new(slot: usize) -> Option<SlotId> {
        let n = u32::try_from(slot.checked_add(1)?).ok()?;
        core::num::NonZeroU32::new(n).map(SlotId)
    }

    /// The slot's place in observation order.
    pub(crate) fn index(self) -> usize {
        self.0.get() as usize - 1
    }
}

/// A legend being built by an encoder.
#[derive(Debug, Default)]
pub(crate) struct Builder<'v> {
    /// Observed strings in first-seen order with their counts.
    seen: Counts<'v>,
}

/// A finished legend: entries in final order, and a radix tree over them
/// (`legend_tree.rs`).
#[derive(Debug, Default)]
pub(crate) struct Entries<'v> {
    pub(crate) list: Vec<&'v str>,
    tree: Tree<'v>,
    /// The reference form met a hazard its hardened form avoids (spec
    /// D3): it kept a literal the reference cannot carry, or encoded a
    /// value whose remainder after its entry starts with a digit.
    hazard: core::cell::Cell<bool>,
}

impl<'v> Builder<'v> {
    /// The most distinct strings room is made for up front.
    const ROOM: usize = 1 << 16;

    /// A builder with room for `n` distinct strings, up to
    /// [`Builder::ROOM`] (its table is not rebuilt as it grows to them; a
    /// large input of few distinct strings does not get a large table).
    pub(crate) fn with_capacity(n: usize) -> Self {
        Self::with_hasher(n, hashbrown::DefaultHashBuilder::default())
    }

    /// A builder as [`Builder::with_capacity`] makes it, hashing strings
    /// with `hasher`: [`Builder::observe_hashed`] takes hashes it made.
    pub(crate) fn with_hasher(n: usize, hasher: hashbrown::DefaultHashBuilder) -> Self {
        Builder {
            seen: Counts::with_hasher(n.min(Self::ROOM), hasher),
        }
    }

    /// Counts one occurrence of a non-empty string; its slot (the same
    /// for every occurrence of the same string).
    pub(crate) fn observe(&mut self, s: &'v str) -> Option<SlotId> {
        if s.is_empty() {
            return None;
        }
        SlotId::new(self.seen.bump(s, 1))
    }

    /// [`Builder::observe`] of a string whose `Counts::hash` by this
    /// builder's hasher was taken beforehand.
    pub(crate) fn observe_hashed(&mut self, s: &'v str, hash: u32) -> Option<SlotId> {
        if s.is_empty() {
            return None;
        }
        SlotId::new(self.seen.bump_hashed(s, hash, 1))
    }

    /// Per slot, whether its string was observed more than once.
    pub(crate) fn repeated(&self) -> impl Iterator<Item = bool> + '_ {
        self.seen.order.iter().map(|&(_, uses)| uses > 1)
    }

    /// gen1's path prefixes (spec §5): every observation of length ≥ 6 is
    /// walked from separator to separator; prefixes counted twice or more
    /// join the candidates with count max(own, prefix count).
    pub(crate) fn add_prefixes(&mut self) {
        let mut buckets = Counts::default();
        // The last string that counted prefixes, and the separator and
        // bucket of each prefix it counted: a string that starts with the
        // same bytes (a file path, then the ids in it) counts those again
        // without hashing or searching them.
        let mut last: &[u8] = &[];
        let mut last_ends: Vec<(usize, usize)> = Vec::new();
        let mut ends: Vec<(usize, usize)> = Vec::new();
        for &(s, uses) in &self.seen.order {
            // Six characters take at most 24 bytes, and six ASCII bytes
            // are six characters.
            if s.len() < 6
                || (s.len() < 24
                    && !s.as_bytes().get(..6).is_some_and(<[u8]>::is_ascii)
                    && s.chars().count() < 6)
            {
                continue;
            }
            let bytes = s.as_bytes();
            let mut pos = 0usize;
            // Characters of `s[..counted]`, counted a piece at a time.
            let (mut counted, mut chars) = (0usize, 0usize);
            ends.clear();
            let common = common_len(last, bytes);
            for &(sep, slot) in &last_ends {
                if sep + 1 > common || sep + 1 >= bytes.len() {
                    break;
                }
                buckets.add(slot, uses);
                ends.push((sep, slot));
                // A counted prefix has six characters or more.
                (pos, counted, chars) = (sep, sep + 1, 6);
            }
            while let Some(off) =
                memchr::memchr2(b'/', b'\\', bytes.get(pos + 1..).unwrap_or_default())
            {
                let sep = pos + 1 + off;
                if sep + 1 >= bytes.len() {
                    break;
                }
                let prefix = s.get(..=sep).unwrap_or_default();
                // Only whether the prefix has six characters matters.
                if chars < 6 {
                    chars += s.get(counted..=sep).map_or(0, |piece| {
                        if piece.is_ascii() {
                            piece.len()
                        } else {
                            piece.chars().count()
                        }
                    });
                    counted = sep + 1;
                }
                if chars >= 6 {
                    ends.push((sep, buckets.bump(prefix, uses)));
                }
                pos = sep;
            }
            if !ends.is_empty() {
                last = bytes;
                core::mem::swap(&mut last_ends, &mut ends);
            }
        }
        for (prefix, count) in buckets.order {
            if count < 2 {
                continue;
            }
            let (slot, new) = self.seen.slot(prefix, count);
            if !new {
                if let Some(e) = self.seen.order.get_mut(slot) {
                    e.1 = e.1.max(count);
                }
            }
        }
    }

    /// Selects and orders the entries: uses ≥ 2 and
    /// `(len−3)·uses − len − 3 ≥ min_saved`, sorted stably by descending
    /// `uses·(len+1)`. `safe_only` drops literals the reference cannot
    /// carry (a B break, an odd number of `"`).
    pub(crate) fn finish(&self, min_saved: i64, safe_only: bool) -> Entries<'v> {
        let mut keep: Vec<(&'v str, i64, usize)> = Vec::new();
        let mut hazard = false;
        for &(s, uses) in &self.seen.order {
            if uses < 2 {
                continue;
            }
            let len = s.chars().count() as i64;
            let u = uses as i64;
            if (len - 3) * u - len - 3 < min_saved {
                continue;
            }
            if unsafe_literal(s) {
                if safe_only {
                    continue;
                }
                hazard = true;
            }
            keep.push((s, u * (len + 1), keep.len()));
        }
        keep.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(&b.2)));
        let list: Vec<&'v str> = keep.into_iter().map(|(s, _, _)| s).collect();
        let tree = Tree::build(&list);
        Entries {
            list,
            tree,
            hazard: core::cell::Cell::new(hazard),
        }
    }
}

/// A literal the reference cannot carry in its legend: a B break, or an
/// odd number of `"` (one pass finds a string with no control byte, no
/// non-ASCII byte and no quote, the usual case, safe).
fn unsafe_literal(s: &str) -> bool {
    let p = wire_lex::Presence::of(s.as_bytes(), [b'"'; 4]);
    if !p.outside() && !p.needles()[0] {
        return false;
    }
    s.contains(is_break) || s.bytes().filter(|&b| b == b'"').count() % 2 == 1
}

impl Entries<'_> {
    /// Whether the reference form met a hazard so far (always false for
    /// the hardened form): its legend or a value it encoded would differ
    /// in the hardened form.
    pub(crate) fn hazard(&self) -> bool {
        self.hazard.get()
    }

    /// Appends the legend block (`@1=…` lines); false when it is empty.
    pub(crate) fn write(&self, out: &mut String) -> bool {
        for (i, v) in self.list.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push('@');
            crate::value::push_u64(i as u64 + 1, out);
            out.push('=');
            out.push_str(v);
        }
        !self.list.is_empty()
    }

    /// Appends `value` prefix-encoded. The reference form takes the first
    /// matching entry; `hardened` skips entries whose remainder starts with
    /// a digit (it would be read into the handle). Returns how many bytes
    /// of `value` an entry stands for (0: none; then `value` is written
    /// whole, after an `@` if it starts with one).
    pub(crate) fn encode(&self, value: &str, hardened: bool, out: &mut String) -> usize {
        if value.is_empty() {
            return 0;
        }
        // The smallest-index entry that is a prefix of the value (with a
        // safe remainder when hardened): one walk down the tree.
        let best = self
            .tree
            .first_match(value, |rest| !(hardened && rest.starts_with(is_digit)));
        if let Some((entry, len)) = best {
            if !hardened {
                // (A digit is ASCII or starts with a byte from 0x80.)
                let rest = value.get(len..).unwrap_or_default();
                let digit = match rest.as_bytes().first() {
                    Some(b) if b.is_ascii() => b.is_ascii_digit(),
                    Some(_) => rest.starts_with(is_digit),
                    None => false,
                };
                if digit {
                    self.hazard.set(true);
                }
            }
            out.push('@');
            crate::value::push_u64(u64::from(entry), out);
            out.push_str(value.get(len..).unwrap_or_default());
            return len;
        }
        if value.starts_with('@') {
            out.push('@');
        }
        out.push_str(value);
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tree finds what a scan of the list in order finds.
    #[test]
    fn tree_matches_linear_scan() {
        let mut next = crate::test_rng::xorshift32(0x9e37_79b9);
        let alphabet = ["a", "b", "/", "1", "é"];
        let word = |next: &mut dyn FnMut() -> u32| {
            let n = next() % 6;
            (0..n)
                .map(|_| alphabet[(next() % 5) as usize])
                .collect::<String>()
        };
        for _ in 0..300 {
            let mut list: Vec<String> = (0..(next() % 12)).map(|_| word(&mut next)).collect();
            list.retain(|s| !s.is_empty());
            list.dedup();
            let refs: Vec<&str> = list.iter().map(String::as_str).collect();
            let e = Entries {
                list: refs.clone(),
                tree: Tree::build(&refs),
                hazard: Default::default(),
            };
            for _ in 0..40 {
                let v = word(&mut next);
                for hardened in [false, true] {
                    let mut got = String::new();
                    e.encode(&v, hardened, &mut got);
                    let mut want = String::new();
                    let hit = refs.iter().enumerate().find(|(_, p)| {
                        v.strip_prefix(**p)
                            .is_some_and(|r| !(hardened && r.starts_with(is_digit)))
                    });
                    match hit {
                        _ if v.is_empty() => {}
                        Some((i, p)) => want = alloc::format!("@{}{}", i + 1, &v[p.len()..]),
                        None => {
                            want = if v.starts_with('@') {
                                alloc::format!("@{v}")
                            } else {
                                v.clone()
                            }
                        }
                    }
                    assert_eq!(got, want, "{refs:?} {v:?} {hardened}");
                }
            }
        }
    }

    #[test]
    fn path_prefixes_count_characters_not_bytes() {
        // Each path is observed four times and each prefix through two
        // paths; only prefixes of six characters or more are candidates.
        let paths = [
            "é/ü/ö/a.py", // `é/ü/ö/` is 6 characters (9 bytes)
            "é/ü/ö/b.py",
            "éé/x/a.txt", // `éé/x/` is 5 characters (7 bytes)
            "éé/x/b.txt",
            "abcdef/ghijklmnopqrstuvwxyz/c", // long byte run, ASCII
            "abcdef/ghijklmnopqrstuvwxyz/d",
        ];
        let mut b = Builder::default();
        for s in paths.iter().cycle().take(4 * paths.len()) {
            b.observe(s);
        }
        b.add_prefixes();
        let e = b.finish(0, false);
        for p in ["é/ü/ö/", "abcdef/", "abcdef/ghijklmnopqrstuvwxyz/"] {
            assert!(e.list.contains(&p), "{p} missing from {:?}", e.list);
        }
        for p in ["é/", "é/ü/", "éé/", "éé/x/"] {
            assert!(!e.list.contains(&p), "{p} in {:?}", e.list);
        }
    }

    /// Prefixes counted again from the string before (without a search)
    /// are the prefixes a search of each string finds: the builder's list
    /// equals one made by the plain walk, over random paths.
    #[test]
    fn shared_prefixes_count_as_searched() {
        let mut next = crate::test_rng::xorshift32(0x2545_f491);
        let alphabet = ["a", "b", "/", "\\", "é", "/x/", "src/"];
        for _ in 0..200 {
            // Half the words go on from a cut of the word before, so that
            // strings in a row share prefixes.
            let mut words: Vec<String> = Vec::new();
            for _ in 0..(next() % 24) {
                let mut w = match words.last() {
                    Some(prev) if next() % 2 == 0 => {
                        let cut = (next() as usize) % (prev.len() + 1);
                        let cut = (0..=cut).rev().find(|&c| prev.is_char_boundary(c));
                        String::from(&prev[..cut.unwrap_or(0)])
                    }
                    _ => String::new(),
                };
                for _ in 0..(next() % 8) {
                    w.push_str(alphabet[(next() % 7) as usize]);
                }
                words.push(w);
            }
            let mut b = Builder::default();
            for _ in 0..3 {
                for w in &words {
                    if next() % 3 != 0 {
                        b.observe(w);
                    }
                }
            }
            let mut plain = Builder::default();
            for &(s, uses) in &b.seen.order {
                plain.seen.slot(s, uses);
            }
            // The plain walk: every separator after the first byte that
            // ends a prefix of six characters or more, short of the end.
            let mut want = Counts::default();
            for &(s, uses) in &b.seen.order {
                if s.chars().count() < 6 {
                    continue;
                }
                for (i, c) in s.char_indices().skip(1) {
                    if (c == '/' || c == '\\') && i + 1 < s.len() && s[..=i].chars().count() >= 6 {
                        want.bump(&s[..=i], uses);
                    }
                }
            }
            for (prefix, count) in want.order {
                if count >= 2 {
                    let (slot, new) = plain.seen.slot(prefix, count);
                    if !new {
                        if let Some(e) = plain.seen.order.get_mut(slot) {
                            e.1 = e.1.max(count);
                        }
                    }
                }
            }
            b.add_prefixes();
            assert_eq!(b.seen.order, plain.seen.order, "{words:?}");
        }
    }

    #[test]
    fn build_gen1_legend() {
        let mut b = Builder::default();
        for s in ["src/app/a.py", "src/app/b.py", "src/app/a.py", "x"] {
            b.observe(s);
        }
        b.add_prefixes();
        let e = b.finish(2, false);
        assert_eq!(e.list, ["src/app/", "src/app/a.py"]);
        let mut out = String::new();
        e.encode("src/app/a.py", false, &mut out);
        assert_eq!(out, "@1a.py");
    }
}
