//! `cargo xtask`: every toolwire developer workflow, so nobody needs a shell
//! script. Run `cargo xtask help` for the list.

mod alloc_floor;
mod bench;
mod ci;
mod fuzz;
mod munch_diff;
mod munch_ref;
mod nostd;
mod peer_suite;
mod release;
mod unicode_tables;
mod util;
mod vectors;

use std::process::ExitCode;

const HELP: &str = "\
cargo xtask <command>

commands:
  scorecard [--markdown|--json] [--metric M] [--cases DIR [--tool T]]
                            JSON vs MUNCH vs GCX1 vs TOON in bytes and cl100k/o200k/qwen2 tokens
  vectors [--check | import [--shared DIR]]
                            regenerate (or check) the spec vectors; import the reference vectors
  release CRATE [--level major|minor|patch] [--execute]
                            release one crate: version (+spec metadata), changelog, package, tag
  ci                        fmt, clippy, tests, no_std checks, docs (what CI runs)
  nostd                     only the no_std checks (per-crate builds + link check)
  fuzz [TARGET|--all] [--secs N | --runs N] [--jobs N] [--asan]
                            run cargo-fuzz targets (N processes each with --jobs); new crashes go to fuzz/regressions/
  bench [CRATE]             criterion benches with median throughput ratios against peers (munch: the Python reference; jsonmend: jsonfix, jsonrepair-rs)
  unicode-tables [--check]  regenerate the Unicode tables of leaf-meta and munch-core (pinned UCD versions)
  munch-vectors [--check]   reference payloads for ip1/sa2/ro1 and munch-diff's regressions from jcodemunch-mcp (PyPI) into munch-core's tests
  munch-pycheck [N]         munch-core's verified payloads for N generated responses through the Python reference decoder
  munch-diff [N] [--seed S] munch-core against the reference encoder and decoder on N generated, N mutated and N/10 grown responses (C1-C4)
  peers                     leaf-meta against codec-rs (too heavy for a dev-dependency), same run
  peer-suite                other engines' test suites (json_repair, jsonrepair-rs) through jsonmend repair, adam2go pass rules
  soak [N]                  jsonmend serve --stdio: N mixed requests (default 100000), latency, startup
  help                      this text
";

/// `--cases DIR` as an absolute path: cargo runs the scorecard from the
/// workspace root, the user meant their own working directory.
fn absolute_cases(args: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(args.len());
    for arg in args {
        let after_cases = out.last().is_some_and(|prev| prev == "--cases");
        match std::path::absolute(arg) {
            Ok(path) if after_cases => out.push(path.to_string_lossy().into_owned()),
            _ => out.push(arg.clone()),
        }
    }
    out
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (cmd, rest) = match args.split_first() {
        Some((cmd, rest)) => (cmd.as_str(), rest),
        None => ("help", &[][..]),
    };
    let result = match cmd {
        "scorecard" => util::step(
            "scorecard (release build)",
            util::cargo()
                .args(["run", "--release", "-q", "-p", "scorecard", "--"])
                .args(absolute_cases(rest)),
        ),
        "vectors" => vectors::run(rest),
        "release" => release::run(rest),
        "ci" => ci::run(rest),
        "nostd" => nostd::run(),
        "fuzz" => fuzz::run(rest),
        "bench" => bench::run(rest),
        "unicode-tables" => unicode_tables::run(rest),
        "munch-vectors" => munch_ref::vectors(rest),
        "munch-pycheck" => munch_ref::pycheck(rest),
        "munch-diff" => munch_diff::run(rest),
        "peer-suite" => peer_suite::run(),
        "peers" => util::step(
            "peers (leaf-meta vs codec-rs)",
            util::cargo().args([
                "run",
                "--release",
                "--manifest-path",
                "xtask/peers/Cargo.toml",
            ]),
        ),
        "soak" => util::step(
            "build jsonmend (release)",
            util::cargo().args([
                "build",
                "--release",
                "-p",
                "jsonmend-engine",
                "--bin",
                "jsonmend",
            ]),
        )
        .and_then(|()| {
            let bin = util::root().join("target/release/jsonmend");
            let mut cmd = util::cargo();
            cmd.args([
                "run",
                "--release",
                "-p",
                "jsonmend-engine",
                "--example",
                "soak",
                "--",
            ])
            .arg(bin)
            .args(rest);
            util::step("soak jsonmend serve --stdio", &mut cmd)
        }),
        "help" | "-h" | "--help" => {
            print!("{HELP}");
            Ok(())
        }
        other => Err(format!("unknown command `{other}`\n\n{HELP}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("xtask: {msg}");
            ExitCode::FAILURE
        }
    }
}
