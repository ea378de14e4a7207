//! qwen2 encoding of about 1 MB of mixed text against bpe-openai (cl100k
//! count) and tiktoken-rs (cl100k encode) in the same run; map loading;
//! wrap against encode.
//!
//! The corpus is generated from fixed seeds: about 50% English prose, 24%
//! Python, 11% JSON, 15% CJK/Hangul with emoji and digits.
#![allow(missing_docs, clippy::unwrap_used, clippy::indexing_slicing)]

use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};
use leaf_meta::{LeafMap, MapId};

const QWEN2: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/maps/qwen2.62c2f94fcbdb.json"
);

#[path = "support/corpus.rs"]
mod corpus;

use corpus::corpus;

fn encoding(c: &mut Criterion) {
    let bytes = std::fs::read(QWEN2).unwrap();
    let map = LeafMap::from_bytes(&bytes, &MapId::of_bytes(&bytes)).unwrap();
    let text = corpus();
    let cl100k_bpe = bpe_openai::cl100k_base();
    let cl100k_tiktoken = tiktoken_rs::cl100k_base().unwrap();
    let mut g = c.benchmark_group("mixed_1MB_encode");
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.sample_size(20);
    g.bench_function("leaf-meta", |b| {
        b.iter(|| map.encode(black_box(&text)).len())
    });
    g.bench_function("bpe-openai-cl100k-count", |b| {
        b.iter(|| cl100k_bpe.count(black_box(&text)))
    });
    g.bench_function("tiktoken-rs-cl100k", |b| {
        b.iter(|| cl100k_tiktoken.encode_ordinary(black_box(&text)).len())
    });
    g.finish();

    // wrap over a result whose text blocks hold the same corpus.
    let blocks: Vec<serde_json::Value> = text
        .as_bytes()
        .chunks(16 << 10)
        .map(|c| serde_json::json!({"type": "text", "text": String::from_utf8_lossy(c)}))
        .collect();
    let result = serde_json::json!({ "content": blocks });
    let texts: Vec<String> = blocks_text(&result);
    let mut g = c.benchmark_group("mixed_1MB_wrap");
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.sample_size(20);
    g.bench_function("leaf-meta", |b| {
        b.iter(|| leaf_meta::wrap(black_box(&result), &map, &Default::default()).unwrap())
    });
    g.bench_function("encode-only", |b| {
        b.iter(|| texts.iter().map(|t| map.encode(t).len()).sum::<usize>())
    });
    g.finish();
}

fn blocks_text(result: &serde_json::Value) -> Vec<String> {
    result["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["text"].as_str().unwrap().to_string())
        .collect()
}

fn loading(c: &mut Criterion) {
    let bytes = std::fs::read(QWEN2).unwrap();
    let pin = MapId::of_bytes(&bytes);
    let mut g = c.benchmark_group("qwen2_map_load");
    g.sample_size(10);
    g.bench_function("leaf-meta", |b| {
        b.iter(|| LeafMap::from_bytes(black_box(&bytes), &pin).unwrap())
    });
    g.finish();
}

criterion_group!(benches, encoding, loading);
criterion_main!(benches);
