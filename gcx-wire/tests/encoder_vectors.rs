//! The low-level encoder on the 21 `wire.Encoder` reference vectors
//! (C7 and C8 of the spec): Go-compatible mode is byte-identical on every
//! vector; strict mode is byte-identical on the lossless ones and refuses
//! the lossy ones with the listed error.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    reason = "test helpers fail by panicking"
)]

mod support {
    pub(crate) mod base64;
    pub(crate) mod vectors;
}

use gcx_wire::encode::{Cell, EncodeError, Encoder, HeaderProblem, Mode};
use serde_json::Value;

use support::vectors::Vector;

/// The 21 `wire.Encoder` vectors.
fn vectors() -> Vec<Vector> {
    support::vectors::load()
        .into_iter()
        .filter(|v| v.path == "wire.Encoder")
        .collect()
}

/// The elided inputs, generated as the spec describes them.
fn elided(case: &str) -> Value {
    let (fields, row): (Vec<&str>, Vec<String>) = match case {
        "enc/long-row-1MiB" => (
            vec!["id", "source"],
            vec!["big".into(), "x".repeat(1_048_576)],
        ),
        "enc/long-row-over-4MiB" => (vec!["source"], vec!["y".repeat(4_194_305)]),
        other => panic!("unknown elided vector {other}"),
    };
    let cells: Vec<Value> = row
        .iter()
        .map(|c| serde_json::json!({"go": "string", "v": c}))
        .collect();
    serde_json::json!({"encoder_input": [{"tool": "get_symbol_source", "fields": fields, "ops": [{"row": cells}]}]})
}

/// A cell's bytes or value.
enum Owned {
    Bytes(Vec<u8>),
    Cell(Cell<'static>),
}

fn cell(v: &Value) -> Owned {
    let go = v["go"].as_str().unwrap();
    let val = &v["v"];
    if let Some(b64) = v.get("b64").and_then(Value::as_str) {
        return Owned::Bytes(support::base64::decode(b64));
    }
    match go {
        "bool" => Owned::Cell(Cell::Bool(val.as_bool().unwrap())),
        "int" | "int8" | "int32" | "int64" => Owned::Cell(Cell::Int(val.as_i64().unwrap())),
        "uint" | "uint16" | "uint32" | "uint64" => Owned::Cell(Cell::Uint(val.as_u64().unwrap())),
        "float64" => Owned::Cell(Cell::F64(match val.as_str() {
            Some("NaN") => f64::NAN,
            Some("+Inf") => f64::INFINITY,
            Some("-Inf") => f64::NEG_INFINITY,
            Some(other) => panic!("float64 {other}"),
            None => val.as_f64().unwrap(),
        })),
        "float32" => Owned::Cell(Cell::F32(val.as_str().unwrap().parse().unwrap())),
        // string, []uint8, main.stringer, []string, map[string]int,
        // json.Number: text as given.
        _ => Owned::Bytes(val.as_str().unwrap().as_bytes().to_vec()),
    }
}

fn encode(input: &Value, mode: Mode) -> Result<Vec<u8>, EncodeError> {
    let mut enc = Encoder::with_mode(mode);
    for section in input["encoder_input"].as_array().unwrap() {
        let fields: Vec<&str> = section["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap())
            .collect();
        let meta: Vec<(&str, &str)> = section
            .get("meta")
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.as_str(), v.as_str().unwrap()))
                    .collect()
            })
            .unwrap_or_default();
        enc.header_meta(section["tool"].as_str().unwrap(), &fields, &meta)?;
        for op in section["ops"].as_array().unwrap() {
            if let Some(text) = op.get("comment") {
                enc.comment(text.as_str().unwrap())?;
                continue;
            }
            let owned: Vec<Owned> = op
                .get("row")
                .and_then(Value::as_array)
                .map(|r| r.iter().map(cell).collect())
                .unwrap_or_default();
            enc.row(owned.iter().map(|o| match o {
                Owned::Bytes(b) => Cell::Bytes(b),
                Owned::Cell(c) => *c,
            }))?;
        }
    }
    Ok(enc.finish())
}

