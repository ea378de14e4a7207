//! Header lines: `GCX1 tool=… fields=a,b key=value…` (§10.2 of the spec).

use alloc::borrow::Cow;
use alloc::vec::Vec;

use crate::error::DecodeErrorKind;
use crate::escape::unescape;
use crate::whitespace::trim;

/// A header part or cell: borrowed from the input unless it held an
/// escape.
///
/// ```
/// use std::borrow::Cow;
/// let p = gcx_wire::from_slice(b"GCX1 tool=t fields=a\nplain\nx\\ty\n")?;
/// let cells = &p.sections[0].cells;
/// assert!(matches!(cells[0], Cow::Borrowed(_)));
/// assert!(matches!(cells[1], Cow::Owned(_))); // `\t` was unescaped
/// # Ok::<(), gcx_wire::DecodeError>(())
/// ```
pub type Bytes<'a> = Cow<'a, [u8]>;

/// A section header: tool name, field names and meta pairs, each borrowed
/// from the input unless it held an escape.
///
/// ```
/// let p = gcx_wire::from_slice(b"GCX1 tool=t fields=a,b k=1 k=2\n")?;
/// let h = &p.sections[0].header;
/// assert_eq!(h.fields, [&b"a"[..], b"b"]);
/// assert_eq!(h.meta.len(), 2); // every pair, in order
/// assert_eq!(h.meta_value(b"k"), Some(&b"2"[..])); // last wins
/// # Ok::<(), gcx_wire::DecodeError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header<'a> {
    /// The tool (section) name, never empty.
    pub tool: Cow<'a, [u8]>,
    /// Field names in column order (`fields=` alone is one empty name).
    pub fields: Vec<Cow<'a, [u8]>>,
    /// Meta pairs in the order written, repeats included.
    pub meta: Vec<(Bytes<'a>, Bytes<'a>)>,
}

impl<'a> Header<'a> {
    /// The value of the last meta pair with `key`.
    ///
    /// ```
    /// let p = gcx_wire::from_slice(b"GCX1 tool=t fields=a total=7\n")?;
    /// assert_eq!(p.sections[0].header.meta_value(b"total"), Some(&b"7"[..]));
    /// # Ok::<(), gcx_wire::DecodeError>(())
    /// ```
    #[must_use]
    pub fn meta_value(&self, key: &[u8]) -> Option<&[u8]> {
        self.meta
            .iter()
            .rev()
            .find(|(k, _)| k.as_ref() == key)
            .map(|(_, v)| v.as_ref())
    }

    /// The same header owning its bytes.
    ///
    /// ```
    /// let owned = {
    ///     let input = b"GCX1 tool=t fields=a\n".to_vec();
    ///     gcx_wire::from_slice(&input).unwrap().sections[0].header.clone().into_owned()
    /// };
    /// assert_eq!(owned.tool, &b"t"[..]);
    /// ```
    #[must_use]
    pub fn into_owned(self) -> Header<'static> {
        Header {
            tool: Cow::Owned(self.tool.into_owned()),
            fields: self
                .fields
                .into_iter()
                .map(|f| Cow::Owned(f.into_owned()))
                .collect(),
            meta: self
                .meta
                .into_iter()
                .map(|(k, v)| (Cow::Owned(k.into_owned()), Cow::Owned(v.into_owned())))
                .collect(),
        }
    }

    /// Parses a header line that starts with the tag `GCX1` and a space (or
    /// is just the tag).
    pub(crate) fn parse(line: &'a [u8]) -> Result<Header<'a>, DecodeErrorKind> {
        let rest = trim(line.get(crate::TAG.len()..).unwrap_or_default());
        let mut tool = None;
        let mut fields = None;
        let mut meta = Vec::new();
        for token in rest.split(|&b| b == b' ').filter(|t| !t.is_empty()) {
            let Some(eq) = wire_lex::Cursor::new(token).find(b'=') else {
                return Err(DecodeErrorKind::MalformedHeaderToken {
                    token: token.to_vec(),
                });
            };
            let (key, value) = token.split_at(eq);
            let (key, value) = (unescape(key), unescape(value.get(1..).unwrap_or_default()));
            match key.as_ref() {
                b"tool" => tool = Some(value),
                b"fields" => fields = Some(split_fields(value)),
                _ => meta.push((key, value)),
            }
        }
        let tool = tool
            .filter(|t| !t.is_empty())
            .ok_or(DecodeErrorKind::MissingTool)?;
        let fields = fields.ok_or(DecodeErrorKind::MissingFields)?;
        Ok(Header { tool, fields, meta })
    }
}

/// Splits the once-unescaped `fields` value on `,` and unescapes each name
/// again (Go unescapes field names twice).
fn split_fields(value: Cow<'_, [u8]>) -> Vec<Cow<'_, [u8]>> {
    match value {
        Cow::Borrowed(v) => v.split(|&b| b == b',').map(unescape).collect(),
        Cow::Owned(v) => v
            .split(|&b| b == b',')
            .map(|name| Cow::Owned(unescape(name).into_owned()))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &[u8]) -> Result<Header<'_>, DecodeErrorKind> {
        Header::parse(line)
    }

    #[test]
    fn fields_are_unescaped_twice() {
        let h = parse(br"GCX1 tool=x fields=a\\b,c\\\\d,,e").unwrap();
        assert_eq!(h.fields, [&b"ab"[..], b"c\\d", b"", b"e"]);
    }

    #[test]
    fn first_equals_splits_and_last_key_wins() {
        let h = parse(b"GCX1 tool=x fields=a k=1=v tool=y fields=b").unwrap();
        assert_eq!(h.tool, &b"y"[..]);
        assert_eq!(h.fields, [&b"b"[..]]);
        assert_eq!(h.meta_value(b"k"), Some(&b"1=v"[..]));
    }

    #[test]
    fn missing_parts_in_go_order() {
        assert_eq!(parse(b"GCX1"), Err(DecodeErrorKind::MissingTool));
        assert_eq!(
            parse(b"GCX1 fields=a tool="),
            Err(DecodeErrorKind::MissingTool)
        );
        assert_eq!(parse(b"GCX1 tool=x"), Err(DecodeErrorKind::MissingFields));
        assert_eq!(
            parse(b"GCX1 tool=x oops fields=a"),
            Err(DecodeErrorKind::MalformedHeaderToken {
                token: b"oops".to_vec()
            })
        );
    }

    #[test]
    fn borrowed_unless_escaped() {
        let h = parse(br"GCX1 tool=x fields=a,b\tc k=v").unwrap();
        assert!(matches!(h.tool, Cow::Borrowed(_)));
        assert!(matches!(h.fields[0], Cow::Owned(_)));
        assert!(matches!(h.meta[0].1, Cow::Borrowed(_)));
    }
}
