//! Replays every committed fuzz regression (`fuzz/regressions/jsonmend_*`),
//! the protocol target's seeds (`fuzz/seeds/jsonmend_protocol`) and a
//! seeded sample of the truncation target, so plain `cargo test` keeps the
//! fuzz properties.

#![allow(clippy::unwrap_used, clippy::panic)]

#[path = "props/invariants.rs"]
mod invariants;
#[path = "props/llm.rs"]
mod llm;
#[path = "props/prefix.rs"]
mod prefix;
#[path = "props/protocol.rs"]
mod protocol;
#[path = "props/watch.rs"]
mod watch;

fn regressions(target: &str) -> Vec<Vec<u8>> {
    committed("regressions", target)
}

/// The files of `fuzz/<kind>/<target>/` (none when it is missing).
fn committed(kind: &str, target: &str) -> Vec<Vec<u8>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz")
        .join(kind)
        .join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| e.path().file_name().is_some_and(|n| n != "README.md"))
        .map(|e| std::fs::read(e.path()).unwrap())
        .collect()
}

fn truncate_check(data: &[u8]) {
    let doc = prefix::document_from(data);
    for n in (1..=doc.len()).filter(|&n| doc.is_char_boundary(n)) {
        if let Err(e) = prefix::check_prefix(&doc, n) {
            panic!("{e}");
        }
    }
}

#[test]
fn committed_fuzz_regressions() {
    for data in regressions("jsonmend_repair") {
        if let Err(e) = invariants::check(&data) {
            panic!("{e}");
        }
    }
    for data in regressions("jsonmend_truncate") {
        truncate_check(&data);
    }
    for data in regressions("jsonmend_llm") {
        if let Err(e) = llm::check(&data) {
            panic!("{e}");
        }
    }
    for data in regressions("jsonmend_protocol") {
        if let Err(e) = protocol::check(&data) {
            panic!("{e}");
        }
    }
    for data in regressions("jsonmend_watch") {
        let (cuts, input) = watch::cuts_from(&data).unwrap();
        if let Err(e) = watch::check_split(&input, &cuts, &jsonmend_engine::Options::default()) {
            panic!("{e}");
        }
    }
}

/// The protocol seeds are whole sessions (every method, the stream
/// methods in and out of order, malformed lines): each holds the
/// property, and there is one per kind.
#[test]
fn protocol_seeds_hold_the_property() {
    let seeds = committed("seeds", "jsonmend_protocol");
    assert!(seeds.len() >= 10, "{} seeds", seeds.len());
    for data in seeds {
        if let Err(e) = protocol::check(&data) {
            panic!("{e}");
        }
    }
}

#[test]
fn protocol_session_on_hand_written_lines() {
    let lines = concat!(
        "{\"id\":1,\"method\":\"hello\"}\n",
        "not json\n",
        "[1,2]\n",
        "{\"id\":[1],\"method\":\"repair\"}\n",
        "{\"id\":1.0,\"method\":\"repair\",\"params\":{\"text\":\"{a:1}\"}}\n",
        "{\"id\":\"s\",\"method\":\"frob\"}\n",
        "{\"method\":\"repair\",\"params\":{\"text\":\"\\ud800\"}}\n",
        "\r\n",
        "\u{ff}\n",
        "{\"id\":2,\"method\":\"validate\",\"params\":7}\n",
        "{\"id\":3,\"method\":\"shutdown\"}\n",
        "{\"id\":4,\"method\":\"hello\"}\n",
    );
    protocol::check(lines.as_bytes()).unwrap();
}

#[test]
fn truncation_target_on_seeded_sample() {
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    for _ in 0..60 {
        let data: Vec<u8> = (0..120)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        truncate_check(&data);
    }
}

#[test]
fn llm_streams_on_recorded_and_broken_events() {
    for (provider, text) in [
        (0u8, include_str!("llm/anthropic_weather.jsonl")),
        (0, include_str!("llm/anthropic_parallel_split_escape.jsonl")),
        (1, include_str!("llm/openai_parallel.jsonl")),
        (1, include_str!("llm/openai_ollama_reuse.jsonl")),
    ] {
        let mut data = vec![provider];
        data.extend_from_slice(text.as_bytes());
        llm::check(&data).unwrap();
        // Every event cut in half: still no panic and valid results.
        let mut cut = vec![provider];
        for line in text.lines() {
            cut.extend_from_slice(line.get(..line.len() / 2).unwrap_or(line).as_bytes());
            cut.push(b'\n');
        }
        llm::check(&cut).unwrap();
    }
}
