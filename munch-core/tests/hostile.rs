//! Hostile payloads: expansion is bounded (legend handles, rows shared by
//! several gen1 tables, symbol lists shared by fo1 batch entries), and
//! table lookup stays linear.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Instant;

use munch_core::{DecodeErrorKind, DecodeOptions, decode, decode_with};

/// Decoding `payload` with 1 MiB of allowed expansion stops at the limit.
fn refused_past_one_mib(payload: &str) {
    let opts = DecodeOptions {
        expansion_floor: 1 << 20,
        ..DecodeOptions::default()
    };
    let err = decode_with(payload, &opts).unwrap_err();
    assert_eq!(err.kind, DecodeErrorKind::ExpansionLimit);
}

#[test]
fn legend_bomb_is_refused() {
    let literal = "x".repeat(256 << 10);
    let rows = "t,@1\n".repeat(150);
    let payload =
        format!("#MUNCH/1 tool=t enc=gen1\n\n@1={literal}\n\n__tables=t:k:c:str\n\n{rows}");
    // 37.5 MiB of text from a 257 KiB payload (allowance 64 × 257 KiB +
    // 16 MiB).
    let err = decode(&payload).unwrap_err();
    assert_eq!(err.kind, DecodeErrorKind::ExpansionLimit);
    assert!(
        err.offset > literal.len(),
        "offset {} points into the rows",
        err.offset
    );
    // The same payload with a larger allowance decodes.
    let opts = DecodeOptions {
        expansion_ratio: 200,
        ..DecodeOptions::default()
    };
    let v = decode_with(&payload, &opts).unwrap();
    assert_eq!(v["k"].as_array().unwrap().len(), 150);
}

