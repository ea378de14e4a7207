//! The one error type of `wire-lex`.

use crate::Pos;

/// Everything `wire-lex` can report. Input errors carry the byte offset
/// (from the start of the input the caller handed in) where they were found;
/// turn it into a line and column with [`Error::pos`] when reporting.
///
/// ```
/// use wire_lex::{Error, LineConfig, Lines};
///
/// let cfg = LineConfig::default().max_line_len(Some(3));
/// let err = Lines::new(b"ok\ntoo long\n", cfg).find_map(Result::err).unwrap();
/// assert_eq!(err, Error::LineTooLong { offset: 3, len: 8, max: 3 });
/// assert_eq!(err.offset(), Some(3));
/// assert_eq!(err.to_string(), "line at byte 3 is 8 bytes long, over the limit of 3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A line (without its LF, with any CR) is longer than the configured cap.
    #[error("line at byte {offset} is {len} bytes long, over the limit of {max}")]
    LineTooLong {
        /// Offset of the first byte of the line.
        offset: usize,
        /// Length of the line as far as it was scanned.
        len: usize,
        /// The configured limit.
        max: usize,
    },
    /// Bytes that are not UTF-8.
    #[error("invalid UTF-8 at byte {offset}")]
    InvalidUtf8 {
        /// Offset of the first byte of the invalid sequence.
        offset: usize,
    },
    /// A quoted field is still open at the end of the input (strict mode).
    #[error("quoted field opened at byte {offset} is never closed")]
    UnterminatedQuote {
        /// Offset of the opening quote.
        offset: usize,
    },
    /// A quote inside a field that did not start with one (strict mode).
    #[error("quote inside an unquoted field at byte {offset}")]
    QuoteInUnquotedField {
        /// Offset of the quote.
        offset: usize,
    },
    /// Something other than a delimiter or line end after a closing quote
    /// (strict mode).
    #[error("unexpected byte after the closing quote at byte {offset}")]
    TextAfterClosingQuote {
        /// Offset of the unexpected byte.
        offset: usize,
    },
    /// An escape sequence the table does not define (with
    /// [`UnknownEscape::Reject`](crate::escaped::UnknownEscape::Reject)).
    #[error("unknown escape sequence at byte {offset}")]
    UnknownEscape {
        /// Offset of the escape byte.
        offset: usize,
    },
    /// A caller-supplied output buffer is too small.
    #[error("output buffer of {capacity} bytes is full")]
    BufferFull {
        /// The buffer's capacity.
        capacity: usize,
    },
}

impl Error {
    /// The input offset of the error (`None` for [`Error::BufferFull`]).
    ///
    /// ```
    /// assert_eq!(wire_lex::Error::InvalidUtf8 { offset: 7 }.offset(), Some(7));
    /// ```
    #[must_use]
    pub const fn offset(&self) -> Option<usize> {
        match *self {
            Error::LineTooLong { offset, .. }
            | Error::InvalidUtf8 { offset }
            | Error::UnterminatedQuote { offset }
            | Error::QuoteInUnquotedField { offset }
            | Error::TextAfterClosingQuote { offset }
            | Error::UnknownEscape { offset } => Some(offset),
            Error::BufferFull { .. } => None,
        }
    }

    /// Line and column of the error in `input` (computed only now).
    ///
    /// ```
    /// let err = wire_lex::Error::InvalidUtf8 { offset: 4 };
    /// let pos = err.pos(b"ab\ncd").unwrap();
    /// assert_eq!((pos.line, pos.column), (2, 2));
    /// ```
    #[must_use]
    pub fn pos(&self, input: &[u8]) -> Option<Pos> {
        self.offset().map(|offset| Pos::locate(input, offset))
    }

    /// The same error with its offset moved by `base` (for inputs that are a
    /// slice of a larger document).
    ///
    /// ```
    /// let err = wire_lex::Error::InvalidUtf8 { offset: 1 }.shifted(100);
    /// assert_eq!(err.offset(), Some(101));
    /// ```
    #[must_use]
    pub const fn shifted(self, base: usize) -> Error {
        match self {
            Error::LineTooLong { offset, len, max } => Error::LineTooLong {
                offset: offset.saturating_add(base),
                len,
                max,
            },
            Error::InvalidUtf8 { offset } => Error::InvalidUtf8 {
                offset: offset.saturating_add(base),
            },
            Error::UnterminatedQuote { offset } => Error::UnterminatedQuote {
                offset: offset.saturating_add(base),
            },
            Error::QuoteInUnquotedField { offset } => Error::QuoteInUnquotedField {
                offset: offset.saturating_add(base),
            },
            Error::TextAfterClosingQuote { offset } => Error::TextAfterClosingQuote {
                offset: offset.saturating_add(base),
            },
            Error::UnknownEscape { offset } => Error::UnknownEscape {
                offset: offset.saturating_add(base),
            },
            Error::BufferFull { capacity } => Error::BufferFull { capacity },
        }
    }
}
