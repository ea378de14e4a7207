//! The `_meta` contract over `serde_json::Value` (§4–§7, §9.4): wrap,
//! read, take ids, strip.

mod read;
mod strip;
mod typed;
mod wrap;

pub use read::{
    IdCheck, LeafEntry, ReadError, ReadOptions, Source, has_leaf_meta, read_leaf_meta, take_ids,
};
pub use strip::{strip_leaf_meta, stripped};
pub use typed::{
    ContentBlock, ToolResult, TypedError, read_leaf_meta_typed, strip_typed, take_ids_typed,
    wrap_typed,
};
pub use wrap::{ExistingPayload, WrapError, WrapOptions, WrapOutcome, wrap, wrap_in_place};

use alloc::vec::Vec;

use serde_json::{Map, Value};

/// The `_meta` key of the payload.
///
/// ```
/// let result = serde_json::json!({"content": [{"type": "text", "text": "hi",
///     "_meta": {(leaf_meta::KEY): {"map_id": "sha256:abababababababababababababababababababababababababababababababab", "ids": [6151]}}}]});
/// let entries = leaf_meta::read_leaf_meta(&result, &Default::default())?;
/// assert_eq!(entries[0].ids.as_deref(), Some(&[6151][..]));
/// # Ok::<(), leaf_meta::ReadError>(())
/// ```
pub const KEY: &str = "ai.codec/leaf-tokenization";

/// The `type` of the legacy sibling block (read, never written).
///
/// ```
/// let result = serde_json::json!({"content": [
///     {"type": "text", "text": "hi"},
///     {"type": leaf_meta::SIBLING_TYPE, "map_id": "sha256:abababababababababababababababababababababababababababababababab", "ids": [6151]},
/// ]});
/// let entries = leaf_meta::read_leaf_meta(&result, &Default::default())?;
/// assert_eq!(entries[0].source, Some(leaf_meta::Source::Sibling));
/// # Ok::<(), leaf_meta::ReadError>(())
/// ```
pub const SIBLING_TYPE: &str = "_codec_meta";

/// A value that is not an object with a `content` array.
///
/// ```
/// let err = leaf_meta::read_leaf_meta(&serde_json::json!([]), &Default::default()).unwrap_err();
/// assert!(matches!(err, leaf_meta::ReadError::NotAToolResult(_)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a tool result (an object with a `content` array)")]
pub struct NotAToolResult;

pub(crate) fn content(result: &Value) -> Result<&[Value], NotAToolResult> {
    result
        .get("content")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .ok_or(NotAToolResult)
}

pub(crate) fn content_mut(result: &mut Value) -> Result<&mut Vec<Value>, NotAToolResult> {
    result
        .get_mut("content")
        .and_then(Value::as_array_mut)
        .ok_or(NotAToolResult)
}

/// A text block's text, if the block is `{"type": "text", "text": <string>}`.
pub(crate) fn text_of(block: &Value) -> Option<&str> {
    if block.get("type").and_then(Value::as_str) != Some("text") {
        return None;
    }
    block.get("text").and_then(Value::as_str)
}

/// A well-formed payload: an object whose `map_id` is a string and whose
/// `ids` is an array.
pub(crate) fn well_formed(payload: &Value) -> Option<(&str, &[Value])> {
    let map_id = payload.get("map_id")?.as_str()?;
    let ids = payload.get("ids")?.as_array()?;
    Some((map_id, ids))
}

/// The block's own payload (in `_meta`), if well-formed.
pub(crate) fn own_payload(block: &Value) -> Option<(&str, &[Value])> {
    well_formed(block.get("_meta")?.as_object()?.get(KEY)?)
}

/// A legacy sibling block's payload, if well-formed.
pub(crate) fn sibling_payload(block: &Value) -> Option<(&str, &[Value])> {
    if block.get("type").and_then(Value::as_str) != Some(SIBLING_TYPE) {
        return None;
    }
    well_formed(block)
}

/// `{"map_id": …, "ids": […]}`.
pub(crate) fn payload_value(map_id: &str, ids: &[u32]) -> Value {
    let mut m = Map::new();
    m.insert("map_id".into(), Value::String(map_id.into()));
    m.insert(
        "ids".into(),
        Value::Array(ids.iter().map(|&i| Value::from(i)).collect()),
    );
    Value::Object(m)
}
