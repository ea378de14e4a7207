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

    /// Four members: eight bytes per step, exact zero-byte masks.
    fn find4(&self, haystack: &[u8]) -> Option<usize> {
        const LO: u64 = 0x0101_0101_0101_0101;
        const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
        let zero = |v: u64| !(((v & LOW7).wrapping_add(LOW7)) | v | LOW7);
        let [a, b, c, d] = self.first.map(|m| LO * u64::from(m));
        let mut words = haystack.chunks_exact(8);
        let mut base = 0;
        for word in &mut words {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(word);
            let v = u64::from_le_bytes(bytes);
            let hits = zero(v ^ a) | zero(v ^ b) | zero(v ^ c) | zero(v ^ d);
            if hits != 0 {
                return Some(base + (hits.trailing_zeros() / 8) as usize);
            }
            base += 8;
        }
        words
            .remainder()
            .iter()
            .position(|&x| self.contains(x))
            .map(|i| base + i)
    }
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

    #[test]
    fn duplicates_do_not_count() {
        let set = ByteSet::new(b"aaab");
        assert_eq!(set.len(), 2);
        assert_eq!(set.find(b"zzb"), Some(2));
    }
}
