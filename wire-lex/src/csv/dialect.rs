//! What a CSV dialect fixes: delimiter, quote, line terminator, quoting
//! style and how strictly quotes are read.

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

/// The bytes [`write_record`](super::write_record) ends a record with.
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

    pub(super) const fn strict(&self) -> bool {
        matches!(self.strictness, Strictness::Strict)
    }
}

impl Default for Dialect {
    fn default() -> Self {
        Dialect::RFC4180
    }
}
