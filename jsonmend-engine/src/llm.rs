//! LLM tool-call streams (spec §13): Anthropic Messages and OpenAI Chat
//! Completions events in, each tool call's repaired arguments out.
//!
//! Each call has its own incremental engine under `default`: a watch
//! stream over its arguments, so every fragment is stepped once. A feed
//! reports the whole current value of each call it touched, which a copy
//! of that engine finished at the end of what arrived gives without a run
//! over the arguments again; the reply repeats the value anyway, so a feed
//! costs about as much as the value it reports (very large arguments are
//! better watched with `watch`, whose feeds report only what changed).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{Error, ErrorCode};
use crate::finish::repair_unchecked;
use crate::options::Options;
use crate::report::{Completeness, Exactness, Repaired};
use crate::serialize::{Obj, array_into};
use crate::value::Value;
use crate::watch::Watch;

/// At most this many calls per stream.
const MAX_CALLS: usize = 1024;

/// The event dialect of a stream.
///
/// ```
/// use jsonmend_engine::{LlmStream, Provider};
/// let mut s = LlmStream::new(Provider::OpenAi);
/// s.feed(r#"data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"f","arguments":"{\"x\":"}}]}}]}"#);
/// assert!(s.close().contains(r#""value":{"x":null}"#));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provider {
    /// Anthropic Messages streaming events.
    Anthropic,
    /// OpenAI Chat Completions chunks (and compatible servers).
    OpenAi,
}

impl Provider {
    /// `anthropic`, `openai` or `openai_compat`; anything else is `E050`.
    ///
    /// ```
    /// use jsonmend_engine::Provider;
    /// assert_eq!(Provider::parse("openai_compat").unwrap(), Provider::OpenAi);
    /// assert!(Provider::parse("gemini").is_err());
    /// ```
    pub fn parse(name: &str) -> Result<Provider, Error> {
        match name {
            "anthropic" => Ok(Provider::Anthropic),
            "openai" | "openai_compat" => Ok(Provider::OpenAi),
            other => Err(Error::new(
                ErrorCode::E050,
                format!("unknown provider {}", crate::json::quoted(other)),
            )),
        }
    }
}

#[derive(Clone, Debug, Default)]
struct Call {
    index: u64,
    /// The provider's index (OpenAI) or content block index (Anthropic).
    slot: u64,
    id: String,
    name: String,
    args: String,
    /// Anthropic: a non-empty `input` in `content_block_start`.
    start_input: Option<String>,
    got_delta: bool,
    done: bool,
    stop_reason: Option<String>,
    provider_error: bool,
    /// The message (Anthropic) the call belongs to.
    message: usize,
    /// The incremental engine over `args` (from the first fragment on).
    engine: Option<Watch>,
}

impl Call {
    /// Appends an argument fragment (split anywhere, even inside an
    /// escape) and steps the call's engine over it.
    fn push_args(&mut self, part: &str) {
        self.args.push_str(part);
        let engine = self
            .engine
            .get_or_insert_with(|| Watch::new(Options::default()));
        // Deltas and events are not reported here; an error stays in the
        // stream, and the arguments' repair returns it.
        let _ = engine.feed(part);
    }

    /// `repair` of the arguments so far (before any profile's gate).
    fn repaired(&self) -> Result<Repaired<'static>, Error> {
        match &self.engine {
            Some(w) => w.repaired_so_far(),
            None => repair_unchecked(&self.args, &Options::default()).map(Repaired::into_owned),
        }
    }

    /// Whether the arguments so far are complete JSON.
    fn complete(&self) -> bool {
        !self.args.trim().is_empty()
            && self
                .repaired()
                .is_ok_and(|r| r.completeness == Completeness::Complete)
    }
}

/// One tool-call stream.
///
/// ```
/// use jsonmend_engine::{LlmStream, Provider};
/// let mut s = LlmStream::new(Provider::Anthropic);
/// s.feed(r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"get_weather","input":{}}}"#);
/// let fed = s.feed(r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Par"}}"#);
/// assert!(fed.contains(r#""value":{"city":"Par"}"#) && fed.contains(r#""end":"open""#));
/// ```
#[derive(Clone, Debug)]
pub struct LlmStream {
    provider: Provider,
    calls: Vec<Call>,
    error: Option<String>,
    ignored: usize,
    message: usize,
    /// Anthropic: added to block indices of the current message.
    offset: u64,
    ended: bool,
}

fn text_of(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str).filter(|s| !s.is_empty())
}

fn u64_of(v: Option<&Value>) -> Option<u64> {
    v.and_then(Value::as_number).and_then(crate::Number::as_u64)
}

