#![doc = include_str!("../README.md")]
//! GCX1, the tab-separated compact wire format of the Gortex MCP server.
//!
//! A GCX1 payload is one or more sections; each is a header line
//! (`GCX1 tool=… fields=a,b key=value…`) followed by rows (cells separated by
//! TAB, escaped with `\\`, `\t`, `\n`) and `#` comment lines.
//!
//! Decoding agrees with the Go reference (gcx-go v0.1.0) on every reference
//! vector, with two deliberate differences (an empty input is zero sections,
//! and a header tag other than exactly `GCX1` is
//! [`DecodeErrorKind::UnsupportedVersion`]). Unlike the reference it keeps
//! comments and every cell (rows are ordered cells, so duplicate field
//! names lose nothing), and it borrows every header part and cell from the
//! input unless it holds an escape.
//!
//! ```
//! let input = b"GCX1 tool=search fields=id,line rows=2\na.go::F\t3\n# 2 result(s)\nb.go::G\t\n";
//! let payload = gcx_wire::from_slice(input)?;
//! let section = &payload.sections[0];
//! assert_eq!(section.header.tool, &b"search"[..]);
//! assert_eq!(section.header.meta_value(b"rows"), Some(&b"2"[..]));
//! assert_eq!(section.row_count(), 2);
//! assert_eq!(section.row(1).unwrap()[1], &b""[..]); // padded
//! assert_eq!(section.comments[0].text, b"2 result(s)");
//! # Ok::<(), gcx_wire::DecodeError>(())
//! ```
//!
//! The specification is `specs/gcx1.md` of the toolwire project.
#![cfg_attr(not(feature = "std"), no_std)]

extern crate alloc;

pub mod encode;
mod error;
mod escape;
mod header;
pub mod json;
mod payload;
mod reader;
mod stream;
#[cfg(feature = "serde")]
pub mod typed;
mod whitespace;

pub use error::{DecodeError, DecodeErrorKind};
pub use escape::{ESCAPES, unescape};
pub use header::{Bytes, Header};
pub use payload::{Comment, Payload, Section};
pub use reader::{DecodeOptions, Event, Reader, decode_partial, from_slice, from_slice_with};
pub use stream::StreamDecoder;

/// The 4-byte tag that starts every header line.
///
/// ```
/// let mut enc = gcx_wire::encode::Encoder::new();
/// enc.header("t", &["a"])?;
/// assert!(enc.finish().starts_with(gcx_wire::TAG));
/// # Ok::<(), gcx_wire::encode::EncodeError>(())
/// ```
pub const TAG: &[u8; 4] = b"GCX1";

/// The default line cap: a line (without its LF, with any CR) must be
/// shorter than this many bytes, as in the Go reference (`bufio.Scanner`'s
/// 4 MiB buffer).
///
/// ```
/// use gcx_wire::{DEFAULT_MAX_LINE_BYTES, DecodeOptions, from_slice_with};
/// assert_eq!(DecodeOptions::default().max_line_bytes, DEFAULT_MAX_LINE_BYTES);
/// let tight = DecodeOptions { max_line_bytes: 16, ..DecodeOptions::default() };
/// assert!(from_slice_with(b"GCX1 tool=t fields=a\nshort\n", &tight).is_err()); // the header is 20 bytes
/// ```
pub const DEFAULT_MAX_LINE_BYTES: usize = 4 * 1024 * 1024;
