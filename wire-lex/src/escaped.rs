//! Backslash-escaped fields: a caller-given escape table, read and write.
//!
//! In this syntax a field never contains its delimiter or a line break raw:
//! the writer replaces them by an escape byte and a letter (`\t`, `\n`), so
//! reading is "split the line on the delimiter, then unescape each field".
//! GCX1 is the model:
//!
//! ```
//! use wire_lex::escaped::{EscapeTable, UnknownEscape};
//!
//! // GCX1: `\\`, `\t`, `\n`; a CR is deleted on write; `\X` reads as `X`.
//! const GCX1: EscapeTable = EscapeTable::new(b'\\')
//!     .with(b'\t', b't')
//!     .with(b'\n', b'n')
//!     .drop_on_write(b'\r')
//!     .unknown(UnknownEscape::DropEscape);
//!
//! let mut out = Vec::new();
//! GCX1.escape_into(b"a\tb\\c\r\n", &mut out)?;
//! assert_eq!(out, b"a\\tb\\\\c\\n");
//! assert_eq!(GCX1.unescape_str(&out, 0)?, "a\tb\\c\n");
//! assert_eq!(GCX1.unescape_str(br"\r\q", 0)?, "rq");
//! # Ok::<(), wire_lex::Error>(())
//! ```

#[cfg(feature = "alloc")]
use alloc::{borrow::Cow, string::String, vec::Vec};

use crate::{ByteSet, ByteSink, Error};
#[cfg(feature = "alloc")]
use crate::{Fields, utf8};

/// What an escape byte followed by a letter the table does not define reads
/// as.
///
/// ```
/// use wire_lex::escaped::{EscapeTable, UnknownEscape};
///
/// let keep = EscapeTable::new(b'\\').unknown(UnknownEscape::KeepEscape);
/// assert_eq!(keep.unescape(br"\q", 0)?, &br"\q"[..]);
/// let reject = EscapeTable::new(b'\\').unknown(UnknownEscape::Reject);
/// assert!(reject.unescape(br"a\q", 0).is_err());
/// # Ok::<(), wire_lex::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum UnknownEscape {
    /// `\X` reads as `X` (GCX1, Go and TypeScript decoders). The default.
    #[default]
    DropEscape,
    /// `\X` reads as `\X`, both bytes kept.
    KeepEscape,
    /// `\X` is an [`Error::UnknownEscape`].
    Reject,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OnWrite {
    Raw,
    Escape(u8),
    Drop,
}

/// A backslash-style escape table: which bytes are written as escape +
/// letter, which letters read back as which bytes, which bytes are deleted
/// on write, and what an unknown escape means.
///
/// Built at compile time with `const fn`s. The escape byte always escapes
/// itself (`\\` ↔ `\`). An escape byte at the very end of a field reads as
/// itself. Unescaping is a single left-to-right pass.
///
/// ```
/// use wire_lex::EscapeTable;
///
/// const TSV: EscapeTable = EscapeTable::new(b'\\').with(b'\t', b't').with(b'\n', b'n');
/// assert!(TSV.needs_escaping(b"a\tb"));
/// assert_eq!(TSV.escaped_len(b"a\tb"), 4);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EscapeTable {
    escape: u8,
    on_write: [OnWrite; 256],
    on_read: [Option<u8>; 256],
    special: ByteSet,
    unknown: UnknownEscape,
    /// Every defined pair maps ASCII to ASCII, so unescaping UTF-8 gives
    /// UTF-8.
    ascii: bool,
}

impl EscapeTable {
    /// A table with only the escape byte escaping itself.
    ///
    /// ```
    /// let t = wire_lex::EscapeTable::new(b'\\');
    /// assert_eq!(t.unescape(br"a\\b", 0)?, &b"a\\b"[..]);
    /// # Ok::<(), wire_lex::Error>(())
    /// ```
    #[must_use]
    pub const fn new(escape: u8) -> EscapeTable {
        EscapeTable {
            escape,
            on_write: [OnWrite::Raw; 256],
            on_read: [None; 256],
            special: ByteSet::EMPTY,
            unknown: UnknownEscape::DropEscape,
            ascii: escape.is_ascii(),
        }
        .with(escape, escape)
    }

