//! The gcx-wire example CLI, kept stable for conformance checks from
//! outside:
//!
//! ```sh
//! cargo run -p gcx-wire --example gcx -- decode [--go-compat] < payload
//! ```
//!
//! `decode` prints `{"sections":[{"tool","fields","meta","rows":[{field: value}]}]}`
//! (the Go reference's map view: duplicate field or meta key → last wins;
//! each invalid UTF-8 byte → one U+FFFD). On a rejection it prints the
//! sections read before the error plus `"error": "<message>"` and exits 1.
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
        Some("encode") => {
            eprintln!("gcx: encode is not implemented yet");
            ExitCode::from(2)
        }
        _ => {
            eprintln!("usage: gcx decode [--go-compat] < payload");
            ExitCode::from(2)
        }
    }
}
