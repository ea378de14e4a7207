//! munch-core in its default configuration (serde_json without
//! `arbitrary_precision`), which munch-core's own tests cannot build: their
//! dev-dependency turns it on (spec D5). The reference vectors without
//! integers beyond 64 bits: decode equals the reference decoder (C1),
//! reference-mode compact bytes where lossless (C2, C2s in the seed-0
//! order),
//! and verified output decodes to exactly its input (C4).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use munch_core::{Format, KeyOrder, Mode, Options, decode, encode, first_mismatch};
use serde_json::Value;

const VECTORS: &str = include_str!("../../munch-core/tests/vectors/jcodemunch-1.108.399.jsonl");

/// Whether a JSON line has an integer literal (outside strings) that fits
/// neither i64 nor u64: this configuration reads it as a float.
fn has_big_int(line: &str) -> bool {
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < b.len() && matches!(b[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                let token = &line[start..i];
                let integer = !token.contains(['.', 'e', 'E']);
                if integer && token.parse::<i64>().is_err() && token.parse::<u64>().is_err() {
                    return true;
                }
            }
            _ => i += 1,
        }
    }
    false
}

#[test]
fn big_integers_are_found_outside_strings_only() {
    assert!(has_big_int(r#"{"a":18446744073709551616}"#));
    assert!(has_big_int(r#"[-9223372036854775809]"#));
    assert!(!has_big_int(
        r#"{"a":18446744073709551615,"b":-9223372036854775808}"#
    ));
    assert!(!has_big_int(r#"{"a":"18446744073709551616","b":1e400}"#));
    assert!(!has_big_int(r#"{"a\"":"x\"99999999999999999999"}"#));
}

/// Built alone (`cargo test -p munch-bench`, as `cargo xtask ci` runs it),
/// this package has serde_json without `arbitrary_precision`; built with
/// munch-core's tests (`cargo test --workspace`) features unify and it has
/// it, and the checks below hold either way.
#[test]
fn this_build_has_no_arbitrary_precision() {
    if std::env::var_os("MUNCH_DEFAULT_CONFIGURATION").is_none() {
        return;
    }
    let n: serde_json::Number = serde_json::from_str("18446744073709551616").unwrap();
    assert!(n.is_f64(), "serde_json's arbitrary_precision is on");
}

#[test]
fn reference_vectors_in_the_default_configuration() {
    let (mut c1, mut c2, mut c4) = (0, 0, 0);
    let mut skipped = 0;
    for line in VECTORS.lines().filter(|l| !l.trim().is_empty()) {
        if has_big_int(line) {
            skipped += 1;
            continue;
        }
        let v: Value = serde_json::from_str(line).unwrap();
        let (name, tool, input) = (&v["name"], v["tool"].as_str().unwrap(), &v["input"]);
        if let (Some(payload), false) = (v["compact"].as_str(), v["decoded"].is_null()) {
            let got = decode(payload).unwrap();
            assert_eq!(
                first_mismatch(&v["decoded"], &got, KeyOrder::Exact),
                None,
                "C1 {name}"
            );
            // Typed decoding (straight from the cells of a tier-1 table
            // where it can) gives what the decoded value gives.
            let typed: Value = munch_core::decode_into(payload).unwrap();
            let via_value: Value = munch_core::from_value(got).unwrap();
            assert_eq!(typed.to_string(), via_value.to_string(), "typed {name}");
            c1 += 1;
        }
        if let (Some(want), true) = (v["compact"].as_str(), v["roundtrip_equal"] == true) {
            let opts = Options {
                format: Format::Compact,
                mode: Mode::Reference,
                ..Options::default()
            };
            assert_eq!(encode(tool, input, &opts).text, want, "C2 {name}");
            c2 += 1;
        }
        for format in [Format::Compact, Format::Auto] {
            let out = encode(
                tool,
                input,
                &Options {
                    format,
                    ..Options::default()
                },
            );
            let back = decode(&out.text).unwrap();
            assert_eq!(
                first_mismatch(input, &back, KeyOrder::Any),
                None,
                "C4 {name}"
            );
            c4 += 1;
        }
    }
    assert_eq!((skipped, c1, c2, c4), (1, 58, 30, 124));
}
