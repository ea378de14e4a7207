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
