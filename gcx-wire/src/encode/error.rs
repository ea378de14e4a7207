//! Encode errors: values GCX1 cannot carry (strict mode) and Go's own.

use alloc::vec::Vec;

/// The header part a [`HeaderProblem`] is about.
///
/// ```
/// use gcx_wire::encode::{EncodeError, Encoder, HeaderPart, HeaderProblem};
/// let mut enc = Encoder::new();
/// assert_eq!(
///     enc.header("t", &["a,b"]),
///     Err(EncodeError::InvalidHeader { part: HeaderPart::Field, reason: HeaderProblem::Comma })
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderPart {
    /// The tool name.
    Tool,
    /// A field name.
    Field,
    /// A meta key.
    MetaKey,
    /// A meta value.
    MetaValue,
}

/// Why a header part cannot be written losslessly.
///
/// ```
/// use gcx_wire::encode::{EncodeError, Encoder, HeaderPart, HeaderProblem};
/// let mut enc = Encoder::new();
/// let err = enc.header_meta("t", &["a"], &[("fields", "x")]).unwrap_err();
/// assert_eq!(err, EncodeError::InvalidHeader { part: HeaderPart::MetaKey, reason: HeaderProblem::ReservedKey });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderProblem {
    /// A CR (GCX1 deletes it).
    CarriageReturn,
    /// A space (splits the header token).
    Space,
    /// A `,` in a field name (splits the field list).
    Comma,
    /// A `\` in a field name (field names are unescaped twice).
    Backslash,
    /// A `=` in a meta key (the token splits at the first `=`).
    Equals,
    /// A meta key `tool` or `fields` (overrides the real one).
    ReservedKey,
    /// An empty tool name.
    Empty,
    /// The header line would end in Unicode white space (trimmed on read).
    TrailingWhitespace,
}

/// Everything the encoders can refuse.
///
/// ```
/// use gcx_wire::encode::{EncodeError, Encoder};
///
/// let mut enc = Encoder::new();
/// enc.header("t", &["a"])?;
/// assert_eq!(enc.row(["1", "2"]), Err(EncodeError::TooManyValues { values: 2, fields: 1 }));
/// # Ok::<(), EncodeError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// More values than the header declared fields (Go's
    /// `row has N values but header declared M fields`); sticky.
    #[error("wire: row has {values} values but header declared {fields} fields")]
    TooManyValues {
        /// Values given.
        values: usize,
        /// Fields declared.
        fields: usize,
    },
    /// A row before any header.
    #[error("row or comment before the first header")]
    NoHeader,
    /// Strict mode: the row would be an empty line, which readers skip
    /// (one field with an empty value, or no fields).
    #[error("row would be a blank line, which decoders skip")]
    BlankRow,
    /// Strict mode: a CR in a cell (GCX1 deletes it).
    #[error("carriage return in the cell of field {}", String::from_utf8_lossy(.field))]
    CarriageReturn {
        /// The field's name.
        field: Vec<u8>,
    },
    /// Strict mode: a header part GCX1 cannot carry.
    #[error("{part:?} cannot be written in a GCX1 header: {reason:?}")]
    InvalidHeader {
        /// Which part.
        part: HeaderPart,
        /// Why.
        reason: HeaderProblem,
    },
    /// The JSON input is not JSON.
    #[error(transparent)]
    Json(#[from] crate::json::JsonError),
    /// An earlier error stopped this encoder (Go's errors are sticky).
    #[error("the encoder stopped at an earlier error: {0}")]
    Stopped(alloc::boxed::Box<EncodeError>),
}

use alloc::string::String;
