//! `leaf-meta`: Codec leaf mode for MCP tool results — pinned tokenizer
//! maps, id-exact byte-level BPE, and the `_meta` wrap/read/strip
//! contract.
//!
//! The crate is being built (see `specs/leaf-meta.md` of the toolwire
//! project). Available now: map pins ([`MapId`]).
#![cfg_attr(not(feature = "std"), no_std)]

extern crate alloc;

mod map_id;
mod sha256;

pub use map_id::{MapId, MapIdError};
