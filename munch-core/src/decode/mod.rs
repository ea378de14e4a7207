//! The decoder (spec §2–8, D1): MUNCH payloads to values, anything else
//! through Python's JSON reading.

pub(crate) mod build;
pub(crate) mod cell_equals;
pub(crate) mod cells;
pub(crate) mod gen1;
pub(crate) mod gen1_check;
pub(crate) mod row_check;
pub(crate) mod table_cells;
pub(crate) mod tier1;
pub(crate) mod tier1_check;

use serde_json::Value;

use crate::error::{DecodeError, DecodeErrorKind};
use crate::format::envelope::{HEADER_PREFIX, header_enc};
use crate::py::json_parse::{self, DEFAULT_DEPTH_LIMIT};
use crate::tier1::schemas;

pub(crate) use cells::coerce;

/// Decoder settings.
///
/// ```
/// use munch_core::DecodeOptions;
///
/// let opts = DecodeOptions { depth_limit: 64, ..Default::default() };
/// let deep = format!("{}{}", "[".repeat(65), "]".repeat(65));
/// assert!(munch_core::decode_with(&deep, &opts).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Deepest JSON nesting accepted (input JSON, blobs and cells).
    /// Default 1,000.
    pub depth_limit: usize,
    /// How much a payload may expand into, as a multiple of its own
    /// length: legend handles, rows that several gen1 tables share and
    /// symbol lists that several fo1 batch entries share are copied into
    /// the decoded value, so a small hostile payload could otherwise ask
    /// for gigabytes. A copied value counts its text plus 64 bytes for its
    /// structure. Default 64 (real payloads stay far below).
    pub expansion_ratio: usize,
    /// Expansion always allowed whatever the payload's length, in bytes.
    /// Default 16 MiB.
    pub expansion_floor: usize,
}

/// What the expansion budget charges for each value it copies, besides
/// the value's text: about what the decoded value's structure takes.
pub(crate) const VALUE_COST: usize = 64;

/// The decoder's allowance for text it produces beyond the payload
/// itself (see [`DecodeOptions::expansion_ratio`]).
#[derive(Clone, Debug)]
pub(crate) struct Budget {
    left: usize,
    /// Byte offset where the allowance ran out.
    pub(crate) exhausted_at: Option<usize>,
}

impl Budget {
    pub(crate) fn new(payload_len: usize, opts: &DecodeOptions) -> Budget {
        let left = payload_len
            .saturating_mul(opts.expansion_ratio)
            .saturating_add(opts.expansion_floor);
        Budget {
            left,
            exhausted_at: None,
        }
    }

    /// An allowance that never runs out (for payloads this crate wrote).
    pub(crate) const fn unlimited() -> Budget {
        Budget {
            left: usize::MAX,
            exhausted_at: None,
        }
    }

    /// Takes `n` bytes of allowance; false (and remembered) once it is
    /// gone.
    pub(crate) fn spend(&mut self, n: usize, at: usize) -> bool {
        if self.exhausted_at.is_some() {
            return false;
        }
        match self.left.checked_sub(n) {
            Some(rest) => {
                self.left = rest;
                true
            }
            None => {
                self.exhausted_at = Some(at);
                false
            }
        }
    }
}

/// The byte offset of `part` inside `whole` (0 when it is not a slice of
/// it).
pub(crate) fn offset_in(whole: &str, part: &str) -> usize {
    let (w, p) = (whole.as_ptr() as usize, part.as_ptr() as usize);
    if p >= w && p <= w + whole.len() {
        p - w
    } else {
        0
    }
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions {
            depth_limit: DEFAULT_DEPTH_LIMIT,
            expansion_ratio: 64,
            expansion_floor: 16 << 20,
        }
    }
}

/// Decodes a MUNCH payload, or parses any other text as Python JSON.
///
/// MUNCH input (text starting with `#MUNCH/`) fails only where it would
/// expand past the [`DecodeOptions`] allowance (a hostile payload; the
/// reference would exhaust memory there). Other text that is not JSON
/// gives a [`DecodeError`] with a byte offset.
///
/// # Errors
/// The text is neither MUNCH nor JSON, its JSON nests deeper than 1,000
/// levels, or a MUNCH payload expands beyond the allowance.
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
    let mut budget = Budget::new(text.len(), opts);
    let value = match schemas::by_id(enc) {
        Some(schema) => tier1::decode(text, schema, opts, &mut budget),
        None => gen1::decode(text, opts, &mut budget),
    };
    match budget.exhausted_at {
        Some(at) => Err(DecodeError::new(DecodeErrorKind::ExpansionLimit, at)),
        None => Ok(value),
    }
}

/// JSON in a blob or cell: the value, or `None` where Python's
/// `json.loads` fails (too deep included).
pub(crate) fn parse_json(text: &str, opts: &DecodeOptions) -> Option<Value> {
    json_parse::parse(text, opts.depth_limit).ok()
}
