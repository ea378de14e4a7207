//! The verified encoder's check of a gen1 payload (spec D3): its scalars
//! decoded and compared with the input's members, its table rows compared
//! in place with the encoder's cells (`verify_found`) or with the input's
//! rows (`verify_plain`), without building the decoded tables.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{Map, Value};

use super::DecodeOptions;
use super::build::{Build, Owned};
use super::cells::Hint;
use super::gen1::{Source, TableDecl, classify, decls_of, decode_rest, legend_of, rest_members};
use crate::decode::cell_equals::cell_equals;
use crate::decode::row_check::check_rows_at;
use crate::decode::tier1::Blocks;
use crate::encode::RowCursor;
use crate::encode::columns::{Cell, Columns};
use crate::equal::{KeyOrder, Mismatch, changed, exact_eq, first_mismatch};
use crate::equal_borrowed::exact_eq_borrowed;
use crate::format::csv::Rows;
use crate::format::scalars::Scalars;
use crate::py::json_compare::reads_as;
use crate::py::json_parse::parse_borrowed;
use crate::tier1::schema::{ColumnPlan, Ty};
use crate::value::{Kind, kind};
use hashbrown::HashMap;

/// What the fast checks read of a payload: its blocks, its scalar line,
/// and its table declarations.
type CheckParts<'p> = (Blocks<'p>, Scalars<'p>, Vec<TableDecl<'p>>);

fn check_parts(payload: &str) -> CheckParts<'_> {
    let blocks = classify(payload);
    let scalars = blocks.scalars.map(Scalars::parse).unwrap_or_default();
    let decls = decls_of(&scalars);
    (blocks, scalars, decls)
}

/// The members the scalar line decodes to besides the tables, each key
/// once (the last of a key replaces the others, as the decoder inserts
/// them), with how its value is made.
type Rest<'s> = BTreeMap<&'s str, Source<'s>>;

