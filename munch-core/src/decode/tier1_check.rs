//! The verified encoder's check of a transform-free tier-1 payload
//! (spec D3): its scalar block decoded and compared with the input's
//! members, its table rows compared with the input's rows (or with the
//! encoder's cells) in place, without building the decoded tables.

use alloc::borrow::Cow;
use alloc::vec::Vec;
use serde_json::{Map, Value};

use super::build::{Borrowed, Owned};
use super::cell_equals::cell_equals;
use super::row_check::Difference;
use super::tier1::{Parts, decode_parts_as, parts};
use super::{Budget, DecodeOptions};
use crate::borrowed::BorrowedValue;
use crate::encode::RowCursor;
use crate::encode::columns::{Cell, Columns};
use crate::equal::{KeyOrder, Mismatch, first_mismatch};
use crate::equal_borrowed::exact_eq_borrowed;
use crate::format::csv::each_row;
use crate::format::legend::Legend;
use crate::format::scalars::Scalars;
use crate::tier1::schema::{Schema, Table, Transform};
use crate::tier1::transforms::flat_rows::FlatRows;
use crate::value::{Kind, kind, member, same_bytes};

/// The check's scalar half: the members decoded from the scalar block
/// (scalars, `_meta`, blobs; no table) equal the input's, and the input
/// has no member but them and the schema's tables. `None` when a table's
/// key is among the decoded members (the full decode decides).
pub(crate) fn scalars_match(
    payload: &str,
    parts: &Parts<'_>,
    schema: &Schema,
    input: &Map<alloc::string::String, Value>,
    opts: &DecodeOptions,
) -> Option<bool> {
    // (Values borrowed from the payload: nothing copied to be compared.)
    let budget = &mut Budget::unlimited();
    let rest = decode_parts_as::<Borrowed>(payload, parts, schema, &[], opts, budget);
    let rest = &rest.list;
    if rest
        .iter()
        .any(|(k, _)| schema.tables.iter().any(|t| t.key == k))
    {
        return None;
    }
    if input.len() != rest.len() + schema.tables.len() {
        return Some(false);
    }
    let same = |(k, v): &(Cow<'_, str>, BorrowedValue<'_>)| {
        member(input, k).is_some_and(|w| exact_eq_borrowed(w, v, KeyOrder::Any))
    };
    Some(rest.iter().all(same))
}

/// The check of a payload whose rows were checked as they were written
/// (`rows`): its scalar block decoded and compared with the input's
/// members, tables aside.
pub(crate) fn scalars_of_checked(
    payload: &str,
    rows: &crate::encode::inline_check::CheckedRows,
    schema: &Schema,
    input: &Map<alloc::string::String, Value>,
    opts: &DecodeOptions,
) -> bool {
    let block = rows.scalars.clone().and_then(|r| payload.get(r));
    let parts = Parts {
        legend: Legend::default(),
        scalars: block.map(Scalars::parse).unwrap_or_default(),
        tables: Vec::new(),
    };
    schema.transform == Transform::None
        && scalars_match(payload, &parts, schema, input, opts) == Some(true)
}

/// Where a payload whose rows were checked as they were written differs
/// from the input, when its scalar block does: the first difference of
/// the full decode, found without decoding a table. The tables, equal to
/// the input's on both sides, stand in as `[]` where they are; the other
/// members are decoded as the full decode decodes them (a table's decode
/// spends its allowance only on the legend expansions of cells equal to
/// the input's, within the allowance an exact decode has, so the full
/// decode would not have failed either). `None` when this does not apply
/// or finds no difference: the full decode decides.
pub(crate) fn scalar_mismatch(
    payload: &str,
    schema: &Schema,
    input: &Map<alloc::string::String, Value>,
    opts: &DecodeOptions,
) -> Option<Mismatch> {
    if schema.transform != Transform::None {
        return None;
    }
    let is_table = |k: &str| schema.tables.iter().any(|t| t.key == k);
    let parts = parts(payload);
    let budget = &mut Budget::unlimited();
    let mut got = decode_parts_as::<Owned>(payload, &parts, schema, &[], opts, budget);
    if got.keys().any(|k| is_table(k)) || !schema.tables.iter().all(|t| input.contains_key(t.key)) {
        return None;
    }
    let stub = || Value::Array(Vec::new());
    for t in schema.tables {
        got.insert(t.key.into(), stub());
    }
    let want: Map<alloc::string::String, Value> = input
        .iter()
        .map(|(k, v)| (k.clone(), if is_table(k) { stub() } else { v.clone() }))
        .collect();
    first_mismatch(&Value::Object(want), &Value::Object(got), KeyOrder::Any)
}

