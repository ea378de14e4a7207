//! The Go reference's map view of a decoded section, as JSON: shared by
//! the example CLI (`examples/gcx.rs`) and the vector tests.
#![allow(dead_code, unreachable_pub)]

use std::collections::BTreeMap;

use serde_json::{Value, json};

/// Bytes as a string with one U+FFFD per invalid byte (Go `json.Marshal`).
pub fn text(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for _ in chunk.invalid() {
            out.push('\u{FFFD}');
        }
    }
    out
}

/// `{tool, fields, meta, rows: [{field: value}]}`; duplicate field or meta
/// key → last wins, as in Go's maps.
pub fn section_json(section: &gcx_wire::Section<'_>) -> Value {
    let h = &section.header;
    let meta: BTreeMap<String, String> = h.meta.iter().map(|(k, v)| (text(k), text(v))).collect();
    let rows: Vec<Value> = section
        .rows()
        .map(|row| {
            let map: BTreeMap<String, String> = h
                .fields
                .iter()
                .zip(row)
                .map(|(f, c)| (text(f), text(c)))
                .collect();
            json!(map)
        })
        .collect();
    json!({
        "tool": text(&h.tool),
        "fields": h.fields.iter().map(|f| text(f)).collect::<Vec<_>>(),
        "meta": meta,
        "rows": rows,
    })
}

/// The whole decode result in the vectors' `decoded` shape.
pub fn decoded_json(input: &[u8], options: &gcx_wire::DecodeOptions) -> Value {
    let (payload, error) = gcx_wire::decode_partial(input, options);
    let mut out = serde_json::Map::new();
    out.insert(
        "sections".into(),
        Value::Array(payload.sections.iter().map(section_json).collect()),
    );
    if let Some(err) = error {
        out.insert("error".into(), Value::String(err.message()));
    }
    Value::Object(out)
}
