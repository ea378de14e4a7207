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

/// Whether the tests run with munch-core's `arbitrary-precision` feature
/// (serde_json keeps integers beyond 64 bits exactly).
pub const BIG_INTS: bool = cfg!(feature = "arbitrary-precision");

/// Every vector this configuration can represent. A vector holding an
/// integer beyond i64/u64 needs `arbitrary-precision` (without it serde_json
/// reads such an integer as a float, so the reference's bytes cannot come
/// back); it is left out of a default build and checked when `cargo xtask
/// ci` runs the suite again with the feature.
pub fn vectors() -> Vec<Vector> {
    let text = include_str!("../vectors/jcodemunch-1.108.399.jsonl");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .filter(|l| BIG_INTS || !has_big_int(l))
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

/// The pinned figure of a whole-suite count: `all` over every vector,
/// `without_big` when the vectors with big integers are left out.
pub fn pinned<T>(all: T, without_big: T) -> T {
    if BIG_INTS { all } else { without_big }
}

/// Whether a JSON line has an integer literal (outside strings) that fits
/// neither i64 nor u64.
pub fn has_big_int(line: &str) -> bool {
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < b.len() && matches!(b[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                let token = &line[start..i];
                let integer = !token.contains(['.', 'e', 'E']);
                if integer && token.parse::<i64>().is_err() && token.parse::<u64>().is_err() {
                    return true;
                }
            }
            _ => i += 1,
        }
    }
    false
}
