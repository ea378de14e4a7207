//! C6: ip1, sa2 and ro1 (absent from the shared vectors), and regression
//! cases found by `cargo xtask munch-diff`, against payloads the reference
//! itself produced (`cargo xtask munch-vectors`, file
//! `tests/vectors/extra-1.108.399.jsonl`): reference-mode bytes, decode
//! with key order, the legacy id sa1, and verified round trips.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use munch_core::{Format, KeyOrder, Mode, Options, decode, encode, first_mismatch};
use serde_json::Value;

fn lines() -> Vec<Value> {
    include_str!("vectors/extra-1.108.399.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn extra_vectors_match_the_reference() {
    let mut ids = std::collections::BTreeSet::new();
    for v in lines() {
        let name = v["name"].as_str().unwrap();
        let tool = v["tool"].as_str().unwrap();
        let reference = encode(
            tool,
            &v["input"],
            &Options {
                format: Format::Compact,
                mode: Mode::Reference,
                ..Options::default()
            },
        );
        let Some(compact) = v["compact"].as_str() else {
            // The reference fell back to JSON.
            assert!(!reference.is_munch(), "{name}: {}", reference.meta.encoding);
            continue;
        };
        assert_eq!(reference.text, compact, "{name}");
        ids.insert(reference.meta.encoding);
        let got = decode(compact).unwrap();
        assert_eq!(
            first_mismatch(&v["decoded"], &got, KeyOrder::Exact),
            None,
            "{name}"
        );
        if let Some(legacy) = compact
            .contains(" enc=sa2\n")
            .then(|| compact.replacen(" enc=sa2\n", " enc=sa1\n", 1))
        {
            assert_eq!(
                first_mismatch(&got, &decode(&legacy).unwrap(), KeyOrder::Exact),
                None,
                "{name} sa1"
            );
        }
        let verified = encode(
            tool,
            &v["input"],
            &Options {
                format: Format::Compact,
                ..Options::default()
            },
        );
        let back = decode(&verified.text).unwrap();
        assert_eq!(
            first_mismatch(&v["input"], &back, KeyOrder::Any),
            None,
            "{name} verified"
        );
    }
    for id in ["ip1", "ro1", "sa2"] {
        assert!(ids.contains(id), "no {id} case");
    }
}

/// sa2 writes `languages_scanned` twice (a repr scalar, then JSON); the
/// JSON wins. A float `elapsed_ms` comes back as a string (fixed int type).
#[test]
fn search_ast_specifics() {
    let all = lines();
    let case = |n: &str| all.iter().find(|v| v["name"] == n).unwrap();
    let todo = case("search_ast/todo_and_magic");
    let compact = todo["compact"].as_str().unwrap();
    assert!(
        compact.contains("_meta.languages_scanned=\"['python', 'go']\""),
        "{compact}"
    );
    assert!(
        compact.contains("__json._meta.languages_scanned="),
        "{compact}"
    );
    let got = decode(compact).unwrap();
    assert_eq!(
        got["_meta"]["languages_scanned"],
        serde_json::json!(["python", "go"])
    );
    assert_eq!(got["matches"][0]["marker"], "TODO");
    assert_eq!(got["matches"][1]["value"], 17);
    let float = decode(
        case("search_ast/float_elapsed")["compact"]
            .as_str()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(float["_meta"]["elapsed_ms"], "1.5");
    assert_eq!(float["_meta"]["timing_ms"], 2.0);
}
