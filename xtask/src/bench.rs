//! `cargo xtask bench [CRATE]`: runs the criterion benches and prints, per
//! group, each function's median time and throughput and its ratio against
//! the baseline functions measured in the same run.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::munch_ref::{Paired, Peer};
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
        if *krate == "jsonmend-engine" {
            // What a watch stream cannot go below on this engine (its own
            // feature: hidden internals, printed as interleaved pairs).
            step(
                "bench jsonmend-engine watch floor",
                cargo().args([
                    "bench",
                    "-p",
                    package,
                    "--features",
                    "watch-floor",
                    "--bench",
                    "watch_floor",
                ]),
            )?;
        }
    }
    let mut results = Vec::new();
    collect(&root().join("target/criterion"), started, &mut results);
    let mut paired = Vec::new();
    let mut floors = Vec::new();
    if crates.contains(&"munch-core") {
        match crate::munch_ref::time_reference() {
            Ok(rows) => {
                // The reference's decode is also the peer of our borrowed
                // decode (the same payload to a full tree) and of the
                // typed one (into the caller's types).
                let borrowed: Vec<(String, f64)> = rows
                    .iter()
                    .filter(|(g, _)| g.starts_with("decode_"))
                    .flat_map(|(g, t)| {
                        let typed = (g == "decode_tier1").then(|| (format!("{g}_typed"), *t));
                        core::iter::once((format!("{g}_borrowed"), *t)).chain(typed)
                    })
                    .collect();
                for (group, median_ns) in rows.into_iter().chain(borrowed) {
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
        if results.iter().any(|r| r.function == "jcodemunch-mcp") {
            match crate::munch_ref::time_paired(PAIRED_ROUNDS) {
                Ok(p) => paired = p,
                Err(e) => eprintln!("xtask: skipping the paired rounds: {e}"),
            }
        }
        match crate::munch_ref::bench_document()
            .and_then(|doc| crate::alloc_floor::time(&doc, PAIRED_ROUNDS))
        {
            Ok(f) => floors = f,
            Err(e) => eprintln!("xtask: skipping the allocation floor: {e}"),
        }
    }
    results.sort_by(|a, b| (&a.group, &a.function).cmp(&(&b.group, &b.function)));
    print_table(&results);
    let scaling = scaling(&results);
    print_scaling(&scaling);
    print_paired(&paired);
    crate::alloc_floor::print(&floors);
    if crates.contains(&"munch-core") {
        if let Err(e) = tool_replies() {
            eprintln!("xtask: skipping the other tools' replies: {e}");
        }
    }
    let out = root().join("target/bench/results.json");
    fs::create_dir_all(root().join("target/bench")).map_err(|e| e.to_string())?;
    fs::write(&out, results_json(&results, &scaling, &paired, &floors))
        .map_err(|e| e.to_string())?;
    println!("\nxtask: results in {}", out.display());
    Ok(())
}

/// The verified encoder on every tool's reply grown to 2,000 items
/// (`munch-bench`'s `tool_replies` example), printed as it runs.
fn tool_replies() -> core::result::Result<(), String> {
    let bin = crate::munch_ref::bench_example("tool_replies")?;
    println!("\nverified encode of each tool's reply, grown to 2,000 items (medians of 21 calls):");
    let status = std::process::Command::new(&bin)
        .status()
        .map_err(|e| format!("{}: {e}", bin.display()))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{} exited with {status}", bin.display()))
    }
}

/// Rounds of the reference and munch-core timed in turn.
const PAIRED_ROUNDS: usize = 5;

/// The median of `v` (the upper one of an even count).
pub(crate) fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Each round's ratio: the reference's time ÷ ours (how many times faster
/// munch-core is), or ours ÷ `serde_json`'s (how many times slower).
fn round_ratios(p: &Paired) -> Vec<f64> {
    p.reference
        .iter()
        .zip(&p.ours)
        .map(|(r, o)| match p.peer {
            Peer::Reference => r / o,
            Peer::SerdeJson | Peer::ValueClone => o / r,
        })
        .collect()
}

fn print_paired(all: &[Paired]) {
    print_pairs(
        all,
        Peer::Reference,
        "the reference then munch-core, each the median of 9 calls:",
        "jcodemunch-mcp",
        "ratio = the median over rounds of the reference's time ÷ munch-core's in the same round; the borrowed and typed decodes are paired with the reference's decode",
    );
    print_pairs(
        all,
        Peer::SerdeJson,
        "munch-core against serde_json in its own process:",
        "serde_json",
        "ratio = the median over rounds of munch-core's time ÷ serde_json's (to_string of the same value for the encode, from_str of the JSON text for the decodes, into the same types for the typed one); the target is at most 2×",
    );
    print_pairs(
        all,
        Peer::ValueClone,
        "the decode to serde_json::Value against cloning the value it returns:",
        "Value::clone",
        "ratio = the median over rounds of the decode's time ÷ the clone's (allocating, copying and freeing every part of the value, no text read); the reference table's value_clone_tier1 row is how many times faster than the reference merely building that value is",
    );
}

/// One table of the paired rounds: the groups timed against `peer`.
fn print_pairs(all: &[Paired], peer: Peer, title: &str, peer_name: &str, note: &str) {
    let rows: Vec<&Paired> = all.iter().filter(|p| p.peer == peer).collect();
    let Some(first) = rows.first() else { return };
    println!("\n{} rounds, {title}", first.ours.len());
    println!(
        "{:<26} {:>14} {:>16} {:>9} {:>17}",
        "group", "munch-core", peer_name, "ratio", "rounds"
    );
    for p in rows {
        let ratios = round_ratios(p);
        let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = ratios.iter().copied().fold(0.0, f64::max);
        println!(
            "{:<26} {:>14} {:>16} {:>8.2}× {:>8.2}–{:.2}×",
            p.group,
            human_time(median(&p.ours)),
            human_time(median(&p.reference)),
            median(&ratios),
            lo,
            hi
        );
    }
    println!("{note}");
}

/// One function measured at 1 MB and 100 MB in the same run: time per
/// byte at each size (spec §18: at 100 MB at most 1.25 × at 1 MB).
struct Scaling {
    group: String,
    function: String,
    per_byte_1: f64,
    per_byte_100: f64,
}

fn scaling(results: &[Result]) -> Vec<Scaling> {
    let per_byte = |r: &Result| r.bytes.map(|b| r.median_ns / b);
    let mut out = Vec::new();
    for small in results {
        let Some(function) = small.function.strip_suffix("/1MB") else {
            continue;
        };
        let large = results
            .iter()
            .find(|r| r.group == small.group && r.function == format!("{function}/100MB"));
        if let (Some(a), Some(b)) = (per_byte(small), large.and_then(per_byte)) {
            out.push(Scaling {
                group: small.group.clone(),
                function: function.to_string(),
                per_byte_1: a,
                per_byte_100: b,
            });
        }
    }
    out
}

fn print_scaling(rows: &[Scaling]) {
    if rows.is_empty() {
        return;
    }
    println!(
        "\n{:<26} {:<28} {:>12} {:>12} {:>8}",
        "scaling group", "function", "ns/B 1 MB", "ns/B 100 MB", "ratio"
    );
    for s in rows {
        println!(
            "{:<26} {:<28} {:>12.3} {:>12.3} {:>7.2}×",
            s.group,
            s.function,
            s.per_byte_1,
            s.per_byte_100,
            s.per_byte_100 / s.per_byte_1
        );
    }
}

/// `s` as a JSON string literal.
pub(crate) fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A finite number as JSON (`null` otherwise).
fn json_num(x: Option<f64>) -> String {
    match x {
        Some(x) if x.is_finite() => format!("{x}"),
        _ => "null".into(),
    }
}

/// `target/bench/results.json`: every median of the run with its
/// throughput and its ratio against ours in the same group, and the
/// scaling rows.
fn results_json(
    results: &[Result],
    scaling: &[Scaling],
    paired: &[Paired],
    floors: &[crate::alloc_floor::Floor],
) -> String {
    let when = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let rows: Vec<String> = results
        .iter()
        .map(|r| {
            let ours = results
                .iter()
                .find(|o| o.group == r.group && BENCHED.contains(&o.function.as_str()));
            format!(
                "{{\"group\":{},\"function\":{},\"median_ns\":{},\"bytes\":{},\"mb_per_s\":{},\"ours_faster\":{}}}",
                json_str(&r.group),
                json_str(&r.function),
                json_num(Some(r.median_ns)),
                json_num(r.bytes),
                json_num(r.bytes.map(|b| b / r.median_ns * 1e3)),
                json_num(ours.map(|o| r.median_ns / o.median_ns)),
            )
        })
        .collect();
    let scale: Vec<String> = scaling
        .iter()
        .map(|s| {
            format!(
                "{{\"group\":{},\"function\":{},\"ns_per_byte_1mb\":{},\"ns_per_byte_100mb\":{},\"ratio\":{}}}",
                json_str(&s.group),
                json_str(&s.function),
                json_num(Some(s.per_byte_1)),
                json_num(Some(s.per_byte_100)),
                json_num(Some(s.per_byte_100 / s.per_byte_1)),
            )
        })
        .collect();
    let pairs: Vec<String> = paired
        .iter()
        .map(|p| {
            format!(
                "{{\"group\":{},\"peer\":{},\"munch_core_ns\":{},\"reference_ns\":{},\"ratio\":{},\"round_ratios\":[{}]}}",
                json_str(&p.group),
                json_str(match p.peer {
                    Peer::Reference => "jcodemunch-mcp",
                    Peer::SerdeJson => "serde_json",
                    Peer::ValueClone => "value_clone",
                }),
                json_num(Some(median(&p.ours))),
                json_num(Some(median(&p.reference))),
                json_num(Some(median(&round_ratios(p)))),
                round_ratios(p)
                    .iter()
                    .map(|r| json_num(Some(*r)))
                    .collect::<Vec<_>>()
                    .join(",")
            )
        })
        .collect();
    format!(
        "{{\"unix_time\":{when},\"statistic\":\"criterion median\",\"results\":[{}],\"scaling\":[{}],\"paired\":[{}],\"allocation_floor\":{}}}\n",
        rows.join(","),
        scale.join(","),
        pairs.join(","),
        crate::alloc_floor::json(floors)
    )
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

pub(crate) fn human_time(ns: f64) -> String {
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

#[cfg(test)]
mod tests {
    use super::{Paired, Peer, Result, json_str, median, results_json, round_ratios, scaling};

    fn r(group: &str, function: &str, median_ns: f64, bytes: f64) -> Result {
        Result {
            group: group.into(),
            function: function.into(),
            median_ns,
            bytes: Some(bytes),
        }
    }

    #[test]
    fn strings_are_escaped() {
        assert_eq!(json_str("a\"b\\c\u{1}"), "\"a\\\"b\\\\c\\u0001\"");
    }

    #[test]
    fn scaling_pairs_1_and_100_mb() {
        let rows = [
            r("scaling", "defects/1MB", 4e6, 1e6),
            r("scaling", "defects/100MB", 5e8, 1e8),
            r("scaling", "valid/1MB", 1e6, 1e6),
        ];
        let s = scaling(&rows);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].function, "defects");
        assert!((s[0].per_byte_100 / s[0].per_byte_1 - 1.25).abs() < 1e-9);
        let json = results_json(&rows, &s, &[], &[]);
        assert!(json.contains("\"function\":\"defects/100MB\""), "{json}");
        assert!(json.contains("\"ratio\":1.25"), "{json}");
    }

    #[test]
    fn paired_rounds_give_the_median_ratio() {
        let p = Paired {
            group: "decode_tier1_borrowed".into(),
            peer: Peer::Reference,
            reference: vec![30.0, 20.0, 50.0],
            ours: vec![1.0, 2.0, 1.0],
        };
        // Round ratios 30, 10, 50: the median is 30, though the medians
        // of the two sides (30 and 1) would also say 30 here.
        assert_eq!(round_ratios(&p), [30.0, 10.0, 50.0]);
        assert!((median(&round_ratios(&p)) - 30.0).abs() < 1e-9);
        let json = results_json(&[], &[], &[p], &[]);
        assert!(json.contains("\"round_ratios\":[30,10,50]"), "{json}");
        // Against serde_json the ratio is ours ÷ theirs.
        let s = Paired {
            group: "encode_tier1".into(),
            peer: Peer::SerdeJson,
            reference: vec![1.0, 2.0],
            ours: vec![3.0, 5.0],
        };
        assert_eq!(round_ratios(&s), [3.0, 2.5]);
        let json = results_json(&[], &[], &[s], &[]);
        assert!(json.contains("\"peer\":\"serde_json\""), "{json}");
        // Against the clone of the decoded value too.
        let c = Paired {
            group: "decode_tier1".into(),
            peer: Peer::ValueClone,
            reference: vec![4.0],
            ours: vec![3.0],
        };
        assert_eq!(round_ratios(&c), [0.75]);
        let json = results_json(&[], &[], &[c], &[]);
        assert!(json.contains("\"peer\":\"value_clone\""), "{json}");
    }
}
