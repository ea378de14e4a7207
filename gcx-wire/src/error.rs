//! Decode errors: the Go reference's messages, with a line and an offset.

use alloc::string::String;
use alloc::vec::Vec;

/// What went wrong while decoding.
///
/// Messages follow the Go reference's where Go has the same error.
///
/// ```
/// let err = gcx_wire::from_slice(b"GCX1 tool=x\n").unwrap_err();
/// assert_eq!(err.kind, gcx_wire::DecodeErrorKind::MissingFields);
/// assert_eq!(err.to_string(), "wire: header missing fields= key (line 1, byte 0)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The first non-empty line does not start with `GCX`.
    #[error("wire: expected header prefix \"GCX1\", got {}", quote(.got))]
    NotGcx {
        /// The first 10 bytes of the line.
        got: Vec<u8>,
    },
    /// A header tag other than exactly `GCX1` (`GCX2`, `GCX10`,
    /// `GCX1tool=x`): fall back to JSON.
    #[error("wire: unsupported version {} (want \"GCX1\")", quote(.tag))]
    UnsupportedVersion {
        /// The bytes up to the first space.
        tag: Vec<u8>,
    },
    /// A header token without `=`.
    #[error("wire: malformed header token {} (want key=value)", quote(.token))]
    MalformedHeaderToken {
        /// The token as written.
        token: Vec<u8>,
    },
    /// Empty input in Go-compatible mode (Go's `unexpected EOF`; by default
    /// an empty input is zero sections).
    #[error("unexpected EOF")]
    UnexpectedEof,
    /// A header without a (non-empty) `tool=`.
    #[error("wire: header missing tool= key")]
    MissingTool,
    /// A header without `fields=`.
    #[error("wire: header missing fields= key")]
    MissingFields,
    /// A row with more cells than the header declares fields.
    #[error("wire: row has {got} values but header declared {declared} fields")]
    TooManyCells {
        /// Cells in the row.
        got: usize,
        /// Fields in the header.
        declared: usize,
    },
    /// A line at or over the cap (`bufio.Scanner: token too long` in Go).
    #[error("bufio.Scanner: token too long")]
    LineTooLong {
        /// The configured `max_line_bytes`.
        limit: usize,
    },
}

/// A decode error: what, on which line (1-based), at which byte offset (of
/// the line's first byte).
///
/// ```
/// let err = gcx_wire::from_slice(b"GCX1 tool=x fields=a\n1\t2\n").unwrap_err();
/// assert_eq!((err.line, err.offset), (2, 21));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind} (line {line}, byte {offset})")]
pub struct DecodeError {
    /// What went wrong.
    pub kind: DecodeErrorKind,
    /// 1-based line number.
    pub line: usize,
    /// Offset of the line's first byte.
    pub offset: usize,
}

impl DecodeError {
    /// The message without the position: the Go reference's text for the
    /// errors Go has.
    ///
    /// ```
    /// let err = gcx_wire::from_slice(b"GCX1 tool=x fields=a\n1\t2\n").unwrap_err();
    /// assert_eq!(err.message(), "wire: row has 2 values but header declared 1 fields");
    /// ```
    #[must_use]
    pub fn message(&self) -> String {
        use alloc::string::ToString;
        self.kind.to_string()
    }
}

/// Go `%q`-style quoting of bytes (printable ASCII and valid UTF-8 as is,
/// `"` and `\` escaped, anything else `\xNN`).
fn quote(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                c if c.is_control() => {
                    use core::fmt::Write;
                    let _ = write!(out, "\\u{:04x}", u32::from(c));
                }
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            use core::fmt::Write;
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out.push('"');
    out
}
