//! `leaf-meta`: Codec leaf mode: pinned tokenizer maps, byte-level BPE ids, _meta wrap/read/strip.
//!
//! This crate is being built; its specification is `shared/specs/leaf-meta.md`
//! of the toolwire project. It is `no_std` with `alloc`; `std` is a
//! default feature.
#![cfg_attr(not(feature = "std"), no_std)]
