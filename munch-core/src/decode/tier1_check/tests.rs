//! Tests of `tier1_check`.

use super::*;
use crate::equal::exact_eq;
use crate::tier1::schemas;
use serde_json::json;

/// A `search_symbols` response encoded with its tier-1 schema (`check`:
/// its rows checked while they are written).
fn encode_symbols(
    map: &Map<alloc::string::String, Value>,
    hardened: bool,
    check: bool,
) -> Result<crate::encode::Payload<'_>, crate::encode::Fail> {
    let schema = schemas::by_tool("search_symbols").unwrap_or_else(|| unreachable!());
    crate::encode::tier1::encode("search_symbols", schema, map, hardened, 0, None, check)
}

/// Checking against the encoder's cells answers as checking against the
/// input's rows does: on lossless payloads, on lossy ones (a legend
/// handle followed by a digit, a string that reads back as a number),
/// and on rows the cells do not stand for.
#[test]
fn checking_cells_answers_as_checking_rows() {
    let schema = schemas::by_tool("search_symbols").unwrap_or_else(|| unreachable!());
    let row = |id: &str, file: &str, line: Value| {
        json!({"id": id, "name": "n", "kind": "function", "file": file,
               "line": line, "score": 0.5, "signature": "def f()", "summary": "s"})
    };
    let long = "src/a/long/path/to/module.py";
    let cases = [
        json!({"results": [row("a1", long, json!(1)), row("b", long, json!(2))]}),
        // `@1` + "2…" reads back as a different handle.
        json!({"results": [row(long, long, json!(1)), row("x", "src/a/long/path/to/module.py2", json!(2))]}),
        json!({"results": [row("a", long, json!("7")), row("b", long, json!(2))]}),
        json!({"results": [row("a", long, json!(null)), row("b", long, json!(2.5))]}),
        json!({"results": [row("a", long, json!(1)), json!({"id": "x", "extra": 1})]}),
        json!({"results": [row("a", long, json!(1)), json!(3)]}),
    ];
    let opts = DecodeOptions::default();
    let mut lossy = 0;
    for case in &cases {
        let Value::Object(map) = case else {
            unreachable!()
        };
        for hardened in [false, true] {
            let Ok(p) = encode_symbols(map, hardened, false) else {
                continue;
            };
            let by_rows = verify_plain(&p.text, schema, map, &[], &opts);
            let by_cells = verify_plain(&p.text, schema, map, &p.tables, &opts);
            assert_eq!(by_rows, by_cells, "{case}");
            lossy += usize::from(by_cells == Some(false));
            let tampered = p.text.replacen("def f()", "def g()", 1);
            if tampered != p.text {
                assert_eq!(
                    verify_plain(&tampered, schema, map, &p.tables, &opts),
                    Some(false)
                );
            }
        }
    }
    assert!(lossy >= 3, "{lossy}");
}

/// Rows checked while they are written are accepted exactly when the
/// check of the finished payload accepts them: on tables longer than
/// a read-back, with a lossy row early, in the middle or last, with
/// cells quoted and holding line breaks, and with scalars that differ.
#[test]
fn rows_checked_while_written_answer_as_the_finished_check() {
    let schema = schemas::by_tool("search_symbols").unwrap_or_else(|| unreachable!());
    let long = "src/a/long/path/to/module.py";
    let row = |i: usize, file: &str| {
        json!({"id": format!("{long}::f{i}"), "name": format!("f{i}"), "kind": "function",
               "file": file, "line": i, "score": 0.25 * i as f64,
               "signature": format!("def f{i}(a, b)"), "summary": "line one\nline \"two\""})
    };
    let opts = DecodeOptions::default();
    let (mut accepted, mut refused) = (0, 0);
    for n in [1usize, 63, 64, 65, 200] {
        for lossy_at in [None, Some(0), Some(n / 2), Some(n - 1)] {
            let rows: Vec<Value> = (0..n)
                .map(|i| {
                    // `@1` + "2…" reads back as another handle.
                    let file = if Some(i) == lossy_at {
                        "src/a/long/path/to/module.py2"
                    } else {
                        long
                    };
                    row(i, file)
                })
                .collect();
            let case = json!({"result_count": n, "query": "q", "results": rows});
            let Value::Object(map) = &case else {
                unreachable!()
            };
            for hardened in [false, true] {
                let Ok(p) = encode_symbols(map, hardened, true) else {
                    continue;
                };
                let inline = p
                    .checked
                    .as_ref()
                    .is_some_and(|rows| scalars_of_checked(&p.text, rows, schema, map, &opts));
                let finished = verify_plain(&p.text, schema, map, &[], &opts) == Some(true);
                assert_eq!(inline, finished, "{n} {lossy_at:?} {hardened}");
                accepted += usize::from(inline);
                refused += usize::from(!inline);
                // A scalar that differs is found by the scalar half.
                let mut other = map.clone();
                other.insert("query".into(), json!("r"));
                if let Some(rows) = &p.checked {
                    assert!(!scalars_of_checked(&p.text, rows, schema, &other, &opts));
                }
            }
        }
    }
    assert!(accepted > 10 && refused > 10, "{accepted} {refused}");
}

