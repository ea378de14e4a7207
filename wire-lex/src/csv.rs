//! RFC 4180 quoted fields: doubled quotes, embedded line breaks; read and
//! write.
//!
//! A [`Reader`] yields one [`Field`] at a time, telling whether a
//! delimiter, a line end or the end of the input followed it, so it works
//! for one record or a whole document. Fields borrow from the input; only
//! a quoted field with a doubled quote (or, in lenient mode, text after its
//! closing quote) needs an owned copy.
//!
//! ```
//! use wire_lex::csv::{Dialect, FieldEnd, Reader};
//!
//! let input = b"id,text\n1,\"say \"\"hi\"\"\r\nbye\"\n";
//! let mut values = Vec::new();
//! for field in Reader::new(input, Dialect::RFC4180) {
//!     let field = field?;
//!     values.push((field.value()?.into_owned(), field.end));
//! }
//! assert_eq!(values[3], ("say \"hi\"\r\nbye".to_string(), FieldEnd::Record));
//! # Ok::<(), wire_lex::Error>(())
//! ```
//!
//! Line ends are LF or CR LF; a CR elsewhere in an unquoted field is data.

#[cfg(feature = "alloc")]
use alloc::{borrow::Cow, string::String, vec::Vec};

use crate::scan::Scanner;
use crate::{ByteSink, Error};

/// How quotes that break RFC 4180 are read.
///
/// ```
/// use wire_lex::csv::{Dialect, Reader, Strictness};
///
/// let lenient = Dialect::RFC4180.strictness(Strictness::Lenient);
/// let field = Reader::new(b"\"ab\"cd", lenient).next().unwrap()?;
/// assert_eq!(field.value()?, "abcd");
/// assert!(Reader::new(b"\"ab\"cd", Dialect::RFC4180).next().unwrap().is_err());
/// # Ok::<(), wire_lex::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Strictness {
    /// A quote inside an unquoted field, text after a closing quote and an
    /// unclosed quote are errors. The default.
    #[default]
    Strict,
    /// Python `csv` (non-strict) reading: a quote inside an unquoted field
    /// is data; text after a closing quote is appended unquoted; an
    /// unclosed quoted field runs to the end of the input.
    Lenient,
}

/// When the writer quotes a field.
///
/// ```
/// use wire_lex::csv::{self, Dialect, QuoteStyle};
///
/// let mut out = Vec::new();
/// csv::write_field(b"x", &Dialect::RFC4180.quote_style(QuoteStyle::Always), &mut out)?;
/// assert_eq!(out, b"\"x\"");
/// # Ok::<(), wire_lex::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum QuoteStyle {
    /// Only fields holding the delimiter, the quote, LF or CR (Python's
    /// `QUOTE_MINIMAL`). The default.
    #[default]
    Necessary,
    /// Every field.
    Always,
}

/// The bytes [`write_record`] ends a record with.
///
/// ```
/// use wire_lex::csv::Terminator;
/// assert_eq!(Terminator::CrLf.bytes(), b"\r\n");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Terminator {
    /// LF. The default.
    #[default]
    Lf,
    /// CR LF (RFC 4180's own choice).
    CrLf,
}

impl Terminator {
    /// The terminator's bytes.
    ///
    /// ```
    /// assert_eq!(wire_lex::csv::Terminator::Lf.bytes(), b"\n");
    /// ```
    #[must_use]
    pub const fn bytes(self) -> &'static [u8] {
        match self {
            Terminator::Lf => b"\n",
            Terminator::CrLf => b"\r\n",
        }
    }
}

