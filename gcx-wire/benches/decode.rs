//! GCX1 decoding against `serde_json` on the same data, in one run.
//!
//! The input is a generated 10,000-row `search_symbols` payload (13 fields,
//! about 2.3 MB, the class of data the Go reference was measured on) and
//! the equivalent JSON array of objects. Functions: `gcx-wire` (one-shot
//! decode to borrowed rows), `gcx-wire-stream` (64 KiB chunks, borrowed
//! events), `serde_json` (parse to `Value`). Then one-shot decoding at 1,
//! 10 and 100 MB to show linear time.
#![allow(missing_docs, clippy::unwrap_used, clippy::indexing_slicing)]

use criterion::{BenchmarkId, Criterion, Throughput, black_box, criterion_group, criterion_main};

#[path = "support/search_symbols.rs"]
mod search_symbols;

use search_symbols::{gcx_payload, json_payload, rows};

fn decode_one_shot(input: &[u8]) -> usize {
    let payload = gcx_wire::from_slice(input).unwrap();
    payload.sections.iter().map(|s| s.cells.len()).sum()
}

fn decode_stream(input: &[u8]) -> usize {
    let mut dec = gcx_wire::StreamDecoder::new(Default::default());
    let mut cells = 0;
    for chunk in input.chunks(64 << 10) {
        dec.push_with(chunk, |e| {
            if let gcx_wire::Event::Row(r) = e {
                cells += r.len();
            }
        })
        .unwrap();
    }
    dec.finish_with(|_| {}).unwrap();
    cells
}

fn decoding(c: &mut Criterion) {
    let rows = rows(10_000);
    let gcx = gcx_payload(&rows);
    let json = json_payload(&rows);
    let mut g = c.benchmark_group("search_symbols_10k_decode");
    g.throughput(Throughput::Bytes(gcx.len() as u64));
    g.bench_function("gcx-wire", |b| b.iter(|| decode_one_shot(black_box(&gcx))));
    g.bench_function("gcx-wire-stream", |b| {
        b.iter(|| decode_stream(black_box(&gcx)))
    });
    // serde_json reads its own (larger) document; the ratio printed by
    // `cargo xtask bench` is time for the same rows, not bytes per second.
    g.bench_function("serde_json", |b| {
        b.iter(|| serde_json::from_slice::<serde_json::Value>(black_box(&json)).unwrap())
    });
    g.finish();
}

fn linear(c: &mut Criterion) {
    let mut g = c.benchmark_group("decode_scaling");
    g.sample_size(10);
    for mb in [1usize, 10, 100] {
        let n = mb * (1 << 20) / 230;
        let gcx = gcx_payload(&rows(n));
        g.throughput(Throughput::Bytes(gcx.len() as u64));
        g.bench_with_input(
            BenchmarkId::new("gcx-wire", format!("{mb}MB")),
            &gcx,
            |b, i| b.iter(|| decode_one_shot(black_box(i))),
        );
    }
    g.finish();
}

criterion_group!(benches, decoding, linear);
criterion_main!(benches);
