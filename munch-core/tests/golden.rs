//! Spec vectors of munch-core's own output (`tests/vectors/toolwire-munch.jsonl`):
//! the verified `compact` and `auto` payloads and their metadata for the
//! inputs of the reference vectors. They pin where munch-core deliberately
//! differs from the reference (hardened rungs, fallbacks). `cargo xtask
//! vectors` regenerates the file; `cargo xtask vectors --check` (in CI)
//! shows any drift as a diff.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test"
)]

#[path = "../../xtask/shared/golden.rs"]
mod golden;
#[path = "../../xtask/shared/golden_json.rs"]
mod golden_json;
mod support;

use munch_core::{Format, Options, encode};
use serde_json::{Value, json};

const FILE: &str = "toolwire-munch.jsonl";

/// Inputs above this size are left out (the golden file stays readable).
const MAX_INPUT: usize = 16 * 1024;

/// (name, tool, input).
fn inputs() -> Vec<(String, String, Value)> {
    let files = [
        include_str!("vectors/jcodemunch-1.108.399.jsonl"),
        include_str!("vectors/extra-1.108.399.jsonl"),
    ];
    files
        .iter()
        .flat_map(|f| f.lines().filter(|l| !l.trim().is_empty()))
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["input"].to_string().len() <= MAX_INPUT)
        .map(|v| {
            let name = v["name"].as_str().unwrap().to_owned();
            let tool = v["tool"].as_str().unwrap().to_owned();
            (name, tool, v["input"].clone())
        })
        .collect()
}

fn lines(inputs: &[(String, String, Value)]) -> Vec<String> {
    inputs
        .iter()
        .map(|(name, tool, input)| {
            let run = |format| {
                encode(
                    tool,
                    input,
                    &Options {
                        format,
                        ..Options::default()
                    },
                )
            };
            let (compact, auto) = (run(Format::Compact), run(Format::Auto));
            golden_json::line(&[
                ("name", json!(name)),
                ("tool", json!(tool)),
                ("compact", json!(compact.text)),
                ("compact_encoding", json!(compact.meta.encoding)),
                ("auto", json!(auto.text)),
                ("auto_encoding", json!(auto.meta.encoding)),
            ])
        })
        .collect()
}

#[test]
fn golden_vectors_match_the_code() {
    golden::check(FILE, &lines(&inputs()));
}
