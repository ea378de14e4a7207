//! [`Finder`]: the positions of up to three bytes, found a window of
//! 64-byte blocks at a time.

use crate::scan::Scanner;

/// Finds the positions of up to three needle bytes in a haystack, in
/// increasing order, for a caller that walks the haystack forward and asks
/// again after each hit (a field splitter, a tokenizer).
///
/// Each 64-byte block of the haystack is compared once (SSE2 on x86_64,
/// eight bytes per word elsewhere) into a bitmask, a window of blocks at a
/// time; each answer then costs a shift and a `trailing_zeros`. A
/// `memchr`-style call per hit pays its setup for every short field; this
/// pays one compare pass per block however many hits it holds.
///
/// # Example
///
/// ```
/// use wire_lex::Finder;
///
/// let text = b"a,bb\n\"c\"";
/// let mut find = Finder::new(text, b",\n\"");
/// assert_eq!(find.next_from(0), Some(1));
/// assert_eq!(find.next_from(2), Some(4));
/// assert_eq!(find.next_from(5), Some(5));
/// assert_eq!(find.next_from(8), None);
/// ```
#[derive(Clone, Debug)]
pub struct Finder<'a> {
    scan: Scanner<'a>,
}

impl<'a> Finder<'a> {
    /// A finder of `needles` in `haystack`: one to three bytes (bytes past
    /// the third are ignored; no needle never matches).
    ///
    /// ```
    /// use wire_lex::Finder;
    ///
    /// assert_eq!(Finder::new(b"key=value", b"=").next_from(0), Some(3));
    /// assert_eq!(Finder::new(b"key=value", b"").next_from(0), None);
    /// ```
    #[must_use]
    pub fn new(haystack: &'a [u8], needles: &[u8]) -> Self {
        Finder {
            scan: Scanner::new(haystack, needles),
        }
    }

    /// The first needle position at or after `from` (`None` when there is
    /// none, or `from` is past the end).
    ///
    /// Asking forward is cheapest; any `from`, even backwards, is answered.
    ///
    /// ```
    /// use wire_lex::Finder;
    ///
    /// let mut find = Finder::new(b"x,y,z", b",");
    /// assert_eq!(find.next_from(2), Some(3));
    /// assert_eq!(find.next_from(0), Some(1));
    /// assert_eq!(find.next_from(99), None);
    /// ```
    #[inline]
    pub fn next_from(&mut self, from: usize) -> Option<usize> {
        self.scan.next_from(from)
    }
}

#[cfg(test)]
mod tests {
    use super::Finder;

    /// Every answer equals a byte-by-byte search, for every start, across
    /// block and window boundaries.
    #[test]
    fn answers_as_a_linear_search() {
        let text = sample();
        let needles = b",\n\"";
        let mut find = Finder::new(&text, needles);
        for from in 0..=text.len() + 2 {
            let want = text
                .iter()
                .enumerate()
                .skip(from)
                .find(|(_, b)| needles.contains(b))
                .map(|(i, _)| i);
            assert_eq!(find.next_from(from), want, "{from}");
        }
    }

    /// 1,500 pseudo-random bytes, about one in four a needle.
    fn sample() -> [u8; 1500] {
        let mut text = [0u8; 1500];
        let mut x: u32 = 0x9e37_79b9;
        for b in &mut text {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            *b = b"ab,\n\"cdefgh"[(x % 11) as usize];
        }
        text
    }
}
