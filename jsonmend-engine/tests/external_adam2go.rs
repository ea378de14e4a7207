//! The external adam2go corpus (CC0, spec §17.2): every case through
//! `repair` under the default profile, with the corpus's pass rules. The
//! only accepted failures are the divergences the spec records, each
//! checked for its exact output.

#![allow(clippy::indexing_slicing, clippy::unwrap_used)]

use jsonmend_engine::{ErrorCode, Options, repair};
use serde_json::Value;

const CORPUS: &str = include_str!("vectors/adam2go-corpus.jsonl");
const DIVERGENCES: &str = include_str!("vectors/adam2go-divergences.jsonl");

/// Equality by type: numbers by value (`1 == 1.0`), objects as key sets.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(p), Some(q)) => p == q,
            _ => x == y,
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// serde_json refuses lone surrogate escapes, which the corpus uses in
/// expected values; they become U+FFFD (what strict JSON can carry).
fn parse_case(line: &str) -> Value {
    let b = line.as_bytes();
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    let unit = |at: usize| {
        line.get(at..at + 4)
            .and_then(|h| u32::from_str_radix(h, 16).ok())
    };
    while i < b.len() {
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'u') {
            if let Some(u) = unit(i + 2) {
                let paired_hi = (0xD800..0xDC00).contains(&u)
                    && b.get(i + 6) == Some(&b'\\')
                    && unit(i + 8).is_some_and(|l| (0xDC00..0xE000).contains(&l));
                if paired_hi {
                    out.push_str(&line[i..i + 12]);
                    i += 12;
                    continue;
                }
                if (0xD800..0xE000).contains(&u) {
                    out.push_str("\\ufffd");
                    i += 6;
                    continue;
                }
            }
        }
        if b[i] == b'\\' {
            out.push_str(&line[i..i + 2]);
            i += 2;
            continue;
        }
        let c = line[i..].chars().next().unwrap_or(' ');
        out.push(c);
        i += c.len_utf8();
    }
    serde_json::from_str(&out).unwrap_or(Value::Null)
}

fn parse_text(text: &str) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let v = serde::Deserialize::deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

fn outcome(input: &str) -> Result<String, ErrorCode> {
    repair(input, &Options::default())
        .map(|r| r.text.into_owned())
        .map_err(|e| e.code)
}

/// Whether a case passes, with the reason when it does not.
fn judge(case: &Value) -> Result<(), String> {
    let input = case["input"].as_str().unwrap_or_default();
    let verdict = case["verdict"].as_str().unwrap_or_default();
    let out = outcome(input);
    let fatal = |c: &ErrorCode| matches!(c, ErrorCode::E001 | ErrorCode::E002 | ErrorCode::E003);
    if verdict == "unrecoverable" {
        return match out {
            Err(c) if fatal(&c) => Ok(()),
            other => Err(format!("should be refused, got {other:?}")),
        };
    }
    let value = match &out {
        Ok(text) => match parse_text(text) {
            Ok(v) => Some(v),
            Err(e) => return Err(format!("output is not strict JSON ({e}): {text}")),
        },
        Err(c) if fatal(c) => None,
        Err(c) => return Err(format!("error {c}")),
    };
    if verdict == "deterministic" {
        let Some(value) = value else {
            return Err(format!("error {:?}", out.err()));
        };
        if case.get("check").and_then(Value::as_str) == Some("valid") {
            return Ok(());
        }
        return if same(&value, &case["expected"]) {
            Ok(())
        } else {
            Err(format!("got {value}"))
        };
    }
    let accepted = case["accepted"].as_array().cloned().unwrap_or_default();
    let value = value.unwrap_or(Value::String(String::new()));
    if accepted.iter().any(|a| same(a, &value)) {
        Ok(())
    } else {
        Err(format!("got {value}"))
    }
}

#[test]
fn adam2go_corpus_passes_except_recorded_divergences() {
    let divergences: Vec<Value> = DIVERGENCES
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or(Value::Null))
        .collect();
    let mut total = 0;
    let mut failures = Vec::new();
    for line in CORPUS.lines().filter(|l| !l.trim().is_empty()) {
        let case = parse_case(line);
        total += 1;
        let id = case["id"].as_str().unwrap_or_default().to_string();
        if let Err(reason) = judge(&case) {
            failures.push((id, reason));
        }
    }
    let mut unexpected = Vec::new();
    for (id, reason) in &failures {
        let recorded = divergences.iter().find(|d| d["case"] == id.as_str());
        match recorded {
            Some(d) => {
                let case: Value = CORPUS
                    .lines()
                    .map(parse_case)
                    .find(|c| c["id"] == id.as_str())
                    .unwrap_or(Value::Null);
                let out = outcome(case["input"].as_str().unwrap_or_default());
                assert_eq!(
                    out.as_deref().ok(),
                    d["output"].as_str(),
                    "divergence {id} must give its recorded output"
                );
            }
            None => unexpected.push(format!("{id}: {reason}")),
        }
    }
    let passed = total - failures.len();
    eprintln!(
        "adam2go: {passed}/{total} passed ({:.1}%), {} recorded divergences",
        100.0 * passed as f64 / total as f64,
        failures.len() - unexpected.len()
    );
    assert!(
        unexpected.is_empty(),
        "{} unexpected failures:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
}
