//! The every-prefix truncation sweep (issue bar): 50 varied documents, every
//! prefix repairs to strict JSON whose value completes a prefix of the
//! original.

#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

#[path = "props/corpus.rs"]
#[allow(dead_code, reason = "only the failure report is used")]
mod corpus;

#[path = "props/prefix.rs"]
mod prefix;

#[path = "../benches/support/docs.rs"]
#[allow(dead_code)]
mod docs;

use docs::Rng;

const WORDS: &[&str] = &[
    "search",
    "weather \u{5317}\u{4eac}",
    "caf\u{e9}",
    "a \\\"quoted\\\" word",
    "line\\nbreak",
    "tab\\there",
    "\u{1f389}",
    "C:\\\\path",
    "\\u00e9t\\u00e9",
    "{not json}",
    "[1, 2]",
    "",
    "comma, inside",
    "colon: inside",
    "https://a.b/c?d=1",
    "\\ud83d\\ude00",
];

fn scalar(rng: &mut Rng) -> String {
    match rng.below(8) {
        0 => "true".into(),
        1 => "false".into(),
        2 => "null".into(),
        3 => format!("{}", rng.below(100_000)),
        4 => format!("-{}.{}e{}", rng.below(100), rng.below(1000), rng.below(20)),
        5 => format!("{}.{}", rng.below(1000), rng.below(100)),
        _ => format!("\"{}\"", WORDS[rng.below(WORDS.len() as u64) as usize]),
    }
}

fn value(rng: &mut Rng, depth: u32, out: &mut String) {
    let pick = if depth >= 4 { 9 } else { rng.below(10) };
    let ws = |rng: &mut Rng| match rng.below(4) {
        0 => "",
        1 => " ",
        2 => "\n  ",
        _ => "  ",
    };
    match pick {
        0..=3 => {
            out.push('{');
            let n = rng.below(5);
            for i in 0..n {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(ws(rng));
                out.push_str(&format!(
                    "\"{}_{i}\":",
                    WORDS[rng.below(4) as usize].replace(' ', "_")
                ));
                out.push_str(ws(rng));
                value(rng, depth + 1, out);
            }
            out.push_str(ws(rng));
            out.push('}');
        }
        4..=6 => {
            out.push('[');
            let n = rng.below(5);
            for i in 0..n {
                if i > 0 {
                    out.push(',');
                    out.push_str(ws(rng));
                }
                value(rng, depth + 1, out);
            }
            out.push(']');
        }
        _ => out.push_str(&scalar(rng)),
    }
}

fn documents() -> Vec<String> {
    let mut rng = Rng(42);
    let mut docs = Vec::new();
    while docs.len() < 50 {
        let mut d = String::new();
        value(&mut rng, 0, &mut d);
        if d.len() > 8 {
            docs.push(d);
        }
    }
    docs
}

#[test]
fn every_prefix_of_50_documents_repairs_to_a_prefix_completion() {
    let docs = documents();
    let mut prefixes = 0;
    let mut failures = Vec::new();
    for doc in &docs {
        for n in (1..=doc.len()).filter(|&n| doc.is_char_boundary(n)) {
            prefixes += 1;
            if let Err(e) = prefix::check_prefix(doc, n) {
                failures.push(e);
            }
        }
    }
    eprintln!(
        "truncation sweep: {} documents, {prefixes} prefixes, {} failures",
        docs.len(),
        failures.len()
    );
    corpus::assert_none(&failures);
}
