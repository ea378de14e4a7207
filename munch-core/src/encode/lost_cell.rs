//! Table cells every table form loses, found before anything is written
//! (spec §4 "Cell to value", §6, D3's hardened table rule):
//!
//! - an empty string: its field is empty, and an empty field reads back
//!   as null whatever the column's type;
//! - a list or an object: its column is a `str` column (gen1: a container
//!   is a kind of its own; tier-1: a declared column), so it is written
//!   as text and reads back as a string.
//!
//! Both forms of tier-1 write cells alike, and so does gen1's reference
//! form (its hardened form writes such a table as a blob instead). The
//! verified ladder refuses those rungs at the first such cell, with the
//! difference it makes, without writing or decoding a payload. gen1's
//! reference form also stops at a cell its column's inferred type does
//! not keep (`gen1.rs`, `mixed_cell`), and tier-1 at a row its table
//! cannot carry ([`inexact_row`]: a key too many, a column missing, a row
//! that is no object). fo1's batch shape reshapes its symbols into one
//! table: the same losses are found in the reply's symbols before the
//! transform runs (`tier1/known_loss.rs`).

use alloc::format;
use alloc::string::String;

use super::columns::{Cell, ColumnName, Columns};
use crate::equal::Mismatch;
use crate::value::{Kind, kind};

/// The first cell of table `key` (columns `cols`, a member of the
/// response whose rows are all objects with exactly those keys) that
/// every table form loses, as the mismatch its decode makes.
pub(crate) fn lost_cell<C: ColumnName>(
    key: &str,
    cols: &[C],
    columns: &Columns<'_>,
) -> Option<Mismatch> {
    if !columns.lossy || !columns.exact {
        return None;
    }
    // One pass over the cells, in row order, looking at each one's tag.
    let (at, kind) = columns
        .cells()
        .iter()
        .enumerate()
        .find_map(|(i, c)| match c {
            Cell::Str("", _) | Cell::Bare("", _) | Cell::Wrapped("", _) => {
                Some((i, "empty_string_to_null"))
            }
            Cell::Other(v) if matches!(kind(v), Kind::List(_) | Kind::Dict(_)) => {
                Some((i, "container_stringified"))
            }
            _ => None,
        })?;
    let width = columns.width().max(1);
    let col = cols.get(at % width)?.name();
    let mut path = String::from("$.");
    path.push_str(key);
    path.push_str(&format!("[{}].{col}", at / width));
    Some(Mismatch { path, kind })
}

/// The first row of tier-1 table `key` (columns `cols`, rows `rows`, a
/// list in the input) that the table cannot carry, when its rows are not
/// all objects of exactly those keys: a row that is no object is skipped
/// (the list reads back shorter), a key that is no column is dropped, and
/// a column the row lacks reads back as null.
pub(crate) fn inexact_row<C: ColumnName>(
    key: &str,
    cols: &[C],
    rows: &[serde_json::Value],
) -> Option<Mismatch> {
    let member = |r: usize, name: &str| format!("$.{key}[{r}].{name}");
    rows.iter().enumerate().find_map(|(r, row)| {
        let Kind::Dict(m) = kind(row) else {
            return Some(Mismatch {
                path: format!("$.{key}"),
                kind: "length_changed",
            });
        };
        if let Some(k) = key_not_a_column(m, cols) {
            return Some(Mismatch {
                path: member(r, k),
                kind: "key_dropped",
            });
        }
        let missing = cols.iter().find(|c| !m.contains_key(c.name()))?;
        Some(Mismatch {
            path: member(r, missing.name()),
            kind: "key_added_null",
        })
    })
}

/// The first key of row `m` that is none of `cols` (a tier-1 row carries
/// its columns only).
pub(crate) fn key_not_a_column<'m, C: ColumnName>(
    m: &'m serde_json::Map<String, serde_json::Value>,
    cols: &[C],
) -> Option<&'m String> {
    m.keys()
        .find(|k| !cols.iter().any(|c| c.name() == k.as_str()))
}

