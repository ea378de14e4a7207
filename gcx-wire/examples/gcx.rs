//! The gcx-wire example CLI, kept stable for conformance checks from
//! outside:
//!
//! ```sh
//! cargo run -p gcx-wire --example gcx -- decode [--go-compat] < payload
//! cargo run -p gcx-wire --example gcx -- encode --generic --tool NAME [--go-compat] < json
//! cargo run -p gcx-wire --example gcx -- encode --tool NAME [--go-compat] < json
//! ```
//!
//! `decode` prints `{"sections":[{"tool","fields","meta","rows":[{field: value}]}]}`
//! (the Go reference's map view: duplicate field or meta key → last wins;
//! each invalid UTF-8 byte → one U+FFFD). On a rejection it prints the
//! sections read before the error plus `"error": "<message>"` and exits 1.
//!
//! `encode` reads JSON text (number literals kept as written) and prints the
//! payload: with `--generic` through `EncodeAny`, otherwise with the
//! benchmark layout of the tool. Strict by default: what GCX1 cannot carry
//! is a typed error on stderr and exit 1; `--go-compat` writes what the Go
//! reference writes.
#![allow(missing_docs)]

use std::io::{Read, Write};
use std::process::ExitCode;

#[path = "../tests/support/go_view.rs"]
mod go_view;

fn decode(args: &[String], input: &[u8]) -> ExitCode {
    let options = gcx_wire::DecodeOptions {
        go_compat: args.iter().any(|a| a == "--go-compat"),
        ..Default::default()
    };
    let out = go_view::decoded_json(input, &options);
    let error = out.get("error").cloned();
    if let Some(msg) = &error {
        eprintln!("gcx: {}", msg.as_str().unwrap_or_default());
    }
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{out}");
    if error.is_some() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("gcx: cannot read stdin: {e}");
        return ExitCode::from(3);
    }
    match args.first().map(String::as_str) {
        Some("decode") => decode(args.get(1..).unwrap_or_default(), &input),
        Some("encode") => encode(args.get(1..).unwrap_or_default(), &input),
        _ => usage(),
    }
}

fn usage() -> ExitCode {
    eprintln!("usage: gcx decode [--go-compat] < payload");
    eprintln!("       gcx encode [--generic] --tool NAME [--go-compat] < json");
    ExitCode::from(2)
}

fn encode(args: &[String], input: &[u8]) -> ExitCode {
    let mut tool = None;
    let mut generic = false;
    let mut mode = gcx_wire::encode::Mode::Strict;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--generic" => generic = true,
            "--go-compat" => mode = gcx_wire::encode::Mode::GoCompat,
            "--tool" => tool = it.next().cloned(),
            _ => return usage(),
        }
    }
    let Some(tool) = tool else {
        return usage();
    };
    let result = if generic {
        gcx_wire::encode::encode_any(&tool, input, mode)
    } else {
        gcx_wire::encode::encode_bench(&tool, input, mode)
    };
    match result {
        Ok(payload) => {
            let _ = std::io::stdout().lock().write_all(&payload);
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("gcx: {err}");
            ExitCode::FAILURE
        }
    }
}
