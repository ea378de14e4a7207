//! st4's transform: `results[].matches[]` ↔ flat rows (context lines as
//! JSON text, the enclosing symbol as three columns).

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde_json::{Map, Value};

use super::{FileGroups, iter_items, py_iter, truthy, without};
use crate::decode::{DecodeOptions, parse_json};
use crate::encode::Fail;
use crate::py::json_write::to_python_json;
use crate::tier1::schemas::st4::ROWS_KEY;
use crate::value::{Kind, kind};

/// Regroups rows by file in first-seen order; `results` is appended last.
/// The rows are lists of their cells in column order
/// (`super::positional_rows`).
pub(crate) fn decode(result: &mut Map<String, Value>, opts: &DecodeOptions) {
    let rows = iter_items(result.shift_remove(ROWS_KEY).filter(truthy));
    let mut groups = FileGroups::default();
    for row in rows {
        let Value::Array(cells) = row else {
            continue;
        };
        let Ok([file, line, text, before, after, in_id, in_line, in_end]) =
            <[Value; 8]>::try_from(cells)
        else {
            continue;
        };
        let Value::String(file) = file else {
            continue;
        };
        let mut m = Map::new();
        m.insert("line".into(), line);
        m.insert(
            "text".into(),
            if truthy(&text) {
                text
            } else {
                Value::String(String::new())
            },
        );
        for (key, raw) in [("before", before), ("after", after)] {
            if let Value::String(raw) = raw {
                if !raw.is_empty() {
                    let v = parse_json(&raw, opts)
                        .unwrap_or_else(|| Value::Array(vec![Value::String(raw)]));
                    m.insert(key.into(), v);
                }
            }
        }
        if truthy(&in_id) {
            let mut inn = Map::new();
            inn.insert("id".into(), in_id);
            inn.insert("line".into(), in_line);
            inn.insert("end_line".into(), in_end);
            m.insert("in".into(), Value::Object(inn));
        }
        groups.push(&file, Value::Object(m));
    }
    result.insert("results".into(), groups.into_value());
}

/// Flattens `results[].matches[]` into rows: context lines as Python JSON
/// (`""` when falsy), the enclosing symbol as three columns.
pub(crate) fn encode(response: &Map<String, Value>) -> Result<Map<String, Value>, Fail> {
    let mut out = without(response, "results");
    let mut rows = Vec::new();
    for group in py_iter(response.get("results"))? {
        let Some(Kind::Dict(g)) = Some(kind(group)) else {
            continue;
        };
        let file = g.get("file").cloned().unwrap_or(Value::Null);
        for m in py_iter(g.get("matches").filter(|m| truthy(m)))? {
            let Kind::Dict(m) = kind(m) else {
                continue;
            };
            let ctx = |k: &str| match m.get(k) {
                Some(v) if truthy(v) => Value::String(to_python_json(v)),
                _ => Value::String(String::new()),
            };
            let inn = match m.get("in") {
                Some(v) if truthy(v) => match kind(v) {
                    Kind::Dict(d) => Some(d),
                    _ => return Err(Fail::new("match 'in' is not a dict")),
                },
                _ => None,
            };
            let in_get =
                |k: &str, default: Value| inn.and_then(|d| d.get(k).cloned()).unwrap_or(default);
            // In the table's column order (`super::positional_rows`).
            let row = [
                file.clone(),
                m.get("line").cloned().unwrap_or(Value::Null),
                m.get("text")
                    .cloned()
                    .unwrap_or_else(|| Value::String(String::new())),
                ctx("before"),
                ctx("after"),
                in_get("id", Value::String(String::new())),
                in_get("line", Value::Null),
                in_get("end_line", Value::Null),
            ];
            rows.push(Value::Array(row.into()));
        }
    }
    out.insert(ROWS_KEY.into(), Value::Array(rows));
    Ok(out)
}
