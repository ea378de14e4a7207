//! A set of bytes with a fast "find the first member" search.

/// A set of byte values, built at compile time, that finds its first member
/// in a haystack.
///
/// Sets of one to three bytes search with `memchr`/`memchr2`/`memchr3`
/// (SIMD where the target has it); sets of four (GCX1's `\ TAB LF CR`)
/// test eight bytes at a time in a `u64`; larger sets use a 256-entry
/// lookup table.
///
/// ```
/// use wire_lex::ByteSet;
///
/// const SPECIAL: ByteSet = ByteSet::new(b"\\\t\n");
/// assert_eq!(SPECIAL.find(b"abc\tdef"), Some(3));
/// assert!(SPECIAL.contains(b'\n'));
/// assert_eq!(SPECIAL.find(b"plain"), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByteSet {
    table: [bool; 256],
    /// The first four distinct members, for the fast paths.
    first: [u8; 4],
    len: u16,
}

impl ByteSet {
    /// The empty set.
    ///
    /// ```
    /// assert_eq!(wire_lex::ByteSet::EMPTY.find(b"anything"), None);
    /// ```
    pub const EMPTY: ByteSet = ByteSet {
        table: [false; 256],
        first: [0; 4],
        len: 0,
    };

    /// Builds a set from its members; duplicates are ignored.
    ///
    /// ```
    /// let set = wire_lex::ByteSet::new(b",,\"");
    /// assert_eq!(set.len(), 2);
    /// ```
    #[must_use]
    pub const fn new(members: &[u8]) -> ByteSet {
        let mut set = ByteSet::EMPTY;
        let mut rest = members;
        while let [first, tail @ ..] = rest {
            set = set.with(*first);
            rest = tail;
        }
        set
    }

    /// Returns the set with `byte` added.
    ///
    /// ```
    /// let set = wire_lex::ByteSet::new(b"a").with(b'b');
    /// assert!(set.contains(b'b'));
    /// ```
    #[must_use]
    #[allow(
        clippy::indexing_slicing,
        reason = "a u8 always indexes a [_; 256]; `first` is guarded by `len < 3`"
    )]
    pub const fn with(mut self, byte: u8) -> ByteSet {
        if self.table[byte as usize] {
            return self;
        }
        self.table[byte as usize] = true;
        if (self.len as usize) < self.first.len() {
            self.first[self.len as usize] = byte;
        }
        self.len += 1;
        self
    }

    /// Whether `byte` is a member.
    ///
    /// ```
    /// assert!(!wire_lex::ByteSet::new(b"xyz").contains(b'a'));
    /// ```
    #[must_use]
    #[inline]
    #[allow(clippy::indexing_slicing, reason = "a u8 always indexes a [_; 256]")]
    pub const fn contains(&self, byte: u8) -> bool {
        self.table[byte as usize]
    }

    /// The number of members.
    ///
    /// ```
    /// assert_eq!(wire_lex::ByteSet::new(b"\t\n").len(), 2);
    /// ```
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the set has no members.
    ///
    /// ```
    /// assert!(wire_lex::ByteSet::EMPTY.is_empty());
    /// ```
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The index of the first byte of `haystack` that is a member.
    ///
    /// ```
    /// let set = wire_lex::ByteSet::new(b"\"\\\n\r");
    /// assert_eq!(set.find(b"ab\\c"), Some(2));
    /// ```
    #[must_use]
    #[inline]
    pub fn find(&self, haystack: &[u8]) -> Option<usize> {
        let [a, b, c, _] = self.first;
        match self.len {
            0 => None,
            1 => memchr::memchr(a, haystack),
            2 => memchr::memchr2(a, b, haystack),
            3 => memchr::memchr3(a, b, c, haystack),
            4 => self.find4(haystack),
            _ => haystack.iter().position(|&x| self.contains(x)),
        }
    }

    /// Four members: eight bytes per step, exact zero-byte masks. The
    /// last step reads the last eight bytes (overlapping checked ones,
    /// which hold no member), and a haystack under eight bytes is read in
    /// two overlapping halves: no loop over single bytes, so the branches
    /// depend on the length class only.
    fn find4(&self, haystack: &[u8]) -> Option<usize> {
        let [a, b, c, d] = self.first;
        let hits = |v: u64| {
            byte_eq_mask(v, a) | byte_eq_mask(v, b) | byte_eq_mask(v, c) | byte_eq_mask(v, d)
        };
        let first = |m: u64| (m.trailing_zeros() / 8) as usize;
        let n = haystack.len();
        if n < 8 {
            if n < 4 {
                return haystack.iter().position(|&x| self.contains(x));
            }
            // Lanes 0–3: bytes 0–3; lanes 4–7: bytes n−4 to n−1.
            let lo = u64::from(u32::from_le_bytes(word::<4>(haystack, 0)?));
            let hi = u64::from(u32::from_le_bytes(word::<4>(haystack, n - 4)?));
            let m = hits(lo | hi << 32);
            return (m != 0).then(|| match first(m) {
                lane @ 0..4 => lane,
                lane => lane + n - 8,
            });
        }
        let mut at = 0;
        while at + 8 <= n {
            let m = hits(u64::from_le_bytes(word::<8>(haystack, at)?));
            if m != 0 {
                return Some(at + first(m));
            }
            at += 8;
        }
        if at < n {
            let m = hits(u64::from_le_bytes(word::<8>(haystack, n - 8)?));
            if m != 0 {
                return Some(n - 8 + first(m));
            }
        }
        None
    }
}

