//! Line and column of a byte offset, computed on demand.

/// A human position in the input: 0-based byte `offset`, 1-based `line`
/// (LF ends a line, so CR LF counts once), 1-based `column` counted in
/// Unicode scalar values (bytes that do not start a UTF-8 sequence are not
/// counted, so invalid input still gets a sensible column).
///
/// Scanners only carry offsets; a `Pos` is computed when an error is
/// reported, in one `memchr` pass over the prefix.
///
/// ```
/// use wire_lex::Pos;
///
/// let input = "first\r\nsé⇥x".as_bytes();
/// let pos = Pos::locate(input, input.len() - 1);
/// assert_eq!(pos, Pos { offset: 13, line: 2, column: 4 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// 0-based byte offset.
    pub offset: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column in Unicode scalar values.
    pub column: usize,
}

impl Pos {
    /// Locates `offset` in `input`; an offset past the end is clamped to
    /// the end.
    ///
    /// ```
    /// let pos = wire_lex::Pos::locate(b"a\nb", 99);
    /// assert_eq!((pos.offset, pos.line, pos.column), (3, 2, 2));
    /// ```
    #[must_use]
    pub fn locate(input: &[u8], offset: usize) -> Pos {
        let offset = offset.min(input.len());
        let prefix = input.get(..offset).unwrap_or_default();
        let line_start = memchr::memrchr(b'\n', prefix).map_or(0, |i| i + 1);
        let lfs = memchr::memchr_iter(b'\n', prefix).count();
        let current = prefix.get(line_start..).unwrap_or_default();
        let scalars = current.iter().filter(|&&b| (b & 0xC0) != 0x80).count();
        Pos {
            offset,
            line: lfs + 1,
            column: scalars + 1,
        }
    }
}

impl core::fmt::Display for Pos {
    /// `line L, column C`.
    ///
    /// ```
    /// assert_eq!(wire_lex::Pos::locate(b"ab", 1).to_string(), "line 1, column 2");
    /// ```
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

#[cfg(test)]
mod tests {
    use super::Pos;

    #[test]
    fn start_and_line_boundaries() {
        assert_eq!(
            Pos::locate(b"", 0),
            Pos {
                offset: 0,
                line: 1,
                column: 1
            }
        );
        let p = Pos::locate(b"ab\n", 3);
        assert_eq!((p.line, p.column), (2, 1));
        let p = Pos::locate(b"ab\n", 2);
        assert_eq!((p.line, p.column), (1, 3));
    }
}
