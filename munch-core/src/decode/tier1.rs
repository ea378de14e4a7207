//! Tier-1 decoding (spec §7 "Decode"), then the tool's inverse transform.

use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::vec::Vec;
use serde_json::{Map, Value};

use super::build::{Borrowed, Build, Members, Owned, Slots};
use super::{Budget, DecodeOptions, coerce, offset_in, parse_json};
use crate::borrowed::BorrowedValue;
use crate::encode::RowCursor;
use crate::encode::columns::{Cell, Columns};
use crate::equal::{KeyOrder, exact_eq};
use crate::format::csv::{Rows, each_row};
use crate::format::envelope::blocks;
use crate::format::legend::Legend;
use crate::format::scalars::Scalars;
use crate::tier1::schema::{Schema, Table, Transform, Ty, is_universal_body_key};
use crate::tier1::{schemas, transforms};
use crate::unicode::first_line;
use crate::value::{Kind, kind, same_bytes};

/// A payload split into its legend, scalar block and table blocks.
pub(crate) struct Parts<'a> {
    pub(crate) legend: Legend<'a>,
    pub(crate) scalars: Scalars<'a>,
    pub(crate) tables: Vec<&'a str>,
}

/// Tier-1 block classification: a legend starts with `@` and has `=` in
/// its first line; the first other block with `=` there is the scalar
/// block; everything else holds table rows.
pub(crate) fn parts(payload: &str) -> Parts<'_> {
    let blocks = classify(payload);
    let mut legend = Legend::default();
    for b in &blocks.legends {
        // Python reads every legend block; one that raises raises.
        let raised = legend.raises;
        legend = Legend::read(b);
        legend.raises |= raised;
    }
    Parts {
        legend,
        scalars: blocks.scalars.map(Scalars::parse).unwrap_or_default(),
        tables: blocks.tables,
    }
}

/// A payload's blocks by kind, in order, none of them read yet.
pub(crate) struct Blocks<'a> {
    pub(crate) legends: Vec<&'a str>,
    pub(crate) scalars: Option<&'a str>,
    pub(crate) tables: Vec<&'a str>,
}

/// The block classification of [`parts`], without reading the blocks.
pub(crate) fn classify(payload: &str) -> Blocks<'_> {
    let mut out = Blocks {
        legends: Vec::new(),
        scalars: None,
        tables: Vec::new(),
    };
    for b in blocks(payload) {
        let has_eq = first_line(b).contains('=');
        if b.starts_with('@') && has_eq {
            out.legends.push(b);
        } else if out.scalars.is_none() && has_eq {
            out.scalars = Some(b);
        } else {
            out.tables.push(b);
        }
    }
    out
}

/// The blocks the reference decoder passes to its CSV reader: every block
/// it classifies as table rows, once per table of the schema (none when
/// the schema has no table).
pub(crate) fn blocks_read<'a>(payload: &'a str, schema: &Schema) -> Vec<&'a str> {
    let parts = parts(payload);
    if !is_batch(schema, &parts) && schema.tables.is_empty() {
        return Vec::new();
    }
    parts.tables
}

/// Whether a file_outline payload is a batch (its tables are the batch
/// ones, as the reference decides from `__tables`).
fn is_batch(schema: &Schema, parts: &Parts<'_>) -> bool {
    schema.transform == Transform::FileOutline
        && parts
            .scalars
            .get("__tables")
            .is_some_and(|t| t.contains(":results:"))
}

pub(crate) fn decode(
    payload: &str,
    schema: &Schema,
    opts: &DecodeOptions,
    budget: &mut Budget,
) -> Value {
    let parts = parts(payload);
    let batch = is_batch(schema, &parts);
    let tables = if batch {
        schemas::FILE_OUTLINE_BATCH_TABLES
    } else {
        schema.tables
    };
    let mut result = decode_parts(payload, &parts, schema, tables, opts, budget);
    transforms::decode(schema.transform, batch, &mut result, opts, budget);
    Value::Object(result)
}

/// [`decode`] into values borrowed from the payload, for the schemas
/// whose decoding ends with the tables (no regrouping transform); `None`
/// for the others.
pub(crate) fn decode_borrowed<'a>(
    payload: &'a str,
    schema: &Schema,
    opts: &DecodeOptions,
    budget: &mut Budget,
) -> Option<BorrowedValue<'a>> {
    // Regrouped schemas are decoded as `decode` does (the caller's
    // fallback): their payload is not split here first.
    if !matches!(schema.transform, Transform::None | Transform::FileOutline) {
        return None;
    }
    let parts = parts(payload);
    if is_batch(schema, &parts) {
        return None;
    }
    let rest = decode_parts(payload, &parts, schema, &[], opts, budget);
    let mut result = Members::from_map(rest);
    decode_tables::<Borrowed>(payload, &parts, schema.tables, budget, &mut result);
    Some(Borrowed::object_value(result))
}

