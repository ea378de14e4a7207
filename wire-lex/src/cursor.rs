//! A bounds-checked reading position over a byte slice.

use crate::ByteSet;

/// A reading position over `&'a [u8]`.
///
/// Every method is total: reading at the end returns `None` or an empty
/// slice, and the position never moves past the end. Slices returned borrow
/// from the input, so they outlive the cursor.
///
/// ```
/// use wire_lex::Cursor;
///
/// let mut cur = Cursor::new(b"key=value;rest");
/// assert_eq!(cur.take_until(b'='), b"key");
/// assert!(cur.eat(b'='));
/// assert_eq!(cur.take_until_any(b";,"), b"value");
/// assert_eq!(cur.offset(), 9);
/// assert_eq!(cur.rest(), b";rest");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cursor<'a> {
    input: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `input`.
    ///
    /// ```
    /// assert_eq!(wire_lex::Cursor::new(b"abc").offset(), 0);
    /// ```
    #[must_use]
    pub const fn new(input: &'a [u8]) -> Self {
        Cursor { input, pos: 0 }
    }

    /// The whole input, independent of the position.
    ///
    /// ```
    /// let mut cur = wire_lex::Cursor::new(b"abc");
    /// cur.bump();
    /// assert_eq!(cur.input(), b"abc");
    /// ```
    #[must_use]
    pub const fn input(&self) -> &'a [u8] {
        self.input
    }

    /// The current byte offset from the start of the input.
    ///
    /// ```
    /// let mut cur = wire_lex::Cursor::new(b"abc");
    /// cur.advance(2);
    /// assert_eq!(cur.offset(), 2);
    /// ```
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.pos
    }

    /// Moves to `offset`, clamped to the end of the input.
    ///
    /// ```
    /// let mut cur = wire_lex::Cursor::new(b"abc");
    /// cur.seek(99);
    /// assert!(cur.is_eof());
    /// ```
    pub fn seek(&mut self, offset: usize) {
        self.pos = offset.min(self.input.len());
    }

    /// The bytes not read yet.
    ///
    /// ```
    /// let mut cur = wire_lex::Cursor::new(b"abc");
    /// cur.bump();
    /// assert_eq!(cur.rest(), b"bc");
    /// ```
    #[must_use]
    pub fn rest(&self) -> &'a [u8] {
        self.input.get(self.pos..).unwrap_or_default()
    }

    /// Whether every byte has been read.
    ///
    /// ```
    /// assert!(wire_lex::Cursor::new(b"").is_eof());
    /// ```
    #[must_use]
    pub const fn is_eof(&self) -> bool {
        self.pos >= self.input.len()
    }

    /// The next byte, without consuming it.
    ///
    /// ```
    /// assert_eq!(wire_lex::Cursor::new(b"x").peek(), Some(b'x'));
    /// ```
    #[must_use]
    #[inline]
    pub fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    /// The byte `n` positions ahead (`peek_at(0) == peek()`).
    ///
    /// ```
    /// let cur = wire_lex::Cursor::new(b"xyz");
    /// assert_eq!(cur.peek_at(2), Some(b'z'));
    /// assert_eq!(cur.peek_at(3), None);
    /// ```
    #[must_use]
    #[inline]
    pub fn peek_at(&self, n: usize) -> Option<u8> {
        self.input.get(self.pos.checked_add(n)?).copied()
    }

    /// Consumes and returns the next byte.
    ///
    /// ```
    /// let mut cur = wire_lex::Cursor::new(b"x");
    /// assert_eq!(cur.bump(), Some(b'x'));
    /// assert_eq!(cur.bump(), None);
    /// ```
    #[inline]
    pub fn bump(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.pos += 1;
        Some(b)
    }

    /// Skips up to `n` bytes; returns how many were skipped.
    ///
    /// ```
    /// let mut cur = wire_lex::Cursor::new(b"abc");
    /// assert_eq!(cur.advance(5), 3);
    /// ```
    pub fn advance(&mut self, n: usize) -> usize {
        let step = n.min(self.input.len().saturating_sub(self.pos));
        self.pos += step;
        step
    }

    /// Consumes `byte` if it is next.
    ///
    /// ```
    /// let mut cur = wire_lex::Cursor::new(b"=1");
    /// assert!(!cur.eat(b':'));
    /// assert!(cur.eat(b'='));
    /// ```
    #[inline]
    pub fn eat(&mut self, byte: u8) -> bool {
        if self.peek() == Some(byte) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Consumes `prefix` if the rest starts with it.
    ///
    /// ```
    /// let mut cur = wire_lex::Cursor::new(b"GCX1 tool=x");
    /// assert!(cur.eat_slice(b"GCX1"));
    /// assert_eq!(cur.rest(), b" tool=x");
    /// ```
    pub fn eat_slice(&mut self, prefix: &[u8]) -> bool {
        if self.rest().starts_with(prefix) {
            self.pos += prefix.len();
            true
        } else {
            false
        }
    }

    /// Consumes and returns the next `n` bytes, or nothing if fewer remain.
    ///
    /// ```
    /// let mut cur = wire_lex::Cursor::new(b"abcd");
    /// assert_eq!(cur.take(3), Some(&b"abc"[..]));
    /// assert_eq!(cur.take(3), None);
    /// assert_eq!(cur.offset(), 3);
    /// ```
    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, _) = self.rest().split_at_checked(n)?;
        self.pos += n;
        Some(head)
    }

    /// The absolute offset of the next `byte` at or after the position.
    ///
    /// ```
    /// let cur = wire_lex::Cursor::new(b"a,b,c");
    /// assert_eq!(cur.find(b','), Some(1));
    /// ```
    #[must_use]
    #[inline]
    pub fn find(&self, byte: u8) -> Option<usize> {
        memchr::memchr(byte, self.rest()).map(|i| self.pos + i)
    }

    /// The absolute offset of the next byte that is one of `bytes`.
    ///
    /// One to three needles use `memchr`/`memchr2`/`memchr3`; more use a
    /// byte table (see [`ByteSet`] to build that table once).
    ///
    /// ```
    /// let cur = wire_lex::Cursor::new(b"abc\"def\\");
    /// assert_eq!(cur.find_any(b"\\\""), Some(3));
    /// ```
    #[must_use]
    #[inline]
    pub fn find_any(&self, bytes: &[u8]) -> Option<usize> {
        let rest = self.rest();
        let found = match *bytes {
            [] => None,
            [a] => memchr::memchr(a, rest),
            [a, b] => memchr::memchr2(a, b, rest),
            [a, b, c] => memchr::memchr3(a, b, c, rest),
            _ => rest.iter().position(|x| bytes.contains(x)),
        };
        found.map(|i| self.pos + i)
    }

    /// The absolute offset of the next member of `set`.
    ///
    /// ```
    /// use wire_lex::{ByteSet, Cursor};
    /// const STOP: ByteSet = ByteSet::new(b",;:\n");
    /// assert_eq!(Cursor::new(b"ab:c").find_in(&STOP), Some(2));
    /// ```
    #[must_use]
    #[inline]
    pub fn find_in(&self, set: &ByteSet) -> Option<usize> {
        set.find(self.rest()).map(|i| self.pos + i)
    }

    /// Consumes bytes up to (not including) the next `byte`, or to the end.
    ///
    /// ```
    /// let mut cur = wire_lex::Cursor::new(b"a\tb");
    /// assert_eq!(cur.take_until(b'\t'), b"a");
    /// assert_eq!(cur.peek(), Some(b'\t'));
    /// ```
    #[inline]
    pub fn take_until(&mut self, byte: u8) -> &'a [u8] {
        let end = self.find(byte).unwrap_or(self.input.len());
        self.take_to(end)
    }

    /// Consumes bytes up to (not including) the next byte that is one of
    /// `bytes`, or to the end.
    ///
    /// ```
    /// let mut cur = wire_lex::Cursor::new(b"a b\tc");
    /// assert_eq!(cur.take_until_any(b"\t "), b"a");
    /// ```
    pub fn take_until_any(&mut self, bytes: &[u8]) -> &'a [u8] {
        let end = self.find_any(bytes).unwrap_or(self.input.len());
        self.take_to(end)
    }

    /// Consumes bytes while `pred` holds.
    ///
    /// ```
    /// let mut cur = wire_lex::Cursor::new(b"123abc");
    /// assert_eq!(cur.take_while(|b| b.is_ascii_digit()), b"123");
    /// ```
    pub fn take_while(&mut self, mut pred: impl FnMut(u8) -> bool) -> &'a [u8] {
        let rest = self.rest();
        let n = rest.iter().position(|&b| !pred(b)).unwrap_or(rest.len());
        self.take_to(self.pos + n)
    }

    /// Consumes bytes up to the absolute offset `end` (clamped).
    fn take_to(&mut self, end: usize) -> &'a [u8] {
        let start = self.pos;
        self.seek(end.max(start));
        self.input.get(start..self.pos).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::Cursor;

    #[test]
    fn never_moves_past_the_end() {
        let mut cur = Cursor::new(b"ab");
        assert_eq!(cur.advance(usize::MAX), 2);
        assert_eq!(cur.peek_at(usize::MAX), None);
        assert_eq!(cur.take_until(b'x'), b"");
        assert_eq!(cur.take_while(|_| true), b"");
        assert_eq!(cur.take(0), Some(&b""[..]));
        assert_eq!(cur.offset(), 2);
    }

    #[test]
    fn find_any_agrees_for_every_needle_count() {
        let cur = Cursor::new(b"0123456789");
        assert_eq!(cur.find_any(b""), None);
        assert_eq!(cur.find_any(b"9"), Some(9));
        assert_eq!(cur.find_any(b"98"), Some(8));
        assert_eq!(cur.find_any(b"987"), Some(7));
        assert_eq!(cur.find_any(b"9876"), Some(6));
    }
}
