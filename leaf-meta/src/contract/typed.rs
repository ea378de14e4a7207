//! The contract over typed structs: [`ToolResult`] and any other MCP model
//! type that serializes to the MCP JSON shape (such as `rmcp`'s
//! `CallToolResult`), through serde.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::{LeafEntry, ReadError, ReadOptions, WrapError, WrapOptions};
use crate::map::LeafMap;

/// A `CallToolResult` with typed content: text blocks as [`ContentBlock::Text`],
/// everything else kept as JSON. Unknown result-level keys (`isError`,
/// `structuredContent`, `_meta`, …) are kept in `extra`.
///
/// ```
/// # let pin = leaf_meta::MapId::parse("62c2f94fcbdb9b49d51632314e64aa65894496bc39751cb90866049657a262ad").unwrap();
/// # let map = leaf_meta::LeafMap::from_file(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps/qwen2.62c2f94fcbdb.json"), &pin).unwrap();
/// use leaf_meta::{ContentBlock, ToolResult};
///
/// let result = ToolResult { content: vec![ContentBlock::text("hi")], extra: Default::default() };
/// let wrapped = leaf_meta::wrap_typed(&result, &map, &Default::default())?;
/// let ContentBlock::Text { meta, .. } = &wrapped.content[0] else { unreachable!() };
/// assert!(meta.as_ref().unwrap().contains_key(leaf_meta::KEY));
/// # Ok::<(), leaf_meta::TypedError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    /// The content blocks, in order.
    pub content: Vec<ContentBlock>,
    /// Every other key of the result.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One content block.
///
/// ```
/// use leaf_meta::{ContentBlock, ToolResult};
/// let r: ToolResult = serde_json::from_value(serde_json::json!({"content": [
///     {"type": "text", "text": "hi", "annotations": {"audience": ["user"]}},
///     {"type": "image", "data": "…", "mimeType": "image/png"},
/// ]})).unwrap();
/// assert!(matches!(&r.content[0], ContentBlock::Text { text, extra, .. } if text == "hi" && extra.contains_key("annotations")));
/// assert!(matches!(&r.content[1], ContentBlock::Other(_)));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum ContentBlock {
    /// `{"type": "text", "text": …, "_meta"?: {…}, …}`.
    Text {
        /// The text.
        text: String,
        /// The block's `_meta`, if any.
        meta: Option<Map<String, Value>>,
        /// Other keys (`annotations`, …).
        extra: Map<String, Value>,
    },
    /// Any other block (image, audio, resource, legacy `_codec_meta`, …).
    Other(Value),
}

impl ContentBlock {
    /// A plain text block.
    ///
    /// ```
    /// let b = leaf_meta::ContentBlock::text("hello");
    /// assert!(matches!(b, leaf_meta::ContentBlock::Text { .. }));
    /// ```
    #[must_use]
    pub fn text(text: impl Into<String>) -> Self {
        ContentBlock::Text {
            text: text.into(),
            meta: None,
            extra: Map::new(),
        }
    }
}

impl Serialize for ContentBlock {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ContentBlock::Other(v) => v.serialize(s),
            ContentBlock::Text { text, meta, extra } => {
                let mut obj = Map::new();
                obj.insert("type".to_string(), Value::String("text".to_string()));
                obj.insert("text".to_string(), Value::String(text.clone()));
                for (k, v) in extra {
                    obj.insert(k.clone(), v.clone());
                }
                if let Some(meta) = meta {
                    obj.insert("_meta".to_string(), Value::Object(meta.clone()));
                }
                obj.serialize(s)
            }
        }
    }
}

impl<'de> Deserialize<'de> for ContentBlock {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(d)?;
        let Value::Object(mut obj) = value else {
            return Ok(ContentBlock::Other(value));
        };
        let is_text = obj.get("type").and_then(Value::as_str) == Some("text")
            && obj.get("text").is_some_and(Value::is_string)
            && matches!(
                obj.get("_meta"),
                None | Some(Value::Null | Value::Object(_))
            );
        if !is_text {
            return Ok(ContentBlock::Other(Value::Object(obj)));
        }
        let text = match obj.remove("text") {
            Some(Value::String(t)) => t,
            _ => String::new(),
        };
        obj.remove("type");
        let meta = match obj.remove("_meta") {
            Some(Value::Object(m)) => Some(m),
            _ => None,
        };
        Ok(ContentBlock::Text {
            text,
            meta,
            extra: obj,
        })
    }
}

