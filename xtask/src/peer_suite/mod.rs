//! `cargo xtask peer-suite`: other engines' test suites replayed through
//! the `jsonmend` CLI under the adam2go pass rules of spec §17.2, our
//! output compared by value (`1 == 1.0`, `true != 1`, key sets equal,
//! arrays in order):
//!
//! - the Python `json_repair` 0.58.0 (its sdist from PyPI ships the
//!   tests): every `repair_json(text) == expected` assertion without
//!   options, an `E001`–`E003` refusal counting as `""`;
//! - `jsonrepair-rs` 0.2.6 (a bench dev-dependency; its crate source ships
//!   the tests): every `ok(input, expected)` and `err(input)` of
//!   `tests/repair_tests.rs` with literal arguments, and the parity
//!   fixtures; `err` passes when jsonmend refuses.
//!
//! Prints the pass counts and writes every failure to
//! `target/peer-suite-<suite>.txt`. A measurement, not a gate: the suites
//! encode their engines' own heuristics where spec §3–§4 decide otherwise.

use std::path::PathBuf;
use std::process::Command;

use crate::util::{cargo, root, step};

const PACKAGE: &str = "json-repair==0.58.0";
const DIR: &str = "target/xtask-python/json_repair-0.58.0";

/// The pass rule both suites compare with (prepended to each script).
const SAME: &str = include_str!("same.py");

/// Extracts json_repair's assertions and runs them (argv: tests dir,
/// jsonmend binary, failure report path).
const JSON_REPAIR: &str = include_str!("json_repair.py");

/// Extracts jsonrepair-rs's `ok`/`err` cases and parity fixtures and runs
/// them (argv: the crate's source dir, jsonmend binary, report path).
const JSONREPAIR_RS: &str = include_str!("jsonrepair_rs.py");

pub(crate) fn run() -> Result<(), String> {
    let dir = root().join(DIR);
    let tests = dir.join("tests");
    if !tests.exists() {
        let download = root().join("target/xtask-python");
        step(
            "download json_repair's sdist (its tests)",
            Command::new("python3")
                .args(["-m", "pip", "download", "--quiet", "--no-deps"])
                .args(["--no-binary", ":all:", "--dest"])
                .arg(&download)
                .arg(PACKAGE),
        )?;
        step(
            "unpack it",
            Command::new("tar")
                .arg("xzf")
                .arg(download.join("json_repair-0.58.0.tar.gz"))
                .arg("-C")
                .arg(&download),
        )?;
    }
    step(
        "build jsonmend (release)",
        cargo().args([
            "build",
            "--release",
            "-q",
            "-p",
            "jsonmend-engine",
            "--bin",
            "jsonmend",
        ]),
    )?;
    let binary: PathBuf = root().join("target/release/jsonmend");
    let report = root().join("target/peer-suite-json_repair.txt");
    step(
        "json_repair's assertions through jsonmend repair",
        Command::new("python3")
            .arg("-c")
            .arg(format!("{SAME}\n{JSON_REPAIR}"))
            .arg(&tests)
            .arg(&binary)
            .arg(&report),
    )?;
    let crate_dir = jsonrepair_rs_source()?;
    step(
        "jsonrepair-rs's cases through jsonmend repair",
        Command::new("python3")
            .arg("-c")
            .arg(format!("{SAME}\n{JSONREPAIR_RS}"))
            .arg(&crate_dir)
            .arg(&binary)
            .arg(root().join("target/peer-suite-jsonrepair-rs.txt")),
    )
}

/// The source directory of the jsonrepair-rs crate the benches depend on
/// (from `cargo metadata`, which fetches it if needed).
fn jsonrepair_rs_source() -> Result<PathBuf, String> {
    let out = cargo()
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(root().join("jsonmend-engine/Cargo.toml"))
        .output()
        .map_err(|e| format!("cargo metadata: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let tail = "jsonrepair-rs-0.2.6/Cargo.toml";
    let end = text
        .find(tail)
        .ok_or("cargo metadata does not list jsonrepair-rs 0.2.6")?;
    let start = text
        .get(..end)
        .and_then(|t| t.rfind('"'))
        .map_or(0, |q| q + 1);
    let manifest = text.get(start..end + tail.len()).unwrap_or_default();
    Ok(PathBuf::from(manifest.replace("\\\\", "\\"))
        .parent()
        .map(PathBuf::from)
        .unwrap_or_default())
}
