//! The `leaf_encode` property on a seeded sample of hostile text and on the
//! committed fuzz regressions.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, reason = "test")]

mod props {
    pub(crate) mod encode;
}

#[test]
fn seeded_sample() {
    let pieces = [
        "a",
        " ",
        "  ",
        "\n",
        "\r\n",
        "\t",
        "'s",
        "'LL",
        "1",
        "²",
        "é",
        "e\u{301}",
        "日本",
        "😀",
        "\u{200d}",
        "<|im_end|>",
        "<|endoftext|>",
        "<|",
        "|>",
        "Ġ",
        "\u{a0}",
        "\u{85}",
        "\u{3000}",
        "\u{feff}",
        "!",
        "..",
        "\u{10ffff}",
    ];
    let mut x = 0xABCDu64;
    for _ in 0..300 {
        let mut s = String::new();
        for _ in 0..(x % 40) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            s.push_str(pieces[(x % pieces.len() as u64) as usize]);
        }
        props::encode::check(s.as_bytes());
    }
    // A long piece takes the heap path.
    props::encode::check("x".repeat(5000).as_bytes());
    props::encode::check("日".repeat(3000).as_bytes());
}

#[test]
fn committed_fuzz_regressions() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions/leaf_encode");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "md") {
            props::encode::check(&std::fs::read(&path).unwrap());
        }
    }
}
