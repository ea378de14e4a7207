//! The server-loop property (issue 7): arbitrary request lines never crash
//! the session and every answer is a protocol response line. Shared by the
//! `jsonmend_protocol` fuzz target and `cargo test`.

// Also loaded by the other properties: the fuzz targets include each file
// on its own.
#[allow(clippy::duplicate_mod)]
#[path = "deep_json.rs"]
mod deep_json;

use jsonmend_engine::Session;
use serde_json::Value;

/// Feeds `data` split at LF into one session; checks every reply.
pub(crate) fn check(data: &[u8]) -> Result<(), String> {
    let mut session = Session::new();
    // A second session gives every written line back for the next reply,
    // as the server loop does: its replies must be the same.
    let mut recycling = Session::new();
    for line in data.split(|&b| b == b'\n') {
        let again = recycling.handle(line);
        let Some(reply) = session.handle(line) else {
            if again.is_some() {
                return Err(format!("only the recycling session answered {line:?}"));
            }
            continue;
        };
        match again {
            Some(r) if r == reply => recycling.recycle(r.line),
            other => {
                return Err(format!(
                    "recycling session answered {other:?}, not {:?}",
                    reply.line
                ));
            }
        }
        if reply.line.contains('\n') {
            return Err(format!("reply spans lines: {:?}", reply.line));
        }
        let v: Value = deep_json::parse(&reply.line)
            .map_err(|e| format!("reply is not JSON ({e}): {:?}", reply.line))?;
        let obj = v.as_object().ok_or("reply is not an object")?;
        let id_ok = matches!(
            obj.get("id"),
            Some(Value::Null | Value::Number(_) | Value::String(_))
        );
        let ok = obj.get("ok").and_then(Value::as_bool).ok_or("no ok")?;
        let body = if ok {
            obj.contains_key("result") || obj.get("bye") == Some(&Value::Bool(true))
        } else {
            obj.get("error")
                .and_then(|e| e.get("code"))
                .and_then(Value::as_str)
                .is_some_and(|c| c.starts_with('E'))
        };
        if !id_ok || !body {
            return Err(format!("not a protocol response: {}", reply.line));
        }
        if reply.shutdown {
            break;
        }
    }
    Ok(())
}