    /// Adds the pair `raw` ↔ escape + `letter`.
    ///
    /// ```
    /// let t = wire_lex::EscapeTable::new(b'\\').with(b'\0', b'0');
    /// assert_eq!(t.unescape(br"\0", 0)?, &b"\0"[..]);
    /// # Ok::<(), wire_lex::Error>(())
    /// ```
    #[must_use]
    #[allow(clippy::indexing_slicing, reason = "a u8 always indexes a [_; 256]")]
    pub const fn with(mut self, raw: u8, letter: u8) -> EscapeTable {
        self.on_write[raw as usize] = OnWrite::Escape(letter);
        self.on_read[letter as usize] = Some(raw);
        self.special = self.special.with(raw);
        self.ascii = self.ascii && raw.is_ascii() && letter.is_ascii();
        self
    }

    /// Makes the writer delete `raw` (lossy: GCX1 deletes CR).
    ///
    /// ```
    /// let t = wire_lex::EscapeTable::new(b'\\').drop_on_write(b'\r');
    /// assert_eq!(t.escape(b"a\r\nb"), &b"a\nb"[..]);
    /// ```
    #[must_use]
    #[allow(clippy::indexing_slicing, reason = "a u8 always indexes a [_; 256]")]
    pub const fn drop_on_write(mut self, raw: u8) -> EscapeTable {
        self.on_write[raw as usize] = OnWrite::Drop;
        self.special = self.special.with(raw);
        self
    }

    /// Sets what an unknown escape reads as.
    ///
    /// ```
    /// use wire_lex::escaped::{EscapeTable, UnknownEscape};
    /// let t = EscapeTable::new(b'\\').unknown(UnknownEscape::Reject);
    /// assert_eq!(t.unknown_policy(), UnknownEscape::Reject);
    /// ```
    #[must_use]
    pub const fn unknown(mut self, policy: UnknownEscape) -> EscapeTable {
        self.unknown = policy;
        self
    }

    /// The escape byte.
    ///
    /// ```
    /// assert_eq!(wire_lex::EscapeTable::new(b'%').escape_byte(), b'%');
    /// ```
    #[must_use]
    pub const fn escape_byte(&self) -> u8 {
        self.escape
    }

    /// The unknown-escape policy.
    ///
    /// ```
    /// use wire_lex::escaped::{EscapeTable, UnknownEscape};
    /// assert_eq!(EscapeTable::new(b'\\').unknown_policy(), UnknownEscape::DropEscape);
    /// ```
    #[must_use]
    pub const fn unknown_policy(&self) -> UnknownEscape {
        self.unknown
    }

    /// Whether the writer would change `value` (escape or delete a byte).
    ///
    /// ```
    /// let t = wire_lex::EscapeTable::new(b'\\');
    /// assert!(!t.needs_escaping(b"plain"));
    /// assert!(t.needs_escaping(b"back\\slash"));
    /// ```
    #[must_use]
    #[inline]
    pub fn needs_escaping(&self, value: &[u8]) -> bool {
        self.special.find(value).is_some()
    }

    /// The length of `value` once escaped (to size a caller's buffer).
    ///
    /// ```
    /// let t = wire_lex::EscapeTable::new(b'\\').drop_on_write(b'\r');
    /// assert_eq!(t.escaped_len(b"\\\r"), 2);
    /// ```
    #[must_use]
    pub fn escaped_len(&self, value: &[u8]) -> usize {
        value
            .iter()
            .map(|&b| match self.write_rule(b) {
                OnWrite::Raw => 1,
                OnWrite::Escape(_) => 2,
                OnWrite::Drop => 0,
            })
            .sum()
    }

    #[inline]
    fn write_rule(&self, byte: u8) -> OnWrite {
        self.on_write
            .get(usize::from(byte))
            .copied()
            .unwrap_or(OnWrite::Raw)
    }

    #[inline]
    fn read_rule(&self, letter: u8) -> Option<u8> {
        self.on_read.get(usize::from(letter)).copied().flatten()
    }