fn decode_parts<'a>(
    payload: &'a str,
    parts: &Parts<'a>,
    schema: &Schema,
    tables: &[Table],
    opts: &DecodeOptions,
    budget: &mut Budget,
) -> Map<alloc::string::String, Value> {
    let raw = &parts.scalars;
    // Fixed types first; `__stypes` fills only untyped names (first wins).
    let mut stypes: BTreeMap<&str, &str> = BTreeMap::new();
    for (name, ty) in schema.scalar_types {
        stypes.insert(name, ty.name());
    }
    for part in raw
        .get("__stypes")
        .unwrap_or("")
        .split('|')
        .filter(|p| !p.is_empty())
    {
        let (name, hint) = part.split_once(':').unwrap_or((part, ""));
        if !name.is_empty() && !hint.is_empty() {
            stypes.entry(name).or_insert(hint);
        }
    }
    let typed =
        |key: &str, v: &str| coerce(Cow::Borrowed(v), stypes.get(key).copied().unwrap_or("str"));

    let mut result = Map::new();
    for (k, v) in raw.iter() {
        if k != "__tables" && k != "__stypes" && schema.scalars.contains(&k) {
            result.insert(k.into(), typed(k, v));
        }
    }
    for (parent, subkeys) in schema.nested {
        let mut sub = Map::new();
        for sk in *subkeys {
            let key = format!("{parent}.{sk}");
            if let Some(v) = raw.get(&key) {
                sub.insert((*sk).into(), typed(&key, v));
            }
        }
        if !sub.is_empty() {
            result.insert((*parent).into(), Value::Object(sub));
        }
    }
    let json = |v: &str| parse_json(v, opts).unwrap_or_else(|| Value::String(v.into()));
    let mut meta = Map::new();
    for k in schema.meta {
        let key = format!("_meta.{k}");
        if let Some(v) = raw.get(&key) {
            meta.insert((*k).into(), typed(&key, v));
        }
    }
    for (k, v) in raw.iter() {
        if let Some(name) = k.strip_prefix("__json._meta.") {
            if schema.meta_json.contains(&name) {
                meta.insert(name.into(), json(v));
            }
        }
    }
    if !meta.is_empty() {
        result.insert("_meta".into(), Value::Object(meta));
    }
    for k in schema.blobs {
        if let Some(v) = raw.get(&format!("__json.{k}")) {
            result.insert((*k).into(), json(v));
        }
    }
    for (k, v) in raw.iter() {
        let Some(name) = k.strip_prefix("__json.") else {
            continue;
        };
        if name.starts_with("_meta.") || result.contains_key(name) || !is_universal_body_key(name) {
            continue;
        }
        result.insert(name.into(), json(v));
    }

    decode_tables::<Owned>(payload, parts, tables, budget, &mut result);
    result
}

/// The rows of `tables`, each added to `result` under its key.
pub(crate) fn decode_tables<'a, B: Build<'a>>(
    payload: &'a str,
    parts: &Parts<'a>,
    tables: &[Table],
    budget: &mut Budget,
    result: &mut B::Object,
) {
    if tables.is_empty() {
        return;
    }
    let before = budget.clone();
    let mut outs: Vec<Vec<B::Value>> = tables.iter().map(|_| Vec::new()).collect();
    let rows = Rows::read_unless(B::STREAM, &parts.tables);
    if !table_rows::<B>(
        payload,
        parts,
        rows.as_ref(),
        tables,
        None,
        budget,
        &mut outs,
    ) {
        // The allowance ran out: where is decided in the reference's
        // order, table by table.
        *budget = before;
        for only in 0..tables.len() {
            let only = Some(only);
            if !table_rows::<B>(
                payload,
                parts,
                rows.as_ref(),
                tables,
                only,
                budget,
                &mut outs,
            ) {
                return;
            }
        }
    }
    for (t, rows) in tables.iter().zip(outs) {
        B::insert(result, Cow::Borrowed(t.key), B::array(rows));
    }
}