#[cfg(test)]
mod tests {
    use crate::decode::decode;
    use crate::equal::{KeyOrder, exact_eq, first_mismatch};
    use serde_json::{Map, Value, json};

    /// Follows a `$.key[i].col` path in `v`.
    fn at<'v>(v: &'v Value, path: &str) -> Option<&'v Value> {
        let pointer = path.trim_start_matches('$').replace(['.', '['], "/");
        v.pointer(&pointer.replace(']', ""))
    }

    /// gen1's reference form stops at a lost cell of a top-level table
    /// (dotted keys, nested tables and tables past the 26 tags are left
    /// to the full check), and each loss it reports is real: the payload
    /// it would have written decodes to a string or a null at that path.
    #[test]
    fn gen1_losses_are_real() {
        let row = |m: Value| json!({"file": "src/a.py", "matches": m});
        let many_tables: Map<String, Value> = (0..27)
            .map(|i| (format!("t{i:02}"), json!([row(json!(1)), row(json!(2))])))
            .chain([("z".into(), json!([row(json!([1])), row(json!([2]))]))])
            .collect();
        let cases = [
            (
                json!({"q": "x", "results": [row(json!(2)), row(json!([{"line": 1}]))]}),
                Some("$.results[1].matches"),
            ),
            (
                json!({"results": [row(json!({"a": 1})), row(json!(null))]}),
                Some("$.results[0].matches"),
            ),
            (
                json!({"results": [row(json!(1)), row(json!(""))]}),
                Some("$.results[1].matches"),
            ),
            (json!({"results": [row(json!([1]))]}), None),
            (
                json!({"results": [row(json!([1])), {"file": "b", "other": [2]}]}),
                None,
            ),
            // Kinds their column's type does not keep.
            (
                json!({"results": [row(json!(1)), row(json!("s"))]}),
                Some("$.results[0].matches"),
            ),
            (
                json!({"results": [row(json!(2.5)), row(json!(1))]}),
                Some("$.results[1].matches"),
            ),
            (
                json!({"results": [row(json!(true)), row(json!(1))]}),
                Some("$.results[0].matches"),
            ),
            (
                json!({"results": [row(json!(1.5)), row(json!("x"))]}),
                Some("$.results[0].matches"),
            ),
            (
                json!({"results": [row(json!(null)), row(json!(1)), row(json!(2))]}),
                None,
            ),
            (
                json!({"results": [row(json!(0.5)), row(json!(null)), row(json!(2.0))]}),
                None,
            ),
            (json!({"a.b": [row(json!([1])), row(json!([2]))]}), None),
            (
                json!({"outer": {"rows": [row(json!([1])), row(json!([2]))]}}),
                None,
            ),
            (Value::Object(many_tables), None),
        ];
        for (response, want) in cases {
            let Value::Object(map) = &response else {
                unreachable!()
            };
            let stopped =
                crate::encode::gen1::encode("t", map, false, 0, None, true, Default::default())
                    .unwrap();
            let got = stopped.loss.as_ref().map(|m| m.path.as_str());
            assert_eq!(got, want, "{response}");
            let Some(m) = stopped.loss else {
                continue;
            };
            assert!(stopped.text.is_empty());
            let p =
                crate::encode::gen1::encode("t", map, false, 0, None, false, Default::default())
                    .unwrap();
            assert!(p.loss.is_none());
            let back = decode(&p.text).unwrap();
            let (want, got) = (at(&response, &m.path).unwrap(), at(&back, &m.path).unwrap());
            assert!(!exact_eq(want, got, KeyOrder::Any), "{} {}", m.path, p.text);
            assert!(first_mismatch(&response, &back, KeyOrder::Any).is_some());
        }
    }

    /// Both tier-1 forms stop at an empty string or a container in a
    /// table whose rows are all the schema's columns, and the loss is
    /// real; a row with another key leaves it to the full check.
    #[test]
    fn tier1_losses_are_real() {
        let row = |summary: Value| {
            json!({"id": "a", "name": "a", "kind": "function", "file": "a.py", "line": 1,
                   "score": 0.5, "signature": "def a()", "summary": summary})
        };
        let cases = [
            (
                json!([row(json!("x")), row(json!(""))]),
                Some("$.results[1].summary"),
            ),
            (
                json!([row(json!(["x"])), row(json!("y"))]),
                Some("$.results[0].summary"),
            ),
            (json!([row(json!("x")), row(json!(null))]), None),
            // Rows the table cannot carry: a key too many, a column
            // missing, a row that is no object.
            (
                json!([row(json!("")), {"id": "b", "extra": 1}]),
                Some("$.results[1].extra"),
            ),
            (
                json!([row(json!("x")), {"id": "b"}]),
                Some("$.results[1].name"),
            ),
            (json!([row(json!("x")), 7]), Some("$.results")),
        ];
        for (rows, want) in cases {
            let response = json!({"query": "q", "results": rows});
            let got = tier1_loss("search_symbols", &response).map(|m| m.path);
            assert_eq!(got.as_deref(), want, "{response}");
        }
    }

    /// fo1: both tier-1 forms are refused for a symbol loss every form
    /// makes, found in a batch's symbols before the transform runs
    /// (`known_loss`) or by the encoder's stop for a single file, and each
    /// loss is real; an empty file summary (restored by the batch
    /// regrouping), a symbol that is no object, an entry's file that is
    /// no string, or a reply the encoder fails on leaves it to the full
    /// check. Then the same over random batches.
    #[test]
    fn file_outline_losses_are_real() {
        let sym = |summary: Value| {
            json!({"id": "a.py::f#function", "name": "f", "kind": "function",
                   "signature": "def f()", "line": 1, "end_line": 2, "parent": null,
                   "summary": summary})
        };
        let entry = |syms: Value| json!({"file": "a.py", "language": "python", "file_summary": "", "symbols": syms});
        let cases = [
            (
                json!({"results": [entry(json!([sym(json!("x")), sym(json!(""))]))]}),
                Some("$.results[0].symbols[1].summary"),
            ),
            (
                json!({"results": [7, entry(json!([])), {"file": "b.py"},
                                   entry(json!([sym(json!("x")), sym(json!(["l"]))]))]}),
                Some("$.results[3].symbols[1].summary"),
            ),
            (json!({"results": [entry(json!([sym(json!("x"))]))]}), None),
            (
                json!({"results": [{"file": 7, "symbols": [sym(json!(""))]}]}),
                None,
            ),
            (
                json!({"results": [entry(json!([sym(json!("")), {"id": "b", "extra": 1}]))]}),
                Some("$.results[0].symbols[0].summary"),
            ),
            (
                json!({"results": [entry(json!([sym(json!("x")), {"id": "b", "extra": 1}]))]}),
                Some("$.results[0].symbols[1].extra"),
            ),
            (
                json!({"results": [entry(json!([sym(json!("x")), {"id": "b"}]))]}),
                Some("$.results[0].symbols[1].name"),
            ),
            (
                json!({"results": [entry(json!([[["summary", ""]]]))]}),
                None,
            ),
            // The encoder would fail: an undeclared table, a `_meta` that
            // is no object.
            (
                json!({"results": [entry(json!([sym(json!(""))]))], "more": [{"a": 1}]}),
                None,
            ),
            (
                json!({"results": [{"file": "a.py", "_meta": 1, "symbols": [sym(json!(""))]}]}),
                None,
            ),
            (
                json!({"results": [{"file": "a.py", "_meta": {"$float": "nan"},
                                    "symbols": [sym(json!(""))]}]}),
                None,
            ),
            (
                json!({"repo": "r", "file": "a.py", "symbols": [sym(json!("x")), sym(json!(""))]}),
                Some("$.symbols[1].summary"),
            ),
            (
                json!({"file": "a.py", "symbols": [sym(json!("x")), {"id": "b", "extra": 1}]}),
                Some("$.symbols[1].extra"),
            ),
        ];
        for (response, want) in cases {
            let got = tier1_loss("get_file_outline", &response).map(|m| m.path);
            assert_eq!(got.as_deref(), want, "{response}");
        }
        // Random batches: entries of random symbols whose members are
        // strings, empty strings, nulls, lists or numbers, or missing.
        let mut next = crate::test_rng::xorshift32(0x0f01_0f01);
        let values = [
            json!("x"),
            json!(""),
            json!(null),
            json!(["l"]),
            json!(3),
            json!({}),
        ];
        let (mut found, mut none) = (0, 0);
        for _ in 0..400 {
            let mut entries = Vec::new();
            for e in 0..(next() % 4) {
                let mut syms = Vec::new();
                for _ in 0..(next() % 4) {
                    let mut s = sym(json!("y")).as_object().cloned().unwrap_or_default();
                    for key in ["summary", "parent", "line", "name"] {
                        match next() % 12 {
                            k @ 0..6 => {
                                s.insert(key.into(), values[k as usize].clone());
                            }
                            6 => {
                                s.remove(key);
                            }
                            7 if key == "name" => {
                                s.insert("extra".into(), json!(1));
                            }
                            _ => {}
                        }
                    }
                    syms.push(Value::Object(s));
                }
                let file = match next() % 8 {
                    0 => json!(""),
                    1 => json!(7),
                    2 => json!("f0.py"),
                    _ => json!(format!("f{e}.py")),
                };
                entries.push(json!({"file": file, "language": "python",
                                    "file_summary": "", "symbols": syms}));
            }
            let response = json!({"results": entries});
            match tier1_loss("get_file_outline", &response) {
                Some(_) => found += 1,
                None => none += 1,
            }
        }
        assert!(found > 100 && none > 20, "{found} {none}");
    }

    /// The loss both tier-1 forms of `tool` are refused for, as the
    /// verified ladder finds it (known before encoding, or the encoder's
    /// stop; the same for both), checked real against the payload each
    /// writes without stopping: the member differs, or is on one side
    /// only.
    fn tier1_loss(tool: &str, response: &Value) -> Option<crate::equal::Mismatch> {
        let schema = crate::tier1::schemas::by_tool(tool).unwrap();
        let Value::Object(map) = response else {
            unreachable!()
        };
        let known = crate::tier1::known_loss::known_loss(schema, map);
        let owned = crate::tier1::transforms::encode(schema.transform, map);
        let Ok(owned) = owned else {
            assert!(known.is_none(), "{response}");
            return None;
        };
        let mut seen: Option<Option<crate::equal::Mismatch>> = None;
        for hardened in [false, true] {
            let enc = |stop| {
                crate::encode::tier1::encode_reshaped(
                    tool,
                    schema,
                    map,
                    &owned,
                    hardened,
                    (0, None, false, stop),
                )
            };
            let Ok(mut stopped) = enc(true) else {
                assert!(enc(false).is_err() && known.is_none(), "{response}");
                continue;
            };
            if known.is_some() {
                stopped.loss.clone_from(&known);
            }
            if let Some(m) = &stopped.loss {
                let back = decode(&enc(false).unwrap().text).unwrap();
                let (want, got) = (at(response, &m.path), at(&back, &m.path));
                let differs = match (want, got) {
                    (Some(w), Some(g)) => !exact_eq(w, g, KeyOrder::Any),
                    (w, g) => w.is_some() != g.is_some(),
                };
                assert!(differs, "{} {response}", m.path);
                assert!(first_mismatch(response, &back, KeyOrder::Any).is_some());
            }
            if let Some(before) = &seen {
                assert_eq!(before, &stopped.loss, "{response}");
            }
            seen = Some(stopped.loss);
        }
        seen.flatten()
    }
}
