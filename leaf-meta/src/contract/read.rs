//! Readers (§6, §9.4): `has`, `read`, `take_ids`, with an optional pin
//! check and id checks.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value;

use super::{NotAToolResult, content, own_payload, sibling_payload, text_of};
use crate::MapId;
use crate::map::LeafMap;

/// Where a block's ids came from.
///
/// ```
/// assert_ne!(leaf_meta::Source::Meta, leaf_meta::Source::Sibling);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The block's own `_meta`.
    Meta,
    /// A legacy `_codec_meta` block right after it.
    Sibling,
}

/// One text block as read.
///
/// ```
/// let result = serde_json::json!({"content": [
///     {"type": "image", "data": "…"},
///     {"type": "text", "text": "hi", "_meta": {(leaf_meta::KEY): {"map_id": "sha256:abababababababababababababababababababababababababababababababab", "ids": [1, 2]}}},
/// ]});
/// let e = &leaf_meta::read_leaf_meta(&result, &Default::default())?[0];
/// assert_eq!((e.content_index, e.text.as_str()), (1, "hi"));
/// assert_eq!(e.map_id.as_deref(), Some("sha256:abababababababababababababababababababababababababababababababab"));
/// # Ok::<(), leaf_meta::ReadError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeafEntry {
    /// Position in `content` (not among text blocks).
    pub content_index: usize,
    /// The block's text.
    pub text: String,
    /// Its ids, if a payload was found.
    pub ids: Option<Vec<u32>>,
    /// The payload's `map_id` as written.
    pub map_id: Option<String>,
    /// Where the payload was found.
    pub source: Option<Source>,
}

/// Checks on the ids themselves.
///
/// ```
/// use leaf_meta::{IdCheck, ReadError, ReadOptions};
/// let result = serde_json::json!({"content": [{"type": "text", "text": "hi",
///     "_meta": {(leaf_meta::KEY): {"map_id": "sha256:abababababababababababababababababababababababababababababababab", "ids": [7, 900]}}}]});
/// let opts = ReadOptions { check: IdCheck::Bound(100), ..Default::default() };
/// assert_eq!(
///     leaf_meta::read_leaf_meta(&result, &opts),
///     Err(ReadError::IdOutOfRange { content_index: 0, position: 1, id: 900 })
/// );
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub enum IdCheck<'m> {
    /// None (as the reference).
    #[default]
    None,
    /// Every id is an id of this map.
    Vocab(&'m LeafMap),
    /// Every id is below this bound.
    Bound(u32),
    /// The ids equal a fresh encoding of the block's text with this map and
    /// these options.
    Reencode(&'m LeafMap, crate::EncodeOptions),
}

/// Options of [`read_leaf_meta`] and [`take_ids`].
///
/// ```
/// let opts = leaf_meta::ReadOptions::default();
/// assert!(opts.expected.is_none());
/// ```
#[derive(Clone, Debug, Default)]
pub struct ReadOptions<'m> {
    /// The pin every used payload must carry.
    pub expected: Option<MapId>,
    /// Id checks.
    pub check: IdCheck<'m>,
}

/// Why a read failed; nothing partial is returned.
///
/// ```
/// use leaf_meta::{MapId, ReadError, ReadOptions};
/// let result = serde_json::json!({"content": [{"type": "text", "text": "hi",
///     "_meta": {(leaf_meta::KEY): {"map_id": "sha256:abababababababababababababababababababababababababababababababab", "ids": [1]}}}]});
/// let other = MapId::parse("sha256:cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd")?;
/// let opts = ReadOptions { expected: Some(other), ..Default::default() };
/// assert!(matches!(leaf_meta::read_leaf_meta(&result, &opts), Err(ReadError::MapMismatch { content_index: 0, .. })));
/// # Ok::<(), leaf_meta::MapIdError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// Not an object with a `content` array.
    #[error(transparent)]
    NotAToolResult(#[from] NotAToolResult),
    /// A used payload carries another map's id.
    #[error(
        "Codec meta at content[{content_index}] declares map_id {found} but the caller expected {expected}"
    )]
    MapMismatch {
        /// The pin expected.
        expected: MapId,
        /// The `map_id` found, as written.
        found: String,
        /// The block.
        content_index: usize,
    },
    /// An id that is not an integer in `0..=u32::MAX`.
    #[error("content[{content_index}]: id at position {position} is not a token id")]
    InvalidId {
        /// The block.
        content_index: usize,
        /// The position in `ids`.
        position: usize,
    },
    /// The ids are not what the map encodes the text to
    /// ([`IdCheck::Reencode`]).
    #[error("content[{content_index}]: ids differ from the text's encoding")]
    IdsDiffer {
        /// The block.
        content_index: usize,
    },
    /// An id outside the map's vocabulary or the given bound.
    #[error("content[{content_index}]: id {id} at position {position} is out of range")]
    IdOutOfRange {
        /// The block.
        content_index: usize,
        /// The position in `ids`.
        position: usize,
        /// The id.
        id: u32,
    },
}

