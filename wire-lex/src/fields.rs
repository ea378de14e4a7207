//! Splitting a line into fields on one delimiter byte.

use crate::scan::Scanner;

/// A slice of the input with the offset of its first byte.
///
/// ```
/// use wire_lex::Span;
///
/// let span = Span { bytes: b"abc", offset: 10 };
/// assert_eq!(span.end(), 13);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Span<'a> {
    /// The bytes.
    pub bytes: &'a [u8],
    /// Offset of the first byte in the whole input.
    pub offset: usize,
}

impl Span<'_> {
    /// Offset just past the last byte.
    ///
    /// ```
    /// assert_eq!(wire_lex::Span { bytes: b"", offset: 4 }.end(), 4);
    /// ```
    #[must_use]
    pub const fn end(&self) -> usize {
        self.offset + self.bytes.len()
    }
}

/// An iterator over the fields of one line, split on a delimiter byte.
///
/// Like `split`: `n` delimiters give `n + 1` fields, so an empty line is one
/// empty field. Each field carries its offset in the whole input (the line's
/// offset is passed in), ready for error messages.
///
/// ```
/// use wire_lex::Fields;
///
/// let fields: Vec<_> = Fields::new(b"a\t\tc", 100, b'\t').collect();
/// assert_eq!(fields.len(), 3);
/// assert_eq!(fields[1].bytes, b"");
/// assert_eq!(fields[2].offset, 103);
/// ```
#[derive(Clone, Debug)]
pub struct Fields<'a> {
    /// The buffer the line lives in (the line itself, or the whole input
    /// when built by [`Line::fields`](crate::Line::fields)).
    buf: &'a [u8],
    scan: Scanner<'a, 1>,
    /// Index in `buf` of the next field.
    pos: usize,
    /// Index in `buf` just past the line.
    end: usize,
    /// Added to indexes in `buf` to give offsets in the whole input.
    base: usize,
    done: bool,
}

impl<'a> Fields<'a> {
    /// Fields of `line` (whose first byte is at `offset`) split on
    /// `delimiter`.
    ///
    /// ```
    /// let mut it = wire_lex::Fields::new(b"k=v", 0, b'=');
    /// assert_eq!(it.next().unwrap().bytes, b"k");
    /// ```
    #[must_use]
    pub fn new(line: &'a [u8], offset: usize, delimiter: u8) -> Self {
        Fields {
            buf: line,
            scan: Scanner::new(line, &[delimiter]),
            pos: 0,
            end: line.len(),
            base: offset,
            done: false,
        }
    }

    /// Fields of `input[start..end]`, scanning whole blocks of `input`.
    pub(crate) fn within(input: &'a [u8], start: usize, end: usize, delimiter: u8) -> Self {
        Fields {
            buf: input,
            scan: Scanner::until(input, end, &[delimiter]),
            pos: start,
            end,
            base: 0,
            done: false,
        }
    }

    /// The unsplit remainder, starting with the next field.
    ///
    /// ```
    /// let mut it = wire_lex::Fields::new(b"a,b,c", 0, b',');
    /// it.next();
    /// assert_eq!(it.remainder(), Some(&b"b,c"[..]));
    /// ```
    #[must_use]
    pub fn remainder(&self) -> Option<&'a [u8]> {
        if self.done {
            None
        } else {
            self.buf.get(self.pos..self.end)
        }
    }
}

impl<'a> Iterator for Fields<'a> {
    type Item = Span<'a>;

    #[inline]
    fn next(&mut self) -> Option<Span<'a>> {
        if self.done {
            return None;
        }
        let start = self.pos;
        let end = match self.scan.next_from(start) {
            Some(delim) => {
                self.pos = delim + 1;
                delim
            }
            None => {
                self.done = true;
                self.end
            }
        };
        Some(Span {
            bytes: self.buf.get(start..end).unwrap_or_default(),
            offset: self.base + start,
        })
    }
}

impl core::iter::FusedIterator for Fields<'_> {}

#[cfg(test)]
mod tests {
    use super::Fields;

    #[test]
    fn matches_split_on_edge_cases() {
        for line in [
            &b""[..],
            b"\t",
            b"\t\t",
            b"a",
            b"a\t",
            b"\ta",
            b"ab\tcd\t\tef",
        ] {
            let ours: Vec<&[u8]> = Fields::new(line, 0, b'\t').map(|s| s.bytes).collect();
            let naive: Vec<&[u8]> = line.split(|&b| b == b'\t').collect();
            assert_eq!(ours, naive, "{line:?}");
        }
    }

    #[test]
    fn offsets_point_at_field_starts() {
        let offs: Vec<usize> = Fields::new(b"a\tbb\t", 7, b'\t')
            .map(|s| s.offset)
            .collect();
        assert_eq!(offs, [7, 9, 12]);
    }
}
