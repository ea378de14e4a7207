//! The schema-driven tier-1 encoder (spec §7 "Encode"), after the tool's
//! transform. The hardened form (spec D3) differs only where a hazard
//! fires.

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{Map, Value};

use super::cell_memo::CellMemo;
use super::columns::{Cell, Columns, written_number};
use super::inline_check::InlineCheck;
use super::lost_cell::{inexact_row, lost_cell};
use super::pairs::{Pairs, Scalar};
use super::text::{is_container, push_stype};
use super::{Fail, Payload, check_key, too_long, write_cell, write_header, write_str_cell};
use crate::decode::row_check::RowCheck;
use crate::decode::tier1_check::{cells_stand_for_rows, table_lists};
use crate::format::legend::Legend;
use crate::format::legend_build::{Builder, SlotId};
use crate::tier1::schema::{Schema, Table, Transform, is_universal_body_key};
use crate::tier1::transforms::flat_rows::FlatRows;
use crate::tier1::{schemas, transforms};
use crate::value::{Kind, kind, member};

/// The rows Python finds when it iterates `response.get(key, []) or []`.
fn rows_of<'v>(response: &'v Map<String, Value>, key: &str) -> Result<&'v [Value], Fail> {
    transforms::py_iter(response.get(key))
}

/// The response members whose JSON length the gather counted: each
/// table's list, as `(key, length, depth)` (`Payload::measured`).
fn measured_tables<'v>(
    tables: &[Table],
    found: &[Columns<'v>],
) -> Vec<(&'static str, usize, usize)> {
    tables
        .iter()
        .zip(found)
        .filter_map(|(t, c)| c.json.map(|(len, depth)| (t.key, len, depth)))
        .collect()
}

/// `k in meta` / `meta[k]` for a `_meta` that is not a dict: Python
/// raises where a key matches (or where the value cannot be searched).
fn meta_dict<'v>(
    response: &'v Map<String, Value>,
    wanted: &[&str],
) -> Result<Option<&'v Map<String, Value>>, Fail> {
    let Some(meta) = member(response, "_meta") else {
        return Ok(None);
    };
    match kind(meta) {
        Kind::Dict(m) => Ok(Some(m)),
        Kind::Null | Kind::Bool(false) => Ok(None),
        Kind::Str(s) if s.is_empty() || wanted.iter().all(|k| !s.contains(k)) => Ok(None),
        Kind::List(items)
            if items
                .iter()
                .all(|i| !wanted.iter().any(|k| i.as_str() == Some(k))) =>
        {
            Ok(None)
        }
        Kind::Int(n) if n.as_u64() == Some(0) => Ok(None),
        Kind::Float(f) if is_zero(f) => Ok(None),
        _ => Err(Fail::new("_meta is not a dict")),
    }
}

fn is_zero(f: f64) -> bool {
    f == 0.0
}

/// Encodes `response` with its tool's tier-1 schema. With `measure`
/// (`ensure_ascii`), and no transform, the Python JSON length of each
/// table's list is counted on the way (`Payload::measured`), and the
/// payload keeps the cells found in `input` (`Payload::tables`). With
/// `check`, and no transform, the rows are read back and compared with
/// the input while they are written (`Payload::checked`).
pub(crate) fn encode<'v>(
    tool: &str,
    schema: &Schema,
    input: &'v Map<String, Value>,
    hardened: bool,
    capacity: usize,
    measure: Option<bool>,
    check: bool,
) -> Result<Payload<'v>, Fail> {
    let owned = transforms::encode(schema.transform, input)?;
    let opts = (capacity, measure, check, false);
    encode_reshaped(tool, schema, input, &owned, hardened, opts)
}

/// [`encode`] after the tool's transform, `owned` being its reshaping of
/// `input` (the verified ladder reshapes once for both tier-1 rungs).
/// `(capacity, measure, check)` as for [`encode`]; with `stop_at_loss`, a
/// table of `input` (of a schema without a transform) stops the encoder
/// at a cell or row every form loses (`Payload::loss`, `lost_cell.rs`),
/// before anything is written.
pub(crate) fn encode_reshaped<'v>(
    tool: &str,
    schema: &Schema,
    input: &'v Map<String, Value>,
    owned: &transforms::Reshaped<'_>,
    hardened: bool,
    (capacity, measure, check, stop_at_loss): (usize, Option<bool>, bool, bool),
) -> Result<Payload<'v>, Fail> {
    let head = Head {
        tool,
        schema,
        input,
        hardened,
        capacity,
        check: check && owned.is_none(),
        // (A decode transform may take back what the tables lose: tm2
        // drops the null columns of a plate, fo1's batch regrouping
        // restores empty file summaries. A single file's outline is not
        // reshaped either way.)
        stop_at_loss: stop_at_loss
            && (schema.transform == Transform::None
                || (schema.transform == Transform::FileOutline && owned.is_none())),
    };
    match owned {
        Some((map, batch, rows)) => {
            let tables = if *batch {
                schemas::FILE_OUTLINE_BATCH_TABLES
            } else {
                schema.tables
            };
            let positional = transforms::positional_rows(schema.transform).zip(rows.as_ref());
            write(&head, map, tables, (None, positional)).map(Payload::detached)
        }
        None => write(&head, input, schema.tables, (measure, None)),
    }
}