/// The check of a payload of a regrouping schema (fr2 `find_references`,
/// st4 `search_text`, dc2 `get_dependency_cycles`) whose input its
/// regrouping rebuilds exactly from its flattening (`regroups_exactly`
/// of the transform), `reshaped` being that flattening: the members the
/// decode reads before it regroups equal the flattening's, and its rows
/// the flattened rows (and st4's `more_files` the input's), cell by
/// cell, so the decode is the input. `Some(true)` only then; `None`
/// otherwise (the full decode decides, and says where it differs). A
/// table's decode spends its allowance only on the legend expansions of
/// cells equal to the input's, so the full decode would not have failed.
pub(crate) fn verify_regrouped(
    payload: &str,
    schema: &Schema,
    input: &Map<alloc::string::String, Value>,
    reshaped: &Map<alloc::string::String, Value>,
    flat: Option<&FlatRows<'_>>,
    opts: &DecodeOptions,
) -> Option<bool> {
    use crate::tier1::transforms::{
        dependency_cycles, find_references, positional_rows, search_text,
    };
    let regroups = match schema.transform {
        Transform::FindReferences => find_references::regroups_exactly(input),
        Transform::SearchText => search_text::regroups_exactly(input),
        Transform::DependencyCycles => dependency_cycles::regroups_exactly(input),
        _ => false,
    };
    if !regroups {
        return None;
    }
    let positional = positional_rows(schema.transform);
    let mut found = Vec::with_capacity(schema.tables.len());
    for t in schema.tables {
        let Some(Value::Array(rows)) = reshaped.get(t.key) else {
            return None;
        };
        let columns = if positional == Some(t.key) {
            // (The rows were flattened apart.)
            let flat = flat?;
            let mut c = flat.columns();
            // st4 writes `text`, the context lines and the symbol's id
            // as "" where it has none, which reads back as null and is
            // regrouped as the match had it ("" text, no member).
            if schema.transform == Transform::SearchText {
                let empty_when_none = ["text", "before", "after", "in_id"];
                let at: Vec<usize> = (t.cols.iter().enumerate())
                    .filter(|(_, c)| empty_when_none.contains(&c.name))
                    .map(|(i, _)| i)
                    .collect();
                c.empty_strings_as_null(&at);
            }
            c
        } else {
            let c = Columns::gather::<_, false>(rows, t.cols, None, None).filter(|c| c.exact)?;
            if c.rows != rows.len() {
                return None;
            }
            c
        };
        found.push(columns);
    }
    let parts = parts(payload);
    if scalars_match(payload, &parts, schema, reshaped, opts) != Some(true) {
        return None;
    }
    let tags: Vec<&str> = schema.tables.iter().map(|t| t.tag).collect();
    let plans: Vec<_> = schema.tables.iter().map(Table::column_plan).collect();
    let same = super::row_check::check_rows(&parts.tables, &tags, &found, &plans, &parts.legend);
    same.then_some(true)
}

/// Each table's list of rows in the input (`None` when one is not a
/// list: the payload's table, even empty, cannot decode to it).
pub(crate) fn table_lists<'v>(
    schema: &Schema,
    input: &'v Map<alloc::string::String, Value>,
) -> Option<Vec<&'v Vec<Value>>> {
    schema
        .tables
        .iter()
        .map(|t| match input.get(t.key) {
            Some(Value::Array(rows)) => Some(rows),
            _ => None,
        })
        .collect()
}

