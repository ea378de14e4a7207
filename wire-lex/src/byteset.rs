//! A set of bytes with a fast "find the first member" search.

/// A set of byte values, built at compile time, that finds its first member
/// in a haystack.
///
/// Sets of one to three bytes search with `memchr`/`memchr2`/`memchr3`
/// (SIMD where the target has it); larger sets use a 256-entry lookup table.
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
    /// The first three distinct members, for the memchr fast paths.
    first: [u8; 3],
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
        first: [0; 3],
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
        let [a, b, c] = self.first;
        match self.len {
            0 => None,
            1 => memchr::memchr(a, haystack),
            2 => memchr::memchr2(a, b, haystack),
            3 => memchr::memchr3(a, b, c, haystack),
            _ => haystack.iter().position(|&x| self.contains(x)),
        }
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
        ] {
            assert_eq!(ByteSet::new(members).find(hay), want, "{members:?}");
        }
    }

    #[test]
    fn duplicates_do_not_count() {
        let set = ByteSet::new(b"aaab");
        assert_eq!(set.len(), 2);
        assert_eq!(set.find(b"zzb"), Some(2));
    }
}