/// Why a typed operation failed.
///
/// ```
/// let e = leaf_meta::TypedError::Serde("x".into());
/// assert!(e.to_string().contains("x"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TypedError {
    /// The type does not (de)serialize to and from the MCP JSON shape.
    #[error("serialization: {0}")]
    Serde(String),
    /// Wrapping failed.
    #[error(transparent)]
    Wrap(#[from] WrapError),
    /// Reading failed.
    #[error(transparent)]
    Read(#[from] ReadError),
}

fn to_value<T: Serialize>(result: &T) -> Result<Value, TypedError> {
    serde_json::to_value(result).map_err(|e| TypedError::Serde(e.to_string()))
}

fn from_value<T: DeserializeOwned>(value: Value) -> Result<T, TypedError> {
    serde_json::from_value(value).map_err(|e| TypedError::Serde(e.to_string()))
}

/// [`wrap`](super::wrap) for any type that serializes to a tool result
/// ([`ToolResult`], `rmcp::model::CallToolResult`, …): a new value with
/// every text block annotated.
///
/// # Errors
/// [`TypedError`]: the value does not round-trip through JSON, or wrapping
/// failed.
///
/// ```
/// # let pin = leaf_meta::MapId::parse("62c2f94fcbdb9b49d51632314e64aa65894496bc39751cb90866049657a262ad").unwrap();
/// # let map = leaf_meta::LeafMap::from_file(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps/qwen2.62c2f94fcbdb.json"), &pin).unwrap();
/// let r = leaf_meta::ToolResult { content: vec![leaf_meta::ContentBlock::text("")], extra: Default::default() };
/// let w = leaf_meta::wrap_typed(&r, &map, &Default::default())?;
/// assert_eq!(leaf_meta::take_ids_typed(&w, &Default::default())?, [Some(vec![])]);
/// # Ok::<(), leaf_meta::TypedError>(())
/// ```
pub fn wrap_typed<T: Serialize + DeserializeOwned>(
    result: &T,
    map: &LeafMap,
    options: &WrapOptions,
) -> Result<T, TypedError> {
    let mut value = to_value(result)?;
    super::wrap_in_place(&mut value, map, options)?;
    from_value(value)
}

/// [`read_leaf_meta`](super::read_leaf_meta) for a typed result.
///
/// # Errors
/// As for [`wrap_typed`] and [`read_leaf_meta`](super::read_leaf_meta).
///
/// ```
/// let r = leaf_meta::ToolResult { content: vec![leaf_meta::ContentBlock::text("hi")], extra: Default::default() };
/// assert_eq!(leaf_meta::read_leaf_meta_typed(&r, &Default::default())?[0].ids, None);
/// # Ok::<(), leaf_meta::TypedError>(())
/// ```
pub fn read_leaf_meta_typed<T: Serialize>(
    result: &T,
    options: &ReadOptions<'_>,
) -> Result<Vec<LeafEntry>, TypedError> {
    Ok(super::read_leaf_meta(&to_value(result)?, options)?)
}

/// [`take_ids`](super::take_ids) for a typed result.
///
/// # Errors
/// As for [`read_leaf_meta_typed`].
///
/// ```
/// let r = leaf_meta::ToolResult::default();
/// assert!(leaf_meta::take_ids_typed(&r, &Default::default())?.is_empty());
/// # Ok::<(), leaf_meta::TypedError>(())
/// ```
pub fn take_ids_typed<T: Serialize>(
    result: &T,
    options: &ReadOptions<'_>,
) -> Result<Vec<Option<Vec<u32>>>, TypedError> {
    Ok(super::take_ids(&to_value(result)?, options)?)
}

/// [`strip_leaf_meta`](super::strip_leaf_meta) for a typed result: a new
/// value without our payloads and without legacy siblings.
///
/// # Errors
/// [`TypedError::Serde`] if the value does not round-trip through JSON.
///
/// ```
/// let r = leaf_meta::ToolResult { content: vec![leaf_meta::ContentBlock::text("x")], extra: Default::default() };
/// assert_eq!(leaf_meta::strip_typed(&r)?, r);
/// # Ok::<(), leaf_meta::TypedError>(())
/// ```
pub fn strip_typed<T: Serialize + DeserializeOwned>(result: &T) -> Result<T, TypedError> {
    let mut value = to_value(result)?;
    super::strip_leaf_meta(&mut value);
    from_value(value)
}
