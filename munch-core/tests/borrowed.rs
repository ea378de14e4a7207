//! `decode_borrowed` gives `decode`'s tree (types, numbers and key order
//! exact) on every payload of the reference vectors, the extra vectors
//! and the golden vectors, and borrows the cells it can.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod props {
    pub mod decode;
}

use std::borrow::Cow;

use munch_core::{BorrowedValue, Format, Options, decode_borrowed, encode};
use serde_json::Value;

fn payloads() -> Vec<(String, String)> {
    let files = [
        include_str!("vectors/jcodemunch-1.108.399.jsonl"),
        include_str!("vectors/extra-1.108.399.jsonl"),
        include_str!("vectors/toolwire-munch.jsonl"),
    ];
    let mut out = Vec::new();
    for line in files.iter().flat_map(|f| f.lines()) {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let name = v["name"].as_str().unwrap_or("?").to_string();
        for field in ["compact", "payload", "text"] {
            if let Some(p) = v.get(field).and_then(Value::as_str) {
                out.push((format!("{name}/{field}"), p.to_string()));
            }
        }
        if let Some(input) = v.get("input") {
            out.push((format!("{name}/input"), input.to_string()));
        }
    }
    out
}

#[test]
fn borrowed_decode_equals_decode_on_every_vector_payload() {
    let all = payloads();
    let munch = all.iter().filter(|(_, p)| p.starts_with("#MUNCH/")).count();
    assert!(munch >= 150, "only {munch} MUNCH payloads found");
    for (name, payload) in &all {
        let _ = std::panic::catch_unwind(|| props::decode::same_as_borrowed(payload))
            .unwrap_or_else(|_| panic!("{name}"));
    }
}

/// Counts strings (keys and values) borrowed from the payload and copied.
fn census(v: &BorrowedValue<'_>, borrowed: &mut usize, owned: &mut usize) {
    let mut count = |c: &Cow<'_, str>| match c {
        Cow::Borrowed(_) => *borrowed += 1,
        Cow::Owned(_) => *owned += 1,
    };
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            BorrowedValue::String(s) => count(s),
            BorrowedValue::Array(items) => stack.extend(items),
            BorrowedValue::Object(members) => {
                for (k, v) in members {
                    count(k);
                    stack.push(v);
                }
            }
            _ => {}
        }
    }
}

#[test]
fn table_cells_and_column_names_are_borrowed() {
    let rows: Vec<Value> = (0..50)
        .map(|i| {
            serde_json::json!({
                "id": format!("src/m{i}.py::f{i}#function"), "name": format!("f{i}"),
                "kind": "function", "file": format!("src/m{i}.py"), "line": i,
                "score": 0.5, "signature": format!("def f{i}(x, y)"), "summary": "does a thing",
            })
        })
        .collect();
    let response =
        serde_json::json!({"result_count": 50, "query": "f", "repo": "acme", "results": rows});
    for tool in ["search_symbols", "get_hotspots"] {
        let opts = Options {
            format: Format::Compact,
            ..Options::default()
        };
        let out = encode(tool, &response, &opts);
        assert!(out.is_munch(), "{tool}");
        let v = decode_borrowed(&out.text).unwrap();
        let (mut borrowed, mut owned) = (0, 0);
        census(&v, &mut borrowed, &mut owned);
        // Rows: 8 keys and at least 5 string cells each, all borrowed;
        // copied: the top-level keys and scalars, legend-expanded cells.
        assert!(borrowed >= 50 * 8, "{tool}: {borrowed} borrowed");
        assert!(owned <= 120, "{tool}: {owned} copied");
        assert_eq!(v.into_value(), munch_core::decode(&out.text).unwrap());
    }
}

#[test]
fn legend_cells_borrow_where_the_text_is_one_piece() {
    // Files, kinds and summaries repeat (whole legend literals: borrowed
    // from the legend line), ids start with a file (literal + tail: built),
    // names start with `@` (escaped `@@x`: borrowed from the cell). gen1's
    // legend matches a shorter prefix of the files first, so they are
    // built there too.
    let files = [
        "src/webshop/services/module_002.py",
        "src/webshop/api/module_017.py",
    ];
    let rows: Vec<Value> = (0..60)
        .map(|i| {
            let file = files[i % 2];
            serde_json::json!({
                "id": format!("{file}::f{i}#function"), "name": format!("@f{i}"),
                "kind": "function", "file": file, "line": i,
                "score": 0.5, "signature": format!("def f{i}(x, y)"), "summary": "does a thing",
            })
        })
        .collect();
    let response =
        serde_json::json!({"result_count": 60, "query": "f", "repo": "acme", "results": rows});
    for (tool, built) in [("search_symbols", 60), ("get_hotspots", 120)] {
        let opts = Options {
            format: Format::Compact,
            ..Options::default()
        };
        let out = encode(tool, &response, &opts);
        assert!(out.is_munch(), "{tool}");
        assert!(
            out.text.contains("\n@1="),
            "{tool}: no legend in {}",
            out.text
        );
        let v = decode_borrowed(&out.text).unwrap();
        let (mut borrowed, mut owned) = (0, 0);
        census(&v, &mut borrowed, &mut owned);
        // Copied: the built cells and the top-level keys and scalars.
        assert!(owned <= built + 12, "{tool}: {owned} copied\n{}", out.text);
        assert!(borrowed >= 60 * 10, "{tool}: {borrowed} borrowed");
        assert_eq!(v.into_value(), munch_core::decode(&out.text).unwrap());
    }
}

