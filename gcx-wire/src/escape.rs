//! The GCX1 escape table (§4 of the spec).

use alloc::borrow::Cow;

use wire_lex::EscapeTable;

/// GCX1 escapes: `\\`, `\t`, `\n`; a CR is deleted on write (as Go does);
/// any other `\X` reads as `X`; a lone `\` at the end reads as itself.
///
/// ```
/// assert_eq!(gcx_wire::ESCAPES.escape(b"a\tb\\"), &b"a\\tb\\\\"[..]);
/// ```
pub const ESCAPES: EscapeTable = EscapeTable::new(b'\\')
    .with(b'\t', b't')
    .with(b'\n', b'n')
    .drop_on_write(b'\r');

/// Unescapes one cell or header part, borrowing when it holds no `\`.
/// Unescaping never fails.
///
/// ```
/// assert_eq!(gcx_wire::unescape(br"C:\\x\tq\r"), &b"C:\\x\tqr"[..]);
/// ```
#[must_use]
pub fn unescape(raw: &[u8]) -> Cow<'_, [u8]> {
    // Only `Reject` makes unescaping fail; GCX1 drops unknown escapes.
    ESCAPES.unescape(raw, 0).unwrap_or(Cow::Borrowed(raw))
}
