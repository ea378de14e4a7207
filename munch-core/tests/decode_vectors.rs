//! C1/C1b: `decode(compact)` equals the reference decoder's output,
//! type-exact and in the same key order; where the reference crashed,
//! munch-core decodes to the input.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use munch_core::{KeyOrder, decode, first_mismatch};

#[test]
fn c1_decode_equals_reference_decoder() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for v in support::vectors() {
        let (Some(payload), false) = (v.str("compact"), v.get("decoded").is_null()) else {
            continue;
        };
        checked += 1;
        let got = decode(payload).expect("MUNCH never fails");
        if let Some(m) = first_mismatch(v.get("decoded"), &got, KeyOrder::Exact) {
            failures.push(format!("{}: {} {}", v.name, m.path, m.kind));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(checked, 59);
}

#[test]
fn c1b_reference_crashes_decode_correctly() {
    let all = support::vectors();
    let find = |name: &str| all.iter().find(|v| v.name == name).expect(name);
    let huge = find("gen1/huge_cell_140k");
    let got = decode(huge.str("compact").unwrap()).unwrap();
    assert_eq!(first_mismatch(huge.get("input"), &got, KeyOrder::Any), None);

    let cycle = find("get_dependency_cycles/empty_cycle");
    let got = decode(cycle.str("compact").unwrap()).unwrap();
    assert_eq!(
        first_mismatch(cycle.get("input"), &got, KeyOrder::Any),
        None
    );
    let keys: Vec<&str> = got
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["repo", "cycle_count", "_meta", "cycles"]);
}

#[test]
fn c5_legacy_ids_decode_like_current() {
    let mut n = 0;
    for v in support::vectors() {
        let Some(payload) = v.str("compact") else {
            continue;
        };
        let (from, legacy): (&str, &[&str]) = if payload.contains(" enc=ch2\n") {
            (" enc=ch2\n", &[" enc=ch1\n"])
        } else if payload.contains(" enc=st4\n") {
            (" enc=st4\n", &[" enc=st1\n", " enc=st2\n", " enc=st3\n"])
        } else {
            continue;
        };
        let want = decode(payload).unwrap();
        for to in legacy {
            let got = decode(&payload.replacen(from, to, 1)).unwrap();
            assert_eq!(
                first_mismatch(&want, &got, KeyOrder::Exact),
                None,
                "{} {to}",
                v.name
            );
            n += 1;
        }
    }
    assert_eq!(n, 17);
}

#[test]
fn c6_non_munch_text_errors_with_offset() {
    let err = decode("hello").unwrap_err();
    assert_eq!(err.offset, 0);
    assert_eq!(decode("{\"a\":1} x").unwrap_err().offset, 8);
}