    /// Writes `value` escaped into `sink`.
    ///
    /// # Errors
    /// [`Error::BufferFull`] from a fixed-size sink.
    ///
    /// ```
    /// use wire_lex::{EscapeTable, SliceSink};
    ///
    /// let t = EscapeTable::new(b'\\').with(b'\n', b'n');
    /// let mut buf = [0u8; 16];
    /// let mut sink = SliceSink::new(&mut buf);
    /// t.escape_into(b"two\nlines", &mut sink)?;
    /// assert_eq!(sink.written(), br"two\nlines");
    /// # Ok::<(), wire_lex::Error>(())
    /// ```
    pub fn escape_into<S: ByteSink + ?Sized>(
        &self,
        value: &[u8],
        sink: &mut S,
    ) -> Result<(), Error> {
        let mut rest = value;
        while let Some(i) = self.special.find(rest) {
            let (plain, tail) = rest.split_at_checked(i).unwrap_or((rest, &[]));
            sink.put(plain)?;
            let Some((&byte, tail)) = tail.split_first() else {
                break;
            };
            match self.write_rule(byte) {
                OnWrite::Raw => sink.put_byte(byte)?,
                OnWrite::Escape(letter) => sink.put(&[self.escape, letter])?,
                OnWrite::Drop => {}
            }
            rest = tail;
        }
        sink.put(rest)
    }

    /// Writes the unescaped form of `raw` (a field whose first byte is at
    /// `offset`) into `sink`. The output is never longer than `raw`, so a
    /// buffer of `raw.len()` bytes always suffices.
    ///
    /// # Errors
    /// [`Error::UnknownEscape`] under [`UnknownEscape::Reject`];
    /// [`Error::BufferFull`] from a fixed-size sink.
    ///
    /// ```
    /// use wire_lex::{EscapeTable, SliceSink};
    ///
    /// let t = EscapeTable::new(b'\\').with(b'\t', b't');
    /// let mut buf = [0u8; 8];
    /// let mut sink = SliceSink::new(&mut buf);
    /// t.unescape_into(br"a\tb\", 0, &mut sink)?;
    /// assert_eq!(sink.written(), b"a\tb\\");
    /// # Ok::<(), wire_lex::Error>(())
    /// ```
    pub fn unescape_into<S: ByteSink + ?Sized>(
        &self,
        raw: &[u8],
        offset: usize,
        sink: &mut S,
    ) -> Result<(), Error> {
        let mut pos = 0;
        while let Some(i) = raw.get(pos..).and_then(|r| memchr::memchr(self.escape, r)) {
            let at = pos + i;
            sink.put(raw.get(pos..at).unwrap_or_default())?;
            match raw.get(at + 1).copied() {
                None => {
                    // A lone escape at the end of the field is itself.
                    sink.put_byte(self.escape)?;
                    return Ok(());
                }
                Some(letter) => match (self.read_rule(letter), self.unknown) {
                    (Some(byte), _) => sink.put_byte(byte)?,
                    (None, UnknownEscape::DropEscape) => sink.put_byte(letter)?,
                    (None, UnknownEscape::KeepEscape) => sink.put(&[self.escape, letter])?,
                    (None, UnknownEscape::Reject) => {
                        return Err(Error::UnknownEscape {
                            offset: offset.saturating_add(at),
                        });
                    }
                },
            }
            pos = at + 2;
        }
        sink.put(raw.get(pos..).unwrap_or_default())
    }

