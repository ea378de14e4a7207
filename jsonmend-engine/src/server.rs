//! The protocol session of `jsonmend serve --stdio` (protocol v1, spec
//! §16): one request line in, one response line out. I/O stays in the
//! binary; this part is pure, so tests and fuzzing drive it directly.

use alloc::format;
use alloc::string::String;

use crate::error::{Error, ErrorCode};
use crate::protocol::call_into;
use crate::value::Value;

/// The longest request line (LF excluded), 8 MiB.
///
/// ```
/// assert_eq!(jsonmend_engine::MAX_LINE, 8 << 20);
/// ```
pub const MAX_LINE: usize = 8 * 1024 * 1024;

/// The capabilities `hello` advertises, in protocol order, as far as this
/// engine implements them.
const CAPABILITIES: &str = r#"["repair","analyze","validate","readiness","watch","llm"]"#;

/// One connection's state: at most one watch and one llm stream.
///
/// ```
/// use jsonmend_engine::Session;
/// let mut s = Session::new();
/// s.handle(br#"{"id":1,"method":"watch.start","params":{}}"#).unwrap();
/// let fed = s.handle(br#"{"id":2,"method":"watch.feed","params":{"chunk":"[1, "}}"#).unwrap();
/// assert!(fed.line.contains(r#""op":"add""#));
/// ```
#[derive(Debug, Default)]
pub struct Session {
    llm: Option<crate::llm::LlmStream>,
    watch: Option<crate::Watch>,
    /// A written reply's line given back ([`Session::recycle`]): the next
    /// reply is written into its memory.
    spare: String,
}

/// Reply lines up to this capacity are kept for the next reply.
const KEEP_LINE: usize = 1 << 20;

/// A response line and whether the connection ends after it.
///
/// ```
/// let mut s = jsonmend_engine::Session::new();
/// let r = s.handle(b"not json").unwrap();
/// assert!(r.line.contains("E060") && !r.shutdown);
/// assert!(s.handle(b"   ").is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The response object, one line, without the LF.
    pub line: String,
    /// `shutdown` was answered: the server exits 0.
    pub shutdown: bool,
}

fn error_line(id: &str, e: &Error) -> String {
    format!("{{\"id\":{id},\"ok\":false,\"error\":{}}}", e.to_json())
}

/// The success line `{"id":…,"ok":true,"result":…}`, its result written in
/// place by `write`; the error line instead when `write` fails.
fn answer(
    id: &str,
    mut line: String,
    write: impl FnOnce(&mut String) -> Result<(), Error>,
) -> Option<Reply> {
    line.clear();
    line.push_str("{\"id\":");
    line.push_str(id);
    line.push_str(",\"ok\":true,\"result\":");
    match write(&mut line) {
        Ok(()) => {
            line.push('}');
            reply(line)
        }
        Err(e) => {
            // Nothing of the result is kept; the line's memory is.
            line.clear();
            line.push_str(&error_line(id, &e));
            reply(line)
        }
    }
}

fn reply(line: String) -> Option<Reply> {
    Some(Reply {
        line,
        shutdown: false,
    })
}

/// The JSON text of the root object's `id` member as the client wrote it,
/// from the pre-order spans of the parse.
fn id_text<'t>(
    text: &'t str,
    root: &Value,
    spans: &[(usize, usize)],
) -> Option<Result<&'t str, ()>> {
    let Value::Object(pairs) = root else {
        return None;
    };
    // Pre-order index of each member value: 1, then past its subtree.
    let mut index = 1;
    let mut found = None;
    for (k, v) in pairs {
        if k == "id" {
            found = Some((index, v));
        }
        let mut stack = alloc::vec![v];
        while let Some(n) = stack.pop() {
            index += 1;
            match n {
                Value::Array(items) => stack.extend(items.iter()),
                Value::Object(ps) => stack.extend(ps.iter().map(|(_, v)| v)),
                _ => {}
            }
        }
    }
    let (i, v) = found?;
    Some(match v {
        Value::Number(_) | Value::String(_) => {
            spans.get(i).and_then(|&(s, e)| text.get(s..e)).ok_or(())
        }
        Value::Null => Ok("null"),
        _ => Err(()),
    })
}

fn provider(params: &Value) -> Result<crate::llm::Provider, Error> {
    match params.get("provider") {
        None | Some(Value::Null) => Ok(crate::llm::Provider::Anthropic),
        Some(Value::String(p)) => crate::llm::Provider::parse(p),
        Some(_) => Err(Error::new(ErrorCode::E050, "provider must be a string")),
    }
}

