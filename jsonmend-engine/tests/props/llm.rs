//! The LLM-stream property: arbitrary event lines (split at LF; the first
//! byte picks the provider) never panic a stream, and every feed and the
//! close return a JSON object with a `calls` array. Shared by the
//! `jsonmend_llm` fuzz target and `cargo test`.

// Also loaded by the other properties: the fuzz targets include each file
// on its own.
#[allow(clippy::duplicate_mod)]
#[path = "deep_json.rs"]
mod deep_json;

use jsonmend_engine::{LlmStream, Provider};
use serde_json::Value;

fn calls_object(text: &str) -> Result<Value, String> {
    let v: Value = deep_json::parse(text).map_err(|e| format!("not JSON ({e}): {text}"))?;
    if !v.get("calls").is_some_and(Value::is_array) {
        return Err(format!("no calls array: {text}"));
    }
    Ok(v)
}

/// Feeds `data` as events into one stream, then closes it.
pub(crate) fn check(data: &[u8]) -> Result<(), String> {
    let provider = if data.first().is_some_and(|b| b & 1 == 1) {
        Provider::OpenAi
    } else {
        Provider::Anthropic
    };
    let mut stream = LlmStream::new(provider);
    for line in data.get(1..).unwrap_or_default().split(|&b| b == b'\n') {
        let text = String::from_utf8_lossy(line);
        calls_object(&stream.feed(&text))?;
    }
    let closed = calls_object(&stream.close())?;
    if !closed.get("ignored_events").is_some_and(Value::is_u64) {
        return Err(format!("no ignored_events: {closed}"));
    }
    Ok(())
}
