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

/// `decode_into` (through the borrowed tree) gives what the owned value
/// through `from_value` gives, on every vector payload, key order kept.
#[test]
fn typed_decode_equals_the_owned_path_on_every_vector() {
    let files = [
        include_str!("vectors/jcodemunch-1.108.399.jsonl"),
        include_str!("vectors/extra-1.108.399.jsonl"),
        include_str!("vectors/toolwire-munch.jsonl"),
    ];
    let mut n = 0;
    for line in files.iter().flat_map(|f| f.lines()) {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let Some(payload) = v.get("compact").and_then(serde_json::Value::as_str) else {
            continue;
        };
        let owned: serde_json::Value =
            munch_core::from_value(munch_core::decode(payload).unwrap()).unwrap();
        let typed: serde_json::Value = decode_into(payload).unwrap();
        assert_eq!(typed.to_string(), owned.to_string(), "{payload}");
        n += 1;
    }
    assert!(n >= 150, "{n}");
}

/// Strings the payload holds verbatim lend themselves to `&str` fields;
/// one a legend handle expanded needs `Cow`.
#[test]
fn borrowed_fields_point_into_the_payload() {
    use std::borrow::Cow;
    #[derive(Deserialize)]
    struct Hit<'a> {
        #[serde(borrow)]
        file: Cow<'a, str>,
        kind: &'a str,
        score: f64,
    }
    #[derive(Deserialize)]
    struct Hits<'a> {
        #[serde(borrow)]
        hits: Vec<Hit<'a>>,
    }
    let payload = "#MUNCH/1 tool=x enc=gen1\n\n@1=src/app\n\n\
        __tables=t:hits:file|kind|score:str|str|float\n\n\
        t,src/a.py,function,nan\nt,@1/b.py,class,0.5\n";
    let r: Hits<'_> = munch_core::decode_borrowed_into(payload).unwrap();
    assert!(matches!(r.hits[0].file, Cow::Borrowed("src/a.py")));
    assert!(matches!(&r.hits[1].file, Cow::Owned(f) if f == "src/app/b.py"));
    assert_eq!((r.hits[0].kind, r.hits[1].kind), ("function", "class"));
    assert!(r.hits[0].score.is_nan());
    assert_eq!(r.hits[1].score, 0.5);
    // A `&str` field cannot take the expanded string.
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Strict<'a> {
        file: &'a str,
    }
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct StrictHits<'a> {
        #[serde(borrow)]
        hits: Vec<Strict<'a>>,
    }
    assert!(munch_core::decode_borrowed_into::<StrictHits<'_>>(payload).is_err());
    // JSON text (what `auto` sends where MUNCH does not pay) lends its
    // strings the same way: those without an escape.
    let json = r#"{"hits": [{"file": "src/a.py", "kind": "function", "score": NaN},
        {"file": "src\/b.py", "kind": "class", "score": 0.5}]}"#;
    let r: Hits<'_> = munch_core::decode_borrowed_into(json).unwrap();
    assert!(matches!(r.hits[0].file, Cow::Borrowed("src/a.py")));
    assert!(matches!(&r.hits[1].file, Cow::Owned(f) if f == "src/b.py"));
    assert_eq!((r.hits[0].kind, r.hits[1].kind), ("function", "class"));
    assert!(r.hits[0].score.is_nan());
    assert!(munch_core::decode_borrowed_into::<StrictHits<'_>>(json).is_err());
}

/// A row type that reads only the first member of its row: the next row
/// still starts at its own first cell (tier-1 rows are handed to the
/// caller's type straight from their cells).
#[test]
fn a_row_read_in_part_leaves_the_next_row_whole() {
    use serde::de::{MapAccess, Visitor};
    struct First(String);
    impl<'de> Deserialize<'de> for First {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = First;
                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str("a row")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<First, A::Error> {
                    let (_, v): (String, serde_json::Value) = map.next_entry()?.unwrap();
                    Ok(First(v.to_string()))
                }
            }
            d.deserialize_map(V)
        }
    }
    #[derive(Deserialize)]
    struct Resp {
        results: Vec<First>,
    }
    let opts = Options {
        format: Format::Compact,
        ..Default::default()
    };
    let payload = encode_serialize("search_symbols", &sample(), &opts)
        .unwrap()
        .text;
    assert!(
        payload.starts_with("#MUNCH/1 tool=search_symbols"),
        "{payload}"
    );
    let r: Resp = decode_into(&payload).unwrap();
    let ids: Vec<&str> = r.results.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(
        ids,
        [
            "\"src/app/mod_1.py::f1#function\"",
            "\"src/app/mod_2.py::f2#function\"",
            "\"src/app/mod_3.py::f3#function\""
        ]
    );
}

/// gen1 tables are deserialized from their cells too: a row that is the
/// `$float` sentinel still arrives as an `f64`, an escaped column name and
/// a legend handle as the tree has them.
#[test]
fn gen1_rows_from_cells_equal_the_tree() {
    let sentinel = "#MUNCH/1 tool=x enc=gen1\n\n__tables=t:v:$float\n\nt,nan\nt,-inf\n";
    #[derive(Deserialize)]
    struct Floats {
        v: Vec<f64>,
    }
    let r: Floats = decode_into(sentinel).unwrap();
    assert!(r.v[0].is_nan() && r.v[1] == f64::NEG_INFINITY);
    let payload = "#MUNCH/1 tool=x enc=gen1\n\n@1=src/app/\n\n\
        repo=acme __tables=t:hits:file|a%2Cb|n:str|str|int,u:more:x:float\n\n\
        t,@1a.py,1,7\nu,0.5\nt,b.py,,-3\nu,\n";
    for text in [sentinel, payload] {
        let tree: serde_json::Value =
            munch_core::from_borrowed(munch_core::decode_borrowed(text).unwrap()).unwrap();
        let typed: serde_json::Value = munch_core::decode_borrowed_into(text).unwrap();
        assert_eq!(typed.to_string(), tree.to_string());
    }
    let typed: serde_json::Value = decode_into(payload).unwrap();
    assert_eq!(
        typed.to_string(),
        r#"{"repo":"acme","hits":[{"file":"src/app/a.py","a,b":"1","n":7},{"file":"b.py","a,b":null,"n":-3}],"more":[{"x":0.5},{"x":null}]}"#
    );
}
