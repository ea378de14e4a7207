//! `cargo xtask fuzz [TARGET|--all] [--secs N | --runs N] [--asan]`: runs
//! the cargo-fuzz targets (for `--secs` seconds each, 60 by default, or
//! until `--runs` inputs have run, as the release gate's 10⁷ asks) and
//! files every new crash under `fuzz/regressions/<target>/`, where
//! `cargo test` replays it.

use std::fs;
use std::path::Path;

use crate::util::{cargo, root, step};

struct Args {
    targets: Vec<String>,
    secs: u64,
    /// Stop after this many inputs instead of after `secs`.
    runs: Option<u64>,
    asan: bool,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut out = Args {
        targets: Vec::new(),
        secs: 60,
        runs: None,
        asan: false,
    };
    let mut all = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--all" => all = true,
            "--asan" => out.asan = true,
            "--secs" => {
                let v = it.next().ok_or("--secs needs a number")?;
                out.secs = v
                    .parse()
                    .map_err(|_| format!("--secs: `{v}` is not a number"))?;
            }
            "--runs" => {
                let v = it.next().ok_or("--runs needs a number")?;
                let runs = v
                    .parse()
                    .map_err(|_| format!("--runs: `{v}` is not a number"))?;
                out.runs = Some(runs);
            }
            flag if flag.starts_with('-') => return Err(format!("fuzz: unknown flag `{flag}`")),
            target => out.targets.push(target.to_string()),
        }
    }
    let known = targets()?;
    if all || out.targets.is_empty() {
        out.targets = known;
    } else if let Some(bad) = out.targets.iter().find(|t| !known.contains(t)) {
        return Err(format!(
            "no fuzz target `{bad}` (have: {})",
            known.join(", ")
        ));
    }
    Ok(out)
}

/// The `[[bin]]` names of `fuzz/Cargo.toml`.
fn targets() -> Result<Vec<String>, String> {
    let manifest = root().join("fuzz/Cargo.toml");
    let text = fs::read_to_string(&manifest).map_err(|e| format!("{}: {e}", manifest.display()))?;
    let mut names = Vec::new();
    let mut in_bin = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if in_bin {
            if let Some(v) = line.strip_prefix("name") {
                let v = v
                    .trim_start()
                    .trim_start_matches('=')
                    .trim()
                    .trim_matches('"');
                names.push(v.to_string());
            }
        }
    }
    Ok(names)
}

fn ensure_cargo_fuzz() -> Result<(), String> {
    let installed = cargo()
        .args(["fuzz", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if installed {
        return Ok(());
    }
    step(
        "install cargo-fuzz",
        cargo().args(["install", "--locked", "cargo-fuzz"]),
    )
}

pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let args = parse(args)?;
    ensure_cargo_fuzz()?;
    let mut failed = Vec::new();
    for target in &args.targets {
        let mut cmd = cargo();
        cmd.args(["fuzz", "run"]);
        if args.asan {
            // ASan needs nightly flags; the stable toolchain allows them
            // with RUSTC_BOOTSTRAP in fuzz jobs only.
            cmd.env("RUSTC_BOOTSTRAP", "1");
        } else {
            cmd.args(["-s", "none"]);
        }
        cmd.arg(target);
        // Seeds (committed, read-only) next to the working corpus.
        let seeds = root().join("fuzz/seeds").join(target);
        if seeds.is_dir() {
            let corpus = root().join("fuzz/corpus").join(target);
            fs::create_dir_all(&corpus).map_err(|e| format!("{}: {e}", corpus.display()))?;
            cmd.arg(&corpus).arg(&seeds);
        }
        let (limit, what) = match args.runs {
            Some(n) => (format!("-runs={n}"), format!("{n} runs")),
            None => (
                format!("-max_total_time={}", args.secs),
                format!("{}s", args.secs),
            ),
        };
        cmd.args(["--", &limit, "-print_final_stats=1"]);
        let ran = step(&format!("fuzz {target} for {what}"), &mut cmd);
        let filed = file_crashes(target)?;
        if ran.is_err() || filed > 0 {
            failed.push(format!(
                "{target} ({filed} new crash file(s); `cargo test -p {}` replays them)",
                replaying_crate(target)
            ));
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "fuzzing found problems in: {}; minimized inputs are in fuzz/regressions/",
            failed.join(", ")
        ))
    }
}

/// The crate whose tests replay `fuzz/regressions/<target>/`.
fn replaying_crate(target: &str) -> &'static str {
    [
        ("jsonmend_", "jsonmend-engine"),
        ("munch_", "munch-core"),
        ("gcx_", "gcx-wire"),
        ("leaf_", "leaf-meta"),
        ("wire_lex_", "wire-lex"),
    ]
    .iter()
    .find(|(prefix, _)| target.starts_with(prefix))
    .map_or("<the target's crate>", |&(_, krate)| krate)
}

/// Minimizes each crash artifact of `target` and copies it into
/// `fuzz/regressions/<target>/`; returns how many were new.
fn file_crashes(target: &str) -> Result<usize, String> {
    let artifacts = root().join("fuzz/artifacts").join(target);
    let regressions = root().join("fuzz/regressions").join(target);
    let Ok(entries) = fs::read_dir(&artifacts) else {
        return Ok(0);
    };
    fs::create_dir_all(&regressions).map_err(|e| format!("{}: {e}", regressions.display()))?;
    let mut filed = 0;
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let is_crash = ["crash-", "oom-", "timeout-", "leak-"]
            .iter()
            .any(|p| name.starts_with(p));
        let dest = regressions.join(&name);
        if !is_crash || dest.exists() {
            continue;
        }
        let minimized = minimize(target, &path).unwrap_or(path.clone());
        fs::copy(&minimized, &dest).map_err(|e| format!("{}: {e}", dest.display()))?;
        eprintln!("xtask: filed {}", dest.display());
        filed += 1;
    }
    Ok(filed)
}

/// `cargo fuzz tmin`; returns the smallest file it produced, if any (it
/// writes one per step that still crashes, several a second, so the
/// newest is not always the smallest).
fn minimize(target: &str, crash: &Path) -> Option<std::path::PathBuf> {
    let started = std::time::SystemTime::now();
    cargo()
        .args(["fuzz", "tmin", "-s", "none", target])
        .arg(crash)
        .args(["--", "-runs=2000"])
        .status()
        .ok()?;
    smallest_minimized(target, started)
}

/// The smallest `minimized-from-*` artifact of `target` written since
/// `since`.
fn smallest_minimized(target: &str, since: std::time::SystemTime) -> Option<std::path::PathBuf> {
    let dir = root().join("fuzz/artifacts").join(target);
    fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("minimized-from-")
        })
        .filter_map(|e| {
            let meta = e.metadata().ok()?;
            (meta.modified().ok()? >= since).then(|| (meta.len(), e.path()))
        })
        .min()
        .map(|(_, path)| path)
}
