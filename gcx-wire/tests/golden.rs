//! Spec vectors of gcx-wire's own encoders (`tests/vectors/toolwire-gcx.jsonl`):
//! the 20 benchmark fixtures through the per-tool bench layout and through
//! `EncodeAny`, in strict and Go-compatible mode. `cargo xtask vectors`
//! regenerates the file; `--check` (in CI) shows drift as a diff.
#![allow(clippy::unwrap_used, reason = "test")]

mod support {
    pub(crate) mod fixtures;
}
#[path = "../../xtask/shared/golden.rs"]
mod golden;
#[path = "../../xtask/shared/golden_json.rs"]
mod golden_json;

use gcx_wire::encode::{Mode, encode_any, encode_bench};
use serde_json::json;

fn text(out: Result<Vec<u8>, gcx_wire::encode::EncodeError>) -> serde_json::Value {
    match out {
        Ok(bytes) => json!(String::from_utf8_lossy(&bytes)),
        Err(e) => json!({ "error": e.to_string() }),
    }
}

#[test]
fn golden_vectors_match_the_code() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gcx-bench");
    let lines: Vec<String> = support::fixtures::fixtures(&dir)
        .iter()
        .map(|f| {
            let input = f.input.as_bytes();
            golden_json::line(&[
                ("name", json!(f.stem)),
                ("tool", json!(f.tool)),
                ("bench", text(encode_bench(&f.tool, input, Mode::Strict))),
                (
                    "bench_go",
                    text(encode_bench(&f.tool, input, Mode::GoCompat)),
                ),
                ("any", text(encode_any(&f.tool, input, Mode::Strict))),
                ("any_go", text(encode_any(&f.tool, input, Mode::GoCompat))),
            ])
        })
        .collect();
    assert_eq!(lines.len(), 20);
    golden::check("toolwire-gcx.jsonl", &lines);
}
