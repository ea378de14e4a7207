//! st4's transform: `results[].matches[]` ↔ flat rows (context lines as
//! JSON text, the enclosing symbol as three columns).

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde_json::{Map, Value};

use super::{iter_items, truthy};
use crate::decode::{DecodeOptions, parse_json};
use crate::tier1::schemas::st4::ROWS_KEY;

/// Regroups rows by file in first-seen order; `results` is appended last.
pub(crate) fn decode(result: &mut Map<String, Value>, opts: &DecodeOptions) {
    let rows = iter_items(result.shift_remove(ROWS_KEY).filter(truthy));
    let mut groups: Vec<(String, Vec<Value>)> = Vec::new();
    let mut index: alloc::collections::BTreeMap<String, usize> = Default::default();
    for row in &rows {
        let Some(Value::String(file)) = row.get("file") else {
            continue;
        };
        let get = |k: &str| row.get(k).cloned().unwrap_or(Value::Null);
        let mut m = Map::new();
        m.insert("line".into(), get("line"));
        let text = get("text");
        m.insert(
            "text".into(),
            if truthy(&text) {
                text
            } else {
                Value::String(String::new())
            },
        );
        for key in ["before", "after"] {
            if let Some(Value::String(raw)) = row.get(key) {
                if !raw.is_empty() {
                    let v = parse_json(raw, opts)
                        .unwrap_or_else(|| Value::Array(vec![Value::String(raw.clone())]));
                    m.insert(key.into(), v);
                }
            }
        }
        if row.get("in_id").is_some_and(truthy) {
            let mut inn = Map::new();
            inn.insert("id".into(), get("in_id"));
            inn.insert("line".into(), get("in_line"));
            inn.insert("end_line".into(), get("in_end"));
            m.insert("in".into(), Value::Object(inn));
        }
        let i = *index.entry(file.clone()).or_insert_with(|| {
            groups.push((file.clone(), Vec::new()));
            groups.len() - 1
        });
        if let Some(g) = groups.get_mut(i) {
            g.1.push(Value::Object(m));
        }
    }
    let results = groups
        .into_iter()
        .map(|(file, matches)| {
            let mut g = Map::new();
            g.insert("file".into(), Value::String(file));
            g.insert("matches".into(), Value::Array(matches));
            Value::Object(g)
        })
        .collect();
    result.insert("results".into(), Value::Array(results));
}
