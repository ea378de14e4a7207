//! The JSON-driven encoders on the reference vectors: C5 (benchmark layout
//! on the 20 fixtures, with the §14 byte counts), C6 (`EncodeAny` on the 20
//! fixtures), C7/C8 (adversarial `wire.EncodeAny` and `bench.encodeAsGCX`
//! vectors) and C9 (first-cell escape).
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    reason = "test helpers fail by panicking"
)]

mod support {
    pub(crate) mod base64;
    pub(crate) mod fixtures;
    pub(crate) mod vectors;
}

use gcx_wire::encode::{EncodeError, HeaderProblem, Mode, encode_any, encode_bench};
use gcx_wire::json;

use support::vectors::{Vector, load as vectors};

fn fixtures() -> Vec<support::fixtures::Fixture> {
    support::fixtures::fixtures(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gcx-bench"),
    )
}

/// §14: bytes of compact Go JSON and of the benchmark GCX output.
const BYTES: [(usize, usize); 20] = [
    (720, 522),
    (4201, 2924),
    (731, 731),
    (1691, 1663),
    (1077, 702),
    (1287, 989),
    (1783, 920),
    (2172, 1599),
    (1731, 1037),
    (1132, 825),
    (2296, 1562),
    (3021, 2204),
    (1816, 1178),
    (1269, 929),
    (1256, 997),
    (936, 690),
    (224, 192),
    (494, 512),
    (927, 708),
    (784, 690),
];

#[test]
fn c5_bench_layout_on_the_fixtures() {
    let all = vectors();
    let fx = fixtures();
    assert_eq!(fx.len(), 20);
    for (f, (json_bytes, gcx_bytes)) in fx.iter().zip(BYTES) {
        let want = &all.iter().find(|v| v.case == f.stem).unwrap().gcx;
        for mode in [Mode::Strict, Mode::GoCompat] {
            let ours = encode_bench(&f.tool, f.input.as_bytes(), mode).unwrap();
            assert!(
                &ours == want,
                "{} {mode:?}:\n{}",
                f.stem,
                String::from_utf8_lossy(&ours)
            );
        }
        assert_eq!(want.len(), gcx_bytes, "{}", f.stem);
        let mut compact = Vec::new();
        json::write_go_json(&json::parse(f.input.as_bytes()).unwrap(), &mut compact);
        assert_eq!(compact.len(), json_bytes, "{}", f.stem);
    }
}

#[test]
fn c6_encode_any_on_the_fixtures() {
    let all = vectors();
    for f in fixtures() {
        let case = format!("generic/{}", f.stem);
        let want = &all.iter().find(|v| v.case == case).unwrap().gcx;
        for mode in [Mode::Strict, Mode::GoCompat] {
            let ours = encode_any(&f.tool, f.input.as_bytes(), mode).unwrap();
            assert!(
                &ours == want,
                "{case} {mode:?}:\n{}",
                String::from_utf8_lossy(&ours)
            );
        }
    }
}

fn adversarial() -> Vec<Vector> {
    vectors()
        .into_iter()
        .filter(|v| {
            (v.path == "wire.EncodeAny" || v.path == "bench.encodeAsGCX")
                && !v.case.starts_with("generic/")
                && v.case.contains('/')
        })
        .collect()
}

fn encode(v: &Vector, mode: Mode) -> Result<Vec<u8>, EncodeError> {
    if v.path == "wire.EncodeAny" {
        encode_any(&v.tool, &v.input, mode)
    } else {
        encode_bench(&v.tool, &v.input, mode)
    }
}

#[test]
fn c7_c8_c9_adversarial_vectors() {
    use HeaderProblem::*;
    let lossy: &[(&str, EncodeError)] = &[
        ("any/scalar-null", EncodeError::BlankRow),
        ("any/empty-object", EncodeError::BlankRow),
        ("any/mixed-array", EncodeError::BlankRow),
        (
            "any/record-control-chars",
            EncodeError::CarriageReturn {
                field: b"s".to_vec(),
            },
        ),
        (
            "any/cr-variants",
            EncodeError::CarriageReturn {
                field: b"v".to_vec(),
            },
        ),
    ];
    let header_lossy: &[(&str, HeaderProblem)] = &[
        ("any/key-with-comma-space-equals", Comma),
        ("bench/meta-value-with-space", Space),
    ];
    let all = adversarial();
    assert_eq!(
        all.len(),
        14 + 7,
        "{:?}",
        all.iter().map(|v| &v.case).collect::<Vec<_>>()
    );
    let mut identical = 0;
    for v in &all {
        let go = encode(v, Mode::GoCompat).unwrap();
        let strict = encode(v, Mode::Strict);
        if v.case == "any/first-cell-gcx1" {
            // C9: the only intended difference from Go, in both modes.
            let want = b"GCX1 tool=x fields=a,b rows=1\n\\GCX1 looks like a header\t1\n";
            assert_eq!(go, want);
            assert_eq!(strict.unwrap(), want);
            let back = gcx_wire::from_slice(want).unwrap();
            assert_eq!(
                back.sections[0].row(0).unwrap()[0].as_ref(),
                b"GCX1 looks like a header"
            );
            continue;
        }
        assert!(
            go == v.gcx,
            "{} go-compat:\n{}",
            v.case,
            String::from_utf8_lossy(&go)
        );
        if let Some((_, want)) = lossy.iter().find(|(c, _)| *c == v.case) {
            assert_eq!(&strict.unwrap_err(), want, "{}", v.case);
        } else if let Some((_, reason)) = header_lossy.iter().find(|(c, _)| *c == v.case) {
            assert!(
                matches!(strict, Err(EncodeError::InvalidHeader { reason: r, .. }) if r == *reason),
                "{}: {strict:?}",
                v.case
            );
        } else {
            assert_eq!(strict.unwrap(), v.gcx, "{} strict", v.case);
            identical += 1;
        }
    }
    assert_eq!(identical, 13);
}

/// §14: cl100k tokens of compact JSON and of the benchmark GCX output.
const TOKENS: [(usize, usize); 20] = [
    (181, 125),
    (1068, 742),
    (257, 255),
    (534, 532),
    (335, 241),
    (335, 255),
    (569, 351),
    (567, 431),
    (506, 318),
    (288, 198),
    (580, 463),
    (750, 532),
    (471, 299),
    (329, 239),
    (311, 262),
    (224, 157),
    (87, 90),
    (162, 174),
    (233, 171),
    (237, 224),
];

#[test]
fn c17_cl100k_token_counts() {
    let bpe = tiktoken_rs::cl100k_base().unwrap();
    let count = |bytes: &[u8]| {
        bpe.encode_ordinary(std::str::from_utf8(bytes).unwrap())
            .len()
    };
    let mut savings = Vec::new();
    for (f, (json_tokens, gcx_tokens)) in fixtures().iter().zip(TOKENS) {
        let mut compact = Vec::new();
        json::write_go_json(&json::parse(f.input.as_bytes()).unwrap(), &mut compact);
        let gcx = encode_bench(&f.tool, f.input.as_bytes(), Mode::Strict).unwrap();
        assert_eq!(
            (count(&compact), count(&gcx)),
            (json_tokens, gcx_tokens),
            "{}",
            f.stem
        );
        savings.push((json_tokens as f64 - gcx_tokens as f64) / json_tokens as f64 * 100.0);
    }
    // §14: the element at index ⌊n/2⌋ of the ascending-sorted savings
    // (the upper middle; no averaging).
    savings.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let median = savings[savings.len() / 2];
    assert_eq!(format!("{median:.1}"), "27.4");
}