impl LlmStream {
    /// A new stream.
    ///
    /// ```
    /// use jsonmend_engine::{LlmStream, Provider};
    /// let s = LlmStream::new(Provider::OpenAi);
    /// assert_eq!(s.close(), r#"{"calls":[],"error":"","ignored_events":0}"#);
    /// ```
    pub fn new(provider: Provider) -> LlmStream {
        LlmStream {
            provider,
            calls: Vec::new(),
            error: None,
            ignored: 0,
            message: 0,
            offset: 0,
            ended: false,
        }
    }

    fn next_index(&self) -> u64 {
        self.calls.iter().map(|c| c.index + 1).max().unwrap_or(0)
    }

    /// Feeds one event payload (JSON text; a leading `data:` is stripped,
    /// `[DONE]` ends an OpenAI stream); returns the `{calls:[…]}` result
    /// with the calls the event touched.
    ///
    /// ```
    /// use jsonmend_engine::{LlmStream, Provider};
    /// let mut s = LlmStream::new(Provider::Anthropic);
    /// s.feed(r#"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}"#);
    /// let out = s.feed(r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Par"}}"#);
    /// assert!(out.contains(r#""value":{"city":"Par"}"#));
    /// assert!(out.contains(r#""open_path":"/city""#));
    /// ```
    pub fn feed(&mut self, event: &str) -> String {
        let text = event.trim();
        let text = text.strip_prefix("data:").map_or(text, str::trim_start);
        if text == "[DONE]" {
            let touched = self.finish_open();
            return self.calls_json(&touched);
        }
        match Value::parse(text) {
            Ok(v @ Value::Object(_)) => self.feed_value(&v),
            _ => {
                self.ignored += 1;
                self.calls_json(&[])
            }
        }
    }

    /// [`LlmStream::feed`] with an already parsed event object.
    ///
    /// ```
    /// use jsonmend_engine::{LlmStream, Provider, Value};
    /// let mut s = LlmStream::new(Provider::Anthropic);
    /// let out = s.feed_value(&Value::parse(r#"{"type":"ping"}"#).unwrap());
    /// assert_eq!(out, r#"{"calls":[]}"#);
    /// ```
    pub fn feed_value(&mut self, event: &Value) -> String {
        if !matches!(event, Value::Object(_)) {
            self.ignored += 1;
            return self.calls_json(&[]);
        }
        let touched = match self.provider {
            Provider::Anthropic => self.anthropic(event),
            Provider::OpenAi => self.openai(event),
        };
        self.calls_json(&touched)
    }

    /// Finishes every call: `{calls, error, ignored_events}`.
    ///
    /// ```
    /// use jsonmend_engine::{LlmStream, Provider};
    /// let mut s = LlmStream::new(Provider::Anthropic);
    /// s.feed(r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}"#);
    /// assert!(s.close().contains(r#""done":true,"exactness":"exact","end":"complete","stop_reason":null,"value":{}"#));
    /// ```
    pub fn close(mut self) -> String {
        self.finish_open();
        Obj::new()
            .with("calls", |out| self.write_calls(0..self.calls.len(), out))
            .str("error", self.error.as_deref().unwrap_or(""))
            .num("ignored_events", self.ignored)
            .end()
    }

    fn finish_open(&mut self) -> Vec<usize> {
        self.ended = true;
        let mut touched = Vec::new();
        for (i, c) in self.calls.iter_mut().enumerate() {
            if !c.done {
                c.done = true;
                touched.push(i);
            }
        }
        touched
    }

    fn new_call(&mut self, call: Call) -> Option<usize> {
        if self.calls.len() >= MAX_CALLS {
            self.ignored += 1;
            return None;
        }
        self.calls.push(call);
        Some(self.calls.len() - 1)
    }