#[test]
fn tier1_legend_bomb_is_refused() {
    let literal = "y".repeat(1 << 20);
    let rows = "s,@1\n".repeat(200);
    let payload =
        format!("#MUNCH/1 tool=search_symbols enc=ss1\n\n@1={literal}\n\nresult_count=1\n\n{rows}");
    let err = decode(&payload).unwrap_err();
    assert_eq!(err.kind, DecodeErrorKind::ExpansionLimit);
    // Typed decoding (straight from the table's cells for this schema)
    // stops at the same place.
    match munch_core::decode_into::<serde_json::Value>(&payload) {
        Err(munch_core::TypedError::Decode(e)) => {
            assert_eq!((e.kind, e.offset), (err.kind, err.offset))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn shared_rows_of_many_gen1_tables_are_bounded() {
    let n = 3000;
    let decls: Vec<String> = (0..n).map(|i| format!("t:k{i}:c:int")).collect();
    let rows = "t,1\n".repeat(n);
    let payload = format!(
        "#MUNCH/1 tool=t enc=gen1\n\n__tables={}\n\n{rows}",
        decls.join(",")
    );
    let start = Instant::now();
    refused_past_one_mib(&payload);
    assert!(start.elapsed().as_secs() < 5);
}

#[test]
fn short_rows_of_a_wide_gen1_table_are_bounded() {
    // One decl of 2,000 columns and 2,000 rows holding only their tag:
    // every row would get 2,000 members (4 million, some 400 MB, from a
    // 20 KB payload).
    let n = 2_000;
    let cols: Vec<String> = (0..n).map(|i| format!("c{i}")).collect();
    let rows = "t\n".repeat(n);
    let payload = format!(
        "#MUNCH/1 tool=t enc=gen1\n\n__tables=t:k:{}\n\n{rows}",
        cols.join("|")
    );
    refused_past_one_mib(&payload);
    // Typed decoding (from the table's cells) is held to the same
    // allowance: the default one refuses this payload too.
    let err = decode(&payload).unwrap_err();
    match munch_core::decode_into::<serde_json::Value>(&payload) {
        Err(munch_core::TypedError::Decode(e)) => {
            assert_eq!((e.kind, e.offset), (err.kind, err.offset))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn many_tables_with_distinct_tags_stay_linear() {
    // 20,000 decls with their own tags and one row each: each decl finds
    // its rows by one lookup, not by scanning all 20,000 rows (which the
    // reference does: 400 million row checks).
    let n = 20_000;
    let decls: Vec<String> = (0..n).map(|i| format!("t{i}:k{i}:c:int")).collect();
    let rows: String = (0..n).map(|i| format!("t{i},{i}\n")).collect();
    let payload = format!(
        "#MUNCH/1 tool=t enc=gen1\n\n__tables={}\n\n{rows}",
        decls.join(",")
    );
    let start = Instant::now();
    let v = decode(&payload).unwrap();
    assert_eq!(v["k19999"][0]["c"], 19999);
    // And into a type, from the tables' cells.
    let typed: serde_json::Value = munch_core::decode_into(&payload).unwrap();
    assert_eq!(typed, v);
    assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
}

#[test]
fn running_out_with_many_tables_stays_linear() {
    // 40,000 decls with their own tags, one row each, every row a legend
    // handle that expands: the allowance runs out about a third of the way.
    // Where it runs out is decided in declaration order; each declaration
    // visits its own rows then, not all 40,000 (16 billion row checks).
    let n = 40_000;
    let decls: Vec<String> = (0..n).map(|i| format!("t{i}:k{i}:c")).collect();
    let rows: String = (0..n).map(|i| format!("t{i},@1\n")).collect();
    let payload = format!(
        "#MUNCH/1 tool=t enc=gen1\n\n@1={}\n\n__tables={}\n\n{rows}",
        "x".repeat(64),
        decls.join(",")
    );
    let opts = DecodeOptions {
        expansion_ratio: 1,
        expansion_floor: 0,
        ..DecodeOptions::default()
    };
    let start = Instant::now();
    let err = decode_with(&payload, &opts).unwrap_err();
    let borrowed = munch_core::decode_borrowed_with(&payload, &opts).unwrap_err();
    assert_eq!(err.kind, DecodeErrorKind::ExpansionLimit);
    assert_eq!((err.kind, err.offset), (borrowed.kind, borrowed.offset));
    // In the declaration-order third of the rows.
    assert!(err.offset > payload.len() / 2, "{}", err.offset);
    assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
}

#[test]
fn shared_symbol_lists_of_fo1_batches_are_bounded() {
    let symbols = "s,id,name,function,sig,1,2,,sum,src/a.py\n".repeat(20_000);
    let results = "b,src/a.py,python,,1\n".repeat(2_000);
    let payload = format!(
        "#MUNCH/1 tool=get_file_outline enc=fo1\n\n__tables=s:symbols:x,b:results:y\n\n{symbols}\n\n{results}"
    );
    refused_past_one_mib(&payload);
}

/// A value nested a million deep in a table cell — a tier-1 schema
/// column or a gen1 column — is written as its Python `repr` without
/// recursion in the reference form (which has no depth limit), and sent
/// as JSON in the verified form. Until 2026-12-03 both overflowed the
/// stack: the cell's `repr` recursed, and the ladder's first rung runs
/// before the depth limit is decided.
#[test]
fn a_deep_value_in_a_table_cell_does_not_overflow_the_stack() {
    use munch_core::{Format, JsonReason, Mode, Options, encode};
    use serde_json::{Map, Value, json};
    // Deep enough to overflow a test thread's stack through any recursion
    // over it.
    let deep = || {
        let mut v = json!(1);
        for _ in 0..200_000 {
            v = Value::Array(vec![v]);
        }
        v
    };
    for (tool, rows) in [("search_symbols", 1), ("get_hotspots", 2)] {
        // Built member by member: `json!` of a value this deep, like
        // cloning or dropping it, recurses.
        let rows: Vec<Value> = (0..rows)
            .map(|_| {
                let mut row = Map::new();
                row.insert("id".into(), json!("a"));
                row.insert("signature".into(), deep());
                Value::Object(row)
            })
            .collect();
        let mut response = Map::new();
        response.insert("results".into(), Value::Array(rows));
        let response = Value::Object(response);
        for mode in [Mode::Verified, Mode::Reference] {
            let opts = Options {
                format: Format::Compact,
                mode,
                ..Options::default()
            };
            let out = encode(tool, &response, &opts);
            if mode == Mode::Verified {
                assert_eq!(out.meta.reason, Some(JsonReason::DepthLimit), "{tool}");
            } else {
                assert!(out.text.contains("[[[[[[[[[["), "{tool}");
            }
        }
        dismantle(response);
    }
}

/// Drops a value of any depth without recursion.
fn dismantle(v: serde_json::Value) {
    use serde_json::Value;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(members) => stack.extend(members.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// A response nested past the depth limit is sent as JSON (the reason
/// says so) without deep recursion; one at the limit is encoded.
#[test]
fn responses_past_the_depth_limit_are_sent_as_json() {
    use munch_core::{Format, JsonReason, Options, encode};
    use serde_json::{Value, json};
    let nest = |levels: usize| {
        let mut v = json!(1);
        for _ in 0..levels {
            v = Value::Array(vec![v]);
        }
        v
    };
    let opts = Options {
        format: Format::Compact,
        depth_limit: 40,
        ..Options::default()
    };
    // The response object, `results` and the row are three levels;
    // `deep` adds the rest. gen1 (a tool without a schema) finds a table
    // of the two rows, encoded before the size walk as tier-1 is.
    let tools = [("search_symbols", 1), ("get_hotspots", 2)];
    for ((levels, refused), (tool, rows)) in [(37, false), (38, true), (100_000, true)]
        .into_iter()
        .flat_map(|l| tools.map(|t| (l, t)))
    {
        // (Built row by row: cloning a value this deep would recurse.)
        let rows: Vec<Value> = (0..rows)
            .map(|_| {
                let mut row = serde_json::Map::new();
                row.insert("id".into(), json!(1));
                row.insert("deep".into(), nest(levels));
                Value::Object(row)
            })
            .collect();
        let mut response = serde_json::Map::new();
        response.insert("results".into(), Value::Array(rows));
        let response = Value::Object(response);
        let out = encode(tool, &response, &opts);
        let past = out.meta.reason == Some(JsonReason::DepthLimit);
        assert_eq!(past, refused, "{tool} {levels} levels");
        if !refused {
            assert_eq!(
                munch_core::decode(&out.text).unwrap(),
                response,
                "{tool} {levels} levels"
            );
        }
        // Dropping a value this deep must not recurse either.
        std::mem::forget(response);
    }
    // Wide: many values on one level are no reason.
    let wide: Vec<Value> = (0..200_000).map(|i| json!(i)).collect();
    let response = json!({"results": [{"id": 1, "wide": wide}]});
    assert_eq!(encode("search_symbols", &response, &opts).meta.reason, None);
}