/// Delimiter, quote and the reading/writing choices.
///
/// ```
/// use wire_lex::csv::Dialect;
///
/// let tsv = Dialect::RFC4180.delimiter(b'\t');
/// assert_eq!(tsv.delimiter, b'\t');
/// assert_eq!(tsv.quote, b'"');
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dialect {
    /// Field delimiter (default `,`).
    pub delimiter: u8,
    /// Quote byte (default `"`).
    pub quote: u8,
    /// Reading: how irregular quotes are treated.
    pub strictness: Strictness,
    /// Writing: when to quote.
    pub quote_style: QuoteStyle,
    /// Writing: what ends a record.
    pub terminator: Terminator,
}

impl Dialect {
    /// `,` and `"`, strict reading, minimal quoting, LF records.
    ///
    /// ```
    /// assert_eq!(wire_lex::csv::Dialect::RFC4180, Default::default());
    /// ```
    pub const RFC4180: Dialect = Dialect {
        delimiter: b',',
        quote: b'"',
        strictness: Strictness::Strict,
        quote_style: QuoteStyle::Necessary,
        terminator: Terminator::Lf,
    };

    /// Sets the delimiter.
    ///
    /// ```
    /// assert_eq!(wire_lex::csv::Dialect::RFC4180.delimiter(b';').delimiter, b';');
    /// ```
    #[must_use]
    pub const fn delimiter(mut self, delimiter: u8) -> Dialect {
        self.delimiter = delimiter;
        self
    }

    /// Sets the quote byte.
    ///
    /// ```
    /// assert_eq!(wire_lex::csv::Dialect::RFC4180.quote(b'\'').quote, b'\'');
    /// ```
    #[must_use]
    pub const fn quote(mut self, quote: u8) -> Dialect {
        self.quote = quote;
        self
    }

    /// Sets the reading strictness.
    ///
    /// ```
    /// use wire_lex::csv::{Dialect, Strictness};
    /// let d = Dialect::RFC4180.strictness(Strictness::Lenient);
    /// assert_eq!(d.strictness, Strictness::Lenient);
    /// ```
    #[must_use]
    pub const fn strictness(mut self, strictness: Strictness) -> Dialect {
        self.strictness = strictness;
        self
    }

    /// Sets the quoting style of the writer.
    ///
    /// ```
    /// use wire_lex::csv::{Dialect, QuoteStyle};
    /// assert_eq!(Dialect::RFC4180.quote_style(QuoteStyle::Always).quote_style, QuoteStyle::Always);
    /// ```
    #[must_use]
    pub const fn quote_style(mut self, style: QuoteStyle) -> Dialect {
        self.quote_style = style;
        self
    }

    /// Sets the record terminator of the writer.
    ///
    /// ```
    /// use wire_lex::csv::{Dialect, Terminator};
    /// assert_eq!(Dialect::RFC4180.terminator(Terminator::CrLf).terminator, Terminator::CrLf);
    /// ```
    #[must_use]
    pub const fn terminator(mut self, terminator: Terminator) -> Dialect {
        self.terminator = terminator;
        self
    }

    const fn strict(&self) -> bool {
        matches!(self.strictness, Strictness::Strict)
    }
}

impl Default for Dialect {
    fn default() -> Self {
        Dialect::RFC4180
    }
}

/// What followed a field.
///
/// ```
/// use wire_lex::csv::{Dialect, FieldEnd, Reader};
/// let ends: Vec<FieldEnd> = Reader::new(b"a,b\nc", Dialect::RFC4180)
///     .map(|f| f.unwrap().end)
///     .collect();
/// assert_eq!(ends, [FieldEnd::Delimiter, FieldEnd::Record, FieldEnd::Eof]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FieldEnd {
    /// A delimiter: the record goes on.
    Delimiter,
    /// A line end (LF or CR LF): the record is complete.
    Record,
    /// The end of the input: the record (and the input) is complete.
    Eof,
}

impl FieldEnd {
    /// Whether this field is the last of its record.
    ///
    /// ```
    /// assert!(wire_lex::csv::FieldEnd::Eof.ends_record());
    /// ```
    #[must_use]
    pub const fn ends_record(self) -> bool {
        !matches!(self, FieldEnd::Delimiter)
    }
}