fn input(v: &Vector) -> Value {
    if v.json["encoder_input"].is_string() {
        elided(&v.case)
    } else {
        v.json.clone()
    }
}

#[test]
fn go_compat_is_byte_identical_on_every_vector() {
    let all = vectors();
    assert_eq!(all.len(), 21);
    for v in &all {
        let ours = encode(&input(v), Mode::GoCompat).unwrap();
        assert!(
            ours == v.gcx,
            "{}: {:?}",
            v.case,
            String::from_utf8_lossy(&ours[..ours.len().min(300)])
        );
    }
}

#[test]
fn strict_is_identical_where_lossless_and_refuses_the_rest() {
    use HeaderProblem::*;
    type Expect = fn(&EncodeError) -> bool;
    let refused: &[(&str, Expect)] = &[
        ("enc/no-fields", |e| *e == EncodeError::BlankRow),
        ("enc/meta-escapes", |e| {
            matches!(
                e,
                EncodeError::InvalidHeader {
                    reason: CarriageReturn,
                    ..
                }
            )
        }),
        ("enc/field-name-comma", |e| {
            matches!(e, EncodeError::InvalidHeader { reason: Comma, .. })
        }),
        ("enc/meta-value-space", |e| {
            matches!(e, EncodeError::InvalidHeader { reason: Space, .. })
        }),
        ("enc/field-name-space", |e| {
            matches!(e, EncodeError::InvalidHeader { reason: Space, .. })
        }),
        ("enc/tool-with-space", |e| {
            matches!(e, EncodeError::InvalidHeader { reason: Space, .. })
        }),
        ("enc/meta-key-equals", |e| {
            matches!(e, EncodeError::InvalidHeader { reason: Equals, .. })
        }),
        ("enc/meta-key-tool-fields", |e| {
            matches!(
                e,
                EncodeError::InvalidHeader {
                    reason: ReservedKey,
                    ..
                }
            )
        }),
        ("enc/empty-tool", |e| {
            matches!(e, EncodeError::InvalidHeader { reason: Empty, .. })
        }),
    ];
    let mut identical = 0;
    for v in vectors() {
        let ours = encode(&input(&v), Mode::Strict);
        match refused.iter().find(|(c, _)| *c == v.case) {
            Some((_, want)) => {
                let err = ours.expect_err(&v.case);
                assert!(want(&err), "{}: {err:?}", v.case);
            }
            None => {
                assert_eq!(ours.unwrap(), v.gcx, "{}", v.case);
                identical += 1;
            }
        }
    }
    assert_eq!(identical, 12);
}

#[test]
fn strict_output_decodes_to_its_input() {
    for v in vectors() {
        let input = input(&v);
        let Ok(bytes) = encode(&input, Mode::Strict) else {
            continue;
        };
        // No encoder line limit: read back without the decoder's cap.
        let opts = gcx_wire::DecodeOptions {
            max_line_bytes: usize::MAX,
            ..Default::default()
        };
        let payload = gcx_wire::from_slice_with(&bytes, &opts).unwrap();
        let sections = input["encoder_input"].as_array().unwrap();
        assert_eq!(payload.sections.len(), sections.len(), "{}", v.case);
        for (s, want) in payload.sections.iter().zip(sections) {
            let rows: Vec<&Value> = want["ops"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|o| o.get("row").is_some())
                .collect();
            assert_eq!(s.row_count(), rows.len(), "{}", v.case);
            for (got, op) in s.rows().zip(rows) {
                for (i, c) in op["row"].as_array().unwrap().iter().enumerate() {
                    let text = match cell(c) {
                        Owned::Bytes(b) => b,
                        Owned::Cell(c) => c.text().into_owned(),
                    };
                    assert_eq!(got[i].as_ref(), text.as_slice(), "{} cell {i}", v.case);
                }
            }
        }
    }
}
