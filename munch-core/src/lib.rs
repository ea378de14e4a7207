//! `munch-core`: MUNCH/1, the compact output encoding of jcodemunch-mcp: encoders, decoder, dispatcher.
//!
//! This crate is being built; its specification is `shared/specs/munch.md`
//! of the toolwire project. It is `no_std` with `alloc`; `std` is a
//! default feature.
#![cfg_attr(not(feature = "std"), no_std)]