    /// `value` escaped; borrowed when nothing needed escaping.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// let t = wire_lex::EscapeTable::new(b'\\');
    /// assert!(matches!(t.escape(b"plain"), Cow::Borrowed(_)));
    /// ```
    #[cfg(feature = "alloc")]
    #[must_use]
    pub fn escape<'a>(&self, value: &'a [u8]) -> Cow<'a, [u8]> {
        if !self.needs_escaping(value) {
            return Cow::Borrowed(value);
        }
        let mut out = Vec::with_capacity(value.len() + value.len() / 8 + 2);
        // A Vec sink never reports a full buffer.
        let _ = self.escape_into(value, &mut out);
        Cow::Owned(out)
    }

    /// The unescaped bytes of `raw` (a field starting at `offset`); borrowed
    /// when `raw` holds no escape byte.
    ///
    /// # Errors
    /// [`Error::UnknownEscape`] under [`UnknownEscape::Reject`].
    ///
    /// ```
    /// use std::borrow::Cow;
    /// let t = wire_lex::EscapeTable::new(b'\\');
    /// assert!(matches!(t.unescape(b"plain", 0)?, Cow::Borrowed(b"plain")));
    /// assert_eq!(t.unescape(br"\\", 0)?, &b"\\"[..]);
    /// # Ok::<(), wire_lex::Error>(())
    /// ```
    #[cfg(feature = "alloc")]
    pub fn unescape<'a>(&self, raw: &'a [u8], offset: usize) -> Result<Cow<'a, [u8]>, Error> {
        if memchr::memchr(self.escape, raw).is_none() {
            return Ok(Cow::Borrowed(raw));
        }
        let mut out = Vec::with_capacity(raw.len());
        self.unescape_into(raw, offset, &mut out)?;
        Ok(Cow::Owned(out))
    }

    /// The unescaped text of `raw` (a field starting at `offset`), checked
    /// to be UTF-8; borrowed when `raw` holds no escape byte.
    ///
    /// # Errors
    /// [`Error::InvalidUtf8`] with the offset in the input (or the field's
    /// offset when only a non-ASCII table pair made the result invalid);
    /// [`Error::UnknownEscape`] under [`UnknownEscape::Reject`].
    ///
    /// ```
    /// let t = wire_lex::EscapeTable::new(b'\\');
    /// assert_eq!(t.unescape_str(br"C:\\dir", 0)?, r"C:\dir");
    /// assert!(t.unescape_str(b"bad\xFF", 0).is_err());
    /// # Ok::<(), wire_lex::Error>(())
    /// ```
    #[cfg(feature = "alloc")]
    pub fn unescape_str<'a>(&self, raw: &'a [u8], offset: usize) -> Result<Cow<'a, str>, Error> {
        let text = utf8::validate(raw, offset)?;
        if memchr::memchr(self.escape, raw).is_none() {
            return Ok(Cow::Borrowed(text));
        }
        let mut out = Vec::with_capacity(raw.len());
        self.unescape_into(raw, offset, &mut out)?;
        match String::from_utf8(out) {
            Ok(s) => Ok(Cow::Owned(s)),
            Err(_) => Err(Error::InvalidUtf8 { offset }),
        }
    }

    /// Whether unescaping UTF-8 always gives UTF-8 (every pair is ASCII).
    ///
    /// ```
    /// assert!(wire_lex::EscapeTable::new(b'\\').is_ascii());
    /// ```
    #[must_use]
    pub const fn is_ascii(&self) -> bool {
        self.ascii
    }
}

/// Writes one record: each cell escaped, cells joined by `delimiter`, then
/// an LF. The table should escape `delimiter` and LF (and CR, if the reader
/// strips CR), or the record will not read back as written.
///
/// # Errors
/// [`Error::BufferFull`] from a fixed-size sink.
///
/// ```
/// use wire_lex::{escaped, EscapeTable};
///
/// const TSV: EscapeTable = EscapeTable::new(b'\\').with(b'\t', b't').with(b'\n', b'n');
/// let mut out = Vec::new();
/// escaped::write_record([&b"a\tb"[..], b"c"], b'\t', &TSV, &mut out)?;
/// assert_eq!(out, b"a\\tb\tc\n");
/// # Ok::<(), wire_lex::Error>(())
/// ```
pub fn write_record<'c, S: ByteSink + ?Sized>(
    cells: impl IntoIterator<Item = &'c [u8]>,
    delimiter: u8,
    table: &EscapeTable,
    sink: &mut S,
) -> Result<(), Error> {
    for (i, cell) in cells.into_iter().enumerate() {
        if i > 0 {
            sink.put_byte(delimiter)?;
        }
        table.escape_into(cell, sink)?;
    }
    sink.put_byte(b'\n')
}