/// Feeds one `event` param (JSON text or an object) into a stream.
fn feed_event(stream: &mut crate::llm::LlmStream, event: &Value) -> Result<String, Error> {
    match event {
        Value::String(text) => Ok(stream.feed(text)),
        v @ Value::Object(_) => Ok(stream.feed_value(v)),
        _ => Err(Error::new(
            ErrorCode::E050,
            "event must be a string or an object",
        )),
    }
}

impl Session {
    fn watch_method(
        &mut self,
        method: &str,
        params: &Value,
        out: &mut String,
    ) -> Result<(), Error> {
        let state = |m: &str| Error::new(ErrorCode::E050, m);
        match method {
            "watch.start" => {
                if self.watch.is_some() {
                    return Err(state("watch stream already active"));
                }
                let (mut opts, schema) = crate::protocol::options(params)?;
                opts.schema = schema?;
                let canonical = opts
                    .schema
                    .as_ref()
                    .map_or_else(|| "null".into(), |s| crate::json::quoted(s.canonical()));
                self.watch = Some(crate::Watch::new(opts));
                out.push_str("{\"ok\":true,\"schema\":");
                out.push_str(&canonical);
                out.push('}');
                Ok(())
            }
            "watch.feed" => {
                let chunk = match params.get("chunk") {
                    Some(Value::String(c)) => c.as_str(),
                    Some(_) => return Err(state("chunk must be a string")),
                    None => return Err(state("missing parameter chunk")),
                };
                let stream = self
                    .watch
                    .as_mut()
                    .ok_or_else(|| state("no active watch stream"))?;
                stream.feed(chunk).map(|p| p.write_json(out))
            }
            _ => {
                let stream = self
                    .watch
                    .take()
                    .ok_or_else(|| state("no active watch stream"))?;
                stream.finish().map(|f| f.write_json(out))
            }
        }
    }

    fn llm_method(&mut self, method: &str, params: &Value) -> Result<String, Error> {
        let state = |m: &str| Error::new(ErrorCode::E050, m);
        match method {
            "llm.open" => {
                if self.llm.is_some() {
                    return Err(state("llm stream already active"));
                }
                let p = provider(params)?;
                self.llm = Some(crate::llm::LlmStream::new(p));
                Ok("{\"ok\":true}".into())
            }
            "llm.feed" => {
                let stream = self
                    .llm
                    .as_mut()
                    .ok_or_else(|| state("no active llm stream"))?;
                let event = params
                    .get("event")
                    .ok_or_else(|| Error::new(ErrorCode::E050, "missing parameter event"))?;
                feed_event(stream, event)
            }
            "llm.close" => {
                let stream = self
                    .llm
                    .take()
                    .ok_or_else(|| state("no active llm stream"))?;
                Ok(stream.close())
            }
            _ => {
                let p = provider(params)?;
                let Some(Value::Array(events)) = params.get("events") else {
                    return Err(Error::new(ErrorCode::E050, "events must be an array"));
                };
                let mut stream = crate::llm::LlmStream::new(p);
                for e in events {
                    feed_event(&mut stream, e)?;
                }
                Ok(stream.close())
            }
        }
    }

    /// A new connection.
    ///
    /// ```
    /// let mut s = jsonmend_engine::Session::new();
    /// assert!(s.handle(br#"{"id":1,"method":"hello"}"#).unwrap().line.contains(r#""protocol":1"#));
    /// ```
    pub fn new() -> Session {
        Session::default()
    }

    /// Gives a reply's line back once it is written out, so that the next
    /// reply is written into its memory: a server answering line after
    /// line then allocates a reply's buffer once, not per reply (a line of
    /// more than 1 MiB is not kept).
    ///
    /// ```
    /// let mut s = jsonmend_engine::Session::new();
    /// let r = s.handle(br#"{"id":1,"method":"repair","params":{"text":"[1,]"}}"#).unwrap();
    /// s.recycle(r.line);
    /// let again = s.handle(br#"{"id":2,"method":"repair","params":{"text":"[2,]"}}"#).unwrap();
    /// assert!(again.line.starts_with(r#"{"id":2,"ok":true,"result":{"text":"[2]""#));
    /// ```
    pub fn recycle(&mut self, line: String) {
        if line.capacity() <= KEEP_LINE {
            self.spare = line;
        }
    }

