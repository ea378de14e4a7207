//! Strip (§7): remove our key from text blocks and every legacy sibling.

use alloc::borrow::Cow;

use serde_json::Value;

use super::{KEY, SIBLING_TYPE, content, content_mut};

fn is_sibling(block: &Value) -> bool {
    block.get("type").and_then(Value::as_str) == Some(SIBLING_TYPE)
}

fn strippable(block: &Value) -> bool {
    is_sibling(block)
        || (block.get("type").and_then(Value::as_str) == Some("text")
            && block
                .get("_meta")
                .and_then(Value::as_object)
                .is_some_and(|m| m.contains_key(KEY)))
}

/// Removes our key from the `_meta` of text blocks (dropping a `_meta` it
/// leaves empty) and every legacy sibling block; `true` if anything
/// changed. A value that is not a tool result is left alone.
///
/// ```
/// let mut r = serde_json::json!({"content": [
///     {"type": "text", "text": "x", "_meta": {"ai.codec/leaf-tokenization": {"map_id": "m", "ids": []}}}
/// ]});
/// assert!(leaf_meta::strip_leaf_meta(&mut r));
/// assert_eq!(r, serde_json::json!({"content": [{"type": "text", "text": "x"}]}));
/// ```
pub fn strip_leaf_meta(result: &mut Value) -> bool {
    let Ok(blocks) = content_mut(result) else {
        return false;
    };
    let before = blocks.len();
    blocks.retain(|b| !is_sibling(b));
    let mut changed = blocks.len() != before;
    for block in blocks.iter_mut() {
        if block.get("type").and_then(Value::as_str) != Some("text") {
            continue;
        }
        let Some(obj) = block.as_object_mut() else {
            continue;
        };
        let mut emptied = false;
        if let Some(meta) = obj.get_mut("_meta").and_then(Value::as_object_mut) {
            if meta.remove(KEY).is_some() {
                changed = true;
                emptied = meta.is_empty();
            }
        }
        if emptied {
            obj.remove("_meta");
        }
    }
    changed
}

/// [`strip_leaf_meta`] on a copy, borrowed when nothing would change.
///
/// ```
/// use std::borrow::Cow;
/// let r = serde_json::json!({"content": [{"type": "text", "text": "x", "_meta": {}}]});
/// assert!(matches!(leaf_meta::stripped(&r), Cow::Borrowed(_)));
/// ```
#[must_use]
pub fn stripped(result: &Value) -> Cow<'_, Value> {
    let needed = content(result).is_ok_and(|blocks| blocks.iter().any(strippable));
    if !needed {
        return Cow::Borrowed(result);
    }
    let mut out = result.clone();
    strip_leaf_meta(&mut out);
    Cow::Owned(out)
}
