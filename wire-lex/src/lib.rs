#![doc = include_str!("../README.md")]
//! `wire-lex` is the zero-copy byte tokenizer shared by the toolwire formats.
//!
//! It plays the role `csv-core` plays for `csv`: small, `no_std`, no
//! allocation in its core, and fast because every scan is a `memchr` call.
//! The format crates (GCX1, MUNCH/1, jsonmend) build on it instead of
//! writing their own scanners.
//!
//! | need | item |
//! |---|---|
//! | walk bytes by hand | [`Cursor`], [`ByteSet`], [`Finder`] |
//! | which byte classes a string holds (escape? quote?), one pass | [`Presence`] |
//! | split into lines, CR policy, line cap | [`Lines`], [`LineConfig`], [`CrPolicy`] |
//! | split a line on one delimiter byte | [`Fields`], [`Span`] |
//! | RFC 4180 quoted fields (read and write) | [`csv`] |
//! | backslash-escaped fields (read and write) | [`escaped`], [`EscapeTable`] |
//! | UTF-8 check with the failing offset | [`utf8::validate`] |
//! | line/column for an error message | [`Pos`] |
//! | caller-supplied output buffers | [`ByteSink`], [`SliceSink`] |
//!
//! Every function is total: no input makes it panic or read past the end,
//! and every error carries the byte offset where it was found.
//!
//! # Features
//!
//! - `alloc`: owned unescaping (`Cow::Owned`) and `Vec<u8>` as a [`ByteSink`].
//! - `std` (default): implies `alloc`.
//!
//! # Example
//!
//! ```
//! use wire_lex::{LineConfig, Lines, Fields};
//!
//! let input = b"id\tname\r\n1\tmain\r\n";
//! let mut cells = Vec::new();
//! for line in Lines::new(input, LineConfig::default()) {
//!     let line = line?;
//!     for field in Fields::new(line.bytes, line.offset, b'\t') {
//!         cells.push(field.bytes);
//!     }
//! }
//! assert_eq!(cells, [&b"id"[..], b"name", b"1", b"main"]);
//! # Ok::<(), wire_lex::Error>(())
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
#![cfg_attr(docsrs, feature(doc_auto_cfg))]

#[cfg(feature = "alloc")]
extern crate alloc;

mod byteset;
mod cursor;
mod error;
mod fields;
mod finder;
mod flatten;
mod lines;
mod pos;
mod presence;
mod scan;
mod sink;

pub mod csv;
pub mod escaped;
pub mod utf8;

pub use byteset::{ByteSet, byte_eq_mask};
pub use cursor::Cursor;
pub use error::Error;
pub use escaped::EscapeTable;
pub use fields::{Fields, Span};
pub use finder::Finder;
pub use lines::{CrPolicy, Line, LineConfig, Lines};
pub use pos::Pos;
pub use presence::Presence;
pub use sink::{ByteSink, SliceSink};
