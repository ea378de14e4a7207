//! dc2's transform: a cycle (list of files) ↔ `{length, files}` with the
//! files joined by U+001F.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde_json::{Map, Value};

use super::iter_items;
use crate::tier1::schemas::dc2::CYCLE_SEP;

/// Splits each cycle's files; an empty cell is `[""]` when `length` is 1
/// and `[]` otherwise (the reference crashes there, spec D1.2).
pub(crate) fn decode(result: &mut Map<String, Value>) {
    let Some(cycles) = result.get("cycles").cloned() else {
        return;
    };
    let mut out = Vec::new();
    for c in iter_items(Some(cycles)) {
        let Value::Object(c) = c else {
            continue;
        };
        let files: Vec<Value> = match c.get("files") {
            None => continue,
            Some(Value::String(s)) => s
                .split(CYCLE_SEP)
                .map(|p| Value::String(p.into()))
                .collect(),
            Some(_) => {
                if c.get("length").and_then(Value::as_i64) == Some(1) {
                    vec![Value::String(String::new())]
                } else {
                    Vec::new()
                }
            }
        };
        out.push(Value::Array(files));
    }
    result.insert("cycles".into(), Value::Array(out));
}