/// One field as found in the input.
///
/// ```
/// use wire_lex::csv::{Dialect, Reader};
///
/// let f = Reader::new(b"\"a,b\",c", Dialect::RFC4180).next().unwrap()?;
/// assert_eq!(f.raw, b"\"a,b\"");
/// assert!(f.quoted);
/// assert_eq!(f.borrowed(), Some(&b"a,b"[..]));
/// # Ok::<(), wire_lex::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field<'a> {
    /// The field's bytes as written, quotes included, without the
    /// delimiter or line end that follows.
    pub raw: &'a [u8],
    /// Offset of the field's first byte.
    pub offset: usize,
    /// What followed it.
    pub end: FieldEnd,
    /// Whether it started with a quote.
    pub quoted: bool,
    quote: u8,
    /// Reading the value needs more than stripping the outer quotes.
    needs_copy: bool,
}

impl<'a> Field<'a> {
    /// The value without copying, when it is a plain slice of the input
    /// (unquoted, or quoted without doubled quotes).
    ///
    /// ```
    /// use wire_lex::csv::{Dialect, Reader};
    /// let f = Reader::new(b"\"a\"\"b\"", Dialect::RFC4180).next().unwrap()?;
    /// assert_eq!(f.borrowed(), None);
    /// # Ok::<(), wire_lex::Error>(())
    /// ```
    #[must_use]
    pub fn borrowed(&self) -> Option<&'a [u8]> {
        match (self.quoted, self.needs_copy) {
            (false, _) => Some(self.raw),
            (true, false) => self.raw.get(1..self.raw.len().saturating_sub(1)),
            (true, true) => None,
        }
    }

    /// Writes the value (quotes removed, doubled quotes halved) into
    /// `sink`; never longer than [`Field::raw`].
    ///
    /// # Errors
    /// [`Error::BufferFull`] from a fixed-size sink.
    ///
    /// ```
    /// use wire_lex::{csv::{Dialect, Reader}, SliceSink};
    ///
    /// let f = Reader::new(b"\"x\"\"y\"", Dialect::RFC4180).next().unwrap()?;
    /// let mut buf = [0u8; 8];
    /// let mut sink = SliceSink::new(&mut buf);
    /// f.value_into(&mut sink)?;
    /// assert_eq!(sink.written(), b"x\"y");
    /// # Ok::<(), wire_lex::Error>(())
    /// ```
    pub fn value_into<S: ByteSink + ?Sized>(&self, sink: &mut S) -> Result<(), Error> {
        if let Some(value) = self.borrowed() {
            return sink.put(value);
        }
        // Quoted and irregular: walk the quoted part, then any text after
        // the closing quote (lenient mode) is data.
        let mut rest = self.raw.get(1..).unwrap_or_default();
        loop {
            let Some(q) = memchr::memchr(self.quote, rest) else {
                // Unclosed (lenient): everything is data.
                return sink.put(rest);
            };
            sink.put(rest.get(..q).unwrap_or_default())?;
            if rest.get(q + 1) == Some(&self.quote) {
                sink.put_byte(self.quote)?;
                rest = rest.get(q + 2..).unwrap_or_default();
            } else {
                return sink.put(rest.get(q + 1..).unwrap_or_default());
            }
        }
    }

    /// The value's bytes; borrowed when possible.
    ///
    /// ```
    /// use wire_lex::csv::{Dialect, Reader};
    /// let f = Reader::new(b"\"\"\"\"", Dialect::RFC4180).next().unwrap()?;
    /// assert_eq!(f.value_bytes(), &b"\""[..]);
    /// # Ok::<(), wire_lex::Error>(())
    /// ```
    #[cfg(feature = "alloc")]
    #[must_use]
    pub fn value_bytes(&self) -> Cow<'a, [u8]> {
        if let Some(value) = self.borrowed() {
            return Cow::Borrowed(value);
        }
        let mut out = Vec::with_capacity(self.raw.len());
        // A Vec sink never reports a full buffer.
        let _ = self.value_into(&mut out);
        Cow::Owned(out)
    }

    /// The value as UTF-8 text; borrowed when possible.
    ///
    /// # Errors
    /// [`Error::InvalidUtf8`] with the offset in the input.
    ///
    /// ```
    /// use wire_lex::csv::{Dialect, Reader};
    /// let f = Reader::new("\"né\"".as_bytes(), Dialect::RFC4180).next().unwrap()?;
    /// assert_eq!(f.value()?, "né");
    /// # Ok::<(), wire_lex::Error>(())
    /// ```
    #[cfg(feature = "alloc")]
    pub fn value(&self) -> Result<Cow<'a, str>, Error> {
        crate::utf8::validate(self.raw, self.offset)?;
        match self.value_bytes() {
            Cow::Borrowed(b) => crate::utf8::validate(b, self.offset).map(Cow::Borrowed),
            Cow::Owned(v) => String::from_utf8(v)
                .map(Cow::Owned)
                .map_err(|_| Error::InvalidUtf8 {
                    offset: self.offset,
                }),
        }
    }
}

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