/// Every vector of a transform-free tier-1 schema: its tool, schema and
/// input.
fn transform_free_vectors() -> Vec<(String, &'static Schema, Map<String, Value>)> {
    let vectors = include_str!("../../../tests/vectors/jcodemunch-1.108.399.jsonl");
    vectors
        .lines()
        .filter_map(|line| {
            let vector = serde_json::from_str::<Value>(line).ok()?;
            let tool = vector["tool"].as_str()?;
            let schema = schemas::by_tool(tool).filter(|s| s.transform == Transform::None)?;
            let Value::Object(base) = &vector["input"] else {
                return None;
            };
            Some((tool.to_string(), schema, base.clone()))
        })
        .collect()
}

/// Where a payload with its rows checked and its scalars not the
/// input's differs is where the full decode differs: over every
/// vector of a transform-free schema, as it is and with its scalars
/// changed (a `_meta` member the schema does not carry, an empty
/// declared scalar, an undeclared member, a number as text).
#[test]
fn scalar_mismatch_is_the_full_decodes() {
    let opts = DecodeOptions::default();
    let mut found = 0;
    for (tool, schema, base) in &transform_free_vectors() {
        let (tool, schema) = (tool.as_str(), *schema);
        let first_scalar = schema.scalars.iter().find(|k| base.contains_key(**k));
        let mut variants = vec![base.clone()];
        let mut meta = base.clone();
        meta.insert("_meta".into(), json!({"timing_ms": 1.5, "zz_mode": "x"}));
        variants.push(meta);
        let mut extra = base.clone();
        extra.insert("zz_extra".into(), json!([1]));
        variants.push(extra);
        if let Some(k) = first_scalar {
            let mut empty = base.clone();
            empty.insert((*k).into(), json!(""));
            variants.push(empty);
            let mut text = base.clone();
            text.insert((*k).into(), json!("12"));
            variants.push(text);
        }
        for map in &variants {
            for hardened in [false, true] {
                let encoded =
                    crate::encode::tier1::encode(tool, schema, map, hardened, 0, None, true);
                let Ok(p) = encoded else {
                    continue;
                };
                if p.checked.is_none() || p.text.is_empty() {
                    continue;
                }
                let fast = scalar_mismatch(&p.text, schema, map, &opts);
                let Ok(back) = crate::decode::decode(&p.text) else {
                    continue;
                };
                let input = Value::Object(map.clone());
                let full = first_mismatch(&input, &back, KeyOrder::Any);
                if fast.is_some() {
                    assert_eq!(fast, full, "{tool} {hardened}");
                    found += 1;
                }
            }
        }
    }
    assert!(found >= 30, "{found}");
}

/// Where a payload's table cell differs is where the full decode differs
/// first, when the check says where: over every vector of a
/// transform-free schema, grown, with one row's cell changed (to a
/// number as text, `""`, a path with a digit after a legend entry, a
/// float where an int is, `true`, a list), in both forms.
#[test]
fn cell_mismatch_is_the_full_decodes() {
    let opts = DecodeOptions::default();
    let (mut found, mut declined) = (0, 0);
    for (tool, schema, base) in &transform_free_vectors() {
        let (tool, schema) = (tool.as_str(), *schema);
        let changes = [
            json!("12"),
            json!(""),
            json!("src/webshop/api/1.py"),
            json!(2.5),
            json!(true),
            json!(["x"]),
        ];
        for t in schema.tables {
            let Some(Value::Array(rows)) = base.get(t.key) else {
                continue;
            };
            if rows.is_empty() {
                continue;
            }
            for (n, change) in changes.iter().enumerate() {
                let mut map = base.clone();
                let Some(Value::Array(rows)) = map.get_mut(t.key) else {
                    continue;
                };
                let copy = rows.clone();
                rows.extend(copy.iter().cycle().take(20).cloned());
                let at = rows.len() / 2;
                let Some(Value::Object(row)) = rows.get_mut(at) else {
                    continue;
                };
                let Some(k) = row.keys().nth(n % row.len().max(1)).cloned() else {
                    continue;
                };
                row.insert(k, change.clone());
                for hardened in [false, true] {
                    let encoded =
                        crate::encode::tier1::encode(tool, schema, &map, hardened, 0, None, false);
                    let Ok(p) = encoded else {
                        continue;
                    };
                    let fast = plain_check(&p.text, schema, &map, &p.tables, &opts);
                    let Ok(back) = crate::decode::decode(&p.text) else {
                        continue;
                    };
                    let full = first_mismatch(&Value::Object(map.clone()), &back, KeyOrder::Any);
                    match fast {
                        Some(Err(Some(m))) => {
                            assert_eq!(Some(m), full, "{tool} {hardened} {change}");
                            found += 1;
                        }
                        Some(Ok(())) => assert_eq!(full, None, "{tool}"),
                        _ => declined += 1,
                    }
                }
            }
        }
    }
    assert!(found >= 30, "{found} {declined}");
}

