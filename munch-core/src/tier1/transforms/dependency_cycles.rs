//! dc2's transform: a cycle (list of files) ↔ `{length, files}` with the
//! files joined by U+001F.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde_json::{Map, Value};

use super::iter_items;
use crate::encode::Fail;
use crate::tier1::schemas::dc2::CYCLE_SEP;
use crate::value::{Kind, kind};

/// Splits each cycle's files; an empty cell is `[""]` when `length` is 1
/// and `[]` otherwise (the reference crashes there, spec D1.2).
pub(crate) fn decode(result: &mut Map<String, Value>) {
    // Taken, not copied: the rebuilt list goes back in its place.
    let Some(cycles) = result.get_mut("cycles").map(core::mem::take) else {
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

/// Each list cycle becomes `{length, files}` with the files joined by
/// U+001F; non-list cycles are dropped.
pub(crate) fn encode(response: &Map<String, Value>) -> Result<Map<String, Value>, Fail> {
    let Some(Value::Array(cycles)) = response.get("cycles") else {
        return Ok(response.clone());
    };
    let mut rows = Vec::new();
    for c in cycles {
        let Kind::List(files) = kind(c) else {
            continue;
        };
        let mut joined = String::new();
        for (i, f) in files.iter().enumerate() {
            let Value::String(f) = f else {
                return Err(Fail::new("cycle file is not a string"));
            };
            if i > 0 {
                joined.push(CYCLE_SEP);
            }
            joined.push_str(f);
        }
        let mut row = Map::new();
        row.insert("length".into(), Value::from(files.len()));
        row.insert("files".into(), Value::String(joined));
        rows.push(Value::Object(row));
    }
    // The other members copied in order; the cycles are not: their rows
    // take their place.
    let mut rows = Some(Value::Array(rows));
    Ok(response
        .iter()
        .map(|(k, v)| {
            let v = match k.as_str() {
                "cycles" => rows.take().unwrap_or_default(),
                _ => v.clone(),
            };
            (k.clone(), v)
        })
        .collect())
}

/// Whether decoding the rows [`encode`] makes gives back exactly the
/// response's cycles: `cycles` is a list whose every cycle is a list of
/// strings, none holding the separator, and none writes an empty `files`
/// cell (`[]` and `[""]`, which the reference cannot read: the full check
/// decides those).
pub(crate) fn regroups_exactly(response: &Map<String, Value>) -> bool {
    let Some(Value::Array(cycles)) = response.get("cycles") else {
        return false;
    };
    let plain = |f: &Value| f.as_str().is_some_and(|f| !f.contains(CYCLE_SEP));
    cycles
        .iter()
        .all(|c| matches!(c, Value::Array(files) if files.iter().all(plain)))
        && !has_empty_cycle(response)
}

/// Whether a cycle writes an empty `files` cell, which the reference
/// decoder cannot read (`[]` or `[""]`).
pub(crate) fn has_empty_cycle(response: &Map<String, Value>) -> bool {
    match response.get("cycles") {
        Some(Value::Array(cycles)) => cycles.iter().any(|c| match c {
            Value::Array(files) => {
                files.is_empty()
                    || (files.len() == 1 && files.first().and_then(Value::as_str) == Some(""))
            }
            _ => false,
        }),
        _ => false,
    }
}
