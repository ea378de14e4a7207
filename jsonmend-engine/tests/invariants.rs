//! Property tests for the invariants of spec §2.4 over the corpus inputs
//! and deterministic mutations of them (deletions, insertions of the
//! characters repairs care about, truncations), plus every fuzz regression.

#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

#[path = "props/invariants.rs"]
mod invariants;

#[path = "../benches/support/docs.rs"]
#[allow(dead_code)]
mod docs;

#[path = "props/corpus.rs"]
mod corpus;

use corpus::{assert_none, inputs};

#[path = "props/mutate.rs"]
mod mutate;

use docs::Rng;
use mutate::mutate;

#[test]
fn corpus_inputs_keep_the_invariants() {
    let mut failures = Vec::new();
    for input in inputs().into_iter().chain(corpus::case_texts()) {
        if let Err(e) = invariants::check(input.as_bytes()) {
            failures.push(format!("{input:?}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn mutated_inputs_keep_the_invariants() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut failures = Vec::new();
    let inputs = inputs();
    for round in 0..150 {
        for input in &inputs {
            let m = mutate(&mut rng, input);
            if let Err(e) = invariants::check(&m) {
                failures.push(format!(
                    "round {round}: {:?}: {e}",
                    String::from_utf8_lossy(&m)
                ));
            }
        }
    }
    assert_none(&failures);
}

#[test]
fn every_prefix_of_corpus_inputs_repairs() {
    let mut failures = Vec::new();
    for input in inputs() {
        let b = input.as_bytes();
        for n in 1..b.len().min(400) {
            if let Err(e) = invariants::check(&b[..n]) {
                failures.push(format!("{:?}: {e}", String::from_utf8_lossy(&b[..n])));
            }
        }
    }
    assert_none(&failures);
}

/// The fast lane changes nothing: text and repairs equal the general path's.
/// (Bytes that are UTF-8 are repaired as text, so the input coming as text
/// or as bytes gives one result by construction.)
fn same_as_general_path(input: &[u8]) -> Result<(), String> {
    use jsonmend_engine::{Options, repair_bytes_unchecked};
    let fast = repair_bytes_unchecked(input, &Options::default());
    let slow = repair_bytes_unchecked(
        input,
        &Options {
            general_path_only: true,
            ..Options::default()
        },
    );
    match (fast, slow) {
        (Ok(a), Ok(b)) if a.text == b.text && a.repairs == b.repairs => Ok(()),
        (Err(a), Err(b)) if a == b => Ok(()),
        (a, b) => Err(format!(
            "fast {:?} vs general {:?}",
            a.map(|r| (r.text.into_owned(), r.repairs)),
            b.map(|r| (r.text.into_owned(), r.repairs))
        )),
    }
}

#[test]
fn fast_lane_equals_the_general_path() {
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    let mut failures = Vec::new();
    let inputs: Vec<String> = inputs().into_iter().chain(corpus::case_texts()).collect();
    for input in &inputs {
        if let Err(e) = same_as_general_path(input.as_bytes()) {
            failures.push(format!("{input:?}: {e}"));
        }
    }
    for _ in 0..100 {
        for input in &inputs {
            let m = mutate(&mut rng, input);
            if let Err(e) = same_as_general_path(&m) {
                failures.push(format!("{:?}: {e}", String::from_utf8_lossy(&m)));
            }
        }
    }
    assert_none(&failures);
}

#[test]
fn fast_lane_equals_the_general_path_on_bench_documents() {
    let (valid, defects) = docs::documents(400);
    for doc in [valid, defects] {
        if let Err(e) = same_as_general_path(doc.as_bytes()) {
            panic!("{}", &e[..e.len().min(2000)]);
        }
    }
}

/// Commas, colons, other quote characters and escapes inside keys and
/// values, where the general path probes for a string that ended early
/// (R024, R025), closes only at the opening kind or reads an escape, and
/// the fast lane must agree.
#[test]
fn fast_lane_equals_the_general_path_on_separators_and_quotes_in_strings() {
    const BITS: &[&str] = &[
        "a", ",", ":", " ", ", ", ": ", "\n", "\"", "'", "`", "}", "]", "b c", "\\n", "\\'",
        "\\\\", "\\u0041", "\\\"", "\\x",
    ];
    let mut rng = Rng(0x5EED_C0DE_0000_0001);
    let mut failures = Vec::new();
    for _ in 0..4000 {
        let text = |rng: &mut Rng| {
            let n = 1 + rng.below(5) as usize;
            (0..n)
                .map(|_| BITS[rng.below(BITS.len() as u64) as usize])
                .collect::<String>()
        };
        let q = if rng.below(3) == 0 { '\'' } else { '"' };
        let (k, v, w) = (text(&mut rng), text(&mut rng), text(&mut rng));
        let doc = match rng.below(4) {
            0 => format!("{{{q}{k}{q}: {q}{v}{q}, \"n\": 1}}"),
            1 => format!("{{{q}{k}{q}: {q}{v}{q},\n  {q}{w}{q}: 2}}"),
            2 => format!("[{q}{v}{q}, {q}{w}{q}]"),
            _ => format!("[{q}{v}{q},\n {q}{w}{q}: 3]"),
        };
        if let Err(e) = same_as_general_path(doc.as_bytes()) {
            failures.push(format!("{doc:?}: {e}"));
        }
    }
    assert_none(&failures);
}

/// Bare words where the lane takes JSON and Python literal spellings:
/// every word, neighbour and container position agrees with the general
/// path (repairs included).
#[test]
fn fast_lane_equals_the_general_path_on_bare_words() {
    const WORDS: &[&str] = &[
        "True", "False", "None", "TRUE", "nOnE", "Null", "true", "null", "Nothing", "NaN", "T",
        "Fals", "None(", "True_", "12", "-0.5",
    ];
    const AFTER: &[&str] = &[",", "}", "]", " ,", "\n", " // c\n", "(", " x", ""];
    let mut failures = Vec::new();
    for w in WORDS {
        for a in AFTER {
            for doc in [
                format!("{{\"k\": {w}{a} \"n\": 1}}"),
                format!("[{w}{a} 2]"),
                format!("[1 {w}{a}]"),
                format!("{{\"k\": {w}{a}"),
            ] {
                if let Err(e) = same_as_general_path(doc.as_bytes()) {
                    failures.push(format!("{doc:?}: {e}"));
                }
            }
        }
    }
    assert_none(&failures);
}

/// Items with no comma between them (R042), in objects and arrays, read
/// by the lane or by the general path: the same text and repairs.
#[test]
fn fast_lane_equals_the_general_path_on_missing_commas() {
    const KEYS: &[&str] = &["\"b\"", "'b'", "b", "_b", "\"b", "b c", "1", "{"];
    const VALUES: &[&str] = &["2", "\"x\"", "'x'", "true", "None", "{}", "[1]", "x y", "-"];
    const GAPS: &[&str] = &[" ", "\n", "\n  ", "\t", " // c\n", ""];
    let mut failures = Vec::new();
    for g in GAPS {
        for k in KEYS {
            let doc = format!("{{\"a\": 1{g}{k}: 2}}");
            if let Err(e) = same_as_general_path(doc.as_bytes()) {
                failures.push(format!("{doc:?}: {e}"));
            }
        }
        for v in VALUES {
            for doc in [format!("[1{g}{v}]"), format!("{{\"a\": [\"s\"{g}{v}, 3]}}")] {
                if let Err(e) = same_as_general_path(doc.as_bytes()) {
                    failures.push(format!("{doc:?}: {e}"));
                }
            }
        }
    }
    assert_none(&failures);
}

#[path = "../benches/support/adversarial.rs"]
mod adversarial;

#[test]
fn adversarial_families_keep_the_invariants() {
    let mut failures = Vec::new();
    for family in adversarial::FAMILIES {
        let doc = adversarial::family(family, 50_000);
        if let Err(e) = invariants::check(doc.as_bytes()) {
            failures.push(format!("{family}: {}", &e[..e.len().min(300)]));
        }
        if let Err(e) = same_as_general_path(doc.as_bytes()) {
            failures.push(format!("{family} (fast lane): {}", &e[..e.len().min(300)]));
        }
    }
    assert_none(&failures);
}

#[test]
fn duplicate_keys_are_found_in_large_objects() {
    // Past the small-object scan the fingerprint set takes over.
    let mut doc = String::from("{");
    for i in 0..500 {
        doc.push_str(&format!("\"k{i}\":{i},"));
    }
    doc.push_str("\"k7\":0,\"k499\":1}");
    let r = jsonmend_engine::repair_text(&doc).unwrap();
    let dups: Vec<_> = r
        .repairs
        .iter()
        .map(|x| x.detail.clone().unwrap_or_default())
        .collect();
    assert_eq!(dups, ["k7", "k499"]);
    assert_eq!(r.exactness, jsonmend_engine::Exactness::Exact);
    // The same through the engine (a trailing comma forces a repair).
    let broken = doc.replacen("}", ",}", 1);
    let r = jsonmend_engine::repair_text(&broken).unwrap();
    let dups = r
        .repairs
        .iter()
        .filter(|x| x.rule == jsonmend_engine::Rule::DuplicateKey)
        .count();
    assert_eq!(dups, 2);
}

/// Records that repeat their keys (the engine follows their shape and looks
/// nothing up) and records that leave it: reordered, shortened or grown,
/// with keys spelled another way (bare, single-quoted, escaped) and with
/// repeated keys, in small and large objects, one and two levels deep.
/// Every repeated key is reported where its token starts, and nothing else.
#[test]
fn duplicate_keys_in_records_that_repeat_their_keys() {
    const NAMES: &[&str] = &[
        "id",
        "name",
        "a",
        "",
        "long_key_name_here",
        "kë",
        "b_2",
        "abcdefgh",
    ];
    let mut rng = Rng(0xD0_0B1E_5EED);
    for round in 0..200 {
        let mut doc = String::from("[");
        let mut expected = Vec::new();
        let wide = round % 10 == 0;
        let names: Vec<String> = if wide {
            (0..30).map(|i| format!("w{i}")).collect()
        } else {
            NAMES.iter().map(|s| s.to_string()).collect()
        };
        let records = 2 + rng.below(6);
        for r in 0..records {
            if r > 0 {
                doc.push(',');
            }
            let mut order: Vec<usize> = (0..names.len()).collect();
            match rng.below(6) {
                0 => order.swap(0, rng.below(names.len() as u64) as usize),
                1 => {
                    order.truncate(1 + rng.below(names.len() as u64) as usize);
                }
                2 => {
                    let at = rng.below(order.len() as u64 + 1) as usize;
                    let again = order[rng.below(order.len() as u64) as usize];
                    order.insert(at, again);
                }
                _ => {}
            }
            doc.push('{');
            let mut seen = std::collections::HashSet::new();
            for (j, &k) in order.iter().enumerate() {
                if j > 0 {
                    doc.push(',');
                }
                let name = &names[k];
                if !seen.insert(name.clone()) {
                    expected.push(doc.len());
                }
                let ident =
                    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                match rng.below(8) {
                    0 if ident => doc.push_str(name),
                    1 => doc.push_str(&format!("'{name}'")),
                    2 if name.starts_with('a') => {
                        doc.push_str(&format!("\"\\u0061{}\"", &name[1..]))
                    }
                    _ => doc.push_str(&format!("\"{name}\"")),
                }
                doc.push(':');
                if k == 1 && rng.below(2) == 0 {
                    // A nested record, with shapes of its own one level down.
                    doc.push_str(&format!("{{\"x\":{j},\"y\":{j}}}"));
                } else {
                    doc.push_str(&j.to_string());
                }
            }
            doc.push('}');
        }
        // A trailing comma: the engine runs, not the validating fast path.
        doc.push_str(",]");
        let r = jsonmend_engine::repair_text(&doc).unwrap();
        let found: Vec<usize> = r
            .repairs
            .iter()
            .filter(|x| x.rule == jsonmend_engine::Rule::DuplicateKey)
            .map(|x| x.offset)
            .collect();
        assert_eq!(found, expected, "round {round}: {doc}");
    }
}