/// Whether the writer quotes `value` under `dialect`.
///
/// ```
/// use wire_lex::csv::{self, Dialect};
/// assert!(csv::needs_quotes(b"a,b", &Dialect::RFC4180));
/// assert!(csv::needs_quotes(b"a\rb", &Dialect::RFC4180));
/// assert!(!csv::needs_quotes(b" a;b ", &Dialect::RFC4180));
/// ```
#[must_use]
pub fn needs_quotes(value: &[u8], dialect: &Dialect) -> bool {
    match dialect.quote_style {
        QuoteStyle::Always => true,
        QuoteStyle::Necessary => {
            memchr::memchr3(dialect.delimiter, dialect.quote, b'\n', value).is_some()
                || memchr::memchr(b'\r', value).is_some()
        }
    }
}

/// Writes one field, quoted when [`needs_quotes`] says so, with quotes
/// doubled inside.
///
/// # Errors
/// [`Error::BufferFull`] from a fixed-size sink.
///
/// ```
/// use wire_lex::csv::{self, Dialect};
///
/// let mut out = Vec::new();
/// csv::write_field(b"say \"hi\"", &Dialect::RFC4180, &mut out)?;
/// assert_eq!(out, b"\"say \"\"hi\"\"\"");
/// # Ok::<(), wire_lex::Error>(())
/// ```
pub fn write_field<S: ByteSink + ?Sized>(
    value: &[u8],
    dialect: &Dialect,
    sink: &mut S,
) -> Result<(), Error> {
    if !needs_quotes(value, dialect) {
        return sink.put(value);
    }
    write_quoted(value, dialect.quote, sink)
}

fn write_quoted<S: ByteSink + ?Sized>(value: &[u8], quote: u8, sink: &mut S) -> Result<(), Error> {
    sink.put_byte(quote)?;
    let mut rest = value;
    while let Some(i) = memchr::memchr(quote, rest) {
        let (head, tail) = rest.split_at_checked(i + 1).unwrap_or((rest, &[]));
        sink.put(head)?;
        sink.put_byte(quote)?;
        rest = tail;
    }
    sink.put(rest)?;
    sink.put_byte(quote)
}

