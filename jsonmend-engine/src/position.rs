//! Lines and columns from byte offsets, computed only when reported.

/// 1-based line and column (Unicode scalars) of `offset` in `input`. LF ends
/// a line (CR LF counts once); a bare CR does not.
///
/// ```
/// assert_eq!(jsonmend_engine::line_column(b"a\n\xc3\xa9x", 5), (2, 3));
/// ```
pub fn line_column(input: &[u8], offset: usize) -> (usize, usize) {
    let mut cursor = Cursor::default();
    cursor.advance(input, offset);
    (cursor.line, cursor.column)
}

/// A forward-only line/column counter: positions sorted by offset are
/// resolved in one pass.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cursor {
    at: usize,
    pub(crate) line: usize,
    pub(crate) column: usize,
}

impl Default for Cursor {
    fn default() -> Self {
        Cursor {
            at: 0,
            line: 1,
            column: 1,
        }
    }
}

impl Cursor {
    /// Moves to `offset` (never backwards).
    pub(crate) fn advance(&mut self, input: &[u8], offset: usize) {
        let end = offset.min(input.len());
        let span = input.get(self.at..end).unwrap_or_default();
        for &b in span {
            if b == b'\n' {
                self.line += 1;
                self.column = 1;
            } else if b & 0xC0 != 0x80 {
                self.column += 1;
            }
        }
        if end > self.at {
            self.at = end;
        }
    }
}
