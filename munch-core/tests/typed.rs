//! The serde path: typed responses in, typed values out, NaN and the
//! infinities native on both sides.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::float_cmp
)]

use munch_core::{Format, Options, decode_into, encode_serialize};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Symbol {
    id: String,
    name: String,
    kind: String,
    file: String,
    line: u32,
    score: f64,
    signature: String,
    summary: String,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Response {
    result_count: usize,
    query: String,
    repo: String,
    results: Vec<Symbol>,
}

fn sample() -> Response {
    let sym = |i: u32, score: f64| Symbol {
        id: format!("src/app/mod_{i}.py::f{i}#function"),
        name: format!("f{i}"),
        kind: "function".into(),
        file: format!("src/app/mod_{i}.py"),
        line: i * 10,
        score,
        signature: format!("def f{i}()"),
        summary: "does things".into(),
    };
    Response {
        result_count: 3,
        query: "f".into(),
        repo: "acme/app".into(),
        results: vec![sym(1, 0.5), sym(2, f64::INFINITY), sym(3, 0.25)],
    }
}

#[test]
fn typed_round_trip_through_tier1() {
    let resp = sample();
    let out = encode_serialize(
        "search_symbols",
        &resp,
        &Options {
            format: Format::Compact,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(
        out.text
            .starts_with("#MUNCH/1 tool=search_symbols enc=ss1\n"),
        "{}",
        out.text
    );
    assert!(out.text.contains(",inf,"));
    let back: Response = decode_into(&out.text).unwrap();
    assert_eq!(back, resp);
}

#[test]
fn nan_survives_gen1() {
    #[derive(Serialize, Deserialize, Debug)]
    struct Row {
        x: f64,
    }
    let rows = vec![Row { x: f64::NAN }, Row { x: -0.0 }];
    #[derive(Serialize, Deserialize, Debug)]
    struct Wrap {
        rows: Vec<Row>,
    }
    let out = encode_serialize(
        "other",
        &Wrap { rows },
        &Options {
            format: Format::Compact,
            ..Default::default()
        },
    )
    .unwrap();
    let back: Wrap = decode_into(&out.text).unwrap();
    assert!(back.rows[0].x.is_nan());
    assert!(back.rows[1].x == 0.0 && back.rows[1].x.is_sign_negative());
}

#[test]
fn type_errors_are_reported() {
    let err = decode_into::<Vec<u8>>("[\"x\"]").unwrap_err();
    assert!(err.to_string().contains("invalid type"), "{err}");
    assert!(decode_into::<Vec<u8>>("nope").is_err());
}
