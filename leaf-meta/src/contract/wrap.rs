//! The writer (§5, §9.4): annotate every text block with its ids.

use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::{KEY, NotAToolResult, content, content_mut, own_payload, payload_value, text_of};
use crate::encode::EncodeOptions;
use crate::map::LeafMap;

/// What to do with a block that already carries a payload.
///
/// ```
/// assert_eq!(leaf_meta::ExistingPayload::default(), leaf_meta::ExistingPayload::KeepSameMap);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExistingPayload {
    /// Keep a well-formed payload whose `map_id` equals the map's exactly
    /// (even if its ids are wrong, as the reference does); replace others.
    #[default]
    KeepSameMap,
    /// Recompute every block's ids.
    Reencode,
}

/// Options of [`wrap`].
///
/// ```
/// let opts = leaf_meta::WrapOptions { min_text_length: 16, ..Default::default() };
/// assert_eq!(opts.min_text_length, 16);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WrapOptions {
    /// Blocks whose text is shorter than this, in UTF-16 code units, are
    /// left unchanged (default 0: every block, the empty one included).
    pub min_text_length: usize,
    /// How text is encoded.
    pub encode: EncodeOptions,
    /// Existing payloads.
    pub existing: ExistingPayload,
}

/// What [`wrap_in_place`] did.
///
/// ```
/// let outcome = leaf_meta::WrapOutcome::default();
/// assert_eq!(outcome.annotated, 0);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WrapOutcome {
    /// Text blocks given (new) ids.
    pub annotated: usize,
    /// Text blocks left unannotated because their `_meta` is neither an
    /// object nor null (content indices).
    pub bad_meta: Vec<usize>,
}

/// Why [`wrap`] produced nothing.
///
/// ```
/// let map_err = leaf_meta::WrapError::NotAToolResult(leaf_meta::NotAToolResult);
/// assert!(map_err.to_string().contains("tool result"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WrapError {
    /// Not an object with a `content` array.
    #[error(transparent)]
    NotAToolResult(#[from] NotAToolResult),
    /// [`SpecialTokens::Reject`](crate::SpecialTokens::Reject) and a text
    /// block holds special-token text.
    #[error("content[{content_index}] holds special token text at byte {offset}")]
    SpecialToken {
        /// The block.
        content_index: usize,
        /// The byte offset in its text.
        offset: usize,
    },
}

/// A new result with every text block annotated; the input is untouched.
///
/// # Errors
/// [`WrapError`]; no partial output.
///
/// ```
/// # let pin = leaf_meta::MapId::parse("62c2f94fcbdb9b49d51632314e64aa65894496bc39751cb90866049657a262ad").unwrap();
/// # let map = leaf_meta::LeafMap::from_file(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps/qwen2.62c2f94fcbdb.json"), &pin).unwrap();
/// let result = serde_json::json!({"content": [{"type": "text", "text": "hi"}]});
/// let wrapped = leaf_meta::wrap(&result, &map, &Default::default())?;
/// assert!(leaf_meta::has_leaf_meta(&wrapped));
/// # Ok::<(), leaf_meta::WrapError>(())
/// ```
pub fn wrap(result: &Value, map: &LeafMap, options: &WrapOptions) -> Result<Value, WrapError> {
    let mut out = result.clone();
    wrap_in_place(&mut out, map, options)?;
    Ok(out)
}

/// Annotates every text block of `result` in place. All ids are computed
/// before anything is written, so on error `result` is unchanged.
///
/// # Errors
/// As for [`wrap`].
///
/// ```
/// # let pin = leaf_meta::MapId::parse("62c2f94fcbdb9b49d51632314e64aa65894496bc39751cb90866049657a262ad").unwrap();
/// # let map = leaf_meta::LeafMap::from_file(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps/qwen2.62c2f94fcbdb.json"), &pin).unwrap();
/// let mut result = serde_json::json!({"content": [{"type": "text", "text": ""}]});
/// let outcome = leaf_meta::wrap_in_place(&mut result, &map, &Default::default())?;
/// assert_eq!(outcome.annotated, 1);
/// # Ok::<(), leaf_meta::WrapError>(())
/// ```
pub fn wrap_in_place(
    result: &mut Value,
    map: &LeafMap,
    options: &WrapOptions,
) -> Result<WrapOutcome, WrapError> {
    let mut outcome = WrapOutcome::default();
    let mut pending: Vec<(usize, Vec<u32>)> = Vec::new();
    for (i, block) in content(result)?.iter().enumerate() {
        let Some(text) = text_of(block) else { continue };
        // UTF-16 length, counted only as far as the threshold.
        let min = options.min_text_length;
        if min > 0 && text.encode_utf16().take(min).count() < min {
            continue;
        }
        match block.get("_meta") {
            None | Some(Value::Null | Value::Object(_)) => {}
            Some(_) => {
                outcome.bad_meta.push(i);
                continue;
            }
        }
        let keep = options.existing == ExistingPayload::KeepSameMap
            && own_payload(block).is_some_and(|(id, _)| id == map.id().as_str());
        if keep {
            continue;
        }
        let ids = map
            .encode_with(text, options.encode)
            .map_err(|e| WrapError::SpecialToken {
                content_index: i,
                offset: e.offset,
            })?;
        pending.push((i, ids));
    }
    let blocks = content_mut(result)?;
    for (i, ids) in pending {
        let Some(Value::Object(block)) = blocks.get_mut(i) else {
            continue;
        };
        let meta = block.entry("_meta").or_insert(Value::Null);
        if meta.is_null() {
            *meta = Value::Object(Map::new());
        }
        if let Value::Object(meta) = meta {
            meta.insert(KEY.into(), payload_value(map.id().as_str(), &ids));
            outcome.annotated += 1;
        }
    }
    Ok(outcome)
}
