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

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.next() % items.len()]
    }
}

fn corpus() -> String {
    let words = [
        "the",
        "tool",
        "returns",
        "a",
        "result",
        "with",
        "several",
        "blocks",
        "of",
        "text",
        "and",
        "server",
        "client",
        "request",
        "session",
        "configuration",
        "however",
        "because",
        "important",
        "question",
        "developer's",
        "isn't",
        "they're",
        "reasonable",
        "performance",
        "measured",
        "throughput",
        "Tokenization",
        "model",
        "context",
    ];
    let python = [
        "def handle_request(self, payload: dict) -> Response:\n",
        "    if not payload.get(\"id\"):\n        raise ValueError(f\"missing id in {payload!r}\")\n",
        "    for index, item in enumerate(self.items[:limit]):\n        total += item.weight * 0.75\n",
        "class ToolServer(BaseServer):\n    \"\"\"Serves MCP tools over stdio.\"\"\"\n",
        "    return {\"ok\": True, \"count\": len(results), \"elapsed_ms\": round(t1 - t0, 3)}\n",
    ];
    let json = [
        "{\"id\":\"a.go::F\",\"kind\":\"function\",\"line\":42,\"score\":0.93}",
        "{\"path\":\"src/main.rs\",\"matches\":[{\"line\":7,\"text\":\"fn main() {\"}]}",
        "[1, 2, 3, {\"nested\": {\"deep\": [true, false, null]}}]",
    ];
    let cjk = [
        "日本語のテキストと数字 2024年11月29日 ",
        "한국어 문장입니다 😀🎉 ",
        "中文内容测试，价格 ¥1234.56 ",
        "🇯🇵 👩‍💻 東京都 ",
    ];
    let mut rng = Rng(0x00C0_FFEE);
    let mut out = String::with_capacity(1 << 20);
    while out.len() < 1 << 20 {
        match rng.next() % 100 {
            0..=49 => {
                for _ in 0..12 {
                    out.push_str(rng.pick(&words));
                    out.push(' ');
                }
                out.push_str(". ");
            }
            50..=73 => out.push_str(rng.pick(&python)),
            74..=84 => out.push_str(rng.pick(&json)),
            _ => out.push_str(rng.pick(&cjk)),
        }
    }
    out
}

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
