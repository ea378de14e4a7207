//! The allocation floor of munch-core's owning decodes, for
//! `cargo xtask bench munch`: `munch-bench`'s `alloc_floor` example
//! records one call's allocations and frees, and times the call against a
//! replay of them (the same blocks made and freed, nothing else). No
//! decoder returning that value can be faster than the replay under this
//! allocator: payload bytes ÷ replay time is the ceiling of its
//! throughput.

use std::process::Command;

use crate::bench::{json_str, median};

/// One group over the rounds: blocks per call, payload bytes, and the
/// call's and the replay's median ns per round.
pub(crate) struct Floor {
    pub(crate) group: String,
    pub(crate) allocs: f64,
    pub(crate) bytes: f64,
    pub(crate) calls: Vec<f64>,
    pub(crate) replays: Vec<f64>,
}

/// Runs the example `rounds` times on `doc` (the bench document).
pub(crate) fn time(doc: &std::path::Path, rounds: usize) -> Result<Vec<Floor>, String> {
    let bin = crate::munch_ref::bench_example("alloc_floor")?;
    eprintln!(
        "xtask: ── munch-core's decodes against replays of their allocations, {rounds} rounds"
    );
    let mut floors: Vec<Floor> = Vec::new();
    for _ in 0..rounds {
        let lines = crate::munch_ref::timings(Command::new(&bin).arg(doc), "alloc_floor")?;
        absorb(&mut floors, &lines);
    }
    Ok(floors)
}

/// Adds one run's `<group>_<field> <number>` lines to `floors`.
fn absorb(floors: &mut Vec<Floor>, lines: &[(String, f64)]) {
    for (key, v) in lines {
        let v = *v;
        let Some((group, field)) = key.rsplit_once('_') else {
            continue;
        };
        if !floors.iter().any(|f| f.group == group) {
            floors.push(Floor {
                group: group.to_string(),
                allocs: 0.0,
                bytes: 0.0,
                calls: Vec::new(),
                replays: Vec::new(),
            });
        }
        let Some(f) = floors.iter_mut().find(|f| f.group == group) else {
            continue;
        };
        match field {
            "allocs" => f.allocs = v,
            "bytes" => f.bytes = v,
            "call" => f.calls.push(v),
            "replay" => f.replays.push(v),
            _ => {}
        }
    }
}

impl Floor {
    /// Median over rounds of the replay's share of the call.
    pub(crate) fn share(&self) -> f64 {
        let shares: Vec<f64> = self
            .calls
            .iter()
            .zip(&self.replays)
            .map(|(c, r)| r / c)
            .collect();
        median(&shares)
    }

    /// Payload MB/s of the call and the ceiling the replay allows, at the
    /// medians.
    pub(crate) fn throughput(&self) -> (f64, f64) {
        let mbps = |ns: f64| self.bytes / ns * 1e3;
        (mbps(median(&self.calls)), mbps(median(&self.replays)))
    }
}

/// The table `cargo xtask bench munch` prints.
pub(crate) fn print(floors: &[Floor]) {
    let Some(first) = floors.first() else { return };
    println!(
        "\n{} rounds, munch-core's decodes against replaying their own allocations (15 alternations each):",
        first.calls.len()
    );
    println!(
        "{:<22} {:>8} {:>11} {:>11} {:>7} {:>9} {:>9}",
        "group", "blocks", "call", "replay", "share", "MB/s", "ceiling"
    );
    for f in floors {
        let (mbps, ceiling) = f.throughput();
        println!(
            "{:<22} {:>8} {:>11} {:>11} {:>6.0}% {:>9.0} {:>9.0}",
            f.group,
            f.allocs,
            crate::bench::human_time(median(&f.calls)),
            crate::bench::human_time(median(&f.replays)),
            f.share() * 100.0,
            mbps,
            ceiling
        );
    }
    println!(
        "share = the median over rounds of the replay's time ÷ the call's (the same blocks allocated and freed in the same order, nothing else); ceiling = the text's bytes ÷ the replay's median: no decoder returning that value is faster under this allocator"
    );
}

/// The rows of `target/bench/results.json`'s `allocation_floor`.
pub(crate) fn json(floors: &[Floor]) -> String {
    let rows: Vec<String> = floors
        .iter()
        .map(|f| {
            let (mbps, ceiling) = f.throughput();
            format!(
                "{{\"group\":{},\"blocks\":{},\"call_ns\":{},\"replay_ns\":{},\"share\":{:.4},\"mb_per_s\":{:.1},\"ceiling_mb_per_s\":{:.1}}}",
                json_str(&f.group),
                f.allocs,
                median(&f.calls),
                median(&f.replays),
                f.share(),
                mbps,
                ceiling
            )
        })
        .collect();
    format!("[{}]", rows.join(","))
}

#[cfg(test)]
mod tests {
    use super::{Floor, absorb, json};

    #[test]
    fn lines_of_two_runs_make_one_floor_per_group() {
        let mut floors: Vec<Floor> = Vec::new();
        let run = |call: f64, replay: f64| {
            [
                ("decode_tier1_allocs", 80.0),
                ("decode_tier1_bytes", 1e6),
                ("decode_tier1_call", call),
                ("decode_tier1_replay", replay),
                ("noise", 1.0),
            ]
            .map(|(k, v)| (k.to_string(), v))
        };
        absorb(&mut floors, &run(4e6, 2e6));
        absorb(&mut floors, &run(2e6, 1.5e6));
        assert_eq!(floors.len(), 1);
        let f = floors.first().unwrap();
        assert_eq!(
            (f.group.as_str(), f.allocs, f.bytes),
            ("decode_tier1", 80.0, 1e6)
        );
        // Shares 0.5 and 0.75: the upper median of an even count.
        assert!((f.share() - 0.75).abs() < 1e-9);
        // Medians 4 ms and 2 ms (upper): 250 MB/s, ceiling 500 MB/s.
        let (mbps, ceiling) = f.throughput();
        assert!((mbps - 250.0).abs() < 1e-9 && (ceiling - 500.0).abs() < 1e-9);
        let json = json(&floors);
        assert!(json.contains("\"ceiling_mb_per_s\":500.0"), "{json}");
        assert!(json.contains("\"group\":\"decode_tier1\""), "{json}");
    }
}
