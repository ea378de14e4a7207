//! Spec §19: the engine's deterministic work counter stays within
//! `8·n + 4096` units on every adversarial family at 1 MB, on the bench
//! documents with defects, and on missing commas (a peer was quadratic
//! there). Needs the `work-counter` feature (`cargo xtask ci` runs it).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::cast_precision_loss,
    reason = "test"
)]

#[path = "../benches/support/adversarial.rs"]
mod adversarial;
#[allow(dead_code, reason = "only the generator is used")]
#[path = "../benches/support/docs.rs"]
mod docs;

use jsonmend_engine::{Options, engine_work};

const MB: usize = 1_000_000;

fn check(name: &str, input: &str) -> usize {
    let opts = Options {
        max_depth: usize::MAX,
        max_input: usize::MAX,
        ..Options::default()
    };
    let n = input.len();
    let work = engine_work(input.as_bytes(), &opts).unwrap_or_else(|| panic!("{name}: no result"));
    let bound = 8 * n + 4096;
    assert!(
        work <= bound,
        "{name}: {work} units for {n} bytes (bound {bound})"
    );
    work
}

#[test]
fn every_adversarial_family_is_linear_by_count() {
    for family in adversarial::FAMILIES {
        let doc = adversarial::family(family, MB);
        let work = check(family, &doc);
        eprintln!("{family}: {:.2} units/byte", work as f64 / doc.len() as f64);
    }
}

#[test]
fn documents_with_defects_and_missing_commas_are_linear_by_count() {
    let (_, defects) = docs::documents(2_000);
    check("defects", &defects);
    let mut commas = String::from("[");
    while commas.len() < MB {
        commas.push_str("{\"a\": 1}\n");
    }
    commas.push(']');
    check("missing-commas", &commas);
}

/// A watch stream fed `chunk` bytes at a time: total work within the
/// one-shot bound plus a constant per feed (spec §12.4: each feed costs
/// O(chunk + deltas)).
fn check_watch(name: &str, input: &str, chunk: usize) -> usize {
    let opts = Options {
        max_depth: usize::MAX,
        max_input: usize::MAX,
        ..Options::default()
    };
    let mut w = jsonmend_engine::Watch::new(opts);
    let mut feeds = 0;
    for piece in input.as_bytes().chunks(chunk) {
        let _ = w.feed_bytes(piece);
        feeds += 1;
    }
    let work = w.work();
    let n = input.len();
    let bound = 8 * n + 4096 + 64 * feeds;
    assert!(
        work <= bound,
        "{name} in {chunk}-byte feeds: {work} units for {n} bytes (bound {bound})"
    );
    work
}

#[test]
fn watch_streams_are_linear_by_count() {
    for family in adversarial::FAMILIES {
        // 1-byte feeds on a smaller document (debug builds run this in
        // CI); a quadratic feed would still be 100× over the bound.
        for (chunk, n) in [(1, 20_000), (7, 100_000), (4096, 100_000)] {
            let doc = adversarial::family(family, n);
            let work = check_watch(family, &doc, chunk);
            eprintln!(
                "watch {family} / {chunk}: {:.2} units/byte",
                work as f64 / doc.len() as f64
            );
        }
    }
    let (_, defects) = docs::documents(200);
    check_watch("defects", &defects, 1);
    check_watch("defects", &defects, 4096);
}