/// Reads the table rows once (from `rows`, or from the blocks when it is
/// `None`), adding each to the rows of the table its tag names (a
/// schema's tags are distinct), or only to table `only`'s; false where the
/// allowance ran out. Borrowed values are built as rows are read;
/// `serde_json` values from all rows read first, which measured faster for
/// them (the allocator serves their many small allocations better after
/// the one large one).
fn table_rows<'a, B: Build<'a>>(
    payload: &'a str,
    parts: &Parts<'a>,
    rows: Option<&Rows<'a>>,
    tables: &[Table],
    only: Option<usize>,
    budget: &mut Budget,
    outs: &mut [Vec<B::Value>],
) -> bool {
    let plans: Vec<(Vec<bool>, Slots)> = tables
        .iter()
        .map(|t| {
            let interned = t.interned_columns();
            (interned, Slots::new(t.cols.iter().map(|c| c.name)))
        })
        .collect();
    let add = |row: &[Cow<'a, str>]| {
        let Some(tag) = row.first() else {
            return true;
        };
        let Some(ti) = tables
            .iter()
            .position(|t| same_bytes(t.tag.as_bytes(), tag.as_bytes()))
        else {
            return true;
        };
        if only.is_some_and(|o| o != ti) {
            return true;
        }
        let (Some(t), Some((interned, slots)), Some(out)) =
            (tables.get(ti), plans.get(ti), outs.get_mut(ti))
        else {
            return true;
        };
        let mut within = true;
        let mut cell_at = |i: usize| {
            let cell = row.get(i + 1).cloned().unwrap_or(Cow::Borrowed(""));
            // Once the allowance is gone the row is dropped: expand no more.
            if !within || !interned.get(i).copied().unwrap_or(false) {
                return cell;
            }
            match parts.legend.expand(&cell) {
                Some(d) => {
                    within &= budget.spend(d.len(), offset_in(payload, &cell));
                    d
                }
                None => cell,
            }
        };
        if slots.members == t.cols.len() {
            let cells = t.cols.iter().enumerate();
            let value =
                B::row(cells.map(|(i, col)| (Cow::Borrowed(col.name), cell_at(i), col.ty.into())));
            out.push(value);
            return within;
        }
        let mut obj = B::object(slots.members);
        for (i, col) in t.cols.iter().enumerate() {
            let cell = cell_at(i);
            slots.put_cell::<B>(&mut obj, i, Cow::Borrowed(col.name), cell, col.ty.into());
        }
        out.push(B::object_value(obj));
        within
    };
    each_row(rows, &parts.tables, add)
}

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
    let rest = decode_parts(payload, parts, schema, &[], opts, &mut Budget::unlimited());
    if schema.tables.iter().any(|t| rest.contains_key(t.key)) {
        return None;
    }
    if input.len() != rest.len() + schema.tables.len() {
        return Some(false);
    }
    Some(
        rest.iter()
            .all(|(k, v)| input.get(k).is_some_and(|w| exact_eq(w, v, KeyOrder::Any))),
    )
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

