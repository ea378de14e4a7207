//! Duplicate-key detection shared by the strict validator and the repair
//! engine (spec §2.3, R041): each key's fingerprint, the open objects'
//! keys in one stack-ordered list, and the per-object index (a 64-bit
//! signature, then a fingerprint set) that clears most new keys without
//! looking at the list.

use alloc::vec::Vec;

/// What an open object knows of its keys beyond their list: a 64-bit
/// signature (one bit per fingerprint) that clears most new keys without a
/// look at the list, and a set once the object is large.
#[derive(Clone, Debug, Default)]
pub(crate) struct KeyIndex {
    sig: u64,
    set: Option<FingerprintSet>,
}

/// What a key insertion changed in a [`KeyIndex`], to take it back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct KeyIndexMark {
    sig: u64,
    set_len: Option<usize>,
}

impl KeyIndex {
    /// The state to come back to with [`KeyIndex::undo`].
    pub(crate) fn mark(&self) -> KeyIndexMark {
        KeyIndexMark {
            sig: self.sig,
            set_len: self.set.as_ref().map(|s| s.len),
        }
    }

    /// Takes back the one insertion of `h` made since `mark`.
    pub(crate) fn undo(&mut self, mark: KeyIndexMark, h: u64) {
        self.sig = mark.sig;
        match (mark.set_len, self.set.as_mut()) {
            (None, _) => self.set = None,
            (Some(n), Some(set)) if set.len > n => set.remove(h),
            _ => {}
        }
    }
}

/// A set of key fingerprints for large objects: open addressing with linear
/// probing, kept at most half full (constant time per key, linear memory).
#[derive(Clone, Debug, Default)]
pub(crate) struct FingerprintSet {
    slots: Vec<u64>,
    len: usize,
}

impl FingerprintSet {
    /// Inserts `h`; returns whether it was already there.
    pub(crate) fn insert(&mut self, h: u64) -> bool {
        // 0 marks an empty slot; map a zero fingerprint elsewhere.
        let h = if h == 0 { 0x9E37_79B9_7F4A_7C15 } else { h };
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = (h as usize) & mask;
        loop {
            match self.slots.get(i).copied() {
                Some(0) => {
                    if let Some(slot) = self.slots.get_mut(i) {
                        *slot = h;
                    }
                    self.len += 1;
                    return false;
                }
                Some(x) if x == h => return true,
                Some(_) => i = (i + 1) & mask,
                None => return false,
            }
        }
    }

    /// Takes back `h`, inserted since the mark a watch step undoes. The
    /// slot is emptied by backward shift: every later slot of its run
    /// whose key may sit further back moves into the gap, so each
    /// remaining key is still found from its home slot. (Emptying the slot
    /// alone is not enough: a growth during the step re-inserts the keys
    /// in slot order, so an older key's run can pass a newer key's slot.)
    pub(crate) fn remove(&mut self, h: u64) {
        let h = if h == 0 { 0x9E37_79B9_7F4A_7C15 } else { h };
        let Some(mask) = self.slots.len().checked_sub(1) else {
            return;
        };
        let mut i = (h as usize) & mask;
        let mut found = false;
        for _ in 0..self.slots.len() {
            match self.slots.get(i).copied() {
                Some(x) if x == h => {
                    found = true;
                    break;
                }
                Some(0) | None => break,
                Some(_) => i = (i + 1) & mask,
            }
        }
        if !found {
            return;
        }
        let mut gap = i;
        let mut j = i;
        for _ in 0..self.slots.len() {
            j = (j + 1) & mask;
            let x = match self.slots.get(j).copied() {
                Some(x) if x != 0 => x,
                _ => break,
            };
            // `x` may fill the gap if the gap lies between its home slot
            // and where it sits now.
            let home = (x as usize) & mask;
            if gap.wrapping_sub(home) & mask < j.wrapping_sub(home) & mask {
                if let Some(slot) = self.slots.get_mut(gap) {
                    *slot = x;
                }
                gap = j;
            }
        }
        if let Some(slot) = self.slots.get_mut(gap) {
            *slot = 0;
        }
        self.len -= 1;
    }

    fn grow(&mut self) {
        let old = core::mem::take(&mut self.slots);
        self.slots = alloc::vec![0; (old.len() * 2).max(64)];
        self.len = 0;
        for h in old.into_iter().filter(|&h| h != 0) {
            self.insert(h);
        }
    }
}

/// Duplicate-key detection shared by the validator and the repair engine:
/// keys of the open objects in one stack-ordered list.
#[derive(Clone, Default)]
pub(crate) struct Keys {
    /// Fingerprints of the open objects' keys, scanned contiguously.
    /// Each key's fingerprint and span, one push per key.
    entries: Vec<(u64, usize, usize)>,
}

const SMALL: usize = 24;

