//! C2–C4: the encoders against the reference vectors.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use munch_core::{Format, KeyOrder, Mode, Options, Rung, decode, encode, first_mismatch};

fn opts(format: Format, mode: Mode) -> Options<'static> {
    Options {
        format,
        mode,
        ..Options::default()
    }
}

/// Lines whose compact form depends on the hash seed (≥ 2 `__json._meta.*`).
fn seed_dependent(v: &support::Vector) -> bool {
    v.str("compact")
        .is_some_and(|c| c.matches("__json._meta.").count() >= 2)
}

#[test]
fn c2_reference_compact_is_byte_identical_where_lossless() {
    let (mut exact, mut lossy_same, mut lossy_total) = (0, 0, 0);
    let mut failures = Vec::new();
    for v in support::vectors() {
        let Some(want) = v.str("compact") else {
            continue;
        };
        let got = encode(
            &v.tool,
            v.get("input"),
            &opts(Format::Compact, Mode::Reference),
        );
        let same = got.text == want;
        if v.flag("roundtrip_equal") {
            if !same {
                failures.push(format!("{}:\n got {:?}\nwant {:?}", v.name, got.text, want));
            }
            exact += 1;
        } else {
            lossy_total += 1;
            if same {
                lossy_same += 1;
            } else {
                eprintln!("C2l differs: {}", v.name);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(exact, 31, "C2 + C2s lines");
    eprintln!("C2l: {lossy_same} of {lossy_total} lossy lines byte-identical");
}

#[test]
fn c3_reference_dispatch_choices_and_meta() {
    let (mut compact_munch, mut auto_munch) = (0, 0);
    for v in support::vectors() {
        let c = encode(
            &v.tool,
            v.get("input"),
            &opts(Format::Compact, Mode::Reference),
        );
        let a = encode(
            &v.tool,
            v.get("input"),
            &opts(Format::Auto, Mode::Reference),
        );
        assert_eq!(
            c.is_munch(),
            !v.get("compact").is_null(),
            "{} compact choice",
            v.name
        );
        assert_eq!(
            c.meta.to_value(),
            *v.get("meta_compact"),
            "{} meta_compact",
            v.name
        );
        assert_eq!(
            a.meta.to_value(),
            *v.get("meta_auto"),
            "{} meta_auto",
            v.name
        );
        assert_eq!(
            a.is_munch(),
            v.flag("auto_is_munch"),
            "{} auto choice",
            v.name
        );
        if !a.is_munch() || !seed_dependent(&v) {
            assert_eq!(a.text, v.str("auto").unwrap(), "{} auto text", v.name);
        }
        compact_munch += usize::from(c.is_munch());
        auto_munch += usize::from(a.is_munch());
    }
    assert_eq!((compact_munch, auto_munch), (61, 12));
}

#[test]
fn c4_verified_output_is_exact_or_json() {
    let (mut tier1, mut gen1, mut json) = (0, 0, 0);
    for v in support::vectors() {
        for format in [Format::Compact, Format::Auto] {
            let out = encode(&v.tool, v.get("input"), &opts(format, Mode::Verified));
            if !out.is_munch() {
                assert!(out.meta.reason.is_some(), "{}", v.name);
                assert_eq!(out.text, munch_core::to_python_json(v.get("input")));
                continue;
            }
            assert!(!out.meta.attempts.is_empty());
            let back = decode(&out.text).unwrap();
            assert_eq!(
                first_mismatch(v.get("input"), &back, KeyOrder::Any),
                None,
                "{}",
                v.name
            );
            if format == Format::Compact {
                match out.meta.attempts.last().unwrap().rung {
                    Rung::Tier1Reference | Rung::Tier1Hardened => tier1 += 1,
                    _ => gen1 += 1,
                }
            }
        }
        let c = encode(
            &v.tool,
            v.get("input"),
            &opts(Format::Compact, Mode::Verified),
        );
        json += usize::from(!c.is_munch());
        // C4a: lossless with key order kept → the reference bytes.
        if v.flag("roundtrip_equal") && v.flag("key_order_preserved") {
            assert_eq!(c.text, v.str("compact").unwrap(), "C4a {}", v.name);
        }
    }
    // C4b: tier-1 wherever it is lossless up to key order (12 lines).
    assert_eq!((tier1, gen1, json), (12, 51, 0));
}

#[test]
fn c4b_c4c_exact_key_order() {
    let (mut gen1_ref, mut gen1_hard, mut json) = (0, 0, 0);
    for v in support::vectors() {
        let o = Options {
            key_order: KeyOrder::Exact,
            ..opts(Format::Compact, Mode::Verified)
        };
        let out = encode(&v.tool, v.get("input"), &o);
        let rung = out.meta.attempts.last().map(|a| a.rung);
        if out.is_munch() {
            assert!(
                matches!(rung, Some(Rung::Gen1Reference | Rung::Gen1Hardened)),
                "{} accepted as tier-1",
                v.name
            );
            let back = decode(&out.text).unwrap();
            assert_eq!(
                first_mismatch(v.get("input"), &back, KeyOrder::Exact),
                None,
                "{}",
                v.name
            );
            if rung == Some(Rung::Gen1Reference) {
                gen1_ref += 1;
            } else {
                gen1_hard += 1;
            }
        } else {
            json += 1;
        }
    }
    // C4c: 49 gen1 (28 reference rung, 21 hardened) and 14 JSON; the
    // vector with big integers is a reference-rung one.
    assert_eq!((gen1_ref, gen1_hard, json), (28, 21, 14));
}

#[test]
#[ignore = "diagnostic listing"]
fn list_exact_json_lines() {
    for v in support::vectors() {
        let o = Options {
            key_order: KeyOrder::Exact,
            ..opts(Format::Compact, Mode::Verified)
        };
        let out = encode(&v.tool, v.get("input"), &o);
        if !out.is_munch() {
            eprintln!("{}: {:?}", v.name, out.meta.attempts);
        }
    }
}
