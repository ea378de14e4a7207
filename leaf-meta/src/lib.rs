#![doc = include_str!("../README.md")]
//! `leaf-meta`: Codec leaf mode for MCP tool results — pinned tokenizer
//! maps, id-exact byte-level BPE, and the `_meta` wrap/read/strip
//! contract (`specs/leaf-meta.md` of the toolwire project).
//!
//! A tool tokenizes each text block of its `CallToolResult` against a
//! pinned map and ships the ids in `_meta["ai.codec/leaf-tokenization"]`;
//! a Codec-aware gateway forwards them without tokenizing again.
//!
//! - [`MapId`] pins a map by the SHA-256 of its exact bytes; [`LeafMap`]
//!   loads a map only with its pin and verifies it.
//! - [`LeafMap::encode`] gives the reference implementations' ids
//!   ([`SpecialTokens`] explains the injection risk of parsing special
//!   tokens in untrusted text); [`LeafMap::decode`] inverts it.
//! - [`wrap`], [`has_leaf_meta`], [`read_leaf_meta`], [`take_ids`],
//!   [`strip_leaf_meta`] implement the contract over `serde_json::Value`;
//!   the `*_typed` functions over [`ToolResult`] or any MCP type that
//!   serializes to the same JSON (such as `rmcp`'s `CallToolResult`).
//!
//! ```
//! # let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps"));
//! use leaf_meta::{LeafMap, MapId};
//!
//! let pin = MapId::parse("sha256:62c2f94fcbdb9b49d51632314e64aa65894496bc39751cb90866049657a262ad")?;
//! let map = LeafMap::from_file(dir.join("qwen2.62c2f94fcbdb.json"), &pin)?;
//! let result = serde_json::json!({"content": [{"type": "text", "text": "It is currently 14:30 UTC."}]});
//! let wrapped = leaf_meta::wrap(&result, &map, &Default::default())?;
//! let ids = leaf_meta::take_ids(&wrapped, &Default::default())?;
//! assert_eq!(ids, [Some(vec![2132, 374, 5023, 220, 16, 19, 25, 18, 15, 27403, 13])]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Text is Rust `str`: lone UTF-16 surrogates cannot occur (JavaScript
//! writers send them as U+FFFD), so they need no handling here.
#![cfg_attr(not(feature = "std"), no_std)]

extern crate alloc;

mod bpe;
mod byte_table;
mod cache;
mod contract;
mod encode;
mod map;
mod map_id;
mod pretokenize;
mod sha256;
mod unicode;

pub use cache::EncodeState;
pub use contract::{
    ContentBlock, ExistingPayload, IdCheck, KEY, LeafEntry, NotAToolResult, ReadError, ReadOptions,
    SIBLING_TYPE, Source, ToolResult, TypedError, WrapError, WrapOptions, WrapOutcome,
    has_leaf_meta, read_leaf_meta, read_leaf_meta_typed, strip_leaf_meta, strip_typed, stripped,
    take_ids, take_ids_typed, wrap, wrap_in_place, wrap_typed,
};
pub use encode::{EncodeOptions, SpecialTokenFound, SpecialTokens};
pub use map::{LeafMap, LoadError};
pub use map_id::{MapId, MapIdError};

/// The Unicode version whose L and N categories the pre-tokenizer uses
/// (White_Space is the same in every version since 6.1).
///
/// ```
/// assert!(leaf_meta::UNICODE_VERSION >= (15, 0, 0));
/// ```
pub const UNICODE_VERSION: (u8, u8, u8) = unicode::UNICODE_VERSION;
