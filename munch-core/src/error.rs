//! Typed errors.

/// Why a text could not be decoded.
///
/// ```
/// use munch_core::{decode, DecodeErrorKind};
///
/// let err = decode("hello").unwrap_err();
/// assert_eq!(err.kind, DecodeErrorKind::ExpectedValue);
/// assert_eq!(err.offset, 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// No JSON value starts here.
    ExpectedValue,
    /// The text ended inside a value.
    UnexpectedEnd,
    /// A string holds a raw control character (U+0000–U+001F).
    ControlCharacter,
    /// A backslash escape that JSON does not have, or a bad `\u` escape.
    InvalidEscape,
    /// Something other than `,` or `]`/`}` after an element.
    ExpectedDelimiter,
    /// An object key that is not a string.
    ExpectedKey,
    /// No `:` after an object key.
    ExpectedColon,
    /// Text after the value.
    ExtraData,
    /// An integer with more than 4,300 digits (Python's limit).
    IntTooLong,
    /// Nesting deeper than the configured limit.
    DepthLimit,
    /// A UTF-8 byte order mark at the start (Python refuses it).
    ByteOrderMark,
    /// A MUNCH payload would expand past the decoder's allowance
    /// (`DecodeOptions::expansion_ratio` / `expansion_floor`).
    ExpansionLimit,
}

impl DecodeErrorKind {
    const fn message(self) -> &'static str {
        match self {
            DecodeErrorKind::ExpectedValue => "expecting value",
            DecodeErrorKind::UnexpectedEnd => "unexpected end of input",
            DecodeErrorKind::ControlCharacter => "invalid control character in string",
            DecodeErrorKind::InvalidEscape => "invalid escape",
            DecodeErrorKind::ExpectedDelimiter => "expecting ',' delimiter",
            DecodeErrorKind::ExpectedKey => "expecting property name enclosed in double quotes",
            DecodeErrorKind::ExpectedColon => "expecting ':' delimiter",
            DecodeErrorKind::ExtraData => "extra data",
            DecodeErrorKind::IntTooLong => "integer has more than 4300 digits",
            DecodeErrorKind::DepthLimit => "nesting exceeds the depth limit",
            DecodeErrorKind::ByteOrderMark => "unexpected UTF-8 byte order mark",
            DecodeErrorKind::ExpansionLimit => "payload expands beyond the decoder's allowance",
        }
    }
}

/// A text that is neither MUNCH nor JSON, with the byte offset where
/// reading stopped.
///
/// ```
/// let err = munch_core::decode("[1,]").unwrap_err();
/// assert_eq!(err.offset, 3);
/// assert_eq!(err.to_string(), "expecting value at byte 3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{} at byte {offset}", kind.message())]
pub struct DecodeError {
    /// What went wrong.
    pub kind: DecodeErrorKind,
    /// Byte offset into the input.
    pub offset: usize,
}

impl DecodeError {
    pub(crate) const fn new(kind: DecodeErrorKind, offset: usize) -> Self {
        DecodeError { kind, offset }
    }
}
