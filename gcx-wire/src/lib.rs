//! `gcx-wire`: GCX1, the tab-separated wire format of the Gortex MCP server.
//!
//! This crate is being built; its specification is `shared/specs/gcx1.md`
//! of the toolwire project. It is `no_std` with `alloc`; `std` is a
//! default feature.
#![cfg_attr(not(feature = "std"), no_std)]
