//! The decoder never panics: arbitrary text, raw and behind a MUNCH
//! header of every encoding id. Shared by `tests/props_replay.rs` and the
//! `munch_decode` fuzz target.
#![allow(dead_code, unreachable_pub, clippy::indexing_slicing)]

const IDS: [&str; 24] = [
    "gen1", "fr2", "fi2", "ch2", "ch1", "dg1", "br2", "ip1", "sc2", "dc2", "tm2", "ss1", "st4",
    "st1", "st2", "st3", "sa2", "sa1", "fo1", "ro1", "rc1", "fr1", "xx9", "",
];

/// Decodes `data` in every framing; only a panic fails.
pub fn check(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = munch_core::decode(&text);
    let id = IDS[usize::from(data.first().copied().unwrap_or(0)) % IDS.len()];
    let framed = format!(
        "#MUNCH/1 tool=t enc={id}\n\n{}",
        text.get(1..).unwrap_or("")
    );
    // MUNCH input never fails, except past the expansion allowance.
    if let Err(e) = munch_core::decode(&framed) {
        assert_eq!(e.kind, munch_core::DecodeErrorKind::ExpansionLimit, "{e}");
    }
}
