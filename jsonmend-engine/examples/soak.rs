//! Soak and latency runs of `jsonmend serve --stdio` (issue 7's bars), run
//! by `cargo xtask soak`:
//!
//! - 100,000 mixed requests through one server process (one-shot methods,
//!   malformed and oversized lines, stream misuse, llm and watch streams): every
//!   output line must be a protocol response; peak RSS at 10k and 100k.
//! - 10,000 sequential 1 KB repairs: median and p99 round-trip latency.
//! - server start to the `hello` answer: median of 20 starts.
//!
//! `cargo run --release -p jsonmend-engine --example soak -- PATH/TO/jsonmend [N]`

#![allow(clippy::expect_used, clippy::indexing_slicing, missing_docs)]

use std::io::{BufRead, BufReader, IsTerminal, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use jsonmend_engine::Value;

/// `jsonmend serve --stdio` with piped stdin and stdout.
fn spawn_server(bin: &str) -> std::process::Child {
    Command::new(bin)
        .args(["serve", "--stdio"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the server")
}

fn rss_kb(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

/// Whether `line` is a protocol response.
fn valid_response(line: &str) -> bool {
    let Ok(v) = Value::parse(line) else {
        return false;
    };
    let id_ok = matches!(
        v.get("id"),
        Some(Value::Null | Value::Number(_) | Value::String(_))
    );
    let body = match v.get("ok") {
        Some(Value::Bool(true)) => v.get("result").is_some() || v.get("bye").is_some(),
        Some(Value::Bool(false)) => v
            .get("error")
            .and_then(|e| e.get("code"))
            .and_then(Value::as_str)
            .is_some_and(|c| c.starts_with('E')),
        _ => false,
    };
    id_ok && body
}

const TEXTS: &[&str] = &[
    r#"{"a": 1, "b": [true, null]}"#,
    "{name: 'Ada', tags: ['x',], ok: True, // c\n}",
    "Sure! ```json\n{\"city\": \"Paris\"}\n```",
    r#"{"query": "weather in SF", "limit": 10"#,
    "[1, 2, 3",
    "not json",
    "",
    r#"{"a":1,"a":2}"#,
];

/// The i-th request line of the mix (one in 25,000 is oversized).
fn request(i: usize, big: &str) -> String {
    let text = TEXTS[i % TEXTS.len()];
    let params = format!("{{\"text\":{}}}", Value::String(text.into()).to_json());
    match i % 20 {
        0 => format!("{{\"id\":{i},\"method\":\"hello\"}}"),
        1 => "this is not a request".into(),
        2 => "[1,2,3]".into(),
        3 => format!("{{\"id\":{i},\"method\":\"llm.feed\",\"params\":{{\"event\":\"{{}}\"}}}}"),
        4 => format!("{{\"id\":{i},\"method\":\"llm.open\"}}"),
        5 => format!("{{\"id\":{i},\"method\":\"llm.feed\",\"params\":{{\"event\":{}}}}}",
            Value::String(r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}"#.into()).to_json()),
        6 => format!("{{\"id\":{i},\"method\":\"llm.close\"}}"),
        7 => format!("{{\"id\":{i},\"method\":\"frobnicate\"}}"),
        8 => format!("{{\"id\":[{i}],\"method\":\"repair\"}}"),
        9 => format!("{{\"id\":{i},\"method\":\"analyze\",\"params\":{params}}}"),
        10 => format!("{{\"id\":{i},\"method\":\"validate\",\"params\":{params}}}"),
        11 => format!("{{\"id\":{i},\"method\":\"readiness\",\"params\":{{\"text\":{},\"schema\":\"{{!query:string,!limit:integer}}\"}}}}",
            Value::String(text.into()).to_json()),
        12 if i % 25_000 == 12 => big.into(),
        // A watch stream per 20 requests, fed two pieces of a text, then
        // a feed after its finish (stream misuse).
        13 => format!("{{\"id\":{i},\"method\":\"watch.start\",\"params\":{{\"schema\":\"{{!query:string}}\"}}}}"),
        14 | 15 | 17 => {
            let half = text.len() / 2;
            let piece = if i % 20 == 14 { &text[..half] } else { &text[half..] };
            format!("{{\"id\":{i},\"method\":\"watch.feed\",\"params\":{{\"chunk\":{}}}}}",
                Value::String(piece.into()).to_json())
        }
        16 => format!("{{\"id\":{i},\"method\":\"watch.finish\"}}"),
        _ => format!("{{\"id\":{i},\"method\":\"repair\",\"params\":{params}}}"),
    }
}

fn soak(bin: &str, n: usize) {
    let mut child = spawn_server(bin);
    let pid = child.id();
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let big = format!(
        "{{\"id\":1,\"method\":\"repair\",\"params\":{{\"text\":\"{}\"}}}}",
        "x".repeat(9_000_000)
    );
    let writer = std::thread::spawn(move || {
        for i in 0..n {
            let mut line = request(i, &big);
            line.push('\n');
            if stdin.write_all(line.as_bytes()).is_err() {
                break;
            }
        }
        // stdin closes here: the server exits 0 at the end of input.
    });
    let started = Instant::now();
    let mut lines = 0usize;
    let mut invalid = 0usize;
    let mut rss_10k = 0;
    let mut peak = 0;
    // Resident memory (not the peak) at 10k and 50k responses and at the
    // last reading while the server lived.
    let (mut resident_10k, mut resident_50k, mut resident_last) = (0, 0, (0, 0));
    for line in BufReader::new(stdout).lines() {
        let Ok(line) = line else { break };
        lines += 1;
        if !valid_response(&line) {
            invalid += 1;
            if invalid <= 3 {
                eprintln!("invalid response line: {}", &line[..line.len().min(200)]);
            }
        }
        if lines == 10_000 {
            rss_10k = rss_kb(pid, "VmHWM:");
            resident_10k = rss_kb(pid, "VmRSS:");
        }
        if lines == 50_000 {
            resident_50k = rss_kb(pid, "VmRSS:");
        }
        // The peak so far, while the process is alive (it exits at the end
        // of its input, possibly before the last lines are read here).
        if lines % 1_000 == 0 {
            peak = peak.max(rss_kb(pid, "VmHWM:"));
            let resident = rss_kb(pid, "VmRSS:");
            if resident > 0 {
                resident_last = (resident, lines);
            }
        }
        if lines % 20_000 == 0 {
            // One line rewritten on a terminal, a line each in a log.
            if std::io::stderr().is_terminal() {
                eprint!("\rsoak: {lines} responses");
            } else {
                eprintln!("soak: {lines} responses");
            }
        }
    }
    let _ = writer.join();
    let status = child.wait().expect("wait");
    if std::io::stderr().is_terminal() {
        eprintln!();
    }
    println!(
        "soak: {n} requests, {lines} response lines, {invalid} protocol-invalid, exit {:?}, {:.1} s",
        status.code(),
        started.elapsed().as_secs_f64()
    );
    println!("soak: peak RSS {rss_10k} kB after 10k responses, {peak} kB after {lines}");
    println!(
        "soak: resident {resident_10k} kB after 10k responses, {resident_50k} kB after 50k, \
         {} kB after {} (request lines 12, 25,012, 50,012 and 75,012 are over the 8 MiB \
         limit, and the server holds up to 8 MiB of such a line before it can tell: \
         the first buffer goes back to the system, the later ones reuse one block)",
        resident_last.0, resident_last.1
    );
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn latency(bin: &str, n: usize) {
    let mut child = spawn_server(bin);
    let mut stdin = child.stdin.take().expect("stdin");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    // A 1 KB reply with a few defects.
    let mut doc = String::from("{");
    let mut k = 0;
    while doc.len() < 1000 {
        doc.push_str(&format!("key{k}: 'value number {k}', n{k}: {k},"));
        k += 1;
    }
    doc.push('}');
    let line = format!(
        "{{\"id\":1,\"method\":\"repair\",\"params\":{{\"text\":{}}}}}\n",
        Value::String(doc.clone()).to_json()
    );
    let mut times = Vec::with_capacity(n);
    let mut resp = String::new();
    for _ in 0..n {
        let t = Instant::now();
        stdin.write_all(line.as_bytes()).expect("write");
        stdin.flush().expect("flush");
        resp.clear();
        out.read_line(&mut resp).expect("read");
        times.push(t.elapsed());
    }
    drop(stdin);
    let _ = child.wait();
    times.sort();
    println!(
        "latency: {n} repairs of {} bytes in one process: median {:.1} µs, p99 {:.1} µs",
        doc.len(),
        percentile(&times, 0.5).as_secs_f64() * 1e6,
        percentile(&times, 0.99).as_secs_f64() * 1e6
    );
    // The same requests through an in-process session: the engine's share
    // of the round trip (the rest is the pipe and the scheduler).
    let mut session = jsonmend_engine::Session::new();
    let request = line.trim_end().as_bytes();
    let mut inproc = Vec::with_capacity(n);
    for _ in 0..n {
        let t = Instant::now();
        std::hint::black_box(session.handle(request));
        inproc.push(t.elapsed());
    }
    inproc.sort();
    println!(
        "latency: the same {n} requests through Session::handle in-process: median {:.1} µs, p99 {:.1} µs",
        percentile(&inproc, 0.5).as_secs_f64() * 1e6,
        percentile(&inproc, 0.99).as_secs_f64() * 1e6
    );
}

fn startup(bin: &str) {
    let mut times = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let mut child = spawn_server(bin);
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all(b"{\"id\":1,\"method\":\"hello\"}\n")
            .expect("write");
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut resp = String::new();
        out.read_line(&mut resp).expect("read");
        times.push(t.elapsed());
        drop(stdin);
        let _ = child.wait();
    }
    times.sort();
    println!(
        "startup: server start to hello answer, median of 20: {:.2} ms",
        percentile(&times, 0.5).as_secs_f64() * 1e3
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let bin = args
        .next()
        .unwrap_or_else(|| "target/release/jsonmend".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    startup(&bin);
    latency(&bin, 10_000);
    soak(&bin, n);
}
