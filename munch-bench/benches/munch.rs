//! munch-core against `serde_json` on the same value, in one run:
//! a 5,000-row `search_symbols` response (1.58 MB of JSON) encoded with
//! tier-1 (verified and reference), with gen1 (verified, another tool's
//! name), and its payload decoded (to `serde_json` values, and borrowed
//! from the payload, and into the caller's own types); `serde_json`
//! serializes and parses the same value. Then verified encode and decode
//! at 1, 10 and 100 MB of JSON to show linear time. `cargo xtask bench
//! munch` adds the Python reference on the same document.
#![allow(missing_docs, clippy::unwrap_used, clippy::indexing_slicing)]

use criterion::{BenchmarkId, Criterion, Throughput, black_box, criterion_group, criterion_main};
use munch_core::{
    Format, Mode, Options, decode, decode_borrowed, decode_borrowed_into, decode_into, encode,
};

#[path = "support/search_symbols.rs"]
mod search_symbols;
#[path = "support/typed.rs"]
mod typed;
use typed::{BorrowedResponse, Response};

fn compact(mode: Mode) -> Options<'static> {
    Options {
        format: Format::Compact,
        mode,
        ..Options::default()
    }
}

/// Writes the document for the Python reference's timing
/// (`cargo xtask bench munch`).
fn write_document(json: &str) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/munch-bench");
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join("search_symbols_5000.json"), json);
}

fn encoding(c: &mut Criterion) {
    let value = search_symbols::response(5_000);
    let json = serde_json::to_string(&value).unwrap();
    write_document(&json);
    for (group, tool) in [
        ("encode_tier1", "search_symbols"),
        ("encode_gen1", "get_hotspots"),
    ] {
        let mut g = c.benchmark_group(group);
        g.throughput(Throughput::Bytes(json.len() as u64));
        g.bench_function("munch-core", |b| {
            b.iter(|| encode(tool, black_box(&value), &compact(Mode::Verified)))
        });
        g.bench_function("munch-core-reference", |b| {
            b.iter(|| encode(tool, black_box(&value), &compact(Mode::Reference)))
        });
        g.bench_function("serde_json", |b| {
            b.iter(|| serde_json::to_string(black_box(&value)).unwrap())
        });
        g.finish();
    }
}

fn decoding(c: &mut Criterion) {
    let value = search_symbols::response(5_000);
    let json = serde_json::to_string(&value).unwrap();
    for (group, tool) in [
        ("decode_tier1", "search_symbols"),
        ("decode_gen1", "get_hotspots"),
    ] {
        let payload = encode(tool, &value, &compact(Mode::Verified)).text;
        let mut g = c.benchmark_group(group);
        g.throughput(Throughput::Bytes(payload.len() as u64));
        g.bench_function("munch-core", |b| {
            b.iter(|| decode(black_box(&payload)).unwrap())
        });
        // serde_json parses the JSON of the same value (a larger text): the
        // ratio is time for the same value, not bytes per second.
        g.bench_function("serde_json", |b| {
            b.iter(|| serde_json::from_str::<serde_json::Value>(black_box(&json)).unwrap())
        });
        g.finish();
        // The same payload to the same tree, strings borrowed from it.
        let mut g = c.benchmark_group(format!("{group}_borrowed"));
        g.throughput(Throughput::Bytes(payload.len() as u64));
        g.bench_function("munch-core", |b| {
            b.iter(|| decode_borrowed(black_box(&payload)).unwrap())
        });
        g.finish();
    }
}

/// Decoding into the caller's types (`decode_into`, `decode_borrowed_into`)
/// against `serde_json::from_str` into the same types from the JSON.
/// The tier-1 payload and gen1's (the encoding of every tool without a
/// tier-1 schema) of the same response.
fn typed(c: &mut Criterion) {
    let value = search_symbols::response(5_000);
    let json = serde_json::to_string(&value).unwrap();
    for (group, tool) in [
        ("decode_tier1_typed", "search_symbols"),
        ("decode_gen1_typed", "get_hotspots"),
    ] {
        let payload = encode(tool, &value, &compact(Mode::Verified)).text;
        let mut g = c.benchmark_group(group);
        g.throughput(Throughput::Bytes(payload.len() as u64));
        g.bench_function("munch-core", |b| {
            b.iter(|| decode_into::<Response>(black_box(&payload)).unwrap())
        });
        g.bench_function("munch-core-borrowed", |b| {
            b.iter(|| decode_borrowed_into::<BorrowedResponse<'_>>(black_box(&payload)).unwrap())
        });
        g.bench_function("serde_json", |b| {
            b.iter(|| serde_json::from_str::<Response>(black_box(&json)).unwrap())
        });
        g.finish();
    }
}

/// JSON text (what `auto` sends where MUNCH does not pay), read as
/// Python's `json.loads` reads it, against `serde_json::from_str` of the
/// same text: into a `serde_json::Value`, the borrowed tree, and the
/// bench's types.
fn json_text(c: &mut Criterion) {
    let value = search_symbols::response(5_000);
    let json = serde_json::to_string(&value).unwrap();
    let mut g = c.benchmark_group("decode_json_text");
    g.throughput(Throughput::Bytes(json.len() as u64));
    g.bench_function("munch-core", |b| {
        b.iter(|| decode(black_box(&json)).unwrap())
    });
    g.bench_function("munch-core-borrowed", |b| {
        b.iter(|| decode_borrowed(black_box(&json)).unwrap())
    });
    g.bench_function("munch-core-typed", |b| {
        b.iter(|| decode_into::<Response>(black_box(&json)).unwrap())
    });
    g.bench_function("serde_json", |b| {
        b.iter(|| serde_json::from_str::<serde_json::Value>(black_box(&json)).unwrap())
    });
    g.bench_function("serde_json-typed", |b| {
        b.iter(|| serde_json::from_str::<Response>(black_box(&json)).unwrap())
    });
    g.finish();
}

fn linear(c: &mut Criterion) {
    let mut g = c.benchmark_group("munch_scaling");
    g.sample_size(10);
    for mb in [1usize, 10, 100] {
        let value = search_symbols::response(mb * 1_000_000 / 316);
        let json = serde_json::to_string(&value).unwrap();
        let payload = encode("search_symbols", &value, &compact(Mode::Verified)).text;
        g.throughput(Throughput::Bytes(json.len() as u64));
        g.bench_with_input(
            BenchmarkId::new("encode", format!("{mb}MB")),
            &value,
            |b, v| b.iter(|| encode("search_symbols", v, &compact(Mode::Verified))),
        );
        g.bench_with_input(
            BenchmarkId::new("decode", format!("{mb}MB")),
            &payload,
            |b, p| b.iter(|| decode(p).unwrap()),
        );
        g.bench_with_input(
            BenchmarkId::new("decode_borrowed", format!("{mb}MB")),
            &payload,
            |b, p| b.iter(|| decode_borrowed(p).unwrap()),
        );
        // Controls: serde_json walking and building the same trees, so a
        // rise in time per byte that both show is the machine's memory,
        // not our algorithm.
        g.bench_with_input(
            BenchmarkId::new("serde_json_serialize", format!("{mb}MB")),
            &value,
            |b, v| b.iter(|| serde_json::to_string(v).unwrap()),
        );
        g.bench_with_input(
            BenchmarkId::new("serde_json_parse", format!("{mb}MB")),
            &json,
            |b, j| b.iter(|| serde_json::from_str::<serde_json::Value>(j).unwrap()),
        );
    }
    g.finish();
}

criterion_group!(benches, encoding, decoding, typed, json_text, linear);
criterion_main!(benches);
