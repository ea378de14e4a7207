//! The decoder (spec §2–8, D1): MUNCH payloads to values, anything else
//! through Python's JSON reading.

mod cells;
pub(crate) mod gen1;
pub(crate) mod tier1;

use serde_json::Value;

use crate::error::DecodeError;
use crate::format::envelope::{HEADER_PREFIX, header_enc};
use crate::py::json_parse::{self, DEFAULT_DEPTH_LIMIT};
use crate::tier1::schemas;

pub(crate) use cells::coerce;

/// Decoder settings.
///
/// ```
/// use munch_core::DecodeOptions;
///
/// let opts = DecodeOptions { depth_limit: 64 };
/// let deep = format!("{}{}", "[".repeat(65), "]".repeat(65));
/// assert!(munch_core::decode_with(&deep, &opts).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Deepest JSON nesting accepted (input JSON, blobs and cells).
    /// Default 1,000.
    pub depth_limit: usize,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions {
            depth_limit: DEFAULT_DEPTH_LIMIT,
        }
    }
}

/// Decodes a MUNCH payload, or parses any other text as Python JSON.
///
/// MUNCH input (text starting with `#MUNCH/`) never fails. Other text
/// that is not JSON gives a [`DecodeError`] with a byte offset.
///
/// # Errors
/// The text is neither MUNCH nor JSON, or its JSON nests deeper than
/// 1,000 levels.
///
/// ```
/// let payload = "#MUNCH/1 tool=x enc=gen1\n\nn=3 __stypes=n:int __tables=\"\"\n";
/// let v = munch_core::decode(payload)?;
/// assert_eq!(v, serde_json::json!({"n": 3}));
/// assert_eq!(munch_core::decode("[1, 2]")?, serde_json::json!([1, 2]));
/// # Ok::<(), munch_core::DecodeError>(())
/// ```
pub fn decode(text: &str) -> Result<Value, DecodeError> {
    decode_with(text, &DecodeOptions::default())
}

/// [`decode`] with explicit settings.
///
/// # Errors
/// As [`decode`].
///
/// ```
/// let v = munch_core::decode_with("{\"a\": NaN}", &Default::default())?;
/// assert_eq!(v, serde_json::json!({"a": {"$float": "nan"}}));
/// # Ok::<(), munch_core::DecodeError>(())
/// ```
pub fn decode_with(text: &str, opts: &DecodeOptions) -> Result<Value, DecodeError> {
    if !text.starts_with(HEADER_PREFIX) {
        return json_parse::parse(text, opts.depth_limit);
    }
    let enc = header_enc(text).unwrap_or("gen1");
    Ok(match schemas::by_id(enc) {
        Some(schema) => tier1::decode(text, schema, opts),
        None => gen1::decode(text, opts),
    })
}

/// JSON in a blob or cell: the value, or `None` where Python's
/// `json.loads` fails (too deep included).
pub(crate) fn parse_json(text: &str, opts: &DecodeOptions) -> Option<Value> {
    json_parse::parse(text, opts.depth_limit).ok()
}
