//! The lossless property: decode(encode(v)) == v whenever the strict
//! encoder accepts v (seeded sample plus the committed fuzz regressions of
//! `gcx_roundtrip`).
#![allow(clippy::unwrap_used, reason = "test")]

mod props {
    pub(crate) mod roundtrip;
}

#[test]
fn seeded_sample() {
    let mut x = 0xDEC0_DE5Eu64;
    let mut accepted_rows = 0;
    for n in 0..20_000usize {
        let len = n % 200;
        let data: Vec<u8> = (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Lean towards headers first and valid-looking parts.
                (x >> 24) as u8
            })
            .collect();
        let (_, want) = props::roundtrip::encode(&data);
        accepted_rows += want.iter().map(|s| s.rows.len()).sum::<usize>();
        props::roundtrip::check(&data);
    }
    // The sample must exercise the property, not only refusals.
    assert!(accepted_rows > 1000, "only {accepted_rows} rows accepted");
}

#[test]
fn committed_fuzz_regressions() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions/gcx_roundtrip");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "md") {
            props::roundtrip::check(&std::fs::read(&path).unwrap());
        }
    }
}