/// What [`write`] is asked for, whatever map it writes.
struct Head<'a> {
    tool: &'a str,
    schema: &'a Schema,
    input: &'a Map<String, Value>,
    hardened: bool,
    capacity: usize,
    check: bool,
    /// The tables are the input's and nothing reshapes the decode: stop
    /// at a cell or row every form loses.
    stop_at_loss: bool,
}

/// [`encode`] of `response`, the input or its transform's reshaping
/// (whose `positional` table's rows were flattened apart, in column
/// order).
fn write<'r>(
    head: &Head<'_>,
    response: &'r Map<String, Value>,
    tables: &[Table],
    (measure, positional): (Option<bool>, Option<(&str, &'r FlatRows<'_>)>),
) -> Result<Payload<'r>, Fail> {
    let &Head {
        tool,
        schema,
        input,
        hardened,
        capacity,
        check,
        stop_at_loss,
    } = head;
    let nested_keys = || schema.nested.iter().map(|(k, _)| *k);
    let declared = |k: &str| {
        tables.iter().any(|t| t.key == k)
            || nested_keys().any(|n| n == k)
            || schema.blobs.contains(&k)
    };

    // (a) undeclared tables fail closed.
    for (key, value) in response {
        if key.starts_with('_') || declared(key) {
            continue;
        }
        if let Kind::List(items) = kind(value) {
            if !items.is_empty() && items.iter().all(|r| matches!(kind(r), Kind::Dict(_))) {
                return Err(Fail::new("undeclared table"));
            }
        }
    }

    // One pass over each table's rows finds every column's value: a row's
    // keys are compared once, here. The legend observes the interned
    // columns from what it found, in intern-list order, and the rows are
    // written from it.
    let mut found: alloc::vec::Vec<Columns<'_>> = alloc::vec::Vec::with_capacity(tables.len());
    let mut cells = 0usize;
    for t in tables {
        let rows = rows_of(response, t.key)?;
        let list = matches!(response.get(t.key), Some(Value::Array(_)));
        let columns = if let Some((_, flat)) = positional.filter(|(k, _)| *k == t.key) {
            flat.columns()
        } else {
            let gathered =
                Columns::gather::<_, false>(rows, t.cols, measure.filter(|_| list), None);
            gathered.ok_or(Fail::new("table not gathered"))?
        };
        cells += columns.rows * t.intern.len();
        found.push(columns);
    }
    if stop_at_loss {
        let lost = tables.iter().zip(&found).find_map(|(t, c)| {
            let list = matches!(response.get(t.key), Some(Value::Array(_)));
            let rows = (list && !c.exact).then(|| inexact_row(t.key, t.cols, c.source));
            rows.flatten().or_else(|| lost_cell(t.key, t.cols, c))
        });
        if let Some(m) = lost {
            // What the gather measured still spares the size walk.
            found.iter_mut().for_each(Columns::count_numbers);
            let mut lost = Payload::lost(m);
            lost.measured = measured_tables(tables, &found);
            return Ok(lost);
        }
    }
    // The JSON length of the tables bounds the payload's well enough.
    let capacity = capacity.max(found.iter().filter_map(|c| c.json).map(|j| j.0).sum());
    // Room for every interned cell (up to a bound), so the table of distinct
    // strings is not rebuilt while it grows.
    let mut builder = Builder::with_capacity(cells);
    // Each interned cell's slot, per table row by row in intern-list
    // order (the order the legend observes them in).
    let mut slots: alloc::vec::Vec<alloc::vec::Vec<Option<SlotId>>> =
        alloc::vec::Vec::with_capacity(tables.len());
    for (t, columns) in tables.iter().zip(&found) {
        let places = t.intern_places();
        let mut table_slots = alloc::vec::Vec::with_capacity(columns.rows * places.len());
        for row in columns.rows() {
            for &j in &places {
                table_slots.push(match row.get(j) {
                    Some(cell) => cell.as_str().and_then(|s| builder.observe(s)),
                    None => None,
                });
            }
        }
        slots.push(table_slots);
    }
    let mut memo = CellMemo::new(&builder);
    let legend = builder.finish(1, hardened);

    let meta_keys: &[&str] = if schema.id == "sc2" {
        schemas::signal_chains_meta_keys(input)
    } else {
        schema.meta
    };
    // (Room for the declared scalars, the meta keys and blobs, and the
    // `__stypes` and `__tables` lines.)
    let room = schema.scalars.len() + meta_keys.len() + schema.meta_json.len();
    let mut pairs = Pairs::with_capacity(room + schema.blobs.len() + 2);
    // Whether the reference form meets a hazard its hardened form avoids
    // (spec D3): then the two forms differ.
    let hazard = core::cell::Cell::new(false);
    let flat = |key: &str, v: &Value| -> Result<(), Fail> {
        if is_container(v) && !(schema.id == "sa2" && key == "_meta.languages_scanned") {
            if hardened {
                return Err(Fail::new("declared scalar holds a container"));
            }
            hazard.set(true);
        }
        Ok(())
    };
    for k in schema.scalars {
        if let Some(v) = member(response, k) {
            flat(k, v)?;
            pairs.set(Cow::Borrowed(k), Scalar::Value(v));
        }
    }
    for (parent, subkeys) in schema.nested {
        if let Some(Kind::Dict(sub)) = member(response, parent).map(kind) {
            for sk in *subkeys {
                if let Some(v) = member(sub, sk) {
                    let key = format!("{parent}.{sk}");
                    flat(&key, v)?;
                    pairs.set(Cow::Owned(key), Scalar::Value(v));
                }
            }
        }
    }
    let mut wanted: alloc::vec::Vec<&str> = meta_keys.to_vec();
    wanted.extend_from_slice(schema.meta_json);
    let meta = meta_dict(response, &wanted)?;
    if let Some(meta) = meta {
        for k in meta_keys {
            if let Some(v) = member(meta, k) {
                let key = format!("_meta.{k}");
                flat(&key, v)?;
                pairs.set(Cow::Owned(key), Scalar::Value(v));
            }
        }
    }
    let json = Scalar::Json;
    if let Some(meta) = meta {
        for k in schema.meta_json {
            if let Some(v) = member(meta, k) {
                pairs.set(Cow::Owned(format!("__json._meta.{k}")), json(v));
            }
        }
    }
    for k in schema.blobs {
        if let Some(v) = member(response, k) {
            pairs.set(Cow::Owned(format!("__json.{k}")), json(v));
        }
    }
    for (k, v) in response {
        let declared_body = schema.scalars.contains(&k.as_str()) || declared(k);
        if !declared_body && !k.starts_with('_') && is_universal_body_key(k) {
            if hardened {
                check_key(k)?;
            } else if check_key(k).is_err() {
                hazard.set(true);
            }
            pairs.set(Cow::Owned(format!("__json.{k}")), json(v));
        }
    }
    let mut stypes = String::with_capacity(64);
    for (k, v) in &pairs.list {
        if k.starts_with("__") {
            continue;
        }
        if let Scalar::Value(v) = v {
            push_stype(k, v, &mut stypes);
        }
    }
    if !stypes.is_empty() {
        pairs.set(Cow::Borrowed("__stypes"), Scalar::Text(stypes));
    }
    let mut decl = String::with_capacity(64);
    for (n, t) in tables.iter().enumerate() {
        if n > 0 {
            decl.push(',');
        }
        decl.push_str(t.tag);
        decl.push(':');
        decl.push_str(t.key);
        decl.push(':');
        for (i, c) in t.cols.iter().enumerate() {
            if i > 0 {
                decl.push('|');
            }
            decl.push_str(c.name);
        }
    }
    pairs.set(Cow::Borrowed("__tables"), Scalar::Text(decl));

    let mut out = String::with_capacity(capacity.max(super::PAYLOAD_ROOM));
    write_header(tool, schema.id, &mut out);
    out.push_str("\n\n");
    let legend_at = out.len();
    let legend_range = legend.write(&mut out).then_some(legend_at..out.len());
    if legend_range.is_some() {
        out.push_str("\n\n");
    }
    if pairs.write(hardened, &mut out) {
        hazard.set(true);
    }

    // The rows are checked as they are written when the cells stand for
    // every input row (`encode/inline_check.rs`), decoded with the legend
    // as the decoder reads it from the block just written.
    let check = check
        && table_lists(schema, response)
            .is_some_and(|lists| cells_stand_for_rows(schema, &found, &lists));
    let legend_text: String = match (&legend_range, check) {
        (Some(range), true) => out.get(range.clone()).unwrap_or_default().into(),
        _ => String::new(),
    };
    let read_legend = Legend::read(&legend_text);
    let plans: alloc::vec::Vec<alloc::vec::Vec<_>> = if check {
        tables.iter().map(Table::column_plan).collect()
    } else {
        alloc::vec::Vec::new()
    };
    let tags: alloc::vec::Vec<&str> = tables.iter().map(|t| t.tag).collect();
    let mut inline =
        check.then(|| InlineCheck::new(RowCheck::new(&tags, &found, &plans, &read_legend)));

    let mut long_cell = false;
    let mut numbers = alloc::vec::Vec::with_capacity(tables.len());
    for (ti, ((t, columns), slots)) in tables.iter().zip(&found).zip(&slots).enumerate() {
        let mut any_row = false;
        let mut any_value = false;
        let start = out.len();
        // Per column, its place in the intern list.
        let places = t.intern_places();
        let place: alloc::vec::Vec<Option<usize>> = (0..t.cols.len())
            .map(|j| places.iter().position(|&p| p == j))
            .collect();
        let mut written = 0usize;
        for (r, row) in columns.rows().enumerate() {
            out.push_str(if any_row { "\n" } else { "\n\n" });
            if let Some(inline) = inline.as_mut() {
                if any_row {
                    inline.row_started(out.len(), &out);
                } else {
                    inline.begin_table(ti, out.len());
                }
            }
            any_row = true;
            out.push_str(t.tag);
            for (&cell, &place) in row.iter().zip(&place) {
                out.push(',');
                let start = out.len();
                match cell {
                    Cell::Str(s, _) | Cell::Bare(s, _) | Cell::Wrapped(s, _) => {
                        any_value |= !s.is_empty();
                        long_cell |= match (place, cell) {
                            (Some(p), _) => {
                                let slot = slots.get(r * places.len() + p).copied().flatten();
                                memo.write(slot, cell, (&legend, hardened), &mut out)
                            }
                            (None, Cell::Bare(..)) => {
                                out.push_str(s);
                                too_long(s)
                            }
                            (None, Cell::Wrapped(..)) => {
                                out.push('"');
                                out.push_str(s);
                                out.push('"');
                                too_long(s)
                            }
                            (None, _) => write_str_cell(s, &mut out),
                        };
                    }
                    Cell::UInt(_) | Cell::NegInt(_) | Cell::Float(_) => {
                        any_value = true;
                        cell.write_number(&mut out);
                        written += out.len() - start;
                    }
                    Cell::Other(v) => {
                        any_value |= !v.is_null();
                        long_cell |= write_cell(v, &mut out);
                        if written_number(v) {
                            written += out.len() - start;
                        }
                    }
                    Cell::Absent => {}
                }
            }
        }
        numbers.push(written);
        if any_row {
            if let Some(inline) = inline.as_mut() {
                inline.end_table();
            }
        }
        if any_row && !any_value {
            out.truncate(start);
            return Err(Fail::new("table rows with no declared column"));
        }
    }
    out.push('\n');
    let checked = inline.and_then(|inline| inline.finish(&out, legend_range));
    for (columns, written) in found.iter_mut().zip(numbers) {
        columns.add_written_numbers(written);
    }
    let measured = measured_tables(tables, &found);
    Ok(Payload {
        text: out,
        enc: schema.id,
        long_cell,
        measured,
        tables: found,
        checked,
        loss: None,
        hazard: hazard.get() || legend.hazard(),
        unwritten: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tier1::schema::Ty;
    use serde_json::json;

    /// A reference encode that meets no hazard is the hardened encode,
    /// byte for byte, for every schema, over responses full of hazards
    /// (path prefixes followed by digits, W characters, line breaks and
    /// odd quotes in repeated strings, containers in scalars, universal
    /// keys the hardened form refuses); the hazards do fire.
    #[test]
    fn no_hazard_means_the_hardened_text() {
        let strings = [
            "src/app/",
            "src/app/1.py",
            "src/app/a.py",
            "src/app/2",
            "12",
            "x\u{a0}y",
            "a\nb",
            "q\"",
            "plain",
            "@1",
            "src/app/a.py",
            "",
        ];
        let mut next = crate::test_rng::xorshift32(0x1b87_3593);
        let mut pick = |n: usize| next() as usize % n;
        let (mut clean, mut hazards) = (0, 0);
        for round in 0..40 {
            for schema in crate::tier1::schemas::ALL {
                let value = |ty: Ty, pick: &mut dyn FnMut(usize) -> usize| match ty {
                    Ty::Str => json!(strings[pick(strings.len())]),
                    Ty::Int => json!(pick(50)),
                    Ty::Float => json!(pick(50) as f64 / 4.0),
                    Ty::Bool => json!(pick(2) == 0),
                };
                let mut response = Map::new();
                for t in schema.tables {
                    let rows: Vec<Value> = (0..1 + pick(6))
                        .map(|_| {
                            let cells = t
                                .cols
                                .iter()
                                .map(|c| (c.name.into(), value(c.ty, &mut pick)));
                            Value::Object(cells.collect())
                        })
                        .collect();
                    response.insert(t.key.into(), Value::Array(rows));
                }
                for k in schema.scalars {
                    let v = match pick(5) {
                        0 => json!([1, 2]),
                        1 => json!(pick(9)),
                        _ => json!(strings[pick(strings.len())]),
                    };
                    response.insert((*k).into(), v);
                }
                if round % 3 == 0 {
                    response.insert("warnings".into(), json!(["w"]));
                }
                if round % 7 == 0 {
                    response.insert("x=warning".into(), json!(1));
                }
                let encode =
                    |hardened| encode(schema.tool, schema, &response, hardened, 0, None, false);
                let Ok(reference) = encode(false) else {
                    continue;
                };
                if reference.hazard {
                    hazards += 1;
                    continue;
                }
                clean += 1;
                let hardened = encode(true).map(|p| p.text);
                assert_eq!(
                    hardened.as_deref(),
                    Ok(reference.text.as_str()),
                    "{response:?}"
                );
            }
        }
        assert!(
            clean >= 50 && hazards >= 50,
            "{clean} clean, {hazards} with hazards"
        );
    }
    /// Every loss a rung stops at before writing is real: the payload it
    /// would have written decodes to something else. Random replies of
    /// every schema without a transform, with empty strings, containers,
    /// missing and extra keys and rows that are no object.
    #[test]
    fn losses_found_before_writing_are_real() {
        let mut next = crate::test_rng::xorshift32(0x0bad_cafe);
        let mut pick = |n: usize| next() as usize % n;
        let (mut lost, mut kept) = (0, 0);
        for _ in 0..60 {
            for schema in crate::tier1::schemas::ALL {
                if schema.transform != Transform::None {
                    continue;
                }
                let mut response = Map::new();
                for t in schema.tables {
                    let rows: Vec<Value> = (0..1 + pick(4))
                        .map(|_| {
                            let mut row = Map::new();
                            for c in t.cols {
                                let v = match (pick(40), c.ty) {
                                    (0, _) => continue,
                                    (1, _) => json!(""),
                                    (2, _) => json!([1]),
                                    (_, Ty::Str) => json!("src/a.py"),
                                    (_, Ty::Int) => json!(3),
                                    (_, Ty::Float) => json!(0.5),
                                    (_, Ty::Bool) => json!(true),
                                };
                                row.insert(c.name.into(), v);
                            }
                            if pick(40) == 0 {
                                row.insert("extra".into(), json!(1));
                            }
                            if pick(60) == 0 {
                                json!(7)
                            } else {
                                Value::Object(row)
                            }
                        })
                        .collect();
                    response.insert(t.key.into(), Value::Array(rows));
                }
                let enc = |stop| {
                    let opts = (0, None, false, stop);
                    encode_reshaped(schema.tool, schema, &response, &None, false, opts)
                };
                let Ok(stopped) = enc(true) else { continue };
                let Some(m) = stopped.loss else {
                    kept += 1;
                    continue;
                };
                lost += 1;
                let text = enc(false).map(|p| p.text).unwrap_or_default();
                let back = crate::decode::decode(&text).unwrap_or_default();
                let input = Value::Object(response.clone());
                let same = crate::equal::exact_eq(&back, &input, crate::KeyOrder::Any);
                assert!(!same, "{} {} {input}", m.path, m.kind);
            }
        }
        assert!(lost >= 100 && kept >= 20, "{lost} lost, {kept} kept");
    }
}
