//! The munch-core example CLI, kept stable for conformance checks from
//! outside:
//!
//! ```sh
//! cargo run -p munch-core --example munch -- decode < payload
//! cargo run -p munch-core --example munch -- encode --tool NAME --format compact|auto|json \
//!     [--mode verified|reference] [--key-order any|exact] [--threshold X] [--meta] < response.json
//! ```
//!
//! `decode` prints the decoded value as JSON (key order kept; NaN and the
//! infinities as `{"$float": …}`) and exits 1 with a message on stderr when
//! the input is neither MUNCH nor JSON.
//!
//! `encode` reads a response as Python JSON (`NaN`, `Infinity` and the
//! `{"$float": …}` form accepted) and prints exactly the text a jcodemunch
//! server sends for that tool and format: the MUNCH payload, or the JSON
//! text when it falls back. `--meta` prints the dispatcher's metadata on
//! stderr.
#![allow(missing_docs)]

use std::io::{Read, Write};
use std::process::ExitCode;

use munch_core::{Format, KeyOrder, Mode, Options};

fn usage() -> ExitCode {
    eprintln!(
        "usage: munch decode < payload\n       munch encode --tool NAME --format compact|auto|json \
         [--mode verified|reference] [--key-order any|exact] [--threshold X] [--meta] < response.json"
    );
    ExitCode::from(2)
}

fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

fn decode(input: &str) -> ExitCode {
    match munch_core::decode(input) {
        Ok(v) => {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{v}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("munch: cannot decode: {e}");
            ExitCode::FAILURE
        }
    }
}

fn encode(args: &[String], input: &str) -> ExitCode {
    let Some(tool) = flag(args, "--tool") else {
        return usage();
    };
    let format = match flag(args, "--format") {
        None => Format::Auto,
        Some(f) => match Format::parse(f) {
            Some(f) => f,
            None => return usage(),
        },
    };
    let mode = match flag(args, "--mode") {
        None | Some("verified") => Mode::Verified,
        Some("reference") => Mode::Reference,
        Some(_) => return usage(),
    };
    let key_order = match flag(args, "--key-order") {
        None | Some("any") => KeyOrder::Any,
        Some("exact") => KeyOrder::Exact,
        Some(_) => return usage(),
    };
    let mut opts = Options {
        format,
        mode,
        key_order,
        ..Options::default()
    };
    if let Some(t) = flag(args, "--threshold") {
        match t.parse::<f64>() {
            Ok(x) => opts.threshold = x.max(0.0),
            Err(_) => return usage(),
        }
    }
    let response = match munch_core::decode(input) {
        Ok(v) if !input.starts_with("#MUNCH/") => v,
        Ok(_) => {
            eprintln!("munch: encode reads JSON, not a MUNCH payload");
            return ExitCode::FAILURE;
        }
        Err(e) => {
            eprintln!("munch: input is not JSON: {e}");
            return ExitCode::FAILURE;
        }
    };
    let out = munch_core::encode(tool, &response, &opts);
    if args.iter().any(|a| a == "--meta") {
        eprintln!("munch: {:?}", out.meta);
    }
    let mut stdout = std::io::stdout().lock();
    if stdout.write_all(out.text.as_bytes()).is_err() {
        return ExitCode::from(3);
    }
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        eprintln!("munch: cannot read stdin as UTF-8: {e}");
        return ExitCode::from(3);
    }
    match args.first().map(String::as_str) {
        Some("decode") => decode(&input),
        Some("encode") => encode(args.get(1..).unwrap_or_default(), &input),
        _ => usage(),
    }
}
