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
        let lines = count_lf(span);
        if lines > 0 {
            self.line += lines;
            let after = span.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            self.column = 1 + chars(span.get(after..).unwrap_or_default());
        } else {
            self.column += chars(span);
        }
        if end > self.at {
            self.at = end;
        }
    }
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// How many bytes of `s` are LF: eight at a time.
fn count_lf(s: &[u8]) -> usize {
    let words = s.chunks_exact(8);
    let rest = words.remainder();
    let mut n = 0;
    for w in words.filter_map(|w| <[u8; 8]>::try_from(w).ok()) {
        let x = u64::from_le_bytes(w) ^ (ONES * u64::from(b'\n'));
        // The high bit of each zero byte of `x` (exact: no carry crosses
        // a byte).
        let zero = !((((x & !HIGH) + !HIGH) | x) | !HIGH);
        n += zero.count_ones() as usize;
    }
    n + rest.iter().filter(|&&b| b == b'\n').count()
}

/// How many characters `s` holds (bytes that do not continue one): eight
/// at a time.
fn chars(s: &[u8]) -> usize {
    let words = s.chunks_exact(8);
    let rest = words.remainder();
    let mut continuing = 0;
    for w in words.filter_map(|w| <[u8; 8]>::try_from(w).ok()) {
        let x = u64::from_le_bytes(w);
        // 10xxxxxx: the high bit set, the next one clear.
        continuing += (x & !(x << 1) & HIGH).count_ones() as usize;
    }
    continuing += rest.iter().filter(|&&b| b & 0xC0 == 0x80).count();
    s.len() - continuing
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte-at-a-time definition the fast counts must equal.
    fn naive(input: &[u8], offset: usize) -> (usize, usize) {
        let (mut line, mut column) = (1, 1);
        for &b in input.get(..offset.min(input.len())).unwrap_or_default() {
            if b == b'\n' {
                line += 1;
                column = 1;
            } else if b & 0xC0 != 0x80 {
                column += 1;
            }
        }
        (line, column)
    }

    #[test]
    fn counts_equal_the_byte_at_a_time_definition() {
        let pieces: [&[u8]; 7] = [
            b"\n",
            b"a",
            b"\r\n",
            "\u{e9}".as_bytes(),
            "\u{1F389}".as_bytes(),
            b"\x80",
            b"        ",
        ];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..300 {
            let mut input = alloc::vec::Vec::new();
            let n = (state % 40) as usize;
            for _ in 0..n {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                input.extend_from_slice(
                    pieces
                        .get((state % 7) as usize)
                        .copied()
                        .unwrap_or_default(),
                );
            }
            // Every offset at once, and in steps with one cursor.
            let mut cursor = Cursor::default();
            for offset in 0..=input.len() + 1 {
                assert_eq!(
                    line_column(&input, offset),
                    naive(&input, offset),
                    "{input:?} at {offset}"
                );
                if offset % 3 == 0 {
                    cursor.advance(&input, offset);
                    assert_eq!((cursor.line, cursor.column), naive(&input, offset));
                }
            }
        }
    }
}
