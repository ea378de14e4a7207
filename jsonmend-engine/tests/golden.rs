//! Spec vectors of the engine's own results (`tests/vectors/toolwire-jsonmend.jsonl`):
//! the full `analyze` RepairPlan (decision, label, text, exactness,
//! completeness, every repair with its position and message, error, retry
//! hint) of every adam2go corpus input under the default profile.
//! `cargo xtask vectors` regenerates the file; `--check` (in CI) shows
//! drift as a diff.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, reason = "test")]

#[path = "../../xtask/shared/golden.rs"]
mod golden;

use jsonmend_engine::{Options, analyze};

#[test]
fn golden_vectors_match_the_code() {
    let corpus = include_str!("vectors/adam2go-corpus.jsonl");
    let lines: Vec<String> = corpus
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            // Only `id` and `input` are read: the expected values after
            // `verdict` may hold lone surrogates, which serde_json refuses.
            let head = l.find(", \"verdict\"").map_or(l, |at| &l[..at]);
            let case: serde_json::Value = serde_json::from_str(&format!("{head}}}")).unwrap();
            let input = case["input"].as_str().unwrap();
            let plan = analyze(input.as_bytes(), &Options::default()).to_json();
            let id = serde_json::to_string(&case["id"]).unwrap();
            format!("{{\"id\":{id},\"plan\":{plan}}}")
        })
        .collect();
    assert_eq!(lines.len(), 485);
    golden::check("toolwire-jsonmend.jsonl", &lines);
}
