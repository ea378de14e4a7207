//! `leaf-meta`: Codec leaf mode for MCP tool results — pinned tokenizer
//! maps, id-exact byte-level BPE, and the `_meta` wrap/read/strip
//! contract.
//!
//! The crate is being built (see `specs/leaf-meta.md` of the toolwire
//! project). Available now: map pins ([`MapId`]).
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
