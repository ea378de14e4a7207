//! sa2's transform: the pattern-specific keys of a match ↔ one JSON
//! `details` cell.

use alloc::string::String;
use serde_json::{Map, Value};

use super::{iter_items, truthy};
use crate::decode::{DecodeOptions, parse_json};
use crate::tier1::schemas::sa2::DETAILS_COL;

/// Drops null columns of each match and merges the parsed `details`
/// object into it (nothing when it does not parse to an object).
pub(crate) fn decode(result: &mut Map<String, Value>, opts: &DecodeOptions) {
    let rows = iter_items(result.get("matches").cloned().filter(truthy));
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
