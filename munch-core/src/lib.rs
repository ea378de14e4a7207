#![doc = include_str!("../README.md")]
//! `munch-core`: MUNCH/1, the compact output encoding of jcodemunch-mcp —
//! the decoder, gen1 and the 15 tier-1 encoders, and the dispatcher.
//!
//! The behaviour follows the reference (jcodemunch-mcp 1.108.399 on
//! CPython 3.13) byte for byte where it is lossless; the project's spec is
//! `specs/munch.md`.
//!
//! ```
//! let payload = "#MUNCH/1 tool=find_references enc=fr2\n\n\
//!     repo=acme identifier=retry __tables=r:__rows__:file|specifier|match_type\n\n\
//!     r,src/a.py,util.retry,named\n";
//! let v = munch_core::decode(payload)?;
//! assert_eq!(v["references"][0]["file"], "src/a.py");
//! # Ok::<(), munch_core::DecodeError>(())
//! ```
#![cfg_attr(not(feature = "std"), no_std)]

extern crate alloc;

mod borrowed;
mod decode;
mod dispatch;
mod encode;
mod equal;
mod equal_borrowed;
mod error;
mod format;
mod meta;
mod options;
mod py;
mod savings;
#[cfg(test)]
mod test_rng;
mod tier1;
mod typed;
mod unicode;
mod value;

pub use borrowed::{
    BorrowedValue, decode_borrowed, decode_borrowed_into, decode_borrowed_with, from_borrowed,
};
pub use decode::{DecodeOptions, decode, decode_with};
pub use dispatch::{Encoded, encode};
pub use equal::{KeyOrder, Mismatch, exact_eq, first_mismatch};
pub use error::{DecodeError, DecodeErrorKind};
pub use meta::{Attempt, EncodeMeta, JsonReason, Layer, Outcome, Rung};
pub use options::{DEFAULT_THRESHOLD, Format, Measure, Mode, Options};
pub use py::json_write::to_python_json;
pub use savings::{SavingsTracker, inject_meta};
pub use typed::{TypedError, decode_into, encode_serialize, from_value, to_value};
pub use unicode::UNICODE_VERSION;
