//! The conformance corpus (spec §17.1): every case of
//! `tests/conformance/cases.jsonl` through the library route, the `jsonmend`
//! binary for one-shot `repair` cases (CLI parity, §15), and invariants
//! I1–I3 on every successful `text`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value as J;

const CASES: &str = include_str!("conformance/cases.jsonl");

/// Subset matching of spec §17.1.
fn matches(expect: &J, got: &J, path: &str, errors: &mut Vec<String>) {
    match (expect, got) {
        (J::String(s), _) if s == "$any" => {}
        (J::Object(e), J::Object(g)) => {
            for (k, v) in e {
                match g.get(k) {
                    Some(gv) => matches(v, gv, &format!("{path}/{k}"), errors),
                    None => errors.push(format!("{path}/{k}: missing")),
                }
            }
        }
        (J::Array(e), J::Array(g)) => {
            let (prefix, items) = match e.first() {
                Some(J::String(s)) if s == "$prefix" => (true, &e[1..]),
                _ => (false, &e[..]),
            };
            if (prefix && g.len() < items.len()) || (!prefix && g.len() != items.len()) {
                errors.push(format!(
                    "{path}: {} items, expected {}{}",
                    g.len(),
                    items.len(),
                    if prefix { "+" } else { "" }
                ));
                return;
            }
            for (i, (a, b)) in items.iter().zip(g).enumerate() {
                matches(a, b, &format!("{path}/{i}"), errors);
            }
        }
        (J::Number(a), J::Number(b)) if a.as_f64() == b.as_f64() => {}
        (a, b) if a == b => {}
        (a, b) => errors.push(format!("{path}: expected {a}, got {b}")),
    }
}

fn lib_response(method: &str, params: &J) -> J {
    let params = jsonmend_engine::Value::parse(&params.to_string()).unwrap();
    serde_json::from_str(&jsonmend_engine::envelope(method, &params)).unwrap()
}

/// I1–I3 on a successful repair text.
fn invariants(text: &str) -> Result<(), String> {
    serde_json::from_str::<J>(text).map_err(|e| format!("I1: {e}: {text:?}"))?;
    let again = jsonmend_engine::repair_text(text).map_err(|e| format!("I3: {e}"))?;
    if again.text != text || again.exactness != jsonmend_engine::Exactness::Exact {
        return Err(format!("I3: {text:?} repaired again to {:?}", again.text));
    }
    Ok(())
}

/// `jsonmend repair` with the case's params as flags: stdout and exit code.
fn cli(params: &J) -> Option<(String, i32)> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_jsonmend"));
    cmd.arg("repair");
    let obj = params.as_object()?;
    for (k, v) in obj {
        match (k.as_str(), v) {
            ("text", _) => {}
            ("profile", J::String(p)) => {
                cmd.args(["--profile", p]);
            }
            ("schema", J::String(s)) => {
                cmd.args(["--schema", s]);
            }
            ("max_loss", J::Number(n)) => {
                cmd.args(["--max-loss", &n.to_string()]);
            }
            ("skip_prose", J::Bool(false)) => {
                cmd.arg("--no-skip-prose");
            }
            ("skip_prose", J::Bool(true)) => {}
            _ => return None,
        }
    }
    let text = obj.get("text")?.as_str()?;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // A CLI that refuses its arguments exits without reading stdin: the
    // write may then meet a closed pipe, which is not a failure here.
    let write = child.stdin.take().unwrap().write_all(text.as_bytes());
    if let Err(e) = write {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    let out = child.wait_with_output().unwrap();
    Some((
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code().unwrap_or(-1),
    ))
}

