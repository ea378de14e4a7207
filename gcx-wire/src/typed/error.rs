//! The error of typed rows.

use alloc::string::{String, ToString};

/// Why a row did not deserialize into a type, or a record did not
/// serialize into a row.
///
/// ```
/// #[derive(serde::Deserialize, Debug)]
/// struct Hit { line: u32 }
///
/// let p = gcx_wire::from_slice(b"GCX1 tool=t fields=line\nx\n")?;
/// let err = p.sections[0].row_as::<Hit>(0).unwrap().unwrap_err();
/// assert!(err.to_string().contains("line"));
/// # Ok::<(), gcx_wire::DecodeError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TypedError {
    /// A message from serde or from a cell that does not parse.
    #[error("{0}")]
    Message(String),
    /// The encoder refused the row or header.
    #[error(transparent)]
    Encode(#[from] crate::encode::EncodeError),
    /// The same, in the cell of a named field.
    #[error("field `{field}`: {message}")]
    Field {
        /// The field name (lossy UTF-8).
        field: String,
        /// What went wrong.
        message: String,
    },
}

/// A [`TypedError::Message`] from anything printable.
pub(crate) fn msg(message: impl core::fmt::Display) -> TypedError {
    TypedError::Message(message.to_string())
}

impl TypedError {
    pub(crate) fn in_field(self, field: &[u8]) -> TypedError {
        match self {
            TypedError::Message(message) => TypedError::Field {
                field: String::from_utf8_lossy(field).into_owned(),
                message,
            },
            other => other,
        }
    }
}

impl serde::de::Error for TypedError {
    fn custom<T: core::fmt::Display>(msg: T) -> Self {
        TypedError::Message(msg.to_string())
    }
}

impl serde::ser::Error for TypedError {
    fn custom<T: core::fmt::Display>(msg: T) -> Self {
        TypedError::Message(msg.to_string())
    }
}