    /// The reply to a line longer than [`MAX_LINE`] (it was discarded).
    ///
    /// ```
    /// assert!(jsonmend_engine::Session::oversized().line.starts_with(r#"{"id":null,"ok":false,"error":{"code":"E050""#));
    /// ```
    pub fn oversized() -> Reply {
        let e = Error::new(
            ErrorCode::E050,
            format!("request line longer than {MAX_LINE} bytes"),
        );
        Reply {
            line: error_line("null", &e),
            shutdown: false,
        }
    }

    /// The reply to a handler that panicked.
    ///
    /// ```
    /// assert!(jsonmend_engine::Session::internal_error("boom").line.contains("E090"));
    /// ```
    pub fn internal_error(detail: &str) -> Reply {
        let e = Error::new(ErrorCode::E090, format!("internal error: {detail}"));
        Reply {
            line: error_line("null", &e),
            shutdown: false,
        }
    }

    /// Answers one request line (without its LF; a trailing CR is
    /// stripped). Blank lines get no answer.
    ///
    /// ```
    /// use jsonmend_engine::Session;
    /// let mut s = Session::new();
    /// let r = s.handle(br#"{"id":7,"method":"repair","params":{"text":"[1,]"}}"#).unwrap();
    /// assert!(r.line.starts_with(r#"{"id":7,"ok":true,"result":{"text":"[1]""#));
    /// let bye = s.handle(br#"{"id":"x","method":"shutdown"}"#).unwrap();
    /// assert_eq!(bye.line, r#"{"id":"x","ok":true,"bye":true}"#);
    /// assert!(bye.shutdown);
    /// ```
    pub fn handle(&mut self, line: &[u8]) -> Option<Reply> {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
            return None;
        }
        let malformed = |detail: &str| {
            reply(error_line(
                "null",
                &Error::new(ErrorCode::E060, format!("malformed request: {detail}")),
            ))
        };
        let Ok(text) = core::str::from_utf8(line) else {
            return malformed("not UTF-8");
        };
        let Ok((root, spans)) = crate::value_parse::parse_request(text) else {
            return malformed("not a JSON object");
        };
        if !matches!(root, Value::Object(_)) {
            return malformed("not a JSON object");
        }
        let id = match id_text(text, &root, &spans) {
            None => "null",
            Some(Ok(id)) => id,
            Some(Err(())) => {
                let e = Error::new(ErrorCode::E050, "id must be a number or a string");
                return reply(error_line("null", &e));
            }
        };
        let method = match root.get("method") {
            Some(Value::String(m)) => m.as_str(),
            Some(_) => {
                let e = Error::new(ErrorCode::E050, "method must be a string");
                return reply(error_line(id, &e));
            }
            None => {
                let e = Error::new(ErrorCode::E050, "missing method");
                return reply(error_line(id, &e));
            }
        };
        let empty = Value::Object(alloc::vec::Vec::new());
        let params = match root.get("params") {
            None | Some(Value::Null) => &empty,
            Some(p @ Value::Object(_)) => p,
            Some(_) => {
                let e = Error::new(ErrorCode::E050, "params must be an object");
                return reply(error_line(id, &e));
            }
        };
        match method {
            "hello" => reply(format!(
                "{{\"id\":{id},\"ok\":true,\"result\":{{\"name\":\"jsonmend\",\"engine\":\"{v}\",\"registry\":\"{v}\",\"protocol\":1,\"capabilities\":{CAPABILITIES},\"streams\":1}}}}",
                v = env!("CARGO_PKG_VERSION")
            )),
            "shutdown" => Some(Reply {
                line: format!("{{\"id\":{id},\"ok\":true,\"bye\":true}}"),
                shutdown: true,
            }),
            "watch.start" | "watch.feed" | "watch.finish" => {
                let line = core::mem::take(&mut self.spare);
                answer(id, line, |out| self.watch_method(method, params, out))
            }
            "llm.open" | "llm.feed" | "llm.close" | "llm.run" => {
                let line = core::mem::take(&mut self.spare);
                answer(id, line, |out| {
                    out.push_str(&self.llm_method(method, params)?);
                    Ok(())
                })
            }
            _ => {
                let line = core::mem::take(&mut self.spare);
                answer(id, line, |out| call_into(method, params, out))
            }
        }
    }
}
