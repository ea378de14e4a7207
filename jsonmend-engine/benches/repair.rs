//! Throughput of `repair_text` against the peers measured in the same run
//! (spec §18): jsonfix 0.2.0, jsonrepair-rs, and serde_json parsing the
//! valid document; the same comparisons as interleaved pairs; then the
//! scaling runs at 1, 10 and 100 MB, and 1 against 100 MB interleaved.

#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

#[path = "support/adversarial.rs"]
mod adversarial;
#[path = "support/docs.rs"]
mod docs;
#[path = "support/paired.rs"]
mod paired;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

fn peers(c: &mut Criterion) {
    let (valid, defects) = docs::documents(21_843);
    eprintln!(
        "valid.json {} bytes, defects.json {} bytes",
        valid.len(),
        defects.len()
    );
    // The defective document repairs to the valid one's value.
    let a: serde_json::Value = serde_json::from_str(&valid).unwrap();
    let fixed = jsonmend_engine::repair_text(&defects).unwrap();
    let b: serde_json::Value = serde_json::from_str(&fixed.text).unwrap();
    assert_eq!(a, b, "defects.json must repair to valid.json's value");

    for (name, doc) in [("valid", &valid), ("defects", &defects)] {
        let mut g = c.benchmark_group(name);
        g.throughput(Throughput::Bytes(doc.len() as u64));
        g.sample_size(10).measurement_time(Duration::from_secs(8));
        g.bench_function("jsonmend-engine", |b| {
            b.iter(|| jsonmend_engine::repair_text(black_box(doc)).map(|r| r.text.len()))
        });
        g.bench_function("jsonfix", |b| {
            b.iter(|| jsonfix::repair(black_box(doc)).map(|s| s.len()))
        });
        g.bench_function("jsonrepair-rs", |b| {
            b.iter(|| jsonrepair_rs::jsonrepair(black_box(doc)).map(|s| s.len()))
        });
        if name == "valid" {
            g.bench_function("serde_json", |b| {
                b.iter(|| serde_json::from_str::<serde::de::IgnoredAny>(black_box(doc)).is_ok())
            });
        }
        g.finish();
    }
}

/// Missing commas everywhere: a peer went quadratic on these.
fn missing_commas(bytes: usize) -> String {
    let mut s = String::from("[\n");
    while s.len() < bytes {
        s.push_str("{\"a\": 1\n\"b\": \"x\"}\n");
    }
    s.push(']');
    s
}

fn scaling(c: &mut Criterion) {
    let mut g = c.benchmark_group("scaling");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    // One document alive at a time, generated right before it is measured.
    for family in ["valid", "defects", "missing-commas"] {
        for mb in [1usize, 10, 100] {
            let doc = match family {
                "missing-commas" => missing_commas(mb * 1_000_000),
                _ => {
                    let (valid, defects) = docs::documents_of(mb * 1_000_000);
                    if family == "valid" { valid } else { defects }
                }
            };
            g.throughput(Throughput::Bytes(doc.len() as u64));
            g.bench_with_input(
                BenchmarkId::new(family, format!("{mb}MB")),
                &doc,
                |b, doc| {
                    b.iter(|| jsonmend_engine::repair_text(black_box(doc)).map(|r| r.text.len()))
                },
            );
        }
    }
    g.finish();
}

/// Every adversarial family at 1 and 10 MB: time per byte must not grow.
fn adversarial_scaling(c: &mut Criterion) {
    let mut g = c.benchmark_group("adversarial");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    for family in adversarial::FAMILIES {
        for mb in [1usize, 10] {
            let doc = adversarial::family(family, mb * 1_000_000);
            g.throughput(Throughput::Bytes(doc.len() as u64));
            g.bench_with_input(
                BenchmarkId::new(*family, format!("{mb}MB")),
                &doc,
                |b, doc| {
                    b.iter(|| jsonmend_engine::repair_text(black_box(doc)).map(|r| r.text.len()))
                },
            );
        }
    }
    g.finish();
}

/// The peer comparisons again as interleaved pairs (`support/paired.rs`),
/// printed as the median of the per-round ratios next to criterion's
/// medians, which are taken minutes apart.
fn paired(_c: &mut Criterion) {
    let (valid, defects) = docs::documents(21_843);
    type Run<'a> = (&'a str, &'a dyn Fn(&str) -> usize);
    let ours: Run<'_> = ("jsonmend-engine", &|d| {
        jsonmend_engine::repair_text(d).map_or(0, |r| r.text.len())
    });
    let jsonfix: Run<'_> = ("jsonfix", &|d| jsonfix::repair(d).map_or(0, |s| s.len()));
    let serde: Run<'_> = ("serde_json", &|d| {
        usize::from(serde_json::from_str::<serde::de::IgnoredAny>(d).is_ok())
    });
    for (name, doc, peer) in [
        ("defects", &defects, jsonfix),
        ("valid", &valid, jsonfix),
        ("valid", &valid, serde),
    ] {
        const ROUNDS: usize = 41;
        let p = paired::interleaved(ROUNDS, &|| (ours.1)(black_box(doc)), &|| {
            (peer.1)(black_box(doc))
        });
        eprintln!(
            "paired/{name}: {} ÷ {}, median of {ROUNDS} interleaved pairs: {:.2}× \
             (medians {:.3} ms and {:.3} ms, ratio {:.2}×)",
            peer.0,
            ours.0,
            p.ratio,
            p.b * 1e3,
            p.a * 1e3,
            p.b / p.a
        );
    }
}

/// The scaling runs again as interleaved rounds: each round times the
/// 1 MB document (median of 21 calls) right before the 100 MB one (median
/// of 3), and the round's ratio is their time per byte; printed as the median over the
/// rounds (a burst of load on this shared VM during one size's criterion
/// samples otherwise reads as a change of time per byte).
fn paired_scaling(_c: &mut Criterion) {
    let time = |doc: &str| {
        let t = std::time::Instant::now();
        black_box(jsonmend_engine::repair_text(black_box(doc)).map_or(0, |r| r.text.len()));
        t.elapsed().as_secs_f64()
    };
    let median = paired::median;
    for family in ["valid", "defects", "missing-commas"] {
        let doc = |bytes: usize| match family {
            "missing-commas" => missing_commas(bytes),
            _ => {
                let (valid, defects) = docs::documents_of(bytes);
                if family == "valid" { valid } else { defects }
            }
        };
        let (small, large) = (doc(1_000_000), doc(100_000_000));
        const ROUNDS: usize = 7;
        let mut ratio = Vec::new();
        time(&small);
        for _ in 0..ROUNDS {
            let mut t: Vec<f64> = (0..21).map(|_| time(&small)).collect();
            let per_byte_small = median(&mut t) / small.len() as f64;
            let mut t: Vec<f64> = (0..3).map(|_| time(&large)).collect();
            let per_byte_large = median(&mut t) / large.len() as f64;
            ratio.push(per_byte_large / per_byte_small);
        }
        eprintln!(
            "paired-scaling/{family}: time per byte at 100 MB ÷ at 1 MB, median of {ROUNDS} \
             interleaved rounds: {:.2}×",
            median(&mut ratio)
        );
    }
}

criterion_group!(
    benches,
    peers,
    paired,
    scaling,
    paired_scaling,
    adversarial_scaling
);
criterion_main!(benches);
