//! `cargo xtask bench [CRATE]`: runs the criterion benches and prints, per
//! group, each function's median time and throughput and its ratio against
//! the baseline functions measured in the same run.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::util::{cargo, root, step};

/// Crates with comparison benches. Inside each criterion group the
/// function named after the crate is ours; every other function is a peer
/// measured in the same run.
const BENCHED: [&str; 5] = [
    "wire-lex",
    "gcx-wire",
    "leaf-meta",
    "munch-core",
    "jsonmend-engine",
];

struct Result {
    group: String,
    function: String,
    median_ns: f64,
    bytes: Option<f64>,
}

pub(crate) fn run(args: &[String]) -> std::result::Result<(), String> {
    let crates: Vec<&str> = match args.first().map(String::as_str) {
        None => BENCHED.to_vec(),
        Some("gcx") => vec!["gcx-wire"],
        Some("leaf") => vec!["leaf-meta"],
        Some("munch") => vec!["munch-core"],
        Some("jsonmend") => vec!["jsonmend-engine"],
        Some(c) if BENCHED.contains(&c) => vec![c],
        Some(c) => {
            return Err(format!(
                "no comparison benches for `{c}` (have: {BENCHED:?})"
            ));
        }
    };
    let started = SystemTime::now();
    for krate in &crates {
        // munch-core's benches are a package of their own (its tests turn
        // on serde_json's arbitrary_precision, which the benches must not
        // measure).
        let package = if *krate == "munch-core" {
            "munch-bench"
        } else {
            krate
        };
        step(
            &format!("bench {krate}"),
            cargo().args(["bench", "-p", package]),
        )?;
    }
    let mut results = Vec::new();
    collect(&root().join("target/criterion"), started, &mut results);
    if crates.contains(&"munch-core") {
        match crate::munch_ref::time_reference() {
            Ok(rows) => {
                for (group, median_ns) in rows {
                    let bytes = results
                        .iter()
                        .find(|r| r.group == group)
                        .and_then(|r| r.bytes);
                    results.push(Result {
                        group,
                        function: "jcodemunch-mcp".into(),
                        median_ns,
                        bytes,
                    });
                }
            }
            Err(e) => eprintln!("xtask: skipping the Python reference: {e}"),
        }
    }
    results.sort_by(|a, b| (&a.group, &a.function).cmp(&(&b.group, &b.function)));
    print_table(&results);
    Ok(())
}

fn collect(dir: &Path, since: SystemTime, out: &mut Vec<Result>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if !path.is_dir() {
            continue;
        }
        if path.file_name().is_some_and(|n| n == "new") {
            if let Some(r) = read_result(&path, since) {
                out.push(r);
            }
        } else {
            collect(&path, since, out);
        }
    }
}

fn read_result(new: &Path, since: SystemTime) -> Option<Result> {
    let estimates: PathBuf = new.join("estimates.json");
    let fresh = fs::metadata(&estimates).ok()?.modified().ok()? >= since;
    if !fresh {
        return None;
    }
    let est = fs::read_to_string(&estimates).ok()?;
    let meta = fs::read_to_string(new.join("benchmark.json")).ok()?;
    let median_ns = number_after(&est, "\"median\"")?;
    let group = string_field(&meta, "group_id")?;
    let mut function = string_field(&meta, "function_id").unwrap_or_default();
    if let Some(v) = string_field(&meta, "value_str") {
        function = format!("{function}/{v}");
    }
    let bytes =
        number_after(&meta, "\"Bytes\"").or_else(|| number_after(&meta, "\"BytesDecimal\""));
    Some(Result {
        group,
        function,
        median_ns,
        bytes,
    })
}

/// The first `"point_estimate"` (or bare number) after `key`.
fn number_after(json: &str, key: &str) -> Option<f64> {
    let rest = &json[json.find(key)? + key.len()..];
    let rest = match rest.find("\"point_estimate\"") {
        Some(i) if key == "\"median\"" => &rest[i + "\"point_estimate\"".len()..],
        _ => rest,
    };
    let rest = rest.trim_start_matches([':', ' ', '{']);
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+')))
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// A `"key":"value"` string field (null gives `None`).
fn string_field(json: &str, key: &str) -> Option<String> {
    let pat = format!("\"{key}\":");
    let rest = json[json.find(&pat)? + pat.len()..].trim_start();
    let rest = rest.strip_prefix('"')?;
    Some(rest[..rest.find('"')?].to_string())
}

fn print_table(results: &[Result]) {
    println!(
        "{:<26} {:<18} {:>12} {:>10} {:>14}",
        "group", "function", "median", "MB/s", "ours faster ×"
    );
    for r in results {
        let mbps = r.bytes.map(|b| b / r.median_ns * 1e9 / 1e6);
        let ours = results
            .iter()
            .find(|o| o.group == r.group && BENCHED.contains(&o.function.as_str()))
            .filter(|o| o.function != r.function);
        let ratio = ours.map(|o| format!("{:.2}×", r.median_ns / o.median_ns));
        println!(
            "{:<26} {:<18} {:>12} {:>10} {:>14}",
            r.group,
            r.function,
            human_time(r.median_ns),
            mbps.map_or_else(|| "-".into(), |m| format!("{m:.0}")),
            ratio.unwrap_or_else(|| "-".into()),
        );
    }
    println!(
        "\nours faster × = this function's median time ÷ the median time of the function named after our crate in the same group and run (above 1: ours is faster)"
    );
}

fn human_time(ns: f64) -> String {
    if ns >= 1e9 {
        format!("{:.3} s", ns / 1e9)
    } else if ns >= 1e6 {
        format!("{:.3} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.3} µs", ns / 1e3)
    } else {
        format!("{ns:.1} ns")
    }
}
