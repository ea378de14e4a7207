//! GCX1 encoding against `serde_json` on the same rows, in one run: a
//! generated 10,000-row `search_symbols` result written by the strict
//! `Encoder` (`gcx-wire`) and the equivalent array of JSON objects
//! serialized by `serde_json`. Then encoding at 1, 10 and 100 MB to show
//! linear time.
#![allow(missing_docs, clippy::unwrap_used, clippy::indexing_slicing)]

use criterion::{BenchmarkId, Criterion, Throughput, black_box, criterion_group, criterion_main};
use gcx_wire::encode::Encoder;

#[path = "support/search_symbols.rs"]
mod search_symbols;

use search_symbols::{FIELDS, gcx_payload, rows};

fn encode(rows: &[[String; 13]]) -> Vec<u8> {
    let mut enc = Encoder::new();
    let count = rows.len().to_string();
    enc.header_meta("search_symbols", &FIELDS, &[("rows", count.as_str())])
        .unwrap();
    for row in rows {
        enc.row(row.iter().map(String::as_str)).unwrap();
    }
    enc.finish()
}

/// The same rows as JSON objects (borrowed, so only serialization is
/// measured).
fn json(rows: &[[String; 13]]) -> Vec<u8> {
    let objects: Vec<std::collections::BTreeMap<&str, &str>> = rows
        .iter()
        .map(|row| {
            FIELDS
                .iter()
                .copied()
                .zip(row.iter().map(String::as_str))
                .collect()
        })
        .collect();
    serde_json::to_vec(&objects).unwrap()
}

fn encoding(c: &mut Criterion) {
    let rows = rows(10_000);
    let bytes = encode(&rows);
    assert_eq!(bytes, gcx_payload(&rows));
    let mut g = c.benchmark_group("search_symbols_10k_encode");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("gcx-wire", |b| b.iter(|| encode(black_box(&rows))));
    g.bench_function("serde_json", |b| b.iter(|| json(black_box(&rows))));
    g.finish();
}

fn linear(c: &mut Criterion) {
    let mut g = c.benchmark_group("encode_scaling");
    g.sample_size(10);
    for mb in [1usize, 10, 100] {
        let rows = rows(mb * (1 << 20) / 200);
        g.throughput(Throughput::Bytes(encode(&rows).len() as u64));
        g.bench_with_input(
            BenchmarkId::new("gcx-wire", format!("{mb}MB")),
            &rows,
            |b, r| b.iter(|| encode(black_box(r))),
        );
    }
    g.finish();
}

criterion_group!(benches, encoding, linear);
criterion_main!(benches);