/// `lines` through one `jsonmend serve --stdio` process: its answers.
fn serve(lines: &[String]) -> Vec<J> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jsonmend"))
        .args(["serve", "--stdio"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let payload: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(payload.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Every case through one server process: each response must be the
/// library's envelope with the request's id.
fn proto_responses(requests: &[(String, J)]) -> Vec<J> {
    let lines: Vec<String> = requests
        .iter()
        .enumerate()
        .map(|(i, (method, params))| {
            serde_json::json!({"id": i, "method": method, "params": params}).to_string()
        })
        .collect();
    serve(&lines)
}

/// Runs `lines` through one in-process session and one server process; both
/// must answer the same lines.
fn session_replies(lines: &[String]) -> Vec<J> {
    let mut session = jsonmend_engine::Session::new();
    let lib: Vec<J> = lines
        .iter()
        .filter_map(|l| session.handle(l.as_bytes()))
        .map(|r| serde_json::from_str(&r.line).unwrap())
        .collect();
    let proto = serve(lines);
    assert_eq!(lib, proto, "session and server differ on {lines:?}");
    proto
}

/// Long lines through the server: one of 2 MiB (past the point where its
/// buffer goes straight to the line limit) is answered in full; one over
/// the 8 MiB limit is `E050` with a null id, discarded through its LF, and
/// the lines around it are answered as usual.
#[test]
fn long_and_oversized_lines() {
    let long_text = format!("[\"{}\"", "a".repeat(2 << 20));
    let long = serde_json::json!({"id": 1, "method": "repair", "params": {"text": long_text}});
    let over = format!(
        "{{\"id\":2,\"method\":\"repair\",\"params\":{{\"text\":\"{}\"}}}}",
        "x".repeat(jsonmend_engine::MAX_LINE)
    );
    let lines = [
        long.to_string(),
        over,
        r#"{"id":3,"method":"hello"}"#.to_string(),
        long.to_string(),
    ];
    let got = serve(&lines);
    assert_eq!(got.len(), 4);
    for answer in [&got[0], &got[3]] {
        assert_eq!(answer["id"], 1);
        assert_eq!(answer["result"]["text"], format!("{long_text}]"));
    }
    assert_eq!(got[1]["id"], J::Null);
    assert_eq!(got[1]["error"]["code"], "E050");
    assert_eq!(got[2]["id"], 3);
    assert_eq!(got[2]["result"]["protocol"], 1);
}

/// `raw` and `steps` cases: lines on one connection.
#[test]
fn protocol_cases() {
    let mut failures = Vec::new();
    let mut count = 0;
    for line in CASES.lines().filter(|l| !l.trim().is_empty()) {
        let case: J = serde_json::from_str(line).unwrap();
        let id = case["id"].as_str().unwrap_or("?");
        let (lines, expects): (Vec<String>, Vec<J>) = if let Some(raw) = case["raw"].as_str() {
            (vec![raw.to_string()], vec![case["expect"].clone()])
        } else if let Some(steps) = case["steps"].as_array() {
            steps
                .iter()
                .enumerate()
                .map(|(i, st)| {
                    let req = serde_json::json!({"id": i, "method": st["method"], "params": st["params"]});
                    (req.to_string(), st["expect"].clone())
                })
                .unzip()
        } else {
            continue;
        };
        count += 1;
        let replies = session_replies(&lines);
        if replies.len() != expects.len() {
            failures.push(format!(
                "{id}: {} replies for {} lines",
                replies.len(),
                expects.len()
            ));
            continue;
        }
        for (i, (want, got)) in expects.iter().zip(&replies).enumerate() {
            let mut errors = Vec::new();
            matches(want, got, "", &mut errors);
            if !errors.is_empty() {
                failures.push(format!(
                    "{id} step {i}: {}\n    response: {got}",
                    errors.join("; ")
                ));
            }
        }
    }
    eprintln!("protocol: {count} cases, {} failures", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn conformance_cases() {
    let mut failures = Vec::new();
    let mut count = 0;
    for line in CASES.lines().filter(|l| !l.trim().is_empty()) {
        let case: J =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("bad case line {line}: {e}"));
        let id = case["id"].as_str().unwrap_or("?").to_string();
        let routes: Vec<&str> = case["routes"]
            .as_array()
            .map(|r| r.iter().filter_map(J::as_str).collect())
            .unwrap_or_else(|| vec!["lib", "proto", "cli"]);
        let Some(method) = case["method"].as_str() else {
            continue;
        };
        count += 1;
        let params = &case["params"];
        let got = lib_response(method, params);
        let mut errors = Vec::new();
        matches(&case["expect"], &got, "", &mut errors);
        if method == "repair" {
            if let Some(text) = got["result"]["text"].as_str() {
                if let Err(e) = invariants(text) {
                    errors.push(e);
                }
            }
            if routes.contains(&"cli") {
                if let Some((stdout, code)) = cli(params) {
                    let (want_out, want_code) = match got["result"]["text"].as_str() {
                        Some(t) => (format!("{t}\n"), 0),
                        None => (
                            String::new(),
                            got["error"]["exit"].as_i64().unwrap_or(-1) as i32,
                        ),
                    };
                    if stdout != want_out || code != want_code {
                        errors.push(format!(
                            "cli: {stdout:?} exit {code}, expected {want_out:?} exit {want_code}"
                        ));
                    }
                }
            }
        }
        if !errors.is_empty() {
            failures.push(format!("{id}: {}\n    response: {got}", errors.join("; ")));
        }
    }
    // The proto route: identical envelopes, id echoed.
    let requests: Vec<(String, J)> = CASES
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| {
            let case: J = serde_json::from_str(l).ok()?;
            Some((case["method"].as_str()?.to_string(), case["params"].clone()))
        })
        .collect();
    let responses = proto_responses(&requests);
    assert_eq!(responses.len(), requests.len(), "one response per request");
    for (i, ((method, params), got)) in requests.iter().zip(&responses).enumerate() {
        let mut want = lib_response(method, params);
        want.as_object_mut()
            .unwrap()
            .insert("id".into(), J::from(i));
        // Map equality: the id's position in the object does not matter.
        if *got != want {
            failures.push(format!("proto {method} {params}: {got} != {want}"));
        }
    }
    eprintln!("conformance: {count} cases, {} failures", failures.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