/// A cheap fingerprint of a key: its length and first and last eight
/// bytes, mixed. Equal fingerprints are compared byte for byte.
#[inline]
pub(crate) fn fingerprint(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    let word = |at: usize| {
        let mut w = [0u8; 8];
        if let Some(src) = bytes.get(at..at + 8) {
            w.copy_from_slice(src);
        }
        u64::from_le_bytes(w)
    };
    let h = if n >= 8 {
        word(0) ^ word(n - 8).rotate_left(29)
    } else {
        // The bytes little-endian, zero-padded (what `fingerprint_in`
        // reads with one masked load), without a loop: two overlapping
        // four-byte loads, or for three bytes or fewer the first, middle
        // and last byte (which together are all of them).
        short_word(bytes)
    };
    mix(h, n)
}

/// `bytes` (fewer than eight) as a little-endian word, zero-padded.
#[inline]
fn short_word(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    if n >= 4 {
        let quad = |at: usize| {
            bytes
                .get(at..at + 4)
                .and_then(|b| <[u8; 4]>::try_from(b).ok())
                .map_or(0, |b| u64::from(u32::from_le_bytes(b)))
        };
        quad(0) | (quad(n - 4) << (8 * (n - 4)))
    } else if n > 0 {
        let at = |i: usize| bytes.get(i).map_or(0, |&b| u64::from(b));
        at(0) | (at(n / 2) << (8 * (n / 2))) | (at(n - 1) << (8 * (n - 1)))
    } else {
        0
    }
}

