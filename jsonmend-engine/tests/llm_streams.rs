//! Recorded provider event sequences (Anthropic Messages, OpenAI Chat
//! Completions) through `LlmStream`, the stateless `llm_run` and the
//! protocol session: finished calls, truncation mid-string, parallel calls,
//! escapes split across deltas, Ollama index reuse, provider errors.

#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use jsonmend_engine::{LlmStream, Provider, Session, llm_run};
use serde_json::{Value, json};

fn events(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.trim().is_empty()).collect()
}

fn run(provider: Provider, text: &str) -> Value {
    serde_json::from_str(&llm_run(provider, &events(text))).unwrap()
}

#[test]
fn anthropic_weather_call_completes() {
    let text = include_str!("llm/anthropic_weather.jsonl");
    let mut s = LlmStream::new(Provider::Anthropic);
    let mut feeds = Vec::new();
    for e in events(text) {
        feeds.push(serde_json::from_str::<Value>(&s.feed(e)).unwrap());
    }
    // The feed of `{"city": "Par`.
    let mid = &feeds[6]["calls"][0];
    assert_eq!(mid["value"], json!({"city": "Par"}));
    assert_eq!(mid["exactness"], "lossy");
    assert_eq!(mid["end"], "open");
    assert_eq!(mid["open_path"], "/city");
    assert_eq!(mid["index"], 1);
    let closed: Value = serde_json::from_str(&s.close()).unwrap();
    assert_eq!(
        closed,
        json!({"calls": [{"index": 1, "id": "toolu_01A", "name": "get_weather", "done": true,
            "exactness": "exact", "end": "complete", "stop_reason": "tool_use",
            "value": {"city": "Paris"}, "open_path": null}],
            "error": "", "ignored_events": 0})
    );
}

#[test]
fn anthropic_max_tokens_mid_string() {
    let out = run(
        Provider::Anthropic,
        include_str!("llm/anthropic_max_tokens.jsonl"),
    );
    let call = &out["calls"][0];
    assert_eq!(call["end"], "max_tokens");
    assert_eq!(call["stop_reason"], "max_tokens");
    assert_eq!(call["exactness"], "lossy");
    assert_eq!(call["value"]["path"], "notes.md");
    assert_eq!(
        call["value"]["content"],
        "# Plan\n\n1. Gather the data, \"cle"
    );
}

#[test]
fn anthropic_parallel_calls_escapes_split_and_second_message() {
    let out = run(
        Provider::Anthropic,
        include_str!("llm/anthropic_parallel_split_escape.jsonl"),
    );
    let calls = out["calls"].as_array().unwrap();
    assert_eq!(calls.len(), 4);
    assert_eq!(calls[0]["value"], json!({"q": "say \"hi\""}));
    assert_eq!(calls[0]["end"], "complete");
    assert_eq!(calls[1]["value"], json!({"q": "café"}));
    // The second message's blocks are numbered after the first message's.
    assert_eq!(calls[2]["index"], 2);
    assert_eq!(calls[2]["value"], json!({}));
    assert_eq!(calls[2]["exactness"], "exact");
    assert_eq!(calls[3]["index"], 3);
    assert_eq!(calls[3]["value"], json!({"mode": "fast"}));
}

#[test]
fn anthropic_error_ends_incomplete_calls() {
    let out = run(
        Provider::Anthropic,
        include_str!("llm/anthropic_error.jsonl"),
    );
    assert_eq!(out["error"], "Overloaded");
    assert_eq!(out["calls"][0]["end"], "provider_error");
    assert_eq!(out["calls"][0]["value"], json!({"ids": [1, 2]}));
}

