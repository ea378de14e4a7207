//! The serde path (spec D5): any `Serialize` in, any `Deserialize` out,
//! with `f64` NaN and infinities mapped natively (the `{"$float": …}`
//! sentinel stays inside the crate).

mod from_value;
mod to_value;

use alloc::string::String;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::dispatch::{Encoded, encode};
use crate::error::DecodeError;
use crate::options::Options;

pub use from_value::from_value;
pub use to_value::to_value;

/// Why a typed encode or decode failed.
///
/// ```
/// use munch_core::{TypedError, decode_into};
/// let bad: Result<Vec<u32>, _> = decode_into("neither MUNCH nor JSON");
/// assert!(matches!(bad, Err(TypedError::Decode(_))));
/// let wrong: Result<Vec<u32>, _> = decode_into("{\"a\": 1}");
/// assert!(matches!(wrong, Err(TypedError::Serde(_))));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TypedError {
    /// The text is neither MUNCH nor JSON.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// The value does not fit the type, or the type cannot be a value.
    #[error("{0}")]
    Serde(String),
}

/// Encodes any `Serialize` value as [`encode`] does: through a
/// `serde_json::Value` (key order kept), NaN and infinities as floats.
///
/// # Errors
/// The value cannot be represented as JSON (for example a map with
/// non-string keys that are not numbers or booleans).
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Hit { file: String, line: u32, score: f64 }
/// #[derive(serde::Serialize)]
/// struct Resp { result_count: usize, results: Vec<Hit> }
///
/// let resp = Resp { result_count: 2, results: vec![
///     Hit { file: "src/a.py".into(), line: 1, score: f64::NAN },
///     Hit { file: "src/b.py".into(), line: 2, score: 0.5 },
/// ]};
/// let out = munch_core::encode_serialize("get_hotspots", &resp, &munch_core::Options {
///     format: munch_core::Format::Compact, ..Default::default()
/// })?;
/// assert!(out.is_munch());
/// # Ok::<(), munch_core::TypedError>(())
/// ```
pub fn encode_serialize<T: Serialize + ?Sized>(
    tool: &str,
    value: &T,
    opts: &Options<'_>,
) -> Result<Encoded, TypedError> {
    let v = to_value(value)?;
    Ok(encode(tool, &v, opts))
}

/// Decodes a MUNCH payload (or JSON) into any `Deserialize` type; NaN and
/// infinities arrive as `f64` values.
///
/// # Errors
/// The text cannot be decoded, or its value does not fit `T`.
///
/// ```
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct Row { n: f64 }
/// let rows: Vec<Row> = munch_core::decode_into("[{\"n\": 1.5}, {\"n\": Infinity}]")?;
/// assert_eq!(rows, [Row { n: 1.5 }, Row { n: f64::INFINITY }]);
/// # Ok::<(), munch_core::TypedError>(())
/// ```
pub fn decode_into<T: DeserializeOwned>(text: &str) -> Result<T, TypedError> {
    // Through the borrowed tree: no `serde_json` maps built on the way.
    crate::borrowed::decode_borrowed_into(text)
}