/// Whether a transform-free tier-1 payload decodes to exactly `input`
/// (object key order ignored), found without building the decoded tables:
/// scalars, `_meta` and blobs are decoded as [`decode`] does; table cells
/// are read, legend-decoded and coerced one by one and compared with the
/// input's rows in place. `None` when the fast path does not apply (the
/// caller then decodes in full). The round-trip property and fuzz target
/// check every accepted payload with the full decoder.
pub(crate) fn verify_plain(
    payload: &str,
    schema: &Schema,
    input: &Map<alloc::string::String, Value>,
    found: &[Columns<'_>],
    opts: &DecodeOptions,
) -> Option<bool> {
    if schema.transform != Transform::None {
        return None;
    }
    let parts = parts(payload);
    match scalars_match(payload, &parts, schema, input, opts) {
        Some(true) => {}
        other => return other,
    }
    let Some(lists) = table_lists(schema, input) else {
        return Some(false);
    };
    let cells = cells_stand_for_rows(schema, found, &lists);
    if cells {
        let tags: Vec<&str> = schema.tables.iter().map(|t| t.tag).collect();
        let plans: Vec<_> = schema.tables.iter().map(Table::column_plan).collect();
        return Some(super::row_check::check_rows(
            &parts.tables,
            &tags,
            found,
            &plans,
            &parts.legend,
        ));
    }
    // Otherwise each table's rows are met in order as the payload's rows
    // are read (one pass, no table of every field).
    let mut expected: Vec<_> = lists.iter().map(|rows| rows.iter()).collect();
    let interned: Vec<Vec<bool>> = schema.tables.iter().map(Table::interned_columns).collect();
    let same = each_row(None, &parts.tables, |row| {
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
    Some(same && expected.iter_mut().all(|rows| rows.next().is_none()))
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

/// [`cell_equals`] for an `int` or `float` cell that reads as a finite
/// number, without building the value (`None` otherwise).
fn number_equals(text: &str, hint: &str, want: Cell<'_>) -> Option<bool> {
    match hint {
        "float" => {
            let y = crate::py::number::parse_float(text).filter(|y| y.is_finite())?;
            Some(number_is(Kind::Float(y), want))
        }
        "int" => {
            if let Some(i) = crate::py::number::plain_int(text) {
                return Some(number_is(Kind::Int(&serde_json::Number::from(i)), want));
            }
            let v = crate::py::number::parse_int(text)?;
            let n @ Kind::Int(_) = kind(&v) else {
                return None;
            };
            Some(number_is(n, want))
        }
        _ => None,
    }
}

/// Whether a decoded int or float is exactly the cell `want`.
fn number_is(got: Kind<'_>, want: Cell<'_>) -> bool {
    match (got, want) {
        (Kind::Int(n), Cell::UInt(u)) => n.as_u64() == Some(u),
        (Kind::Int(n), Cell::NegInt(i)) => n.as_i64() == Some(i),
        (Kind::Float(y), Cell::Float(x)) => x.to_bits() == y.to_bits(),
        (Kind::Int(n), Cell::Other(v)) => {
            matches!(kind(v), Kind::Int(w) if crate::value::int_eq(w, n))
        }
        (Kind::Float(y), Cell::Other(v)) => {
            matches!(kind(v), Kind::Float(x) if x.to_bits() == y.to_bits())
        }
        _ => false,
    }
}

/// Whether a `str` cell decoded to `head` followed by `tail` (the legend's
/// literal and the rest) is the non-empty string `s`, compared in place.
#[inline]
fn split_equals(head: &str, tail: &str, s: &str) -> bool {
    let s = s.as_bytes();
    !s.is_empty()
        && s.len() == head.len() + tail.len()
        && same_bytes(s.get(..head.len()).unwrap_or_default(), head.as_bytes())
        && same_bytes(s.get(head.len()..).unwrap_or_default(), tail.as_bytes())
}

/// [`cell_equals`] for a column of a tier-1 schema (type `ty`): the
/// usual pairs — a string column (plain or interned) and a string cell, an
/// int column and an int cell, a float column and a finite float cell —
/// are compared with no dispatch on the type's name; every other pair is
/// left to [`cell_equals`], which they agree with.
#[inline]
pub(crate) fn column_cell_equals(
    cell: &str,
    interned: bool,
    ty: Ty,
    legend: &Legend<'_>,
    want: Cell<'_>,
) -> bool {
    if interned {
        if let (Ty::Str, Cell::Str(s, _) | Cell::Bare(s, _) | Cell::Wrapped(s, _)) = (ty, want) {
            let (head, tail) = legend.decode_split(cell).unwrap_or(("", cell));
            return split_equals(head, tail, s);
        }
    } else {
        match (ty, want) {
            (Ty::Str, Cell::Str(s, _) | Cell::Bare(s, _) | Cell::Wrapped(s, _)) => {
                return !s.is_empty() && same_bytes(s.as_bytes(), cell.as_bytes());
            }
            (Ty::Int, Cell::UInt(_) | Cell::NegInt(_)) => {
                if let Some(i) = crate::py::number::plain_int(cell) {
                    return number_is(Kind::Int(&serde_json::Number::from(i)), want);
                }
            }
            (Ty::Float, Cell::Float(x)) => {
                if let Some(y) = crate::py::number::parse_float(cell).filter(|y| y.is_finite()) {
                    return x.to_bits() == y.to_bits();
                }
            }
            _ => {}
        }
    }
    cell_equals(cell, interned, ty.name(), legend, want)
}

/// Whether a table cell decodes (legend, then the type's coercion) to
/// exactly `want`; strings are compared without building them.
pub(crate) fn cell_equals(
    cell: &str,
    interned: bool,
    hint: &str,
    legend: &Legend<'_>,
    want: Cell<'_>,
) -> bool {
    let (head, tail) = match interned.then(|| legend.decode_split(cell)).flatten() {
        Some(split) => split,
        None => ("", cell),
    };
    if hint == "str" {
        return match want {
            Cell::Str(s, _) | Cell::Bare(s, _) | Cell::Wrapped(s, _) => split_equals(head, tail, s),
            Cell::Other(v) => matches!(kind(v), Kind::Null) && head.is_empty() && tail.is_empty(),
            _ => false,
        };
    }
    if head.is_empty() {
        if let Some(same) = number_equals(tail, hint, want) {
            return same;
        }
    }
    let text: Cow<'_, str> = if head.is_empty() {
        Cow::Borrowed(tail)
    } else {
        let mut s = alloc::string::String::with_capacity(head.len() + tail.len());
        s.push_str(head);
        s.push_str(tail);
        Cow::Owned(s)
    };
    let got = coerce(text, hint);
    match want {
        Cell::Other(v) => exact_eq(&got, v, KeyOrder::Any),
        Cell::Str(s, _) | Cell::Bare(s, _) | Cell::Wrapped(s, _) => {
            matches!(&got, Value::String(x) if x == s)
        }
        Cell::Absent => false,
        number => number_is(kind(&got), number),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The typed comparison of a schema column agrees with the general
    /// one on every pair of field text and cell, plain and interned.
    #[test]
    fn column_comparison_agrees_with_the_general_one() {
        let texts = [
            "",
            "1",
            "-1",
            "01",
            "-0",
            "0",
            "1.5",
            "1.50",
            "-0.0",
            "0.1",
            "1e5",
            "1E-3",
            "nan",
            "inf",
            " 1",
            "1_0",
            "\u{661}",
            "9999999999999999999",
            "18446744073709551616",
            "abc",
            "@1",
            "@1x",
            "@@1",
            "ab",
            "0.30000000000000004",
        ];
        let null = Value::Null;
        let cells = [
            Cell::Absent,
            Cell::Str("1", 0),
            Cell::Str("", 0),
            Cell::Bare("abc", 0),
            Cell::Wrapped("abx", 0),
            Cell::Bare("@1", 0),
            Cell::UInt(0),
            Cell::UInt(1),
            Cell::UInt(10),
            Cell::UInt(u64::MAX),
            Cell::NegInt(-1),
            Cell::Float(1.5),
            Cell::Float(0.0),
            Cell::Float(-0.0),
            Cell::Float(0.1),
            Cell::Float(1e5),
            Cell::Float(0.30000000000000004),
            Cell::Other(&null),
        ];
        let legend = Legend::read("@1=ab");
        for text in texts {
            for ty in [Ty::Str, Ty::Int, Ty::Float, Ty::Bool] {
                for want in cells {
                    for interned in [false, true] {
                        assert_eq!(
                            column_cell_equals(text, interned, ty, &legend, want),
                            cell_equals(text, interned, ty.name(), &legend, want),
                            "{text:?} {ty:?} {want:?} {interned}"
                        );
                    }
                }
            }
        }
    }

    /// Table rows are dispatched by tag in one pass: within a schema (and
    /// fo1's batch shape) no two tables share a tag.
    #[test]
    fn tables_of_a_schema_have_distinct_tags() {
        let sets = schemas::ALL
            .iter()
            .map(|s| s.tables)
            .chain([schemas::FILE_OUTLINE_BATCH_TABLES]);
        for tables in sets {
            for (i, t) in tables.iter().enumerate() {
                assert!(
                    tables.iter().skip(i + 1).all(|u| u.tag != t.tag),
                    "{}",
                    t.tag
                );
            }
        }
    }

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

    /// The number fast path answers as coercion and exact comparison do.
    #[test]
    fn number_cells_compare_as_their_coerced_values() {
        let texts = [
            "7",
            "-7",
            "007",
            " 7",
            "7_0",
            "1.5",
            "-0.0",
            "0.0",
            "1e3",
            "1.0",
            "inf",
            "nan",
            "x",
            "99999999999999999999",
        ];
        let wants = [
            json!(7),
            json!(-7),
            json!(70),
            json!(1.5),
            json!(-0.0),
            json!(0.0),
            json!(1000.0),
            json!(1.0),
            json!(1),
            json!("7"),
            json!(null),
            json!(99_999_999_999_999_999_999.0),
        ];
        for text in texts {
            for hint in ["int", "float"] {
                for want in &wants {
                    let slow = exact_eq(&coerce(Cow::Borrowed(text), hint), want, KeyOrder::Any);
                    if let Some(fast) = number_equals(text, hint, Cell::of(want)) {
                        assert_eq!(fast, slow, "{text:?} {hint} {want}");
                    }
                    let legend = Legend::default();
                    assert_eq!(
                        cell_equals(text, false, hint, &legend, Cell::of(want)),
                        slow
                    );
                }
            }
        }
    }
}
