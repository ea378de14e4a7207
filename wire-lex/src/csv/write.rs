//! Writing fields: when a field needs quotes, and the field written.

use super::{Dialect, QuoteStyle};
use crate::{ByteSink, Error};

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
