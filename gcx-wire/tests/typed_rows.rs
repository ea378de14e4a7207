//! C16: typed rows on the reference vectors — by-name reading into
//! structs, and a typed writer reproducing a vector byte for byte.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, reason = "test")]

use serde::{Deserialize, Serialize};

mod support {
    pub(crate) mod base64;
    pub(crate) mod vectors;
}

fn gcx(case: &str) -> Vec<u8> {
    let all = support::vectors::load();
    support::vectors::Vector::named(&all, case).gcx.clone()
}

#[derive(Debug, Deserialize, PartialEq)]
struct Symbol<'a> {
    id: &'a str,
    kind: String,
    name: String,
    file_path: String,
    start_line: u32,
    signature: Option<String>,
}

#[test]
fn fixtures_01_and_02_into_one_struct() {
    let small = gcx("01_search_symbols_small");
    let large = gcx("02_search_symbols_large");
    let p1 = gcx_wire::from_slice(&small).unwrap();
    let p2 = gcx_wire::from_slice(&large).unwrap();
    let s1: Vec<Symbol<'_>> = p1.sections[0].rows_as().collect::<Result<_, _>>().unwrap();
    let s2: Vec<Symbol<'_>> = p2.sections[0].rows_as().collect::<Result<_, _>>().unwrap();
    assert_eq!((s1.len(), s2.len()), (5, 20));
    assert!(s1.iter().all(|s| s.signature.is_none()));
    assert_eq!(s1[0].id, "internal/mcp/server.go::NewServer");
    assert_eq!(s1[0].start_line, 62);
    assert_eq!(s2[0].signature.as_deref(), Some("func main()"));
    assert_eq!(s2[1].start_line, 48);
}

#[derive(Debug, Deserialize, Serialize, PartialEq)]
struct LayoutRow {
    id: String,
    kind: String,
    name: String,
    path: String,
    path_abs: Option<String>,
    line: Option<u32>,
    sig: Option<String>,
    enclosing: Option<String>,
    is_test: bool,
    test_role: Option<String>,
    test_runner: Option<String>,
    type_flavor: Option<String>,
    ui_component: Option<String>,
}

#[test]
fn search_symbols_layout_typed_both_ways() {
    let bytes = gcx("enc/search-symbols-layout");
    let payload = gcx_wire::from_slice(&bytes).unwrap();
    let section = &payload.sections[0];
    let rows: Vec<LayoutRow> = section.rows_as().collect::<Result<_, _>>().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].line, Some(62));
    assert!(!rows[0].is_test);
    assert_eq!(rows[0].path_abs, None);
    assert_eq!(rows[1].ui_component.as_deref(), Some("react"));

    // A plain `line: u32` reads the set cells, and refuses an empty one
    // naming the field.
    #[derive(Debug, Deserialize)]
    struct Strict {
        line: u32,
    }
    assert_eq!(section.row_as::<Strict>(1).unwrap().unwrap().line, 5);
    let empty = gcx_wire::from_slice(
        b"GCX1 tool=t fields=id,line
x	\n",
    )
    .unwrap();
    let err = empty.sections[0].row_as::<Strict>(0).unwrap().unwrap_err();
    assert!(err.to_string().contains("`line`"), "{err}");

    // Writing the two records back, with the same meta and comment.
    let mut enc = gcx_wire::encode::Encoder::new();
    let fields = [
        "id",
        "kind",
        "name",
        "path",
        "path_abs",
        "line",
        "sig",
        "enclosing",
        "is_test",
        "test_role",
        "test_runner",
        "type_flavor",
        "ui_component",
    ];
    enc.header_meta(
        "search_symbols",
        &fields,
        &[("total", "3"), ("truncated", "true")],
    )
    .unwrap();
    enc.comment("2 result(s)").unwrap();
    for row in &rows {
        enc.serialize(row).unwrap();
    }
    assert_eq!(
        String::from_utf8(enc.finish()).unwrap(),
        String::from_utf8(bytes).unwrap()
    );
}

#[test]
fn results_wrapper_missing_line_is_none() {
    #[derive(Debug, Deserialize)]
    struct Hit {
        id: String,
        line: Option<u32>,
    }
    let bytes = gcx("bench/results-wrapper");
    let payload = gcx_wire::from_slice(&bytes).unwrap();
    let hit: Hit = payload.sections[0].row_as(1).unwrap().unwrap();
    assert_eq!((hit.id.as_str(), hit.line), ("b.go::G", None));
}

#[test]
fn by_name_rules() {
    #[derive(Debug, Deserialize, PartialEq)]
    struct R {
        a: Option<String>,
        b: f64,
        #[serde(default)]
        missing: u8,
        nested: Vec<u32>,
    }
    // Reordered, extra column, repeated name (last wins), 'g' float, JSON.
    let input = b"GCX1 tool=t fields=nested,x,b,a,a\n[1,2]\tignored\t1e+06\tfirst\t\n";
    let p = gcx_wire::from_slice(input).unwrap();
    let r: R = p.sections[0].row_as(0).unwrap().unwrap();
    assert_eq!(
        r,
        R {
            a: None,
            b: 1e6,
            missing: 0,
            nested: vec![1, 2]
        }
    );
    // Infinities and NaN parse; an empty number is an error.
    let p = gcx_wire::from_slice(b"GCX1 tool=t fields=b,c\n+Inf\n-Inf\nNaN\n\tx\n").unwrap();
    let vals: Vec<Result<(f64, String), _>> = p.sections[0].rows_as().collect();
    assert_eq!(vals[0].as_ref().unwrap().0, f64::INFINITY);
    assert_eq!(vals[1].as_ref().unwrap().0, f64::NEG_INFINITY);
    assert!(vals[2].as_ref().unwrap().0.is_nan());
    assert!(vals[3].is_err());
}

#[test]
fn writer_refuses_unknown_fields() {
    #[derive(Serialize)]
    struct Extra {
        a: u8,
        zzz: u8,
    }
    let mut enc = gcx_wire::encode::Encoder::new();
    enc.header("t", &["a"]).unwrap();
    let err = enc.serialize(&Extra { a: 1, zzz: 2 }).unwrap_err();
    assert!(err.to_string().contains("zzz"));
}
