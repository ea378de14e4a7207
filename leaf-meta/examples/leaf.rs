//! The leaf-meta example CLI, kept stable for conformance checks from
//! outside:
//!
//! ```sh
//! cargo run -p leaf-meta --example leaf -- ids --map FILE --pin sha256:HEX < text
//! cargo run -p leaf-meta --example leaf -- wrap --map FILE --pin sha256:HEX < result.json
//! cargo run -p leaf-meta --example leaf -- read [--expect sha256:HEX] < result.json
//! ```
//!
//! `ids` reads raw text from stdin (no newline added) and prints the JSON
//! array of its ids (`--time` reports load and encode times on stderr).
//! `wrap` annotates every text block of a CallToolResult and prints it.
//! `read` prints one entry per text block: its ids, or `null` where it has
//! none; a payload of another map than `--expect` exits 1.
#![allow(missing_docs)]

use std::io::{Read, Write};

use std::process::ExitCode;
use std::time::Instant;

use leaf_meta::{LeafMap, MapId};

fn usage() -> ExitCode {
    eprintln!("usage: leaf ids --map FILE --pin sha256:HEX [--time] < text");
    eprintln!("       leaf wrap --map FILE --pin sha256:HEX < result.json");
    eprintln!("       leaf read [--expect sha256:HEX] < result.json");
    ExitCode::from(2)
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("leaf: {msg}");
    ExitCode::FAILURE
}

fn read_json(input: &[u8]) -> Result<serde_json::Value, ExitCode> {
    serde_json::from_slice(input).map_err(|e| fail(format!("stdin is not JSON: {e}")))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        return usage();
    };
    let mut map_path = None;
    let mut pin = None;
    let mut expect = None;
    let mut time = false;
    let mut it = args.iter().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--map" => map_path = it.next().cloned(),
            "--pin" => pin = it.next().cloned(),
            "--expect" => expect = it.next().cloned(),
            "--time" => time = true,
            _ => return usage(),
        }
    }
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("leaf: cannot read stdin: {e}");
        return ExitCode::from(3);
    }
    if cmd == "read" {
        return read(&input, expect.as_deref());
    }
    if cmd != "ids" && cmd != "wrap" {
        return usage();
    }
    let (Some(map_path), Some(pin)) = (map_path, pin) else {
        return usage();
    };
    let pin = match MapId::parse(&pin) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("leaf: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let map = match LeafMap::from_file(&map_path, &pin) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("leaf: {e}");
            return ExitCode::FAILURE;
        }
    };
    let loaded = start.elapsed();
    if cmd == "wrap" {
        let result = match read_json(&input) {
            Ok(v) => v,
            Err(code) => return code,
        };
        return match leaf_meta::wrap(&result, &map, &Default::default()) {
            Ok(out) => {
                let _ = writeln!(std::io::stdout().lock(), "{out}");
                ExitCode::SUCCESS
            }
            Err(e) => fail(e),
        };
    }
    let Ok(text) = String::from_utf8(input) else {
        eprintln!("leaf: stdin is not UTF-8");
        return ExitCode::FAILURE;
    };
    let start = Instant::now();
    let ids = map.encode(&text);
    let encoded = start.elapsed();
    let list: Vec<String> = ids.iter().map(u32::to_string).collect();
    let _ = writeln!(std::io::stdout().lock(), "[{}]", list.join(","));
    if time {
        eprintln!(
            "leaf: map loaded in {loaded:?}, {} bytes encoded in {encoded:?}",
            text.len()
        );
    }
    ExitCode::SUCCESS
}

fn read(input: &[u8], expect: Option<&str>) -> ExitCode {
    let result = match read_json(input) {
        Ok(v) => v,
        Err(code) => return code,
    };
    let expected = match expect.map(MapId::parse).transpose() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("leaf: {e}");
            return ExitCode::from(2);
        }
    };
    let options = leaf_meta::ReadOptions {
        expected,
        ..Default::default()
    };
    match leaf_meta::take_ids(&result, &options) {
        Ok(ids) => {
            let _ = writeln!(std::io::stdout().lock(), "{}", serde_json::json!(ids));
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}
