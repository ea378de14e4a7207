//! `jsonmend-engine`: JSON repair for LLM output: profiles, schemas, streaming.
//!
//! This crate is being built; its specification is `shared/specs/jsonmend.md`
//! of the toolwire project. It is `no_std` with `alloc`; `std` is a
//! default feature.
#![cfg_attr(not(feature = "std"), no_std)]
