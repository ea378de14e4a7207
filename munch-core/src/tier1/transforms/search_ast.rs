//! sa2's transform: the pattern-specific keys of a match ↔ one JSON
//! `details` cell.

use alloc::string::String;
use serde_json::{Map, Value};

use super::{iter_items, py_iter, truthy, without};
use crate::decode::{DecodeOptions, parse_json};
use crate::encode::Fail;
use crate::py::json_write::to_python_json;
use crate::tier1::schemas::sa2::COMMON_COLS;
use crate::tier1::schemas::sa2::DETAILS_COL;
use crate::value::{Kind, kind};

/// Drops null columns of each match and merges the parsed `details`
/// object into it (nothing when it does not parse to an object).
pub(crate) fn decode(result: &mut Map<String, Value>, opts: &DecodeOptions) {
    // Taken, not copied: the restored list goes back in its place.
    let rows = iter_items(
        result
            .get_mut("matches")
            .map(core::mem::take)
            .filter(truthy),
    );
    let mut restored = alloc::vec::Vec::with_capacity(rows.len());
    for row in rows {
        let Value::Object(row) = row else {
            continue;
        };
        let mut details: Option<String> = None;
        let mut m = Map::new();
        for (k, v) in row {
            if k == DETAILS_COL {
                if let Value::String(s) = v {
                    details = Some(s);
                }
            } else if !v.is_null() {
                m.insert(k, v);
            }
        }
        if let Some(raw) = details.filter(|s| !s.is_empty()) {
            if let Some(Value::Object(extra)) = parse_json(&raw, opts) {
                for (k, v) in extra {
                    m.insert(k, v);
                }
            }
        }
        restored.push(Value::Object(m));
    }
    result.insert("matches".into(), Value::Array(restored));
}

/// Keeps the common columns of each object match and packs the other keys
/// into `details` as Python JSON (`""` when there are none).
pub(crate) fn encode(response: &Map<String, Value>) -> Result<Map<String, Value>, Fail> {
    let mut out = without(response, "matches");
    let mut rows = alloc::vec::Vec::new();
    for m in py_iter(response.get("matches"))? {
        let Kind::Dict(m) = kind(m) else {
            continue;
        };
        let mut row = Map::new();
        for c in COMMON_COLS {
            row.insert((*c).into(), m.get(*c).cloned().unwrap_or(Value::Null));
        }
        let extra: Map<String, Value> = m
            .iter()
            .filter(|(k, _)| !COMMON_COLS.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let details = if extra.is_empty() {
            String::new()
        } else {
            to_python_json(&Value::Object(extra))
        };
        row.insert(DETAILS_COL.into(), Value::String(details));
        rows.push(Value::Object(row));
    }
    out.insert("matches".into(), Value::Array(rows));
    Ok(out)
}