#[test]
fn openai_parallel_calls_sse_usage_and_done() {
    let out = run(Provider::OpenAi, include_str!("llm/openai_parallel.jsonl"));
    let calls = out["calls"].as_array().unwrap();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0]["name"], "get_weather");
    assert_eq!(calls[0]["value"], json!({"city": "Berlin"}));
    assert_eq!(calls[0]["end"], "complete");
    assert_eq!(calls[0]["stop_reason"], "tool_calls");
    assert_eq!(calls[1]["index"], 1);
    assert_eq!(calls[1]["value"], json!({"tz": "CET"}));
    assert_eq!(out["ignored_events"], 0);
}

#[test]
fn openai_length_is_max_tokens() {
    let out = run(Provider::OpenAi, include_str!("llm/openai_length.jsonl"));
    let call = &out["calls"][0];
    assert_eq!(call["end"], "max_tokens");
    assert_eq!(
        call["value"],
        json!({"text": "The quick brown fox jumps over"})
    );
}

#[test]
fn openai_ollama_index_reuse_and_renewed_ids() {
    let out = run(
        Provider::OpenAi,
        include_str!("llm/openai_ollama_reuse.jsonl"),
    );
    let calls = out["calls"].as_array().unwrap();
    assert_eq!(calls.len(), 2, "{out}");
    assert_eq!(calls[0]["index"], 0);
    assert_eq!(calls[0]["value"], json!({"a": 1, "b": 2}));
    assert_eq!(calls[1]["index"], 1);
    assert_eq!(calls[1]["id"], "call_2");
    assert_eq!(calls[1]["name"], "mul");
    assert_eq!(calls[1]["value"], json!({"a": 3, "b": 4}));
    assert_eq!(calls[1]["end"], "complete");
    assert_eq!(out["ignored_events"], 2);
}

#[test]
fn openai_content_filter_and_legacy_function_call() {
    let out = run(
        Provider::OpenAi,
        include_str!("llm/openai_content_filter.jsonl"),
    );
    assert_eq!(out["calls"][0]["end"], "provider_error");
    let out = run(
        Provider::OpenAi,
        include_str!("llm/openai_legacy_function_call.jsonl"),
    );
    assert_eq!(out["calls"][0]["name"], "lookup");
    assert_eq!(out["calls"][0]["value"], json!({"id": 42}));
    assert_eq!(out["calls"][0]["end"], "complete");
}

#[test]
fn protocol_llm_methods_and_stream_state() {
    let mut s = Session::new();
    let mut ask = |line: &str| -> Value {
        serde_json::from_str(&s.handle(line.as_bytes()).unwrap().line).unwrap()
    };
    assert_eq!(
        ask(r#"{"id":1,"method":"llm.feed","params":{"event":"{}"}}"#)["error"]["message"],
        "no active llm stream"
    );
    assert_eq!(
        ask(r#"{"id":2,"method":"llm.open","params":{"provider":"anthropic"}}"#)["ok"],
        true
    );
    assert_eq!(
        ask(r#"{"id":3,"method":"llm.open"}"#)["error"]["message"],
        "llm stream already active"
    );
    for (i, e) in events(include_str!("llm/anthropic_weather.jsonl"))
        .into_iter()
        .enumerate()
    {
        let req = json!({"id": 10 + i, "method": "llm.feed", "params": {"event": e}});
        assert_eq!(ask(&req.to_string())["ok"], true);
    }
    let closed = ask(r#"{"id":50,"method":"llm.close"}"#);
    assert_eq!(
        closed["result"]["calls"][0]["value"],
        json!({"city": "Paris"})
    );
    assert_eq!(
        ask(r#"{"id":51,"method":"llm.close"}"#)["error"]["code"],
        "E050"
    );
    let evs: Vec<&str> = events(include_str!("llm/openai_length.jsonl"));
    let req =
        json!({"id": 52, "method": "llm.run", "params": {"provider": "openai", "events": evs}});
    assert_eq!(
        ask(&req.to_string())["result"]["calls"][0]["end"],
        "max_tokens"
    );
    assert_eq!(
        ask(r#"{"id":53,"method":"llm.open","params":{"provider":"gemini"}}"#)["error"]["code"],
        "E050"
    );
}