/// The `N` bytes of `bytes` at `at`, if there are that many.
#[inline(always)]
fn word<const N: usize>(bytes: &[u8], at: usize) -> Option<[u8; N]> {
    <[u8; N]>::try_from(bytes.get(at..at + N)?).ok()
}

/// 0x80 in each byte of `word` that equals `byte`, 0 in the others: exact
/// for every byte (no false hits above a true one), so in a little-endian
/// word `trailing_zeros() / 8` is the first match and `count_ones()` the
/// number of matches.
///
/// ```
/// let word = u64::from_le_bytes(*b"a,b,,cde");
/// let hits = wire_lex::byte_eq_mask(word, b',');
/// assert_eq!(hits.trailing_zeros() / 8, 1);
/// assert_eq!(hits.count_ones(), 3);
/// assert_eq!(wire_lex::byte_eq_mask(word, b'z'), 0);
/// ```
#[must_use]
#[inline]
pub const fn byte_eq_mask(word: u64, byte: u8) -> u64 {
    const LO: u64 = 0x0101_0101_0101_0101;
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    // Zero bytes of `v` are those equal to `byte`; adding 0x7F to the low
    // seven bits of a byte sets its top bit unless all seven are zero, and
    // no carry crosses into the next byte.
    let v = word ^ (LO * byte as u64);
    !(((v & LOW7).wrapping_add(LOW7)) | v | LOW7)
}

impl Default for ByteSet {
    fn default() -> Self {
        ByteSet::EMPTY
    }
}

#[cfg(test)]
mod tests {
    use super::ByteSet;

    #[test]
    fn every_size_finds_the_first_member() {
        let hay = b"..x..y..z..w..";
        for (members, want) in [
            (&b""[..], None),
            (b"w", Some(11)),
            (b"wz", Some(8)),
            (b"wzy", Some(5)),
            (b"wzyx", Some(2)),
            (b"wzyx.", Some(0)),
        ] {
            assert_eq!(ByteSet::new(members).find(hay), want, "{members:?}");
        }
    }

    #[test]
    fn four_members_agree_with_the_table_at_every_position() {
        let set = ByteSet::new(b"\\\t\n\r");
        for len in 0..40 {
            for at in 0..=len {
                let mut hay = vec![b'x'; len];
                if let Some(slot) = hay.get_mut(at) {
                    *slot = b"\\\t\n\r"[at % 4];
                }
                let want = hay.iter().position(|&b| set.contains(b));
                assert_eq!(set.find(&hay), want, "{len} {at}");
            }
        }
    }

    /// Two members at every pair of places: the first is found, whichever
    /// overlapping read sees it.
    #[test]
    fn four_members_find_the_first_of_two() {
        let set = ByteSet::new(b",\"\n\r");
        for len in 0..40 {
            for i in 0..len {
                for j in i..len {
                    let mut hay = vec![b'x'; len];
                    if let Some(slot) = hay.get_mut(j) {
                        *slot = b'\r';
                    }
                    if let Some(slot) = hay.get_mut(i) {
                        *slot = b',';
                    }
                    assert_eq!(set.find(&hay), Some(i), "{len} {i} {j}");
                }
            }
        }
    }

    #[test]
    fn eq_mask_is_exact_at_every_position() {
        for byte in [0u8, 1, 0x7f, 0x80, 0xff, b','] {
            for pattern in 0u32..256 {
                let mut bytes = [byte.wrapping_add(1); 8];
                for (i, b) in bytes.iter_mut().enumerate() {
                    if pattern & (1 << i) != 0 {
                        *b = byte;
                    }
                }
                let want = bytes
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| **b == byte)
                    .fold(0u64, |m, (i, _)| m | 0x80 << (8 * i));
                assert_eq!(
                    super::byte_eq_mask(u64::from_le_bytes(bytes), byte),
                    want,
                    "{byte} {pattern}"
                );
            }
        }
    }

    #[test]
    fn duplicates_do_not_count() {
        let set = ByteSet::new(b"aaab");
        assert_eq!(set.len(), 2);
        assert_eq!(set.find(b"zzb"), Some(2));
    }
}