    fn anthropic(&mut self, e: &Value) -> Vec<usize> {
        let kind = e.get("type").and_then(Value::as_str).unwrap_or("");
        let slot = u64_of(e.get("index"));
        let find = |s: &Self, slot: Option<u64>| {
            let slot = slot?;
            s.calls
                .iter()
                .rposition(|c| c.message == s.message && c.slot == slot)
        };
        match kind {
            "message_start" => {
                let mut touched = Vec::new();
                for (i, c) in self.calls.iter_mut().enumerate() {
                    if !c.done {
                        c.done = true;
                        touched.push(i);
                    }
                }
                self.message += 1;
                self.offset = self.next_index();
                touched
            }
            "content_block_start" => {
                let block = e.get("content_block");
                let btype = block.and_then(|b| b.get("type")).and_then(Value::as_str);
                if !matches!(btype, Some("tool_use" | "server_tool_use")) {
                    return Vec::new();
                }
                let null = Value::Null;
                let block = block.unwrap_or(&null);
                let start_input = match block.get("input") {
                    Some(Value::Object(p)) if p.is_empty() => None,
                    Some(v @ (Value::Object(_) | Value::Array(_))) => Some(v.to_json()),
                    _ => None,
                };
                let call = Call {
                    index: self.offset + slot.unwrap_or(0),
                    slot: slot.unwrap_or(0),
                    id: text_of(block.get("id")).unwrap_or("").into(),
                    name: text_of(block.get("name")).unwrap_or("").into(),
                    start_input,
                    message: self.message,
                    ..Call::default()
                };
                self.new_call(call).into_iter().collect()
            }
            "content_block_delta" => {
                let delta = e.get("delta");
                if delta.and_then(|d| d.get("type")).and_then(Value::as_str)
                    != Some("input_json_delta")
                {
                    return Vec::new();
                }
                let Some(i) = find(self, slot) else {
                    return Vec::new();
                };
                let part = delta
                    .and_then(|d| d.get("partial_json"))
                    .and_then(Value::as_str)
                    .unwrap_or("");
                if let Some(c) = self.calls.get_mut(i) {
                    c.push_args(part);
                    c.got_delta = true;
                }
                alloc::vec![i]
            }
            "content_block_stop" => match find(self, slot) {
                Some(i) => {
                    if let Some(c) = self.calls.get_mut(i) {
                        c.done = true;
                    }
                    alloc::vec![i]
                }
                None => Vec::new(),
            },
            "message_delta" => {
                let reason = e
                    .get("delta")
                    .and_then(|d| d.get("stop_reason"))
                    .and_then(Value::as_str);
                let mut touched = Vec::new();
                if let Some(reason) = reason {
                    for (i, c) in self.calls.iter_mut().enumerate() {
                        if c.message == self.message {
                            c.stop_reason = Some(reason.into());
                            touched.push(i);
                        }
                    }
                }
                touched
            }
            "message_stop" => {
                let mut touched = Vec::new();
                for (i, c) in self.calls.iter_mut().enumerate() {
                    if c.message == self.message && !c.done {
                        c.done = true;
                        touched.push(i);
                    }
                }
                touched
            }
            "error" => self.provider_error(e),
            _ => Vec::new(),
        }
    }

    fn provider_error(&mut self, e: &Value) -> Vec<usize> {
        let msg = e
            .get("error")
            .and_then(|x| x.get("message"))
            .and_then(Value::as_str)
            .unwrap_or("provider error");
        self.error = Some(msg.into());
        let mut touched = Vec::new();
        for (i, c) in self.calls.iter_mut().enumerate() {
            let complete = c.complete();
            if !c.done || !complete {
                c.provider_error = !complete;
                c.done = true;
                touched.push(i);
            }
        }
        touched
    }

    fn openai(&mut self, e: &Value) -> Vec<usize> {
        if e.get("error").is_some() {
            return self.provider_error(e);
        }
        let Some(Value::Array(choices)) = e.get("choices") else {
            return Vec::new();
        };
        let Some(choice) = choices.first() else {
            // A usage chunk: nothing to do.
            return Vec::new();
        };
        if u64_of(choice.get("index")).is_some_and(|i| i != 0) {
            self.ignored += 1;
            return Vec::new();
        }
        let mut touched = Vec::new();
        let delta = choice.get("delta");
        if let Some(Value::Array(entries)) = delta.and_then(|d| d.get("tool_calls")) {
            for entry in entries {
                if let Some(i) = self.openai_entry(entry) {
                    if !touched.contains(&i) {
                        touched.push(i);
                    }
                }
            }
        }
        if let Some(fc @ Value::Object(_)) = delta.and_then(|d| d.get("function_call")) {
            let entry = Value::Object(alloc::vec![
                ("index".into(), Value::Number(crate::Number::from_text("0"))),
                ("function".into(), fc.clone()),
            ]);
            if let Some(i) = self.openai_entry(&entry) {
                touched.push(i);
            }
        }
        if let Some(reason) = text_of(choice.get("finish_reason")) {
            for (i, c) in self.calls.iter_mut().enumerate() {
                if !c.done {
                    c.done = true;
                    c.stop_reason = Some(reason.into());
                    if reason == "content_filter" && !c.complete() {
                        c.provider_error = true;
                    }
                    if !touched.contains(&i) {
                        touched.push(i);
                    }
                } else if c.stop_reason.is_none() {
                    c.stop_reason = Some(reason.into());
                }
            }
        }
        touched
    }