/// Declarations the fast checks take: each key top-level (no dot), not
/// also a scalar's (`rest`), and declared once; with `tags`, each tag
/// declared once too.
fn plain_decls(decls: &[TableDecl<'_>], rest: &Rest<'_>, tags: bool) -> bool {
    decls.iter().enumerate().all(|(i, d)| {
        let before = decls.get(..i).unwrap_or_default();
        let dup = before
            .iter()
            .any(|e| e.key == d.key || (tags && e.tag == d.tag));
        !d.key.contains('.') && !rest.contains_key(d.key.as_ref()) && !dup
    })
}

/// The members decoded besides the `tables` tables (`rest`) are exactly
/// the input's other members. A JSON blob is compared as it is read
/// (`py/json_compare.rs`), or else read into a tree borrowed from the
/// payload and compared where it stands (no key hashed, no string
/// copied).
fn rest_matches(
    input: &Map<String, Value>,
    rest: &Rest<'_>,
    tables: usize,
    opts: &DecodeOptions,
) -> bool {
    input.len() == rest.len() + tables
        && rest.iter().all(|(k, source)| {
            let Some(w) = input.get(*k) else {
                return false;
            };
            match *source {
                // Compared as it is read (no tree) when that is sure.
                Source::Json(text) => {
                    reads_as(text, w, opts.depth_limit)
                        || match parse_borrowed(text, opts.depth_limit) {
                            Ok(tree) => exact_eq_borrowed(w, &tree, KeyOrder::Any),
                            Err(_) => w.as_str() == Some(text),
                        }
                }
                Source::Text(text) => w.as_str() == Some(text),
                Source::Typed(..) => exact_eq(w, &source.value(opts), KeyOrder::Any),
            }
        })
}

/// [`verify_plain`] of a payload the gen1 encoder wrote from the cells
/// `found` (one per table, in declaration order): the rows read back are
/// compared with those cells, by the column types the payload declares,
/// without building them or looking a row's keys up again. `None` when
/// the cells cannot stand for the input's rows: a table that is not the
/// input's list where the decode puts it (a member, or a dotted key's
/// member of a member), rows with other keys than its first row's, or
/// declarations other than the encoder's.
pub(crate) fn verify_found(
    payload: &str,
    input: &Map<String, Value>,
    found: &[Columns<'_>],
    opts: &DecodeOptions,
) -> Option<Result<(), Option<Mismatch>>> {
    let (blocks, scalars, decls) = check_parts(payload);
    let rest: Rest<'_> = rest_members(&scalars).into_iter().collect();
    if decls.len() != found.len() || !distinct_decls(&decls) {
        return None;
    }
    let mut plans: Vec<Vec<ColumnPlan>> = Vec::with_capacity(decls.len());
    for (d, columns) in decls.iter().zip(found) {
        // The cells are the rows the decode puts where this declaration
        // says, each with exactly the columns it names, in that order.
        let Some(list) = table_list(input, d.key.as_ref()) else {
            // The input has no list where the decode puts these rows: if
            // the two roots' keys differ, that is the first difference.
            return root_keys_mismatch(input, &scalars, &decls, opts).map(|m| Err(Some(m)));
        };
        let Some(Value::Object(first)) = list.first() else {
            return None;
        };
        let same_list = core::ptr::eq(list.as_slice(), columns.source);
        let same_cols =
            first.len() == d.cols.len() && first.keys().zip(&d.cols).all(|(k, c)| k == c.as_ref());
        if !same_list || !columns.exact || columns.rows != list.len() || !same_cols {
            return None;
        }
        // A `str` column is legend-expanded; a type name that is no type
        // leaves the answer to the general check.
        let plan = d.hints.iter().map(|h| h.ty().map(|ty| (ty, ty == Ty::Str)));
        plans.push(plan.collect::<Option<Vec<_>>>()?);
    }
    // The members besides the tables: compared one by one where every
    // table is a member of its own, else (and to say where they differ)
    // through stand-ins.
    let plain = plain_decls(&decls, &rest, true);
    if !(plain && rest_matches(input, &rest, decls.len(), opts)) {
        let (want, got) = stand_ins(input, &scalars, &decls, opts);
        match first_mismatch(&want, &got, KeyOrder::Any) {
            Some(m) => return Some(Err(Some(m))),
            // (The one-by-one comparison and the stand-ins disagree: the
            // full check answers.)
            None if plain => return Some(Err(None)),
            None => {}
        }
    }
    let tags: Vec<&str> = decls.iter().map(|d| d.tag.as_ref()).collect();
    let legend = legend_of(&blocks.legends);
    let checked = check_rows_at(&blocks.tables, &tags, found, &plans, &legend);
    // A cell that differs is reported where the decode has it.
    Some(checked.map_err(|d| {
        let d = d?;
        let (decl, columns) = (decls.get(d.table)?, found.get(d.table)?);
        let col = decl.cols.get(d.column)?;
        let want = columns.source.get(d.row)?.get(col.as_ref())?;
        Some(Mismatch {
            path: format!("$.{}[{}].{col}", decl.key, d.row),
            kind: changed(&kind(want), &kind(&d.got)),
        })
    }))
}

/// No two declarations share a key or a tag.
fn distinct_decls(decls: &[TableDecl<'_>]) -> bool {
    decls.iter().enumerate().all(|(i, d)| {
        let before = decls.get(..i).unwrap_or_default();
        !before.iter().any(|e| e.key == d.key || e.tag == d.tag)
    })
}

/// Where the decode puts a table's rows, the key split as it splits it:
/// a member, or for `parent.child` the member `child` of `parent`.
fn table_place(key: &str) -> (&str, Option<&str>) {
    match key.split_once('.') {
        Some((parent, child)) => (parent, Some(child)),
        None => (key, None),
    }
}

/// The input's list where the decode puts the rows of table `key`.
fn table_list<'i>(input: &'i Map<String, Value>, key: &str) -> Option<&'i Vec<Value>> {
    let slot = match table_place(key) {
        (member, None) => input.get(member),
        (parent, Some(child)) => input.get(parent)?.as_object()?.get(child),
    };
    slot?.as_array()
}

/// The decoded root and the input, each table's rows replaced by `null`
/// where they stand: the scalar line's members, then each table put
/// where the decode puts it (a dotted key nested, a parent that is no
/// object wrapped as the decoder wraps it). When every table is the
/// input's list in its place, the two are equal exactly when the decode
/// is the input but for the tables' rows, and their [`first_mismatch`]
/// is the decode's had the rows been the input's; no table is decoded
/// and no input row copied.
fn stand_ins(
    input: &Map<String, Value>,
    scalars: &Scalars<'_>,
    decls: &[TableDecl<'_>],
    opts: &DecodeOptions,
) -> (Value, Value) {
    let places: Vec<_> = decls.iter().map(|d| table_place(d.key.as_ref())).collect();
    let got = decoded_root(scalars, &places, opts, &Value::Null);
    let want = input.iter().map(|(k, v)| {
        let k = k.as_str();
        let v = match v {
            _ if places.contains(&(k, None)) => Value::Null,
            Value::Object(m) if places.iter().any(|p| p.0 == k) => Value::Object(
                m.iter()
                    .map(|(c, cv)| {
                        let table = places.contains(&(k, Some(c.as_str())));
                        (c.clone(), if table { Value::Null } else { cv.clone() })
                    })
                    .collect(),
            ),
            _ => v.clone(),
        };
        (String::from(k), v)
    });
    (Value::Object(want.collect()), Value::Object(got))
}

/// The decoder's root object, each table's rows replaced by `table`: the
/// scalar line's members, then each table put in its place (a dotted key
/// nested, a parent that is no object wrapped as the decoder wraps it).
fn decoded_root(
    scalars: &Scalars<'_>,
    places: &[(&str, Option<&str>)],
    opts: &DecodeOptions,
    table: &Value,
) -> Map<String, Value> {
    let mut root = decode_rest(scalars, opts);
    for &place in places {
        match place {
            (member, None) => {
                root.insert(member.into(), table.clone());
            }
            (parent, Some(child)) => Owned::nest(&mut root, parent, child, table.clone()),
        }
    }
    root
}

/// The decode's first difference when its root's keys and the input's
/// differ: [`first_mismatch`] compares an object's keys before any of
/// its values, so only the keys and whether a decoded member is null
/// count (a table's rows are a list). `None` when the keys are the same.
fn root_keys_mismatch(
    input: &Map<String, Value>,
    scalars: &Scalars<'_>,
    decls: &[TableDecl<'_>],
    opts: &DecodeOptions,
) -> Option<Mismatch> {
    let places: Vec<_> = decls.iter().map(|d| table_place(d.key.as_ref())).collect();
    let got = decoded_root(scalars, &places, opts, &Value::Array(Vec::new()));
    if got.len() == input.len() && input.keys().all(|k| got.contains_key(k)) {
        return None;
    }
    let want: Map<String, Value> = input.keys().map(|k| (k.clone(), Value::Null)).collect();
    first_mismatch(&Value::Object(want), &Value::Object(got), KeyOrder::Any)
}

/// Whether a gen1 payload decodes to exactly `input` (object key order
/// ignored), found without building the decoded tables (see
/// `tier1_check::verify_plain`). `None` when the fast path does not apply:
/// nested (dotted) table keys, or a table key that is also a scalar.
pub(crate) fn verify_plain(
    payload: &str,
    input: &Map<String, Value>,
    opts: &DecodeOptions,
) -> Option<bool> {
    let (blocks, scalars, decls) = check_parts(payload);
    let rest: Rest<'_> = rest_members(&scalars).into_iter().collect();
    if !plain_decls(&decls, &rest, false) {
        return None;
    }
    if !rest_matches(input, &rest, decls.len(), opts) {
        return Some(false);
    }
    let legend = legend_of(&blocks.legends);
    let parsed = Rows::read(&blocks.tables);
    for d in &decls {
        let Some(Value::Array(expected)) = input.get(d.key.as_ref()) else {
            return Some(false);
        };
        // Decoded rows hold each column once (a repeated name keeps its
        // last value), so the input row must have exactly the distinct
        // names, each compared at its last occurrence (found once per
        // table, not per row).
        let mut last_at: HashMap<&str, usize> = HashMap::with_capacity(d.cols.len());
        for (i, col) in d.cols.iter().enumerate() {
            last_at.insert(col.as_ref(), i);
        }
        let distinct = last_at.len();
        let mut rows = parsed.tagged(d.tag.as_ref());
        for want in expected {
            let (Some(row), Kind::Dict(want)) = (rows.next(), kind(want)) else {
                return Some(false);
            };
            if want.len() != distinct {
                return Some(false);
            }
            let mut cursor = RowCursor::new(want);
            for (i, col) in d.cols.iter().enumerate() {
                if distinct != d.cols.len() && last_at.get(col.as_ref()) != Some(&i) {
                    continue;
                }
                let cell: &str = row.get(i + 1).map_or("", |c| c.as_ref());
                let hint = d.hints.get(i).copied().unwrap_or(Hint::Str);
                let Some(w) = cursor.get(col.as_ref()) else {
                    return Some(false);
                };
                if !cell_equals(cell, hint == Hint::Str, hint.name(), &legend, Cell::of(w)) {
                    return Some(false);
                }
            }
        }
        if rows.next().is_some() {
            return Some(false);
        }
    }
    Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode_with;
    use serde_json::json;

    /// Checking a gen1 payload against the encoder's cells answers as
    /// decoding it and comparing with the input: on lossless tables, on
    /// lossy ones (a legend handle followed by a digit, an empty string,
    /// ints in a float column, a string column holding a number), with
    /// escaped column names, quoted cells, both forms, and with a payload
    /// changed after it was written.
    #[test]
    fn checking_cells_answers_as_decoding() {
        let long = "src/a/long/path/to/module.py";
        let row = |file: &str, n: Value, x: Value, s: &str| json!({"file": file, "n": n, "x": x, "ok": true, "s": s});
        let cases = [
            json!({"q": "a", "rows": [row(long, json!(1), json!(0.5), "a"), row(long, json!(2), json!(1.5), "b")]}),
            json!({"rows": [row(long, json!(1), json!(0.5), "a"), row(&format!("{long}2"), json!(2), json!(1.5), "b")]}),
            json!({"rows": [row(long, json!(1), json!(0.5), ""), row(long, json!(2), json!(1.5), "b")]}),
            json!({"rows": [row(long, json!(1), json!(1), "a"), row(long, json!(2), json!(1.5), "b")]}),
            json!({"rows": [row(long, json!("7"), json!(null), "a"), row(long, json!(2), json!(1.5), "b")]}),
            json!({"rows": [row(long, json!(null), json!(null), "a,\"b\"\nc"), row(long, json!(2), json!(-0.0), "é")]}),
            json!({"rows": [{"a:b": 1, "c|d": "x", "e,f": "y", "%": "z"}, {"a:b": 2, "c|d": "x", "e,f": "y", "%": "z"}]}),
            json!({"t": {"rows": [row(long, json!(1), json!(0.5), "a"), row(long, json!(2), json!(1.5), "b")]}}),
            json!({"rows": [row(long, json!(1), json!(0.5), "a"), row(long, json!(2), json!(1.5), "b")], "more": [{"k": "@1"}, {"k": "@@"}]}),
            // Members besides the tables that the reference's line loses.
            json!({"nbsp": "a\u{a0}b", "ls": "c\u{2028}d", "ok": 1, "rows": [{"a": 1}, {"a": 2}]}),
            json!({"@id": "urn:x", "@type": "Repo", "rows": [{"a": 1}, {"a": 2}]}),
            json!({"__json.foo": "[1,2]", "plain": "x", "rows": [{"a": 1}, {"a": 2}]}),
            json!({"rows": [{"a": 1}, {"a": 2}], "__json.foo": "[1,2]", "more": [{"k": ""}]}),
            json!({"q": "a b", "x": "", "rows": [row(long, json!(1), json!(0.5), ""), row(long, json!(2), json!(1.5), "b")]}),
            // Tables nested one level (dotted declarations).
            json!({"repo": "r", "summary": {"total": 3, "label": "dead code", "items": [row(long, json!(1), json!(0.5), "a"), row(long, json!(2), json!(1.5), "b")]}}),
            json!({"summary": {"items": [{"a": 1}, {"a": 2}]}, "more": {"x": [{"k": "@1"}, {"k": 2}], "y": "z"}}),
            json!({"nbsp": "a\u{a0}b", "s": {"items": [{"a": 1}, {"a": 2}], "n": null}}),
            json!({"s": {"items": [row(long, json!(1), json!(0.5), ""), row(long, json!(2), json!(1), "b")]}, "t": 1}),
            json!({"stats.by_file": [{"file": "a.py", "n": 1}, {"file": "b.py", "n": 2}], "other": 1}),
        ];
        let opts = DecodeOptions::default();
        let (mut fast, mut lossy, mut located, mut rest, mut root_keys) = (0, 0, 0, 0, 0);
        for case in &cases {
            let Value::Object(map) = case else {
                unreachable!()
            };
            for (hardened, measure) in [(false, None), (false, Some(true)), (true, None)] {
                let Ok(p) = crate::encode::gen1::encode(
                    "t",
                    map,
                    hardened,
                    0,
                    measure,
                    false,
                    Default::default(),
                ) else {
                    continue;
                };
                let truth = |text: &str| {
                    decode_with(text, &opts).is_ok_and(|v| exact_eq(&v, case, KeyOrder::Any))
                };
                let found = verify_found(&p.text, map, &p.tables, &opts);
                if let Some(Err(Some(m))) = &found {
                    differs_at(&p.text, case, m, &opts);
                    located += 1;
                    // A key of the root only one side has is the
                    // decode's first difference, whatever the tables.
                    let back = decode_with(&p.text, &opts).unwrap();
                    let root_key = |v: &Value| {
                        m.path
                            .strip_prefix("$.")
                            .is_some_and(|k| v.get(k).is_some())
                    };
                    if m.kind.starts_with("key_") && (root_key(case) || root_key(&back)) {
                        assert_eq!(first_mismatch(case, &back, KeyOrder::Any).as_ref(), Some(m));
                        root_keys += 1;
                    }
                    // A member besides the tables is reported as the
                    // decode's first difference is, once the tables are
                    // the input's.
                    if !m.path.contains('[') && tables_equal(&back, case, &p.tables) {
                        assert_eq!(first_mismatch(case, &back, KeyOrder::Any).as_ref(), Some(m));
                        rest += 1;
                    }
                }
                let by_cells = found.map(|r| r.is_ok());
                if let Some(same) = by_cells {
                    assert_eq!(same, truth(&p.text), "{case} {}", p.text);
                    fast += 1;
                    lossy += usize::from(!same);
                }
                assert_eq!(
                    by_cells
                        .or(verify_plain(&p.text, map, &opts))
                        .unwrap_or(truth(&p.text)),
                    truth(&p.text)
                );
                for (from, to) in [("0.5", "0.25"), (",a", ",b"), ("\n\nt,", "\n\nu,")] {
                    let tampered = p.text.replacen(from, to, 1);
                    if tampered != p.text {
                        let found = verify_found(&tampered, map, &p.tables, &opts);
                        if let Some(Err(Some(m))) = &found {
                            differs_at(&tampered, case, m, &opts);
                        }
                        if let Some(same) = found.map(|r| r.is_ok()) {
                            assert_eq!(same, truth(&tampered), "{tampered}");
                        }
                    }
                }
            }
        }
        assert!(
            fast >= 20 && lossy >= 6 && located >= 4 && rest >= 4 && root_keys >= 3,
            "{fast} {lossy} {located} {rest} {root_keys}"
        );
    }

    /// Whether every table the encoder wrote, a member of the input or a
    /// member of one, decodes to the input's list in its place.
    fn tables_equal(back: &Value, input: &Value, tables: &[Columns<'_>]) -> bool {
        let written = |v: &Value| {
            matches!(v, Value::Array(list)
                if tables.iter().any(|t| core::ptr::eq(t.source, list.as_slice())))
        };
        let same = |want: &Value, got: Option<&Value>| {
            got.is_some_and(|b| exact_eq(b, want, KeyOrder::Any))
        };
        let Value::Object(input) = input else {
            return false;
        };
        input.iter().all(|(k, v)| match v {
            Value::Object(m) => m
                .iter()
                .all(|(c, cv)| !written(cv) || same(cv, back.get(k).and_then(|b| b.get(c)))),
            _ => !written(v) || same(v, back.get(k)),
        })
    }

    /// The decode of `payload` and `input` differ at `m`'s path, as `m`
    /// says: a value of another kind, or another value.
    fn differs_at(payload: &str, input: &Value, m: &Mismatch, opts: &DecodeOptions) {
        let back = decode_with(payload, opts).unwrap();
        let pointer = m.path.trim_start_matches('$').replace(['.', '['], "/");
        let pointer = pointer.replace(']', "");
        // A member only one side has (a key of the root taken whole:
        // it may hold a dot).
        let root = |v: &Value| m.path.strip_prefix("$.").and_then(|k| v.get(k)).is_some();
        let (on_input, on_back) = if root(input) || root(&back) {
            (root(input).then_some(()), root(&back).then_some(()))
        } else {
            (
                input.pointer(&pointer).map(drop),
                back.pointer(&pointer).map(drop),
            )
        };
        match m.kind {
            "key_dropped" => return assert!(on_input.is_some() && on_back.is_none(), "{}", m.path),
            "key_added" | "key_added_null" => {
                return assert!(on_input.is_none() && on_back.is_some(), "{}", m.path);
            }
            _ => {}
        }
        let (want, got) = (
            input.pointer(&pointer).unwrap(),
            back.pointer(&pointer).unwrap(),
        );
        assert!(!exact_eq(want, got, KeyOrder::Any), "{} {payload}", m.path);
        assert_eq!(
            changed(&kind(want), &kind(got)),
            m.kind,
            "{} {payload}",
            m.path
        );
    }
}
