//! The generic mapping `EncodeAny(tool, value)` (§8): any JSON value →
//! sections, cells as Go renders them.

use alloc::borrow::Cow;
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::vec::Vec;

use super::cell::Cell;
use super::error::EncodeError;
use super::writer::{Encoder, Mode};
use crate::json::{self, Value};

/// A JSON value as a cell (§8): null → empty, string as is, number
/// literal, bool text, array/object → Go `encoding/json` compact text.
///
/// ```
/// use gcx_wire::{encode::json_cell, json::parse};
/// assert_eq!(json_cell(&parse(br#"{"b":1,"a":"<"}"#)?), &br#"{"a":"\u003c","b":1}"#[..]);
/// # Ok::<(), gcx_wire::json::JsonError>(())
/// ```
#[must_use]
pub fn json_cell<'v>(value: &'v Value<'_>) -> Cow<'v, [u8]> {
    match value {
        Value::Null => Cow::Borrowed(&[]),
        Value::Bool(true) => Cow::Borrowed(b"true"),
        Value::Bool(false) => Cow::Borrowed(b"false"),
        Value::Number(n) => Cow::Borrowed(n.as_bytes()),
        Value::String(s) => Cow::Borrowed(s.as_bytes()),
        Value::Array(_) | Value::Object(_) => {
            let mut out = Vec::new();
            json::write_go_json(value, &mut out);
            Cow::Owned(out)
        }
    }
}

/// The bytewise-sorted union of the keys of the object elements.
pub(crate) fn key_union<'v>(items: &'v [Value<'_>]) -> Vec<&'v str> {
    let keys: BTreeSet<&str> = items
        .iter()
        .filter_map(|item| match item {
            Value::Object(pairs) => Some(pairs.iter().map(|(k, _)| k.as_ref())),
            _ => None,
        })
        .flatten()
        .collect();
    keys.into_iter().collect()
}

/// Writes one row of `obj`'s values in `fields` order (missing → empty).
pub(crate) fn object_row(
    enc: &mut Encoder,
    fields: &[&str],
    obj: &Value<'_>,
) -> Result<(), EncodeError> {
    let cells: Vec<Cow<'_, [u8]>> = fields
        .iter()
        .map(|f| obj.get(f).map_or(Cow::Borrowed(&[][..]), json_cell))
        .collect();
    enc.row(cells.iter().map(|c| Cell::Bytes(c)))
}

impl Encoder {
    /// Writes `value` as Go's `wire.EncodeAny(tool, value)` does.
    ///
    /// # Errors
    /// As for [`Encoder::header_meta`] and [`Encoder::row`] (strict mode
    /// refuses, for example, blank rows from `null` or `{}`).
    ///
    /// ```
    /// use gcx_wire::{encode::Encoder, json::parse};
    ///
    /// let mut enc = Encoder::new();
    /// enc.any("t", &parse(br#"[{"b": 1, "a": [1, 2]}, {"a": null}]"#)?)?;
    /// assert_eq!(enc.finish(), b"GCX1 tool=t fields=a,b rows=2\n[1,2]\t1\n\t\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn any(&mut self, tool: &str, value: &Value<'_>) -> Result<(), EncodeError> {
        match value {
            Value::Array(items)
                if !items.is_empty() && items.iter().all(|i| matches!(i, Value::Object(_))) =>
            {
                let fields = key_union(items);
                let rows = format!("{}", items.len());
                self.header_meta(tool, &fields, &[("rows", rows.as_str())])?;
                for item in items {
                    object_row(self, &fields, item)?;
                }
                Ok(())
            }
            Value::Array(items) => {
                let rows = format!("{}", items.len());
                self.header_meta(tool, &["value"], &[("rows", rows.as_str())])?;
                for item in items {
                    self.row([Cell::Bytes(&json_cell(item))])?;
                }
                Ok(())
            }
            Value::Object(pairs) => {
                let fields: Vec<&str> = pairs.iter().map(|(k, _)| k.as_ref()).collect();
                self.header(tool, &fields)?;
                object_row(self, &fields, value)
            }
            scalar => {
                self.header(tool, &["value"])?;
                self.row([Cell::Bytes(&json_cell(scalar))])
            }
        }
    }
}

/// `EncodeAny` from JSON text: parse (number literals kept), then
/// [`Encoder::any`].
///
/// # Errors
/// [`EncodeError::Json`] for invalid JSON; otherwise as [`Encoder::any`].
///
/// ```
/// let out = gcx_wire::encode::encode_any("t", br#"{"k": 1e400}"#, Default::default())?;
/// assert_eq!(out, b"GCX1 tool=t fields=k\n1e400\n");
/// # Ok::<(), gcx_wire::encode::EncodeError>(())
/// ```
pub fn encode_any(tool: &str, json_text: &[u8], mode: Mode) -> Result<Vec<u8>, EncodeError> {
    let value = json::parse(json_text)?;
    let mut enc = Encoder::with_mode(mode);
    enc.any(tool, &value)?;
    Ok(enc.finish())
}