/// Writes one record: fields joined by the delimiter, then the
/// terminator. A record of one empty field is written as `""` so that it
/// does not read back as an empty line (as Python's `csv` does).
///
/// # Errors
/// [`Error::BufferFull`] from a fixed-size sink.
///
/// ```
/// use wire_lex::csv::{self, Dialect};
///
/// let mut out = Vec::new();
/// csv::write_record([&b"a"[..], b"b c", b"d,e"], &Dialect::RFC4180, &mut out)?;
/// csv::write_record([&b""[..]], &Dialect::RFC4180, &mut out)?;
/// assert_eq!(out, b"a,b c,\"d,e\"\n\"\"\n");
/// # Ok::<(), wire_lex::Error>(())
/// ```
pub fn write_record<'c, S: ByteSink + ?Sized>(
    fields: impl IntoIterator<Item = &'c [u8]>,
    dialect: &Dialect,
    sink: &mut S,
) -> Result<(), Error> {
    let mut count = 0usize;
    let mut only_empty = true;
    for field in fields {
        if count > 0 {
            sink.put_byte(dialect.delimiter)?;
        }
        write_field(field, dialect, sink)?;
        only_empty = count == 0 && field.is_empty();
        count += 1;
    }
    if count == 1 && only_empty && dialect.quote_style == QuoteStyle::Necessary {
        sink.put(&[dialect.quote, dialect.quote])?;
    }
    sink.put(dialect.terminator.bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(input: &[u8], dialect: Dialect) -> Vec<Result<(String, FieldEnd), Error>> {
        Reader::new(input, dialect)
            .map(|f| f.map(|f| (f.value().unwrap().into_owned(), f.end)))
            .collect()
    }

    fn ok(v: &str, end: FieldEnd) -> Result<(String, FieldEnd), Error> {
        Ok((v.to_string(), end))
    }

    #[test]
    fn records_and_empty_fields() {
        use FieldEnd::*;
        let d = Dialect::RFC4180;
        assert_eq!(read(b"", d), []);
        assert_eq!(read(b"\n", d), [ok("", Record)]);
        assert_eq!(read(b",", d), [ok("", Delimiter), ok("", Eof)]);
        assert_eq!(read(b"a\r\nb\r", d), [ok("a", Record), ok("b", Eof)]);
        assert_eq!(read(b"a\rb", d), [ok("a\rb", Eof)]);
        assert_eq!(read(b"\"\"\n", d), [ok("", Record)]);
        assert_eq!(read(b"\"a\"\r\n\"b\"", d), [ok("a", Record), ok("b", Eof)]);
    }

    #[test]
    fn strict_errors_carry_offsets() {
        let d = Dialect::RFC4180;
        assert_eq!(
            read(b"x,\"ab", d),
            [
                ok("x", FieldEnd::Delimiter),
                Err(Error::UnterminatedQuote { offset: 2 })
            ]
        );
        assert_eq!(
            read(b"ab\"c", d),
            [Err(Error::QuoteInUnquotedField { offset: 2 })]
        );
        assert_eq!(
            read(b"\"a\"\rb", d),
            [Err(Error::TextAfterClosingQuote { offset: 3 })]
        );
    }

    #[test]
    fn lenient_follows_python_csv() {
        use FieldEnd::*;
        let d = Dialect::RFC4180.strictness(Strictness::Lenient);
        assert_eq!(read(b"ab\"c,d", d), [ok("ab\"c", Delimiter), ok("d", Eof)]);
        assert_eq!(read(b"\"a\"b\"c\n", d), [ok("ab\"c", Record)]);
        assert_eq!(read(b"\"open,\n", d), [ok("open,\n", Eof)]);
        assert_eq!(read(b"\"a\"\"", d), [ok("a\"", Eof)]);
    }

    #[test]
    fn writer_round_trips_awkward_fields() {
        let d = Dialect::RFC4180;
        let cells: [&[u8]; 7] = [b"", b"\"", b"a,b", b"\r", b"x\r\n", b" sp ", b"\"\""];
        let mut out = Vec::new();
        write_record(cells, &d, &mut out).unwrap();
        let back: Vec<Vec<u8>> = Reader::new(&out, d)
            .map(|f| f.unwrap().value_bytes().into_owned())
            .collect();
        assert_eq!(back, cells.map(<[u8]>::to_vec));
    }
}