    fn openai_entry(&mut self, entry: &Value) -> Option<usize> {
        let slot = u64_of(entry.get("index")).unwrap_or(0);
        let id = text_of(entry.get("id"));
        let func = entry.get("function");
        let name = text_of(func.and_then(|f| f.get("name")));
        let args = func
            .and_then(|f| f.get("arguments"))
            .and_then(Value::as_str)
            .unwrap_or("");
        let open = self.calls.iter().rposition(|c| c.slot == slot && !c.done);
        let starts_new = match open.and_then(|i| self.calls.get(i)) {
            None => true,
            Some(c) => {
                (id.is_some_and(|id| id != c.id) && name.is_some())
                    || (name.is_some() && c.complete())
            }
        };
        let i = if starts_new {
            if let Some(i) = open {
                if let Some(c) = self.calls.get_mut(i) {
                    c.done = true;
                }
            }
            // Ollama reuses an index another call holds: the next free one.
            let held = self.calls.iter().any(|c| c.index == slot);
            let index = if held { self.next_index() } else { slot };
            self.new_call(Call {
                index,
                slot,
                id: id.unwrap_or("").into(),
                name: name.unwrap_or("").into(),
                ..Call::default()
            })?
        } else {
            open?
        };
        let c = self.calls.get_mut(i)?;
        if c.id.is_empty() {
            c.id = id.unwrap_or("").into();
        }
        if c.name.is_empty() {
            c.name = name.unwrap_or("").into();
        }
        c.push_args(args);
        Some(i)
    }

    fn calls_json(&self, touched: &[usize]) -> String {
        Obj::new()
            .with("calls", |out| {
                self.write_calls(touched.iter().copied(), out)
            })
            .end()
    }

    /// Appends the array of the call objects of `calls`.
    fn write_calls(&self, calls: impl IntoIterator<Item = usize>, out: &mut String) {
        array_into(out, calls, |out, i| self.write_call(i, out));
    }

    /// Appends the call object of call `i`.
    fn write_call(&self, i: usize, out: &mut String) {
        let Some(c) = self.calls.get(i) else {
            out.push_str("null");
            return;
        };
        let start_input = match (&c.start_input, c.got_delta) {
            (Some(input), false) => Some(input.as_str()),
            _ => None,
        };
        let args = start_input.unwrap_or(&c.args);
        let (value, exactness, completeness, open_path) = if args.trim().is_empty() {
            if c.done {
                (
                    "{}".into(),
                    Some(Exactness::Exact),
                    Completeness::Complete,
                    None,
                )
            } else {
                ("null".into(), None, Completeness::Empty, None)
            }
        } else {
            let repaired = match start_input {
                Some(input) => repair_unchecked(input, &Options::default()),
                None => c.repaired(),
            };
            match repaired {
                Ok(r) => {
                    let open = if r.completeness == Completeness::Complete {
                        None
                    } else {
                        r.open_paths.last().cloned()
                    };
                    (r.value_json(), Some(r.exactness), r.completeness, open)
                }
                Err(_) => (
                    "null".into(),
                    Some(Exactness::Lossy),
                    Completeness::Partial,
                    None,
                ),
            }
        };
        let reason = c.stop_reason.as_deref();
        let truncated = completeness != Completeness::Complete || value == "null";
        let end = if !c.done {
            "open"
        } else if !truncated {
            "complete"
        } else if c.provider_error {
            "provider_error"
        } else if matches!(reason, Some("max_tokens" | "length")) {
            "max_tokens"
        } else {
            "interrupted"
        };
        Obj::append_to(out)
            .num("index", c.index)
            .str("id", &c.id)
            .str("name", &c.name)
            .bool("done", c.done)
            .opt_str("exactness", exactness.map(Exactness::as_str))
            .str("end", end)
            .opt_str("stop_reason", reason)
            .raw("value", &value)
            .opt_str("open_path", open_path.as_deref())
            .end();
    }
}

/// The stateless form: every event of `events` through a new stream, then
/// close.
///
/// ```
/// use jsonmend_engine::{llm_run, Provider};
/// let events = [
///     r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{\"a\""}}]}}]}"#,
///     r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":": 1}"}}]}}]}"#,
///     r#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
/// ];
/// let out = llm_run(Provider::OpenAi, &events);
/// assert!(out.contains(r#""end":"complete","stop_reason":"tool_calls","value":{"a":1}"#));
/// ```
pub fn llm_run(provider: Provider, events: &[&str]) -> String {
    let mut s = LlmStream::new(provider);
    for e in events {
        s.feed(e);
    }
    s.close()
}
