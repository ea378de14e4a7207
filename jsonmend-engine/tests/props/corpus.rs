//! The adam2go corpus inputs and the failure report the corpus-wide
//! property tests share.

const CORPUS: &str = include_str!("../vectors/adam2go-corpus.jsonl");

/// The corpus inputs.
pub(crate) fn inputs() -> Vec<String> {
    CORPUS
        .lines()
        .filter_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).ok()?;
            Some(v["input"].as_str()?.to_string())
        })
        .collect()
}

const CASES: &str = include_str!("../conformance/cases.jsonl");

/// The `text` of every conformance case that has one (hand-written from
/// the specification, one or more per repair rule).
pub(crate) fn case_texts() -> Vec<String> {
    CASES
        .lines()
        .filter_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).ok()?;
            Some(v["params"]["text"].as_str()?.to_string())
        })
        .collect()
}

/// Fails with the first failures listed.
pub(crate) fn assert_none(failures: &[String]) {
    let shown: Vec<_> = failures.iter().take(20).cloned().collect();
    assert!(
        failures.is_empty(),
        "{} failures, first:\n{}",
        failures.len(),
        shown.join("\n")
    );
}