/// Whether the encoder's cells stand for the input's rows: every row of
/// every table a dict with exactly the table's columns.
pub(crate) fn cells_stand_for_rows(
    schema: &Schema,
    found: &[Columns<'_>],
    lists: &[&Vec<Value>],
) -> bool {
    found.len() == schema.tables.len()
        && found
            .iter()
            .zip(schema.tables)
            .zip(lists)
            .all(|((c, t), rows)| c.exact && c.width() == t.cols.len() && c.rows == rows.len())
}

/// The rows of `parts` compared with the encoder's cells `found`, which
/// stand for the input's rows (every row a dict with exactly its table's
/// columns), its scalars already found equal: the first cell that
/// differs, as the full decode reports it when the tables come in the
/// input in the schema's order and the row's keys in its columns' order
/// (then the full decode meets every cell before it first, and they are
/// equal).
fn cells_check(
    parts: &Parts<'_>,
    schema: &Schema,
    input: &Map<alloc::string::String, Value>,
    found: &[Columns<'_>],
) -> Result<(), Option<Mismatch>> {
    let tags: Vec<&str> = schema.tables.iter().map(|t| t.tag).collect();
    let plans: Vec<_> = schema.tables.iter().map(Table::column_plan).collect();
    let checked =
        super::row_check::check_rows_at(&parts.tables, &tags, found, &plans, &parts.legend);
    checked.map_err(|d| cell_mismatch(schema, input, &d?))
}

/// The full decode's first mismatch at the cell `d`, when the tables come
/// in `input` in the schema's order and the cell's row has its keys in
/// its columns' order.
fn cell_mismatch(
    schema: &Schema,
    input: &Map<alloc::string::String, Value>,
    d: &Difference,
) -> Option<Mismatch> {
    let mut order = input
        .keys()
        .filter_map(|k| schema.tables.iter().position(|t| t.key == k));
    if !(0..schema.tables.len()).all(|i| order.next() == Some(i)) {
        return None;
    }
    let t = schema.tables.get(d.table)?;
    let Some(Value::Array(rows)) = input.get(t.key) else {
        return None;
    };
    let Some(Value::Object(row)) = rows.get(d.row) else {
        return None;
    };
    let in_order = row.len() == t.cols.len() && row.keys().zip(t.cols).all(|(k, c)| k == c.name);
    let (col, want) = (t.cols.get(d.column)?, row.values().nth(d.column)?);
    let m = first_mismatch(want, &d.got, KeyOrder::Any).filter(|_| in_order)?;
    let rest = m.path.get(1..).unwrap_or_default();
    let path = alloc::format!("$.{}[{}].{}{rest}", t.key, d.row, col.name);
    Some(Mismatch { path, kind: m.kind })
}

/// Whether a transform-free tier-1 payload decodes to exactly `input`
/// (object key order ignored), found without building the decoded tables:
/// scalars, `_meta` and blobs are decoded as [`decode`] does; table cells
/// are read, legend-decoded and coerced one by one and compared with the
/// input's rows in place. `None` when the fast path does not apply (the
/// caller then decodes in full). The round-trip property and fuzz target
/// check every accepted payload with the full decoder. (The ladder asks
/// [`plain_check`], which says where.)
#[cfg(test)]
pub(crate) fn verify_plain(
    payload: &str,
    schema: &Schema,
    input: &Map<alloc::string::String, Value>,
    found: &[Columns<'_>],
    opts: &DecodeOptions,
) -> Option<bool> {
    plain_check(payload, schema, input, found, opts).map(|checked| checked.is_ok())
}

/// [`verify_plain`], with where the payload differs when a table cell
/// does and that is where the full decode differs first (`Err(None)`:
/// it differs elsewhere, or the full decode would say better where).
pub(crate) fn plain_check(
    payload: &str,
    schema: &Schema,
    input: &Map<alloc::string::String, Value>,
    found: &[Columns<'_>],
    opts: &DecodeOptions,
) -> Option<Result<(), Option<Mismatch>>> {
    if schema.transform != Transform::None {
        return None;
    }
    let parts = parts(payload);
    match scalars_match(payload, &parts, schema, input, opts) {
        Some(true) => {}
        Some(false) => return Some(Err(None)),
        None => return None,
    }
    let Some(lists) = table_lists(schema, input) else {
        return Some(Err(None));
    };
    let cells = cells_stand_for_rows(schema, found, &lists);
    if cells {
        return Some(cells_check(&parts, schema, input, found));
    }
    // Otherwise each table's rows are met in order as the payload's rows
    // are read (one pass, no table of every field).
    let mut expected: Vec<_> = lists.iter().map(|rows| rows.iter()).collect();
    let interned: Vec<Vec<bool>> = schema.tables.iter().map(Table::interned_columns).collect();
    let same = each_row(&parts.tables, |row| {
        let Some(tag) = row.first() else {
            return true;
        };
        let Some(ti) = schema
            .tables
            .iter()
            .position(|t| same_bytes(t.tag.as_bytes(), tag.as_bytes()))
        else {
            return true;
        };
        let (Some(t), Some(interned), Some(Some(want))) = (
            schema.tables.get(ti),
            interned.get(ti),
            expected.get_mut(ti).map(Iterator::next),
        ) else {
            return false;
        };
        row_equals(row, t, interned, &parts.legend, want)
    });
    let same = same && expected.iter_mut().all(|rows| rows.next().is_none());
    Some(if same { Ok(()) } else { Err(None) })
}

/// Whether a table row's cells decode to the input's row `want`.
fn row_equals(
    row: &[Cow<'_, str>],
    t: &Table,
    interned: &[bool],
    legend: &Legend<'_>,
    want: &Value,
) -> bool {
    let Kind::Dict(want) = kind(want) else {
        return false;
    };
    if want.len() != t.cols.len() {
        return false;
    }
    let text = |i: usize| -> &str { row.get(i + 1).map_or("", |c| c.as_ref()) };
    let mut cursor = RowCursor::new(want);
    t.cols
        .iter()
        .zip(interned)
        .enumerate()
        .all(|(i, (col, &interned))| {
            cursor
                .get(col.name)
                .is_some_and(|w| cell_equals(text(i), interned, col.ty.name(), legend, Cell::of(w)))
        })
}

#[cfg(test)]
mod tests;
