//! Replays the `wire_lex_fields` fuzz property: every committed regression
//! in `fuzz/regressions/wire_lex_fields/`, hand-picked edge cases, and a
//! seeded random sample (so the property runs even without a fuzzer).

mod props {
    pub(crate) mod fields;
}

use std::path::Path;

#[test]
fn committed_regressions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions/wire_lex_fields");
    let mut replayed = 0;
    for entry in std::fs::read_dir(&dir).expect("regression directory") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            continue;
        }
        props::fields::check(&std::fs::read(&path).unwrap());
        replayed += 1;
    }
    eprintln!("replayed {replayed} regression inputs");
}

#[test]
fn edge_cases() {
    let cases: &[&[u8]] = &[
        b"",
        b"\x00",
        b"\x00\x00",
        b"\x00\x01\"",
        b"\x01\x02\r\n\xff\x01\r",
        b"\x02\x03\"\"\"",
        b"\x04\x01\r\x00\xff\x00",
        b"\x0f\x05a,b\tc",
        b"\x03\x02\\t\x02\\\\",
        b"\x00\x01\\\x01\xc3",
    ];
    for case in cases {
        props::fields::check(case);
    }
}

#[test]
fn seeded_sample() {
    let alphabet = b",\t\"\r\n\\ab\xff\x00\xc3\xa9";
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for len in 0..2000usize {
        let mut data = Vec::with_capacity(len % 97);
        for _ in 0..len % 97 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let pick = (state >> 32) as usize;
            data.push(if pick % 4 == 0 {
                pick as u8
            } else {
                alphabet[pick % alphabet.len()]
            });
        }
        props::fields::check(&data);
    }
}
