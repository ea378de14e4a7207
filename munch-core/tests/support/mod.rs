//! Shared test helpers: the reference vectors.
#![allow(
    dead_code,
    unreachable_pub,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use serde_json::Value;

/// One line of `tests/vectors/jcodemunch-1.108.399.jsonl`.
pub struct Vector {
    pub name: String,
    pub tool: String,
    pub line: Value,
}

impl Vector {
    pub fn str(&self, key: &str) -> Option<&str> {
        self.line.get(key).and_then(Value::as_str)
    }
    pub fn get(&self, key: &str) -> &Value {
        self.line.get(key).unwrap_or(&Value::Null)
    }
    pub fn flag(&self, key: &str) -> bool {
        self.line.get(key).and_then(Value::as_bool).unwrap_or(false)
    }
}

/// Every vector (integers beyond i64/u64 included: the dev-dependency on
/// serde_json turns on `arbitrary_precision`, spec D5).
pub fn vectors() -> Vec<Vector> {
    let text = include_str!("../vectors/jcodemunch-1.108.399.jsonl");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let line: Value = serde_json::from_str(l).expect("vector line");
            Vector {
                name: line
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                tool: line
                    .get("tool")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                line,
            }
        })
        .collect()
}
