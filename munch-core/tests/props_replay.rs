//! The properties of the fuzz targets on a seeded sample and on every
//! committed fuzz regression (`fuzz/regressions/munch_*`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod props {
    pub mod decode;
    pub mod responses;
    pub mod roundtrip;
}

/// A small xorshift generator: the sample is the same on every run.
fn sample(seed: u64, n: usize, len: usize) -> Vec<Vec<u8>> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x as u8
                })
                .collect()
        })
        .collect()
}

fn regressions(target: &str) -> Vec<Vec<u8>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/regressions")
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

#[test]
fn roundtrip_property_on_seeded_sample() {
    for data in sample(0x9E37_79B9_7F4A_7C15, 3000, 160) {
        props::roundtrip::check(&data);
    }
}

#[test]
fn decode_never_panics_on_seeded_sample() {
    for data in sample(0xD1B5_4A32_D192_ED03, 3000, 200) {
        props::decode::check(&data);
    }
}

#[test]
fn committed_fuzz_regressions() {
    for data in regressions("munch_roundtrip") {
        props::roundtrip::check(&data);
    }
    for data in regressions("munch_decode") {
        props::decode::check(&data);
    }
}

/// The sample exercises the encoders: most responses come out as MUNCH,
/// across tier-1, gen1 and both layers.
#[test]
fn sample_reaches_every_rung() {
    use munch_core::{Format, Options, Rung, encode};
    let mut counts = std::collections::BTreeMap::new();
    for data in sample(0x9E37_79B9_7F4A_7C15, 6000, 160) {
        let mut g = props::responses::Gen::new(&data);
        let tool = g.tool();
        let response = if g.byte() % 2 == 0 {
            g.shaped(tool)
        } else {
            g.object(0)
        };
        let out = encode(
            tool,
            &response,
            &Options {
                format: Format::Compact,
                ..Options::default()
            },
        );
        let key = if out.is_munch() {
            format!("{:?}", out.meta.attempts.last().map(|a| a.rung))
        } else {
            "json".into()
        };
        *counts.entry(key).or_insert(0usize) += 1;
    }
    eprintln!("{counts:?}");
    for rung in [
        Rung::Tier1Reference,
        Rung::Tier1Hardened,
        Rung::Gen1Reference,
        Rung::Gen1Hardened,
    ] {
        assert!(
            counts
                .get(&format!("{:?}", Some(rung)))
                .copied()
                .unwrap_or(0)
                >= 20,
            "{rung:?}: {counts:?}"
        );
    }
}
