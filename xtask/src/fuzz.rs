//! `cargo xtask fuzz [TARGET|--all] [--secs N | --runs N] [--jobs N] [--asan]`:
//! runs the cargo-fuzz targets (for `--secs` seconds each, 60 by default,
//! or until `--runs` inputs have run, as the release gate's 10⁷ asks) and
//! files every new crash under `fuzz/regressions/<target>/`, where
//! `cargo test` replays it. `--jobs N` runs N processes of each target at
//! once on its one corpus (the runs split between them), each writing its
//! log to `target/fuzz-logs/`, and adds up the inputs they ran.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::util::{cargo, root, step};

struct Args {
    targets: Vec<String>,
    secs: u64,
    /// Stop after this many inputs instead of after `secs`.
    runs: Option<u64>,
    /// Processes per target.
    jobs: u64,
    asan: bool,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut out = Args {
        targets: Vec::new(),
        secs: 60,
        runs: None,
        jobs: 1,
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
            "--jobs" => {
                let v = it.next().ok_or("--jobs needs a number")?;
                out.jobs = v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("--jobs: `{v}` is not a positive number"))?;
            }
            flag if flag.starts_with('-') => return Err(format!("fuzz: unknown flag `{flag}`")),
            target => out.targets.push(target.to_string()),
        }
    }
    // No process without inputs to run.
    if let Some(n) = out.runs {
        out.jobs = out.jobs.min(n.max(1));
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
        let ran = if args.jobs == 1 {
            let (limit, what) = limit(&args, args.runs);
            let mut cmd = fuzz_command(&args, target)?;
            cmd.args(["--", &limit, "-print_final_stats=1"]);
            step(&format!("fuzz {target} for {what}"), &mut cmd)
        } else {
            run_jobs(&args, target)
        };
        let filed = file_crashes(target)?;
        if filed > 0 {
            failed.push(format!(
                "{target} ({filed} new crash file(s); `cargo test -p {}` replays them)",
                replaying_crate(target)
            ));
        } else if ran.is_err() {
            // (A single job's output goes to the terminal, unread: a run
            // stopped with Ctrl-C ends the same way.)
            failed.push(format!(
                "{target} (it exited with an error and left no crash file; a run \
                 stopped by hand ends so too)"
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

/// `cargo fuzz <sub>` without a sanitizer, or with ASan.
fn fuzz_subcommand(sub: &str, asan: bool) -> Command {
    let mut cmd = cargo();
    cmd.args(["fuzz", sub]);
    if asan {
        // ASan needs nightly flags; the stable toolchain allows them
        // with RUSTC_BOOTSTRAP in fuzz jobs only.
        cmd.env("RUSTC_BOOTSTRAP", "1");
    } else {
        cmd.args(["-s", "none"]);
    }
    cmd
}

/// `cargo fuzz run` of `target` on its corpus and seeds (its limit not
/// yet given).
fn fuzz_command(args: &Args, target: &str) -> Result<Command, String> {
    let mut cmd = fuzz_subcommand("run", args.asan);
    cmd.arg(target);
    // Seeds (committed, read-only) next to the working corpus.
    let seeds = root().join("fuzz/seeds").join(target);
    if seeds.is_dir() {
        let corpus = root().join("fuzz/corpus").join(target);
        fs::create_dir_all(&corpus).map_err(|e| format!("{}: {e}", corpus.display()))?;
        cmd.arg(&corpus).arg(&seeds);
    }
    Ok(cmd)
}

/// libFuzzer's limit flag for `runs` inputs (or the time limit), and how
/// to say it.
fn limit(args: &Args, runs: Option<u64>) -> (String, String) {
    match runs {
        Some(n) => (format!("-runs={n}"), format!("{n} runs")),
        None => (
            format!("-max_total_time={}", args.secs),
            format!("{}s", args.secs),
        ),
    }
}

/// The runs of job `k` (the remainder goes to the first), if runs are
/// the limit.
fn share(args: &Args, k: u64) -> Option<u64> {
    args.runs.map(|n| {
        let share = n / args.jobs;
        if k == 0 { share + n % args.jobs } else { share }
    })
}

/// What one process's final stats say.
#[derive(Debug, Default, PartialEq)]
struct Stats {
    runs: u64,
    peak_rss_mb: u64,
}

/// Reads libFuzzer's `-print_final_stats=1` lines from a log.
fn final_stats(log: &str) -> Option<Stats> {
    let value = |name: &str| {
        log.lines()
            .find_map(|l| l.trim().strip_prefix(name)?.trim().parse().ok())
    };
    Some(Stats {
        runs: value("stat::number_of_executed_units:")?,
        peak_rss_mb: value("stat::peak_rss_mb:").unwrap_or(0),
    })
}

/// `args.jobs` processes of `target` at once, the runs split between
/// them; each one's output goes to its log, and the inputs they ran are
/// added up.
fn run_jobs(args: &Args, target: &str) -> Result<(), String> {
    // One build first, so the processes do not wait on each other's.
    let mut build = fuzz_subcommand("build", args.asan);
    step(&format!("build fuzz target {target}"), build.arg(target))?;
    let logs_dir = root().join("target/fuzz-logs");
    fs::create_dir_all(&logs_dir).map_err(|e| format!("{}: {e}", logs_dir.display()))?;
    let mut children = Vec::new();
    for k in 0..args.jobs {
        let (limit, what) = limit(args, share(args, k));
        let log: PathBuf = logs_dir.join(format!("{target}.{k}.log"));
        let file = fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
        let err = file
            .try_clone()
            .map_err(|e| format!("{}: {e}", log.display()))?;
        let mut cmd = fuzz_command(args, target)?;
        cmd.args(["--", &limit, "-print_final_stats=1"])
            .stdout(Stdio::from(file))
            .stderr(Stdio::from(err));
        eprintln!(
            "xtask: ── fuzz {target} job {k} for {what}, log {}",
            log.display()
        );
        let child = cmd
            .spawn()
            .map_err(|e| format!("fuzz {target} job {k}: cannot start: {e}"))?;
        children.push((k, log, child));
    }
    let started = std::time::Instant::now();
    let mut total = Stats::default();
    let mut failed = Vec::new();
    for (k, log, mut child) in children {
        let status = child
            .wait()
            .map_err(|e| format!("fuzz {target} job {k}: {e}"))?;
        let text = fs::read_to_string(&log).unwrap_or_default();
        match final_stats(&text) {
            Some(s) => {
                eprintln!(
                    "xtask: job {k}: {} inputs, peak RSS {} MB ({status})",
                    s.runs, s.peak_rss_mb
                );
                total.runs += s.runs;
                total.peak_rss_mb = total.peak_rss_mb.max(s.peak_rss_mb);
            }
            None => eprintln!("xtask: job {k}: no final stats ({status})"),
        }
        if stopped_by_hand(&text) {
            eprintln!("xtask: job {k} was stopped by hand (libFuzzer: run interrupted)");
        } else if !status.success() {
            failed.push(format!("job {k} ({status}; see {})", log.display()));
        }
    }
    eprintln!(
        "xtask: fuzz {target}: {} inputs in {} jobs, {:.0}s, largest peak RSS {} MB",
        total.runs,
        args.jobs,
        started.elapsed().as_secs_f64(),
        total.peak_rss_mb
    );
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("fuzz {target}: {}", failed.join(", ")))
    }
}

/// Whether a job's log ends with libFuzzer's note that the run was
/// interrupted (Ctrl-C, a signal): it exits non-zero then, having found
/// nothing.
fn stopped_by_hand(log: &str) -> bool {
    log.contains("libFuzzer: run interrupted")
        && !log.contains("ERROR: libFuzzer")
        && !log.contains("SUMMARY: libFuzzer")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_stopped_by_hand_is_told_from_a_crash() {
        let stopped = "#4096\tpulse\n==1== libFuzzer: run interrupted; exiting\n\
                       stat::number_of_executed_units: 10\n";
        assert!(stopped_by_hand(stopped));
        let crashed = "==1== ERROR: libFuzzer: deadly signal\n\
                       SUMMARY: libFuzzer: deadly signal\n";
        assert!(!stopped_by_hand(crashed));
        assert!(!stopped_by_hand("#4096\tpulse  cov: 1\n"));
    }

    #[test]
    fn final_stats_are_read_from_a_log() {
        let log = "#4096\tpulse  cov: 1\nDone 1234 runs in 10 second(s)\n\
                   stat::number_of_executed_units: 1234\n\
                   stat::average_exec_per_sec:     123\n\
                   stat::new_units_added:          5\n\
                   stat::slowest_unit_time_sec:    0\n\
                   stat::peak_rss_mb:              87\n";
        assert_eq!(
            final_stats(log),
            Some(Stats {
                runs: 1234,
                peak_rss_mb: 87
            })
        );
        // A process killed before its stats has none.
        assert_eq!(final_stats("#4096\tpulse  cov: 1\n"), None);
    }

    #[test]
    fn jobs_must_be_positive() {
        let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(parse(&args(&["--jobs", "0"])).is_err());
        assert!(parse(&args(&["--jobs", "x"])).is_err());
        assert!(parse(&args(&["--jobs"])).is_err());
        let few = parse(&args(&["wire_lex_fields", "--runs", "3", "--jobs", "8"]));
        assert_eq!(few.map(|a| a.jobs), Ok(3));
    }

    #[test]
    fn the_runs_are_split_between_jobs() {
        let a = Args {
            targets: Vec::new(),
            secs: 60,
            runs: Some(10),
            jobs: 3,
            asan: false,
        };
        let shares: Vec<u64> = (0..a.jobs).map(|k| share(&a, k).unwrap_or(0)).collect();
        assert_eq!(shares, [4, 3, 3]);
        assert_eq!(limit(&a, None).0, "-max_total_time=60");
    }
}
