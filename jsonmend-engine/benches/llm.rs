//! LLM tool-call streams (spec §13): one Anthropic `tool_use` call whose
//! arguments — the valid bench records under one key, about 1.7, 8.5 and
//! 43 KB — arrive in 64-byte `input_json_delta` events, the whole stream
//! per iteration with every feed's reply written, against one-shot repair
//! of the whole arguments once in the same run. Each reply carries the
//! call's whole current value, so a stream's work grows with the square
//! of its number of events whatever the engine does; what the engine
//! saves is running over the arguments again at every event.

#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

#[path = "support/docs.rs"]
mod docs;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use jsonmend_engine::{LlmStream, Provider};
use std::hint::black_box;
use std::time::Duration;

/// The events of one call whose arguments are `args`, `size`-byte
/// fragments (cut at character boundaries), then its stop.
fn events(args: &str, size: usize) -> Vec<String> {
    let mut events = vec![
        r#"{"type":"message_start","message":{"id":"msg_1"}}"#.to_string(),
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"store","input":{}}}"#.to_string(),
    ];
    let mut from = 0;
    while from < args.len() {
        let mut to = (from + size).min(args.len());
        while !args.is_char_boundary(to) {
            to += 1;
        }
        let part = serde_json::to_string(&args[from..to]).unwrap();
        events.push(format!(
            r#"{{"type":"content_block_delta","index":0,"delta":{{"type":"input_json_delta","partial_json":{part}}}}}"#
        ));
        from = to;
    }
    events.push(r#"{"type":"content_block_stop","index":0}"#.into());
    events.push(r#"{"type":"message_delta","delta":{"stop_reason":"tool_use"}}"#.into());
    events.push(r#"{"type":"message_stop"}"#.into());
    events
}

/// Every event through one stream, then its close; the reply bytes.
fn stream(events: &[String]) -> usize {
    let mut s = LlmStream::new(Provider::Anthropic);
    let mut n = 0;
    for e in events {
        n += s.feed(e).len();
    }
    n + s.close().len()
}

fn llm(c: &mut Criterion) {
    let mut g = c.benchmark_group("llm-call-64B-events");
    g.sample_size(10).measurement_time(Duration::from_secs(4));
    for size in [2_000usize, 10_000, 50_000] {
        let (valid, _) = docs::documents_of(size);
        let args = format!("{{\"records\": {valid}}}");
        let events = events(&args, 64);
        // The closed call holds the arguments' value, complete.
        let mut s = LlmStream::new(Provider::Anthropic);
        for e in &events {
            s.feed(e);
        }
        assert!(s.close().contains(r#""end":"complete""#));
        let kb = format!("{}KB", args.len() / 1000);
        g.throughput(Throughput::Bytes(args.len() as u64));
        g.bench_with_input(BenchmarkId::new("jsonmend-engine", &kb), &args, |b, a| {
            b.iter(|| jsonmend_engine::repair_text(black_box(a)).map_or(0, |r| r.text.len()))
        });
        g.bench_with_input(BenchmarkId::new("llm-stream", &kb), &events, |b, e| {
            b.iter(|| stream(black_box(e)))
        });
    }
    g.finish();
}

criterion_group!(benches, llm);
criterion_main!(benches);
