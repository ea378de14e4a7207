//! [`decode_borrowed`]: the decoder's tree with strings borrowed from the
//! payload.

use super::BorrowedValue;
use crate::decode::{Budget, DecodeOptions, decode_with, gen1, tier1};
use crate::error::{DecodeError, DecodeErrorKind};
use crate::format::envelope::{HEADER_PREFIX, header_enc};
use crate::tier1::schemas;

/// Decodes as [`decode`](crate::decode) does, into a value whose strings
/// and column names borrow from `text` wherever no escape or legend
/// handle changed them; the same tree, without an allocation per cell.
///
/// JSON text, gen1 payloads and the tier-1 schemas without a regrouping
/// step (9 of the 15, `search_symbols` among them) are built borrowed
/// directly; the regrouped schemas are decoded as
/// [`decode`](crate::decode) does and converted.
///
/// # Errors
/// As [`decode`](crate::decode).
///
/// ```
/// use std::borrow::Cow;
/// use munch_core::BorrowedValue;
///
/// let payload = "#MUNCH/1 tool=x enc=gen1\n\n\
///     repo=acme __tables=t:hits:file|line:str|int\n\n\
///     t,src/a.py,3\nt,src/b.py,9\n";
/// let v = munch_core::decode_borrowed(payload)?;
/// let hits = v.get("hits").and_then(BorrowedValue::as_array).unwrap();
/// let BorrowedValue::String(Cow::Borrowed(file)) = hits[1].get("file").unwrap() else {
///     panic!("copied")
/// };
/// assert_eq!(*file, "src/b.py");
/// assert_eq!(v.into_value(), munch_core::decode(payload)?);
/// # Ok::<(), munch_core::DecodeError>(())
/// ```
pub fn decode_borrowed(text: &str) -> Result<BorrowedValue<'_>, DecodeError> {
    decode_borrowed_with(text, &DecodeOptions::default())
}

/// [`decode_borrowed`] with explicit settings.
///
/// # Errors
/// As [`decode_with`](crate::decode_with).
///
/// ```
/// let opts = munch_core::DecodeOptions { depth_limit: 2, ..Default::default() };
/// assert!(munch_core::decode_borrowed_with("[[[1]]]", &opts).is_err());
/// ```
pub fn decode_borrowed_with<'a>(
    text: &'a str,
    opts: &DecodeOptions,
) -> Result<BorrowedValue<'a>, DecodeError> {
    if !text.starts_with(HEADER_PREFIX) {
        return crate::py::json_parse::parse_borrowed(text, opts.depth_limit);
    }
    let enc = header_enc(text).unwrap_or("gen1");
    let mut budget = Budget::new(text.len(), opts);
    let value = match schemas::by_id(enc) {
        Some(schema) => match tier1::decode_borrowed(text, schema, opts, &mut budget) {
            Some(v) => v,
            None => return decode_with(text, opts).map(BorrowedValue::from),
        },
        None => gen1::decode_borrowed(text, opts, &mut budget),
    };
    match budget.exhausted_at {
        Some(at) => Err(DecodeError::new(DecodeErrorKind::ExpansionLimit, at)),
        None => Ok(value),
    }
}
