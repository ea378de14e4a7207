//! Times munch-core on a bench document, the way `cargo xtask bench munch`
//! times the Python reference: the median of nine calls, after warming up. `cargo xtask bench munch` runs it in turn with the
//! reference, round after round, so that both sides of each ratio are
//! measured under the same load.
//!
//! ```text
//! cargo run --release -p munch-bench --example timer -- target/munch-bench/search_symbols_5000.json
//! ```
//!
//! Prints one line per group: its name and the median time in ns
//! (`serde_json_serialize`, `serde_json_serialize_gen1`,
//! `serde_json_parse` and `serde_json_parse_typed` time `serde_json` on
//! the same value and text, in alternation with `encode_tier1`,
//! `encode_gen1`, `decode_tier1` and `decode_tier1_typed`;
//! `value_clone_tier1` clones and drops the `serde_json::Value` the
//! decode returns, in alternation with `decode_tier1_beside_clone`: what
//! building that value costs by itself).
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::time::Instant;

use munch_core::{decode, decode_borrowed, decode_into, encode};

#[path = "../benches/support/document.rs"]
mod document;
#[path = "../benches/support/typed.rs"]
mod typed;

/// The median time of nine calls of `f`, in ns, after calls for at least
/// 0.2 s: a fresh process first takes its memory from the system (the
/// reference's process has run other timings before its decodes).
fn median(mut f: impl FnMut()) -> u128 {
    let warm = Instant::now();
    f();
    while warm.elapsed().as_millis() < 200 {
        f();
    }
    let times: Vec<u128> = (0..9)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_nanos()
        })
        .collect();
    middle(times)
}

/// The median of `times`.
fn middle(mut times: Vec<u128>) -> u128 {
    times.sort_unstable();
    times.get(times.len() / 2).copied().unwrap_or(0)
}

/// The median times of `f` and `g` over fifteen calls of each in
/// alternation, after both warmed up: the two sides of a ratio measured
/// under the same load, call after call (this VM's load comes in bursts
/// that two separate runs of nine calls can fall on differently).
fn paired_median(mut f: impl FnMut(), mut g: impl FnMut()) -> (u128, u128) {
    let warm = Instant::now();
    while warm.elapsed().as_millis() < 200 {
        f();
        g();
    }
    let mut a = Vec::with_capacity(15);
    let mut b = Vec::with_capacity(15);
    for _ in 0..15 {
        let start = Instant::now();
        f();
        a.push(start.elapsed().as_nanos());
        let start = Instant::now();
        g();
        b.push(start.elapsed().as_nanos());
    }
    (middle(a), middle(b))
}

fn main() {
    let document::Document {
        text,
        value,
        tier1,
        gen1,
        opts,
    } = document::from_args("usage: timer <document.json>");
    // serde_json on the same value and text, in alternation with the
    // munch-core call it is compared with: the peer of the "within 2× of
    // serde_json" figures.
    let (encode_tier1, serialize) = paired_median(
        || {
            black_box(encode("search_symbols", black_box(&value), &opts));
        },
        || {
            black_box(serde_json::to_string(black_box(&value)).unwrap());
        },
    );
    // gen1 (the encoding of every tool without a tier-1 schema) on the
    // same value, against its own run of serde_json.
    let (encode_gen1, serialize_gen1) = paired_median(
        || {
            black_box(encode("get_hotspots", black_box(&value), &opts));
        },
        || {
            black_box(serde_json::to_string(black_box(&value)).unwrap());
        },
    );
    let (decode_tier1, parse) = paired_median(
        || {
            black_box(decode(black_box(&tier1)).unwrap());
        },
        || {
            black_box(serde_json::from_str::<serde_json::Value>(black_box(&text)).unwrap());
        },
    );
    // Into the caller's own types, against serde_json's parse into them.
    let (decode_typed, parse_typed) = paired_median(
        || {
            black_box(decode_into::<typed::Response>(black_box(&tier1)).unwrap());
        },
        || {
            black_box(serde_json::from_str::<typed::Response>(black_box(&text)).unwrap());
        },
    );
    // What building the decode's result costs by itself: the value it
    // returns cloned (every string, map and table allocated, copied and
    // freed; no text read) in alternation with the decode. The clone is of
    // the document's value as `serde_json` parsed it, equal to the decoded
    // one, its parts in allocation order (a clone of a decoded tree made
    // later among freed memory took three times as long on this VM, for
    // the same instructions).
    let (decode_beside_clone, clone) = paired_median(
        || {
            black_box(decode(black_box(&tier1)).unwrap());
        },
        || {
            black_box(black_box(&value).clone());
        },
    );
    let mut rows = vec![
        (String::from("encode_tier1"), encode_tier1),
        (String::from("encode_gen1"), encode_gen1),
        (String::from("decode_tier1"), decode_tier1),
        (String::from("decode_tier1_typed"), decode_typed),
        (
            String::from("decode_gen1"),
            median(|| {
                black_box(decode(black_box(&gen1)).unwrap());
            }),
        ),
    ];
    for (name, payload) in [("tier1", &tier1), ("gen1", &gen1)] {
        let borrowed = median(|| {
            black_box(decode_borrowed(black_box(payload)).unwrap());
        });
        rows.push((format!("decode_{name}_borrowed"), borrowed));
    }
    rows.push((String::from("serde_json_serialize"), serialize));
    rows.push((String::from("serde_json_serialize_gen1"), serialize_gen1));
    rows.push((String::from("serde_json_parse"), parse));
    rows.push((String::from("serde_json_parse_typed"), parse_typed));
    rows.push((
        String::from("decode_tier1_beside_clone"),
        decode_beside_clone,
    ));
    rows.push((String::from("value_clone_tier1"), clone));
    for (group, ns) in rows {
        println!("{group} {ns}");
    }
}
