//! The Gortex benchmark's per-tool encoder `encodeAsGCX` (§9): wrapper
//! objects become sections with their counts as meta.

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::any::{json_cell, key_union, object_row};
use super::cell::Cell;
use super::error::EncodeError;
use super::writer::{Encoder, Mode};
use crate::json::{self, Value};

/// Go `fmt.Sprint` of a JSON value decoded with literal numbers: strings
/// raw, numbers literal, `<nil>`, `[a b]`, `map[k:v …]` (keys sorted).
fn sprint(value: &Value<'_>, out: &mut String) {
    match value {
        Value::Null => out.push_str("<nil>"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(n),
        Value::String(s) => out.push_str(s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                sprint(item, out);
            }
            out.push(']');
        }
        Value::Object(pairs) => {
            out.push_str("map[");
            for (i, (k, v)) in pairs.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(k);
                out.push(':');
                sprint(v, out);
            }
            out.push(']');
        }
    }
}

fn sprinted(value: &Value<'_>) -> String {
    let mut s = String::new();
    sprint(value, &mut s);
    s
}

/// `rows=N` plus the wrapper keys of `m` that are present and not null.
fn meta(rows: usize, m: &Value<'_>, wrapper: &[&str]) -> Vec<(String, String)> {
    let mut meta = alloc::vec![(String::from("rows"), format!("{rows}"))];
    for key in wrapper {
        if let Some(v) = m.get(key).filter(|v| !matches!(v, Value::Null)) {
            meta.retain(|(k, _)| k != key);
            meta.push((String::from(*key), sprinted(v)));
        }
    }
    meta
}

/// A section of the object elements' union of keys. Non-objects are
/// one-value rows of their `fmt.Sprint` text (flat sections), or skipped
/// but still counted in `rows` (rule 3, `skip_others`).
fn objects(
    enc: &mut Encoder,
    tool: &str,
    items: &[Value<'_>],
    meta: &[(String, String)],
    skip_others: bool,
) -> Result<(), EncodeError> {
    let fields = key_union(items);
    enc.header_meta(tool, &fields, meta)?;
    for item in items {
        match item {
            Value::Object(_) => object_row(enc, &fields, item)?,
            _ if skip_others => {}
            other => enc.row([Cell::Bytes(sprinted(other).as_bytes())])?,
        }
    }
    Ok(())
}

fn flat(
    enc: &mut Encoder,
    tool: &str,
    items: &[Value<'_>],
    meta: &[(String, String)],
) -> Result<(), EncodeError> {
    objects(enc, tool, items, meta, false)
}

fn array<'v>(m: &'v Value<'_>, key: &str) -> Option<&'v [Value<'v>]> {
    m.get(key).and_then(Value::as_array)
}

impl Encoder {
    /// Writes `value` with the Gortex benchmark layout of `tool` (rules 1–7
    /// of §9; anything else goes through [`Encoder::any`]).
    ///
    /// # Errors
    /// As for [`Encoder::header_meta`] and [`Encoder::row`].
    ///
    /// ```
    /// use gcx_wire::{encode::Encoder, json::parse};
    ///
    /// let mut enc = Encoder::new();
    /// enc.bench("search", &parse(br#"{"results": [{"id": "a", "line": 3}], "total": 7, "truncated": true}"#)?)?;
    /// assert_eq!(enc.finish(), b"GCX1 tool=search fields=id,line rows=1 total=7 truncated=true\na\t3\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn bench(&mut self, tool: &str, m: &Value<'_>) -> Result<(), EncodeError> {
        if !matches!(m, Value::Object(_)) {
            return self.any(tool, m);
        }
        if let Some(items) = array(m, "results") {
            return flat(
                self,
                tool,
                items,
                &meta(items.len(), m, &["total", "truncated"]),
            );
        }
        if let Some(items) = array(m, "symbols") {
            return flat(self, tool, items, &meta(items.len(), m, &["total", "etag"]));
        }
        if let Some(nodes) = array(m, "nodes") {
            let node_meta = meta(nodes.len(), m, &["total_nodes", "total_edges", "truncated"]);
            objects(self, &format!("{tool}.nodes"), nodes, &node_meta, true)?;
            let edges = array(m, "edges").unwrap_or_default();
            let edge_meta = meta(edges.len(), m, &[]);
            return objects(self, &format!("{tool}.edges"), edges, &edge_meta, true);
        }
        if let (Some(edges), None) = (array(m, "edges"), m.get("nodes")) {
            return flat(
                self,
                tool,
                edges,
                &meta(edges.len(), m, &["total_edges", "truncated"]),
            );
        }
        if let Some(items) = array(m, "implementations") {
            return flat(self, tool, items, &meta(items.len(), m, &["total"]));
        }
        if let Value::Object(pairs) = m {
            if pairs.len() >= 2 && pairs.iter().all(|(_, v)| matches!(v, Value::Array(_))) {
                for (key, v) in pairs {
                    let items = v.as_array().unwrap_or_default();
                    let name = format!("{tool}.{key}");
                    let rows = format!("{}", items.len());
                    match items.first() {
                        None => self.header_meta(&name, &["value"], &[("rows", "0")])?,
                        Some(Value::Object(_)) => {
                            flat(self, &name, items, &meta(items.len(), m, &[]))?
                        }
                        Some(_) => {
                            self.header_meta(&name, &["value"], &[("rows", rows.as_str())])?;
                            for item in items {
                                let cell: Cow<'_, [u8]> = json_cell(item);
                                self.row([Cell::Bytes(&cell)])?;
                            }
                        }
                    }
                }
                return Ok(());
            }
        }
        self.any(tool, m)
    }
}

/// The benchmark layout from JSON text: parse (number literals kept), then
/// [`Encoder::bench`].
///
/// # Errors
/// [`EncodeError::Json`] for invalid JSON; otherwise as [`Encoder::bench`].
///
/// ```
/// let out = gcx_wire::encode::encode_bench("t", br#"{"symbols": [], "etag": "e"}"#, Default::default())?;
/// assert_eq!(out, b"GCX1 tool=t fields= etag=e rows=0\n");
/// # Ok::<(), gcx_wire::encode::EncodeError>(())
/// ```
pub fn encode_bench(tool: &str, json_text: &[u8], mode: Mode) -> Result<Vec<u8>, EncodeError> {
    let value = json::parse(json_text)?;
    let mut enc = Encoder::with_mode(mode);
    enc.bench(tool, &value)?;
    Ok(enc.finish())
}
