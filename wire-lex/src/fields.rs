//! Splitting a line into fields on one delimiter byte.

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
    rest: &'a [u8],
    offset: usize,
    delimiter: u8,
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
    pub const fn new(line: &'a [u8], offset: usize, delimiter: u8) -> Self {
        Fields {
            rest: line,
            offset,
            delimiter,
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
    pub const fn remainder(&self) -> Option<&'a [u8]> {
        if self.done { None } else { Some(self.rest) }
    }
}

impl<'a> Iterator for Fields<'a> {
    type Item = Span<'a>;

    #[inline]
    fn next(&mut self) -> Option<Span<'a>> {
        if self.done {
            return None;
        }
        let offset = self.offset;
        match memchr::memchr(self.delimiter, self.rest) {
            Some(i) => {
                let (bytes, tail) = self.rest.split_at_checked(i)?;
                self.rest = tail.get(1..).unwrap_or_default();
                self.offset = offset + i + 1;
                Some(Span { bytes, offset })
            }
            None => {
                self.done = true;
                Some(Span {
                    bytes: self.rest,
                    offset,
                })
            }
        }
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
