//! Checks munch-core against reference results for generated responses
//! (`cargo xtask munch-diff`): each input line is in the format of the
//! reference vectors (`tool`, `input`, `compact`, `auto`, `decoded`,
//! `roundtrip_equal`, `meta_compact`, `meta_auto`, `auto_is_munch`),
//! written by the reference itself; a second file, the same cases under
//! another hash seed, marks the seed-dependent lines. The checks are the
//! spec's C1 (decode equals the reference decoder, key order included), C2
//! (reference-mode compact bytes equal where the reference is lossless;
//! C2s for the seed-dependent ones, in the seed-0 order; C2l for lossy
//! lines), C3 (MUNCH-or-JSON choice, metadata, JSON fallback text) and C4
//! (where the reference is lossless, verified `compact` and `auto` give
//! the reference's text).
//!
//! ```sh
//! cargo run --release -p munch-core --example munch_diff -- seed0.jsonl [seed1.jsonl] \
//!     [--payloads verified.jsonl]
//! ```
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

use std::io::{BufRead, Write};
use std::process::ExitCode;

use munch_core::{Format, KeyOrder, Mode, Options, decode, encode, first_mismatch};
use serde_json::Value;

fn reference(format: Format) -> Options<'static> {
    Options {
        format,
        mode: Mode::Reference,
        ..Options::default()
    }
}

/// The failures of one check, the first few kept for the report.
#[derive(Default)]
struct Check {
    name: &'static str,
    run: usize,
    failed: usize,
    shown: Vec<String>,
}

impl Check {
    fn new(name: &'static str) -> Check {
        Check {
            name,
            ..Check::default()
        }
    }
    fn record(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.run += 1;
        if !ok {
            self.failed += 1;
            if self.shown.len() < 4 {
                self.shown.push(what());
            }
        }
    }
}

/// The lines of a reference file.
fn lines(path: &str) -> Result<impl Iterator<Item = Value>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    Ok(std::io::BufReader::new(file)
        .lines()
        .map(|l| serde_json::from_str(&l.expect("read")).expect("reference line")))
}

/// Verified payloads for `cargo xtask munch-pycheck`'s reference decode
/// (the `munch_corpus` format: `tool`, `input`, `compact`, and `auto` at
/// threshold 0, so that it is MUNCH wherever a rung holds).
fn verified_line(tool: &str, input: &Value) -> String {
    let run = |format, threshold| {
        encode(
            tool,
            input,
            &Options {
                format,
                threshold,
                ..Options::default()
            },
        )
        .text
    };
    let compact = run(Format::Compact, Options::default().threshold);
    let auto = run(Format::Auto, 0.0);
    serde_json::json!({"tool": tool, "input": input, "compact": compact, "auto": auto}).to_string()
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // `--payloads FILE`: also write munch-core's verified payloads there.
    let mut payloads = match args.iter().position(|a| a == "--payloads") {
        Some(i) if i + 1 < args.len() => {
            let path = args.remove(i + 1);
            args.remove(i);
            match std::fs::File::create(&path) {
                Ok(f) => Some(std::io::BufWriter::new(f)),
                Err(e) => {
                    eprintln!("{path}: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        _ => None,
    };
    let Some(path) = args.first() else {
        eprintln!("usage: munch_diff seed0.jsonl [seed1.jsonl] [--payloads FILE]");
        return ExitCode::from(2);
    };
    let (main, mut other) = match (lines(path), args.get(1).map(|p| lines(p)).transpose()) {
        (Ok(m), Ok(o)) => (m, o),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let (mut c1, mut c2, mut c3) = (Check::new("C1"), Check::new("C2"), Check::new("C3"));
    let (mut c2l, mut c2s, mut c4) = (Check::new("C2l"), Check::new("C2s"), Check::new("C4"));
    for v in main {
        // Payloads that differ under another hash seed.
        let seeded = other.as_mut().and_then(Iterator::next).is_some_and(|o| {
            o["name"] == v["name"] && (o["compact"] != v["compact"] || o["auto"] != v["auto"])
        });
        let name = v["name"].as_str().unwrap_or_default().to_string();
        let tool = v["tool"].as_str().unwrap_or_default();
        let input = &v["input"];
        let compact = v["compact"].as_str();
        if let Some(out) = payloads.as_mut() {
            writeln!(out, "{}", verified_line(tool, input)).expect("write payloads");
        }
        if let (Some(payload), false) = (compact, v["decoded"].is_null()) {
            let got = decode(payload);
            let m = got
                .as_ref()
                .map(|g| first_mismatch(&v["decoded"], g, KeyOrder::Exact));
            c1.record(matches!(m, Ok(None)), || {
                format!("{name} {tool}: {m:?}\n  payload {payload:?}")
            });
        }
        let c = encode(tool, input, &reference(Format::Compact));
        // The first file is PYTHONHASHSEED=0, whose set order munch-core
        // writes (spec §7): seed-dependent lines are checked too, as C2s.
        let lossless = v["roundtrip_equal"].as_bool().unwrap_or(false);
        if let Some(want) = compact {
            let check = match (lossless, seeded) {
                (true, false) => &mut c2,
                (true, true) => &mut c2s,
                (false, _) => &mut c2l,
            };
            check.record(c.text == want, || {
                format!("{name} {tool}:\n  got  {:?}\n  want {want:?}", c.text)
            });
        }
        let a = encode(tool, input, &reference(Format::Auto));
        let same_choice = c.is_munch() == compact.is_some()
            && a.is_munch() == v["auto_is_munch"].as_bool().unwrap_or(false);
        let same_meta =
            c.meta.to_value() == v["meta_compact"] && a.meta.to_value() == v["meta_auto"];
        let same_auto = a.is_munch() || Some(a.text.as_str()) == v["auto"].as_str();
        c3.record(same_choice && same_meta && same_auto, || {
            format!(
                "{name} {tool}: choice {same_choice} meta {same_meta} auto text {same_auto}\n  \
                 meta {} / {}\n  want {} / {}",
                c.meta.to_value(),
                a.meta.to_value(),
                v["meta_compact"],
                v["meta_auto"]
            )
        });
        // Verified mode where the reference is lossless (key order aside,
        // the default comparison): its first rung is the reference's own
        // payload, accepted, so both formats give the reference's text.
        if lossless {
            for (format, want) in [
                (Format::Compact, compact),
                (Format::Auto, v["auto"].as_str()),
            ] {
                let got = encode(
                    tool,
                    input,
                    &Options {
                        format,
                        ..Options::default()
                    },
                );
                c4.record(Some(got.text.as_str()) == want, || {
                    format!(
                        "{name} {tool} {format:?}:\n  got  {:?}\n  want {want:?}",
                        got.text
                    )
                });
            }
        }
    }
    let mut ok = true;
    for check in [&c1, &c2, &c2s, &c2l, &c3, &c4] {
        println!("{}: {} of {} differ", check.name, check.failed, check.run);
        for s in &check.shown {
            println!("  {s}");
        }
        ok &= check.failed == 0;
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
