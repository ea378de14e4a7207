//! One field as the reader found it: its raw bytes, whether it was
//! quoted, what followed it, and its value.

#[cfg(feature = "alloc")]
use alloc::{borrow::Cow, string::String, vec::Vec};

use crate::{ByteSink, Error};

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
    pub(super) quote: u8,
    /// Reading the value needs more than stripping the outer quotes.
    pub(super) needs_copy: bool,
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