#[inline]
fn mix(h: u64, n: usize) -> u64 {
    let h = h ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h ^ (h >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

/// [`fingerprint`] of `src[s..e]`, with one masked eight-byte load for a
/// short key when `src` has eight bytes from `s` (a key is followed by at
/// least its closing quote and colon, so it usually has).
#[inline]
pub(crate) fn fingerprint_in(src: &[u8], s: usize, e: usize) -> u64 {
    let n = e.saturating_sub(s);
    if n < 8 {
        if let Some(&[a, b, c, d, f, g, h, i]) = src.get(s..s + 8) {
            let w = u64::from_le_bytes([a, b, c, d, f, g, h, i]);
            return mix(w & ((1u64 << (8 * n)) - 1), n);
        }
    }
    fingerprint(src.get(s..e).unwrap_or_default())
}

/// The fingerprint of the key whose raw (JSON-escaped when `escaped`)
/// text is `src[span]`.
#[inline(always)]
pub(crate) fn key_fingerprint(src: &[u8], span: (usize, usize), escaped: bool) -> u64 {
    if escaped {
        fingerprint(&key_text(src.get(span.0..span.1).unwrap_or_default()))
    } else {
        fingerprint_in(src, span.0, span.1)
    }
}

/// The key's text with JSON escapes decoded (borrowed when it has none).
pub(crate) fn key_text(raw: &[u8]) -> alloc::borrow::Cow<'_, [u8]> {
    if !raw.contains(&b'\\') {
        return alloc::borrow::Cow::Borrowed(raw);
    }
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while let Some(&b) = raw.get(i) {
        if b != b'\\' {
            out.push(b);
            i += 1;
            continue;
        }
        let e = raw.get(i + 1).copied().unwrap_or(b'\\');
        i += 2;
        let c = match e {
            b'n' => '\n',
            b't' => '\t',
            b'r' => '\r',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'u' => {
                let hex = |j: usize| crate::json::hex4(raw, j);
                let hi = hex(i).unwrap_or(0xFFFD);
                i += 4;
                if (0xD800..0xDC00).contains(&hi)
                    && raw.get(i) == Some(&b'\\')
                    && raw.get(i + 1) == Some(&b'u')
                {
                    let lo = hex(i + 2).unwrap_or(0);
                    if (0xDC00..0xE000).contains(&lo) {
                        i += 6;
                        char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                            .unwrap_or('\u{FFFD}')
                    } else {
                        '\u{FFFD}'
                    }
                } else {
                    char::from_u32(hi).unwrap_or('\u{FFFD}')
                }
            }
            other => char::from(other),
        };
        let mut buf = [0u8; 4];
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }
    alloc::borrow::Cow::Owned(out)
}

impl Keys {
    /// Where the keys of a newly opened object start.
    #[inline]
    pub(crate) fn base(&self) -> usize {
        self.entries.len()
    }

    /// Forgets the keys of a closed object.
    #[inline]
    pub(crate) fn truncate(&mut self, base: usize) {
        self.entries.truncate(base);
    }

    /// The keys from `base` on (a watch step keeps them before it forgets
    /// them, in case it has to put them back).
    pub(crate) fn from(&self, base: usize) -> &[(u64, usize, usize)] {
        self.entries.get(base..).unwrap_or_default()
    }

    /// Puts back keys kept from [`Keys::from`] (at `len`).
    pub(crate) fn restore(&mut self, len: usize, tail: &[(u64, usize, usize)]) {
        self.entries.truncate(len);
        self.entries.extend_from_slice(tail);
    }

    /// The spans of the keys from `base` on.
    pub(crate) fn spans_from(&self, base: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.entries
            .get(base..)
            .unwrap_or_default()
            .iter()
            .map(|e| (e.1, e.2))
    }

    /// The fingerprint of the last key added.
    pub(crate) fn last_hash(&self) -> u64 {
        self.entries.last().map_or(0, |e| e.0)
    }

    /// Adds a key (its raw span in `src`) to the object whose keys start at
    /// `base`; returns whether it repeats an earlier key.
    #[inline(always)]
    pub(crate) fn insert(
        &mut self,
        src: &[u8],
        base: usize,
        index: &mut KeyIndex,
        span: (usize, usize),
        escaped: bool,
    ) -> bool {
        let h = key_fingerprint(src, span, escaped);
        self.insert_hashed(src, base, index, span, h)
    }

    /// Adds a key known to differ from every key of its object, without
    /// its fingerprint (the object follows a shape, see `engine/shape.rs`;
    /// [`Keys::adopt`] fingerprints it if the object leaves the shape).
    #[inline(always)]
    pub(crate) fn push_distinct(&mut self, span: (usize, usize)) {
        self.entries.push((0, span.0, span.1));
    }

    /// Fingerprints the keys from `base` on (pushed by
    /// [`Keys::push_distinct`], distinct) and puts them in `index`, as
    /// [`Keys::insert`] would have one by one.
    pub(crate) fn adopt(&mut self, src: &[u8], base: usize, index: &mut KeyIndex) {
        let Some(current) = self.entries.get_mut(base..) else {
            return;
        };
        for e in current.iter_mut() {
            let escaped = src.get(e.1..e.2).is_some_and(|k| k.contains(&b'\\'));
            e.0 = key_fingerprint(src, (e.1, e.2), escaped);
            index.sig |= 1u64 << (e.0 >> 58);
        }
        if current.len() > SMALL {
            let mut set = FingerprintSet::default();
            for e in current.iter() {
                set.insert(e.0);
            }
            index.set = Some(set);
        }
    }

    /// [`Keys::insert`] with the key's fingerprint already taken (from
    /// any copy of the same bytes).
    #[inline(always)]
    pub(crate) fn insert_hashed(
        &mut self,
        src: &[u8],
        base: usize,
        index: &mut KeyIndex,
        span: (usize, usize),
        h: u64,
    ) -> bool {
        let raw = src.get(span.0..span.1).unwrap_or_default();
        let current = self.entries.get(base..).unwrap_or_default();
        let seen = match &mut index.set {
            Some(set) => set.insert(h),
            None => {
                let bit = 1u64 << (h >> 58);
                let maybe = index.sig & bit != 0;
                index.sig |= bit;
                let seen = maybe && current.iter().any(|e| e.0 == h);
                if current.len() >= SMALL {
                    let mut set = FingerprintSet::default();
                    for k in current.iter().map(|e| e.0).chain([h]) {
                        set.insert(k);
                    }
                    index.set = Some(set);
                }
                seen
            }
        };
        // Equal fingerprints are compared byte for byte (rare).
        let dup = seen && {
            let text = key_text(raw);
            current.iter().any(|&(hash, s, e)| {
                hash == h && *key_text(src.get(s..e).unwrap_or_default()) == *text
            })
        };
        self.entries.push((h, span.0, span.1));
        dup
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, reason = "test")]
mod fingerprint_tests {
    use super::*;

    #[test]
    fn short_keys_load_as_the_byte_fold_does() {
        let src = b"\x01\x82\x03\xF4\x05\x06\x87\x08";
        for s in 0..src.len() {
            for e in s..(s + 8).min(src.len() + 1) {
                let bytes = &src[s..e];
                let fold = bytes
                    .iter()
                    .rev()
                    .fold(0u64, |h, &b| (h << 8) | u64::from(b));
                assert_eq!(short_word(bytes), fold, "{bytes:?}");
            }
        }
    }

    /// What a watch step undone does to a large object's index: the keys
    /// it inserted are taken back newest first, the set having grown in
    /// between (which re-inserts every key in slot order, so an older key's
    /// run may now pass a newer key's slot). Every older key must still be
    /// found.
    #[test]
    fn taking_keys_back_after_a_growth_keeps_the_older_ones() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            state >> 1 | 1
        };
        for round in 0..400 {
            let older: Vec<u64> = (0..20 + round % 40).map(|_| next()).collect();
            let newer: Vec<u64> = (0..1 + round % 70).map(|_| next()).collect();
            let mut set = FingerprintSet::default();
            for &h in &older {
                set.insert(h);
            }
            let mark = set.len;
            for &h in &newer {
                set.insert(h);
            }
            for &h in newer.iter().rev() {
                set.remove(h);
            }
            assert_eq!(set.len, mark);
            for (i, &h) in older.iter().enumerate() {
                assert!(set.insert(h), "round {round}: older key {i} lost");
            }
        }
    }

    #[test]
    fn the_masked_load_gives_the_same_fingerprint() {
        let src = b"{\"\":1,\"a\":2,\"abcdefg\":3,\"abcdefgh\":4,\"x\"";
        for s in 0..src.len() {
            for e in s..=src.len() {
                let bytes = &src[s..e];
                assert_eq!(fingerprint_in(src, s, e), fingerprint(bytes), "{s}..{e}");
            }
        }
    }
}
