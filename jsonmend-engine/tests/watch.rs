//! Watch streams (spec §12): chunk invariance over the corpus and mutated
//! inputs, the spec's example, and the final result equal to `repair`.

#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

#[path = "props/watch.rs"]
mod watch;

#[path = "../benches/support/docs.rs"]
#[allow(dead_code)]
mod docs;

use jsonmend_engine::{Options, Schema, Watch};

const CORPUS: &str = include_str!("vectors/adam2go-corpus.jsonl");

fn inputs() -> Vec<String> {
    CORPUS
        .lines()
        .filter_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).ok()?;
            Some(v["input"].as_str()?.to_string())
        })
        .collect()
}

fn every_byte(n: usize) -> Vec<usize> {
    (1..n).collect()
}

fn random_cuts(rng: &mut docs::Rng, n: usize) -> Vec<usize> {
    let mut cuts = Vec::new();
    let mut at = 0;
    while at < n {
        at += 1 + rng.below(9) as usize;
        cuts.push(at.min(n));
    }
    cuts
}

fn assert_none(failures: &[String]) {
    let shown: Vec<_> = failures.iter().take(20).cloned().collect();
    assert!(
        failures.is_empty(),
        "{} failures, first:\n{}",
        failures.len(),
        shown.join("\n")
    );
}

#[test]
fn corpus_inputs_split_anywhere_give_the_same_stream() {
    let opts = Options::default();
    let mut rng = docs::Rng(7);
    let mut failures = Vec::new();
    for input in inputs() {
        let b = input.as_bytes();
        for cuts in [every_byte(b.len()), random_cuts(&mut rng, b.len())] {
            if let Err(e) = watch::check_split(b, &cuts, &opts) {
                failures.push(format!("{input:?}: {e}"));
                break;
            }
        }
    }
    assert_none(&failures);
}

#[test]
fn spec_example() {
    let opts = Options {
        schema: Some(Schema::parse("{!a:string}").unwrap()),
        ..Options::default()
    };
    let mut w = Watch::new(opts);
    let p = w.feed("{\"a\":\"x\"}").unwrap();
    let deltas: Vec<_> = p
        .deltas
        .iter()
        .map(|d| format!("{} {:?} {} {}", d.op.as_str(), d.path, d.text, d.at))
        .collect();
    assert_eq!(
        deltas,
        [
            "add \"\" {} 1",
            "add \"/a\" \"\" 6",
            "append \"/a\" \"x\" 7",
            "close \"/a\"  9",
            "close \"\"  9"
        ]
    );
    let events: Vec<_> = p
        .events
        .iter()
        .map(|e| format!("{} {} {}", e.kind.name(), e.at, e.permille))
        .collect();
    assert_eq!(
        events,
        [
            "field 9 1000",
            "required 9 1000",
            "ready 9 1000",
            "complete 9 1000"
        ]
    );
}
