//! The adam2go corpus inputs and the failure report the corpus-wide
//! property tests share.

const CORPUS: &str = include_str!("../vectors/adam2go-corpus.jsonl");

/// The string at `pointer` in each JSON line of `lines` that has one.
fn strings_at(lines: &str, pointer: &str) -> Vec<String> {
    lines
        .lines()
        .filter_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).ok()?;
            Some(v.pointer(pointer)?.as_str()?.to_string())
        })
        .collect()
}

/// The corpus inputs.
pub(crate) fn inputs() -> Vec<String> {
    strings_at(CORPUS, "/input")
}

const CASES: &str = include_str!("../conformance/cases.jsonl");

/// The `text` of every conformance case that has one (hand-written from
/// the specification, one or more per repair rule).
pub(crate) fn case_texts() -> Vec<String> {
    strings_at(CASES, "/params/text")
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