/// The check of a regrouping schema's payload by its flattened rows
/// accepts only payloads the full decode reads back as the input, and
/// accepts every one whose input its regrouping rebuilds: over every
/// `find_references` and `search_text` vector, as it is, grown, and
/// changed (a number and an empty string in a match, a match with
/// another member, two groups of one file, a group without matches,
/// a null, and for st4 empty context lines, an enclosing symbol
/// without its end line and a null line).
#[test]
fn regrouped_check_accepts_what_the_full_decode_does() {
    let vectors = include_str!("../../../tests/vectors/jcodemunch-1.108.399.jsonl");
    let synthetic = [
        json!({"repo": "r", "identifier": "f", "reference_count": 3, "references": [
            {"file": "src/a/b/one.py", "matches": [{"specifier": "a.b", "match_type": "named"}]},
            {"file": "src/a/b/two.py", "matches": [{"specifier": "a.b", "match_type": "named"},
                                                   {"specifier": "x,\"y\"", "match_type": "star"}]}],
            "_meta": {"timing_ms": 1.5}}),
        json!({"result_count": 2, "query": "q", "more_files": [{"file": "src/z.py", "matches": 3}],
            "results": [{"file": "src/a/b/one.py", "matches": [
                {"line": 3, "text": "x = \"q\"", "before": ["a", "b"], "after": ["c"],
                 "in": {"id": "src/a/b/one.py::f#function", "line": 1, "end_line": 9}},
                {"line": 7, "text": "q()"}]}]}),
    ];
    let opts = DecodeOptions::default();
    let (mut accepted, mut declined, mut empty_first) = (0, 0, 0);
    for tool in ["find_references", "search_text"] {
        let groups_key = if tool == "search_text" {
            "results"
        } else {
            "references"
        };
        let mut bases: Vec<Value> = vectors
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .filter(|v| v["tool"] == tool)
            .map(|v| v["input"].clone())
            .collect();
        bases.extend(
            synthetic
                .iter()
                .filter(|v| v.get(groups_key).is_some())
                .cloned(),
        );
        for base in bases {
            let mut grown = base.clone();
            if let Some(groups) = grown[groups_key].as_array_mut() {
                let copy = groups.clone();
                for (i, g) in copy.iter().cycle().take(40).enumerate() {
                    let mut g = g.clone();
                    if let Some(f) = g["file"].as_str().map(|f| format!("{f}.{i}")) {
                        g["file"] = json!(f);
                    }
                    groups.push(g);
                }
            }
            let mut variants = vec![base.clone(), grown.clone()];
            for change in 0..12 {
                let mut v = grown.clone();
                let Some(groups) = v[groups_key].as_array_mut() else {
                    continue;
                };
                let Some(first) = groups.first().cloned() else {
                    continue;
                };
                let first_match = groups.iter_mut().find_map(|g| {
                    g.get_mut("matches")
                        .and_then(Value::as_array_mut)
                        .and_then(|m| m.first_mut())
                        .and_then(Value::as_object_mut)
                });
                let field = if tool == "search_text" {
                    "text"
                } else {
                    "specifier"
                };
                match (change, first_match) {
                    (0, Some(m)) => drop(m.insert(field.into(), json!(5))),
                    (1, Some(m)) => drop(m.insert(field.into(), json!(""))),
                    (2, Some(m)) => drop(m.insert("names".into(), json!(["x"]))),
                    (3, _) => groups.push(first),
                    (4, _) => groups.push(json!({"file": "zz.py", "matches": []})),
                    (5, Some(m)) => drop(m.insert("before".into(), json!([]))),
                    (6, Some(m)) => drop(m.insert("in".into(), json!({"id": "f", "line": 1}))),
                    (7, Some(m)) => drop(m.insert("after".into(), json!(["ok", "\u{1F600}\""]))),
                    (8, Some(m)) => drop(m.insert(field.into(), Value::Null)),
                    (9, Some(m)) => drop(m.insert("line".into(), Value::Null)),
                    // Files without matches first, where fr2 regroups them.
                    (10, _) => groups.insert(0, json!({"file": "aa.py", "matches": []})),
                    (11, _) => groups.sort_by_key(|g| g["matches"] != json!([])),
                    _ => continue,
                }
                variants.push(v);
            }
            for v in &variants {
                let Value::Object(map) = v else {
                    continue;
                };
                for (fast, full, _) in fast_and_full(tool, map, &opts) {
                    let regroups = match tool {
                        "search_text" => {
                            crate::tier1::transforms::search_text::regroups_exactly(map)
                        }
                        _ => crate::tier1::transforms::find_references::regroups_exactly(map),
                    };
                    if fast == Some(true) {
                        assert!(full, "{v}");
                        accepted += 1;
                        let empty = |g: &Value| g["matches"] == json!([]);
                        let groups = v[groups_key].as_array();
                        empty_first += usize::from(groups.is_some_and(|g| g.iter().any(empty)));
                    } else {
                        assert!(!full || !regroups, "{tool} {v}");
                        declined += 1;
                    }
                }
            }
        }
    }
    assert!(
        accepted >= 20 && declined >= 20 && empty_first >= 4,
        "{accepted} {declined} {empty_first}"
    );
}