/// gen1 and tier-1 shapes where keys repeat or nest, declarations are
/// escaped, rows are short or shared, and legends expand past the
/// allowance.
#[test]
fn borrowed_decode_equals_decode_on_edge_shapes() {
    let bomb = format!(
        "#MUNCH/1 tool=x enc=gen1\n\n@1={}\n\n__tables=t:r:a\n\n{}",
        "x".repeat(4096),
        "t,@1\n".repeat(5000)
    );
    let cases = [
        "__tables=t:rows:a|b|a:str|int|str\n\nt,x,1,y\nt,,2\n",
        "p=5 __tables=t:p.rows:a\n\nt,x\n",
        "__tables=t:p.rows:a,u:p.more:b\n\nt,x\nu,y\n",
        "__json.p={\"rows\":1,\"k\":2} __tables=t:p.rows:a\n\nt,x\n",
        "__tables=t:rows:a,t:rows:b\n\nt,x\n",
        "__tables=t:rows:a,t:other:b\n\nt,x\nt,y\n",
        "rows=1 __tables=t:rows:a\n\nt,x\n",
        "__tables=\"t:rows:a\\nb|c\"\n\nt,x,y\n",
        "__tables=\"t:rows:a\"\"b|c\"\n\nt,x,y\n",
        "__tables=t:r%3Aw:a%7Cb|c%25:int|str\n\nt,7,\"q,\"\"z\"\"\"\n",
        "@1=src/app\n\n__tables=t:rows:f|n:str|int\n\nt,@1/a.py,3\nt,@1,x\n",
        "__tables=t:rows:a|b:bool|float\n\nt,T,1e400\nt,F,nan\nt,,-0.0\n",
        "__tables=t:p.q.r:a\n\nt,1\n",
        "__tables=t::a\n\nt,1\n",
        "__tables=t:rows:\n\nt,1\n",
    ];
    let mut payloads: Vec<String> = cases
        .iter()
        .map(|c| format!("#MUNCH/1 tool=x enc=gen1\n\n{c}"))
        .collect();
    let err = props::decode::same_as_borrowed(&bomb).unwrap_err();
    assert_eq!(err.kind, munch_core::DecodeErrorKind::ExpansionLimit);
    for (tool, id) in [("search_symbols", "ss1"), ("get_file_outline", "fo1")] {
        payloads.push(format!(
            "#MUNCH/1 tool={tool} enc={id}\n\n@1=src/a\n\nrepo=r __json.results=[1] __json.symbols=[2] __tables=x\n\ns,@1.py::f#function,f,function,@1.py,1,0.5,def f(),x\n"
        ));
    }
    for p in &payloads {
        let _ = props::decode::same_as_borrowed(p);
    }
}

/// A gen1 column's type decides its cells: `str` (and a missing type) is
/// legend-expanded, a name that is no type reads as text, unexpanded;
/// numbers and bools convert. Both decoders agree with the expected tree.
#[test]
fn gen1_column_types_convert_cells_in_both_decoders() {
    let payload = "#MUNCH/1 tool=t enc=gen1\n\n@1=src/\n\n\
        __tables=t:rows:a|b|c|d|e|f:str|xyz|int|float|bool\n\n\
        t,@1a.py,@1b.py,7,0.5,T,@1c.py\n\
        t,,x,-3,2,F,\n";
    let want = serde_json::json!({"rows": [
        {"a": "src/a.py", "b": "@1b.py", "c": 7, "d": 0.5, "e": true, "f": "src/c.py"},
        {"a": null, "b": "x", "c": -3, "d": 2.0, "e": false, "f": null},
    ]});
    assert_eq!(munch_core::decode(payload).unwrap(), want);
    assert_eq!(decode_borrowed(payload).unwrap().into_value(), want);
}
