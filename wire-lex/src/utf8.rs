//! UTF-8 validation that reports where the input stops being UTF-8.

use crate::{Error, Span};

/// Checks that `bytes` (whose first byte is at `offset` in the whole input)
/// is UTF-8 and borrows it as `&str`.
///
/// # Errors
/// [`Error::InvalidUtf8`] with the offset of the first byte of the first
/// invalid sequence.
///
/// ```
/// use wire_lex::{utf8, Error};
///
/// assert_eq!(utf8::validate("café".as_bytes(), 0), Ok("café"));
/// assert_eq!(utf8::validate(b"ab\xFFcd", 10), Err(Error::InvalidUtf8 { offset: 12 }));
/// ```
#[inline]
pub fn validate(bytes: &[u8], offset: usize) -> Result<&str, Error> {
    core::str::from_utf8(bytes).map_err(|e| Error::InvalidUtf8 {
        offset: offset.saturating_add(e.valid_up_to()),
    })
}

/// [`validate`] for a [`Span`].
///
/// # Errors
/// [`Error::InvalidUtf8`] as for [`validate`].
///
/// ```
/// use wire_lex::{utf8, Span};
///
/// let span = Span { bytes: b"ok", offset: 3 };
/// assert_eq!(utf8::validate_span(span), Ok("ok"));
/// ```
#[inline]
pub fn validate_span(span: Span<'_>) -> Result<&str, Error> {
    validate(span.bytes, span.offset)
}

#[cfg(test)]
mod tests {
    use super::validate;
    use crate::Error;

    #[test]
    fn truncated_sequence_reports_its_start() {
        assert_eq!(
            validate("aé".as_bytes().get(..2).unwrap(), 5),
            Err(Error::InvalidUtf8 { offset: 6 })
        );
    }
}