/// Whether any block carries a well-formed payload, or any well-formed
/// legacy sibling exists.
///
/// ```
/// assert!(!leaf_meta::has_leaf_meta(&serde_json::json!({"content": [{"type": "text", "text": "hi"}]})));
/// ```
#[must_use]
pub fn has_leaf_meta(result: &Value) -> bool {
    content(result).is_ok_and(|blocks| {
        blocks
            .iter()
            .any(|b| own_payload(b).is_some() || sibling_payload(b).is_some())
    })
}

fn ids_of(
    values: &[Value],
    content_index: usize,
    check: IdCheck<'_>,
) -> Result<Vec<u32>, ReadError> {
    let bound = match check {
        IdCheck::None | IdCheck::Reencode(..) => u32::MAX as u64 + 1,
        IdCheck::Vocab(map) => map.vocab_size() as u64,
        IdCheck::Bound(n) => u64::from(n),
    };
    values
        .iter()
        .enumerate()
        .map(|(position, v)| {
            let id =
                v.as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or(ReadError::InvalidId {
                        content_index,
                        position,
                    })?;
            if u64::from(id) >= bound {
                return Err(ReadError::IdOutOfRange {
                    content_index,
                    position,
                    id,
                });
            }
            Ok(id)
        })
        .collect()
}

/// One entry per text block, in content order: its own payload, else a
/// legacy sibling at the next index, else nothing.
///
/// # Errors
/// [`ReadError`]: the first used payload (in content order) whose
/// `map_id` is not the expected pin, or an id check failure.
///
/// ```
/// let r = serde_json::json!({"content": [{"type": "text", "text": "hi"}]});
/// let entries = leaf_meta::read_leaf_meta(&r, &Default::default())?;
/// assert_eq!(entries[0].ids, None);
/// # Ok::<(), leaf_meta::ReadError>(())
/// ```
pub fn read_leaf_meta(
    result: &Value,
    options: &ReadOptions<'_>,
) -> Result<Vec<LeafEntry>, ReadError> {
    let blocks = content(result)?;
    let mut out = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        let Some(text) = text_of(block) else { continue };
        let found = match own_payload(block) {
            Some(p) => Some((p, Source::Meta)),
            None => blocks
                .get(i + 1)
                .and_then(sibling_payload)
                .map(|p| (p, Source::Sibling)),
        };
        let mut entry = LeafEntry {
            content_index: i,
            text: String::from(text),
            ids: None,
            map_id: None,
            source: None,
        };
        if let Some(((map_id, ids), source)) = found {
            if let Some(expected) = &options.expected {
                let same = MapId::parse(map_id).is_ok_and(|id| &id == expected);
                if !same {
                    return Err(ReadError::MapMismatch {
                        expected: expected.clone(),
                        found: String::from(map_id),
                        content_index: i,
                    });
                }
            }
            let ids = ids_of(ids, i, options.check)?;
            if let IdCheck::Reencode(map, encode) = options.check {
                let fresh = map
                    .encode_with(text, encode)
                    .map_err(|_| ReadError::IdsDiffer { content_index: i })?;
                if fresh != ids {
                    return Err(ReadError::IdsDiffer { content_index: i });
                }
            }
            entry.ids = Some(ids);
            entry.map_id = Some(String::from(map_id));
            entry.source = Some(source);
        }
        out.push(entry);
    }
    Ok(out)
}

/// Each text block's ids (or `None`), as [`read_leaf_meta`] finds them.
///
/// # Errors
/// As for [`read_leaf_meta`].
///
/// ```
/// let r = serde_json::json!({"content": [{"type": "text", "text": "hi"}]});
/// assert_eq!(leaf_meta::take_ids(&r, &Default::default())?, [None]);
/// # Ok::<(), leaf_meta::ReadError>(())
/// ```
pub fn take_ids(
    result: &Value,
    options: &ReadOptions<'_>,
) -> Result<Vec<Option<Vec<u32>>>, ReadError> {
    Ok(read_leaf_meta(result, options)?
        .into_iter()
        .map(|e| e.ids)
        .collect())
}
