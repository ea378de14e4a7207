//! The field reader: one field at a time from a byte slice.

use super::{Dialect, Field, FieldEnd};
use crate::Error;
use crate::scan::Scanner;

/// Reads fields one after another from a byte slice.
///
/// An empty input has no fields; an empty line is a record with one empty
/// field; a delimiter at the very end is followed by one empty field. After
/// an error the reader is finished.
///
/// ```
/// use wire_lex::csv::{Dialect, Reader};
///
/// let n = Reader::new(b"a,\n\n", Dialect::RFC4180).count();
/// assert_eq!(n, 3); // "a", "", and the empty line's ""
/// ```
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    input: &'a [u8],
    /// Delimiter, LF and quote positions.
    scan: Scanner<'a>,
    pos: usize,
    dialect: Dialect,
    /// The previous field ended with a delimiter: one more field follows,
    /// even at the end of the input.
    pending: bool,
    done: bool,
}

impl<'a> Reader<'a> {
    /// A reader over `input`.
    ///
    /// ```
    /// use wire_lex::csv::{Dialect, Reader};
    /// assert_eq!(Reader::new(b"", Dialect::RFC4180).count(), 0);
    /// ```
    #[must_use]
    pub fn new(input: &'a [u8], dialect: Dialect) -> Self {
        Reader {
            input,
            scan: Scanner::new(input, &[dialect.delimiter, b'\n', dialect.quote]),
            pos: 0,
            dialect,
            pending: false,
            done: false,
        }
    }

    /// Offset of the next field.
    ///
    /// ```
    /// use wire_lex::csv::{Dialect, Reader};
    /// let mut r = Reader::new(b"ab,c", Dialect::RFC4180);
    /// r.next();
    /// assert_eq!(r.offset(), 3);
    /// ```
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.pos
    }

    fn fail(&mut self, err: Error) -> Option<Result<Field<'a>, Error>> {
        self.done = true;
        Some(Err(err))
    }

    /// The next quote at or after `from`.
    #[inline]
    fn next_quote(&mut self, mut from: usize) -> Option<usize> {
        loop {
            let at = self.scan.next_from(from)?;
            if self.input.get(at) == Some(&self.dialect.quote) {
                return Some(at);
            }
            from = at + 1;
        }
    }

    /// Classifies what sits at `at` (just after a field's content):
    /// returns the end kind and the offset of the next field, or `None` if
    /// it is not a delimiter or line end.
    #[inline]
    fn terminator_at(&self, at: usize) -> Option<(FieldEnd, usize, usize)> {
        let d = &self.dialect;
        match self.input.get(at).copied() {
            None => Some((FieldEnd::Eof, at, at)),
            Some(b) if b == d.delimiter => Some((FieldEnd::Delimiter, at, at + 1)),
            Some(b'\n') => Some((FieldEnd::Record, at, at + 1)),
            Some(b'\r') => match self.input.get(at + 1).copied() {
                Some(b'\n') => Some((FieldEnd::Record, at, at + 2)),
                None => Some((FieldEnd::Eof, at, at + 1)),
                Some(_) => None,
            },
            Some(_) => None,
        }
    }

    /// Reads an unquoted field starting at `start`, returning the end of
    /// its content, the end kind and the next position.
    #[inline]
    fn scan_unquoted(&mut self, start: usize) -> Result<(usize, FieldEnd, usize), Error> {
        let d = self.dialect;
        let mut from = start;
        loop {
            let Some(at) = self.scan.next_from(from) else {
                // Runs to the end; one trailing CR belongs to the line end.
                let end = self.input.len();
                let content_end = match self.input.last() {
                    Some(b'\r') if end > start => end - 1,
                    _ => end,
                };
                return Ok((content_end, FieldEnd::Eof, end));
            };
            match self.input.get(at).copied() {
                Some(b) if b == d.delimiter => return Ok((at, FieldEnd::Delimiter, at + 1)),
                Some(b'\n') => {
                    let content_end = if at > start && self.input.get(at - 1) == Some(&b'\r') {
                        at - 1
                    } else {
                        at
                    };
                    return Ok((content_end, FieldEnd::Record, at + 1));
                }
                _ => {
                    if d.strict() {
                        return Err(Error::QuoteInUnquotedField { offset: at });
                    }
                    from = at + 1;
                }
            }
        }
    }
}

impl<'a> Iterator for Reader<'a> {
    type Item = Result<Field<'a>, Error>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let start = self.pos;
        if start >= self.input.len() {
            self.done = true;
            if !self.pending {
                return None;
            }
            return Some(Ok(Field {
                raw: &[],
                offset: start,
                end: FieldEnd::Eof,
                quoted: false,
                quote: self.dialect.quote,
                needs_copy: false,
            }));
        }
        let quote = self.dialect.quote;
        let quoted = self.input.get(start) == Some(&quote);
        let (content_end, end, next, needs_copy) = if quoted {
            let mut from = start + 1;
            let mut doubled = false;
            loop {
                let Some(close) = self.next_quote(from) else {
                    if self.dialect.strict() {
                        return self.fail(Error::UnterminatedQuote { offset: start });
                    }
                    let len = self.input.len();
                    break (len, FieldEnd::Eof, len, true);
                };
                if self.input.get(close + 1) == Some(&quote) {
                    doubled = true;
                    from = close + 2;
                    continue;
                }
                if let Some((end, _, next)) = self.terminator_at(close + 1) {
                    break (close + 1, end, next, doubled);
                }
                if self.dialect.strict() {
                    return self.fail(Error::TextAfterClosingQuote { offset: close + 1 });
                }
                match self.scan_unquoted(close + 1) {
                    Ok((content_end, end, next)) => break (content_end, end, next, true),
                    Err(e) => return self.fail(e),
                }
            }
        } else {
            match self.scan_unquoted(start) {
                Ok((content_end, end, next)) => (content_end, end, next, false),
                Err(e) => return self.fail(e),
            }
        };
        self.pos = next;
        self.pending = end == FieldEnd::Delimiter;
        if end == FieldEnd::Eof {
            self.done = true;
        }
        Some(Ok(Field {
            raw: self.input.get(start..content_end).unwrap_or_default(),
            offset: start,
            end,
            quoted,
            quote,
            needs_copy,
        }))
    }
}

impl core::iter::FusedIterator for Reader<'_> {}
