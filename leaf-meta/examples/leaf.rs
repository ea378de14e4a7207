//! The leaf-meta example CLI, kept stable for conformance checks from
//! outside:
//!
//! ```sh
//! cargo run -p leaf-meta --example leaf -- ids --map FILE --pin sha256:HEX < text
//! ```
//!
//! `ids` reads raw text from stdin (no newline added) and prints the JSON
//! array of its ids. With `--time` it also reports, on stderr, how long
//! loading the map and encoding took.
#![allow(missing_docs)]

use std::io::{Read, Write};
use std::process::ExitCode;
use std::time::Instant;

use leaf_meta::{LeafMap, MapId};

fn usage() -> ExitCode {
    eprintln!("usage: leaf ids --map FILE --pin sha256:HEX [--time] < text");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        return usage();
    };
    let mut map_path = None;
    let mut pin = None;
    let mut time = false;
    let mut it = args.iter().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--map" => map_path = it.next().cloned(),
            "--pin" => pin = it.next().cloned(),
            "--time" => time = true,
            _ => return usage(),
        }
    }
    if cmd != "ids" {
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
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("leaf: cannot read stdin: {e}");
        return ExitCode::from(3);
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
