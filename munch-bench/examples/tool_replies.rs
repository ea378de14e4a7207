//! The verified encoder on every tool's reply, not only search_symbols:
//! the input of the first reference vector of each tool (and of each gen1
//! vector) with its longest list of objects grown to `N` items (default
//! 2,000; copies get `_<k>` appended to their strings, so files and ids
//! stay distinct), timed against `serde_json::to_string` of the same
//! value. Prints one line per reply: its JSON size, the median of 21
//! calls of each, the ratio, the encoding chosen, and each rung's outcome.
//!
//! `cargo run --release -p munch-bench --example tool_replies [N]`
//! (`cargo xtask bench munch` runs it).

#![allow(
    missing_docs,
    clippy::expect_used,
    clippy::indexing_slicing,
    reason = "a measuring program over a file of this repository: a missing or broken file stops it"
)]

use std::hint::black_box;
use std::time::Instant;

use munch_core::{Format, Mode, Options, Outcome};
use serde_json::{Map, Value};

const VECTORS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../munch-core/tests/vectors/jcodemunch-1.108.399.jsonl"
);

/// The longest list of objects in `v` (members of objects searched).
fn longest_list(v: &mut Value) -> Option<&mut Vec<Value>> {
    match v {
        Value::Array(items) if !items.is_empty() && items.iter().all(Value::is_object) => {
            Some(items)
        }
        Value::Object(m) => m
            .values_mut()
            .filter_map(longest_list)
            .max_by_key(|items| items.len()),
        _ => None,
    }
}

/// Appends `_<k>` to every non-empty string in `v`.
fn vary(v: &mut Value, k: usize) {
    match v {
        Value::String(s) if !s.is_empty() => s.push_str(&format!("_{k}")),
        Value::Array(items) => items.iter_mut().for_each(|x| vary(x, k)),
        Value::Object(m) => m.values_mut().for_each(|x| vary(x, k)),
        _ => {}
    }
}

/// `v` with its longest list of objects grown to `n` items.
fn grow(mut v: Value, n: usize) -> Value {
    if let Some(items) = longest_list(&mut v) {
        let base = items.clone();
        for i in items.len()..n {
            let mut item = base[i % base.len()].clone();
            vary(&mut item, i / base.len());
            items.push(item);
        }
    }
    v
}

/// Median milliseconds of 21 calls of `f`.
fn median_ms(mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..21)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn outcome(o: &Outcome) -> String {
    match o {
        Outcome::Mismatch(m) => format!("mismatch {}", m.kind),
        other => format!("{other:?}"),
    }
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2000);
    let text = std::fs::read_to_string(VECTORS).expect("the reference vectors");
    let mut seen = Vec::new();
    println!(
        "{:<34} {:>9} {:>9} {:>9} {:>6} {:>9} {:>6}  encoding (compact): rung outcomes",
        "reply", "JSON B", "serde ms", "auto ms", "×", "compact", "×"
    );
    for line in text.lines() {
        let Ok(vector) = serde_json::from_str::<Map<String, Value>>(line) else {
            continue;
        };
        let name = vector["name"].as_str().unwrap_or_default().to_string();
        let tool = vector["tool"].as_str().unwrap_or_default().to_string();
        let key = if tool.starts_with("gen1") || name.starts_with("gen1/") {
            name.clone()
        } else {
            tool.clone()
        };
        if seen.contains(&key) || !vector["input"].is_object() {
            continue;
        }
        seen.push(key);
        let input = grow(vector["input"].clone(), n);
        let json = serde_json::to_string(&input).expect("JSON");
        let serde = median_ms(|| {
            black_box(serde_json::to_string(black_box(&input)).ok());
        });
        let mut row = format!("{name:<34} {:>9} {serde:>9.3}", json.len());
        let mut chosen = String::new();
        for format in [Format::Auto, Format::Compact] {
            let opts = Options {
                format,
                mode: Mode::Verified,
                ..Options::default()
            };
            let ms = median_ms(|| {
                black_box(munch_core::encode(&tool, black_box(&input), &opts));
            });
            row += &format!(" {ms:>9.3} {:>6.1}", ms / serde);
            let out = munch_core::encode(&tool, &input, &opts);
            let rungs: Vec<String> = out
                .meta
                .attempts
                .iter()
                .map(|a| outcome(&a.outcome))
                .collect();
            chosen = format!("{}: {}", out.meta.encoding, rungs.join(", "));
        }
        println!("{row}  {chosen}");
    }
}
