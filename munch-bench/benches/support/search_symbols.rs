//! A generated `search_symbols` response of N rows (about 316 bytes of
//! JSON per row: 5,000 rows ≈ 1.58 MB, the size the reference was
//! measured on). Deterministic, so the Python reference can time the same
//! document (`cargo xtask bench munch` writes it to a file).
#![allow(dead_code)]

use serde_json::{Map, Value, json};

const KINDS: [&str; 4] = ["function", "method", "class", "constant"];
const PKGS: [&str; 6] = ["api", "models", "services", "util", "cli", "storage"];

/// The response object.
pub(crate) fn response(rows: usize) -> Value {
    let mut results = Vec::with_capacity(rows);
    for i in 0..rows {
        let pkg = PKGS[i % PKGS.len()];
        let file = format!("src/webshop/{pkg}/module_{:03}.py", (i / 7) % 150);
        let kind = KINDS[i % KINDS.len()];
        let name = format!("handle_{pkg}_{i}");
        let mut row = Map::new();
        row.insert("id".into(), json!(format!("{file}::{name}#{kind}")));
        row.insert("name".into(), json!(name));
        row.insert("kind".into(), json!(kind));
        row.insert("file".into(), json!(file));
        row.insert("line".into(), json!(10 + (i * 37) % 2000));
        row.insert("score".into(), json!(((i * 7919) % 1000) as f64 / 997.0));
        row.insert(
            "signature".into(),
            json!(format!(
                "def {name}(request, *, timeout: float = 30.0) -> Response"
            )),
        );
        row.insert(
            "summary".into(),
            json!(format!(
                "Handles the {pkg} request number {i}, with retries and logging."
            )),
        );
        results.push(Value::Object(row));
    }
    json!({
        "result_count": rows,
        "query": "handle",
        "repo": "acme/webshop",
        "results": results,
        "_meta": {"timing_ms": 14.3, "truncated": false, "total_symbols": rows * 3, "tokens_saved": 1200},
    })
}