/// The fields of one line of the escaped syntax, each unescaped and checked
/// to be UTF-8: `Cow::Borrowed` unless the field held an escape.
///
/// ```
/// use std::borrow::Cow;
/// use wire_lex::{escaped::EscapedFields, EscapeTable};
///
/// const TSV: EscapeTable = EscapeTable::new(b'\\').with(b'\t', b't');
/// let cells: Vec<Cow<'_, str>> = EscapedFields::new(b"a\\tb\tc", 0, b'\t', &TSV)
///     .collect::<Result<_, _>>()?;
/// assert_eq!(cells, ["a\tb", "c"]);
/// assert!(matches!(cells[1], Cow::Borrowed(_)));
/// # Ok::<(), wire_lex::Error>(())
/// ```
#[cfg(feature = "alloc")]
#[derive(Clone, Debug)]
pub struct EscapedFields<'a, 't> {
    fields: Fields<'a>,
    table: &'t EscapeTable,
}

#[cfg(feature = "alloc")]
impl<'a, 't> EscapedFields<'a, 't> {
    /// Fields of `line` (starting at `offset`) split on `delimiter` and
    /// unescaped with `table`.
    ///
    /// ```
    /// let t = wire_lex::EscapeTable::new(b'\\');
    /// let mut it = wire_lex::escaped::EscapedFields::new(b"x", 0, b'\t', &t);
    /// assert_eq!(it.next().unwrap().unwrap(), "x");
    /// ```
    #[must_use]
    pub fn new(line: &'a [u8], offset: usize, delimiter: u8, table: &'t EscapeTable) -> Self {
        EscapedFields {
            fields: Fields::new(line, offset, delimiter),
            table,
        }
    }
}

#[cfg(feature = "alloc")]
impl<'a> Iterator for EscapedFields<'a, '_> {
    type Item = Result<Cow<'a, str>, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        let span = self.fields.next()?;
        Some(self.table.unescape_str(span.bytes, span.offset))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GCX1: EscapeTable = EscapeTable::new(b'\\')
        .with(b'\t', b't')
        .with(b'\n', b'n')
        .drop_on_write(b'\r');

    #[test]
    fn gcx1_escape_rules() {
        assert_eq!(GCX1.escape(b"\\\t\n\r"), &b"\\\\\\t\\n"[..]);
        // `\r` is not an escape: the backslash is dropped.
        assert_eq!(GCX1.unescape(br"\r", 0).unwrap(), &b"r"[..]);
        // Unknown escape before a UTF-8 lead byte drops only the backslash.
        assert_eq!(GCX1.unescape_str("\\é".as_bytes(), 0).unwrap(), "é");
        // Trailing lone backslash is kept.
        assert_eq!(GCX1.unescape(b"a\\", 0).unwrap(), &b"a\\"[..]);
        // `\\t` is an escaped backslash followed by `t`.
        assert_eq!(GCX1.unescape(br"\\t", 0).unwrap(), &b"\\t"[..]);
    }

    #[test]
    fn reject_reports_the_escape_offset() {
        let t = EscapeTable::new(b'\\').unknown(UnknownEscape::Reject);
        assert_eq!(
            t.unescape(br"ab\z", 10),
            Err(Error::UnknownEscape { offset: 12 })
        );
    }

    #[test]
    fn round_trip_without_dropped_bytes() {
        for v in [
            &b""[..],
            b"\\",
            b"\\\\t",
            b"\t\n\t",
            b"x\\",
            "é\t".as_bytes(),
        ] {
            let esc = GCX1.escape(v);
            assert_eq!(esc.len(), GCX1.escaped_len(v));
            assert!(memchr::memchr2(b'\t', b'\n', &esc).is_none());
            assert_eq!(GCX1.unescape(&esc, 0).unwrap(), v, "{v:?}");
        }
    }

    #[test]
    fn invalid_utf8_offset_is_in_the_input() {
        assert_eq!(
            GCX1.unescape_str(b"\\tab\xC3", 100),
            Err(Error::InvalidUtf8 { offset: 104 })
        );
    }
}