/// dc2's fast check of the rows against the cycles joined by the
/// encoder accepts only payloads whose full decode is the input, and
/// leaves to the full check only inputs whose cycles the decode cannot
/// give back (a separator in a file, an empty or `[""]` cycle, a cycle or
/// file of another type), over random cycles of paths that share
/// prefixes (the legend), numbers as text, quotes, line breaks, empty
/// files and non-ASCII.
#[test]
fn dependency_cycles_rows_answer_as_the_full_decode() {
    let opts = DecodeOptions::default();
    let files = [
        "src/webshop/models/order.py",
        "src/webshop/models/user.py",
        "src/webshop/services/billing/invoice.py",
        "12",
        "",
        "a \"quoted\" path,with comma",
        "line\nbreak",
        "caf\u{e9}/\u{65e5}\u{672c}.py",
        "@1",
        "T",
    ];
    let mut next = crate::test_rng::xorshift32(0x05ee_ddc2);
    let (mut accepted, mut declined) = (0, 0);
    for _ in 0..600 {
        let mut pick = |n: usize| next() as usize % n;
        let cycles: Vec<Value> = (0..pick(6))
            .map(|_| {
                let mut cycle: Vec<Value> = (0..1 + pick(4))
                    .map(|_| {
                        let f = *files.get(pick(files.len())).unwrap_or(&"");
                        json!(format!("{f}{}", if pick(3) == 0 { "" } else { ".x" }))
                    })
                    .collect();
                match pick(40) {
                    0 => cycle.push(json!("with\u{1f}separator")),
                    1 => cycle.push(json!(7)),
                    2 => cycle.clear(),
                    3 => cycle = vec![json!("")],
                    4 => return json!("not a list"),
                    _ => {}
                }
                Value::Array(cycle)
            })
            .collect();
        let input = json!({"repo": "acme/webshop", "cycle_count": cycles.len(),
                           "cycles": cycles, "_meta": {"timing_ms": 3.5}});
        let Value::Object(map) = &input else {
            unreachable!()
        };
        for (fast, full, text) in fast_and_full("get_dependency_cycles", map, &opts) {
            let regroups = crate::tier1::transforms::dependency_cycles::regroups_exactly(map);
            if fast == Some(true) {
                assert!(full && regroups, "{input}");
                // (The reference cannot read an empty cell: never accepted.)
                let empty = crate::tier1::transforms::dependency_cycles::has_empty_cycle(map);
                assert!(!empty, "{input}");
                accepted += 1;
            } else {
                assert!(!full || !regroups, "{input}\n{text}");
                declined += 1;
            }
        }
    }
    assert!(accepted >= 200 && declined >= 100, "{accepted} {declined}");
}

/// `tool`'s reference and hardened tier-1 payloads of `map` (reshaped by
/// its transform), each with what [`verify_regrouped`] answers, whether
/// the full decode is `map`, and the payload.
fn fast_and_full(
    tool: &str,
    map: &Map<alloc::string::String, Value>,
    opts: &DecodeOptions,
) -> Vec<(Option<bool>, bool, alloc::string::String)> {
    let schema = schemas::by_tool(tool).unwrap_or_else(|| unreachable!());
    let Ok(reshaped @ Some((flat, _, rows))) =
        &crate::tier1::transforms::encode(schema.transform, map)
    else {
        return Vec::new();
    };
    let input = Value::Object(map.clone());
    [false, true]
        .into_iter()
        .filter_map(|hardened| {
            let how = (0, None, false, false);
            let p =
                crate::encode::tier1::encode_reshaped(tool, schema, map, reshaped, hardened, how)
                    .ok()?;
            let fast = verify_regrouped(&p.text, schema, map, flat, rows.as_ref(), opts);
            let full = crate::decode::decode(&p.text)
                .is_ok_and(|back| exact_eq(&input, &back, KeyOrder::Any));
            Some((fast, full, p.text))
        })
        .collect()
}
