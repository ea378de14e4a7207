//! Tier-1 decoding (spec §7 "Decode"), then the tool's inverse transform.

use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use serde_json::Value;

use super::build::{Borrowed, Build, Members, Owned, RowPlan, Slots};
use super::cells::Hint;
use super::table_cells::{Cells, TableCells};
use super::{Budget, DecodeOptions, offset_in};
use crate::borrowed::BorrowedValue;
use crate::format::csv::each_row;
use crate::format::envelope::blocks;
use crate::format::legend::Legend;
use crate::format::scalars::Scalars;
use crate::tier1::schema::{Schema, Table, Transform, is_universal_body_key};
use crate::tier1::{schemas, transforms};
use crate::unicode::first_line;
use crate::value::same_bytes;

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
    let mut result = decode_parts_as::<Owned>(payload, &parts, schema, tables, opts, budget);
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
    let (parts, mut result) = untabled(payload, schema, opts, budget)?;
    decode_tables::<Borrowed>(payload, &parts, (schema.tables, None), budget, &mut result);
    Some(Borrowed::object_value(result))
}

/// The parts of a payload whose decoding ends with its tables, and its
/// members other than the tables; `None` for a regrouped schema or an fo1
/// batch (decoded as `decode` does: their payload is not split here
/// first).
fn untabled<'a>(
    payload: &'a str,
    schema: &Schema,
    opts: &DecodeOptions,
    budget: &mut Budget,
) -> Option<(Parts<'a>, Members<'a>)> {
    if !matches!(schema.transform, Transform::None | Transform::FileOutline) {
        return None;
    }
    let parts = parts(payload);
    if is_batch(schema, &parts) {
        return None;
    }
    let rest = decode_parts_as::<Borrowed>(payload, &parts, schema, &[], opts, budget);
    Some((parts, rest))
}

/// [`decode_borrowed`] with each table's rows left as cells, for the
/// payloads where it builds the tables' rows straight from their cells
/// (no regrouping, no fo1 batch, every column name distinct); `None` for
/// the others and where the allowance ran out (the caller decodes as
/// [`decode_borrowed`] does, which reports where).
pub(crate) fn decode_cells<'a>(
    payload: &'a str,
    schema: &Schema,
    opts: &DecodeOptions,
    budget: &mut Budget,
) -> Option<Cells<'a>> {
    // (A table without columns would have rows and no cells.)
    let distinct = |t: &Table| {
        !t.cols.is_empty() && Slots::new(t.cols.iter().map(|c| c.name)).members == t.cols.len()
    };
    if schema.tables.is_empty() || !schema.tables.iter().all(distinct) {
        return None;
    }
    let (parts, mut members) = untabled(payload, schema, opts, budget)?;
    let mut tables: Vec<TableCells<'a>> = schema
        .tables
        .iter()
        .map(|t| {
            let cols = t.cols.iter();
            TableCells::new(cols.map(|c| (Cow::Borrowed(c.name), c.ty.into())).collect())
        })
        .collect();
    let complete = each_table_row(payload, &parts, schema.tables, None, budget, |ti, r| {
        let Some(out) = tables.get_mut(ti) else {
            return;
        };
        let width = out.cols.len();
        if let Some(row) = out.start_row() {
            for i in 0..width {
                row.push(r.cell(i));
            }
        }
    });
    if !complete || budget.exhausted_at.is_some() {
        return None;
    }
    // Each table's key is inserted as `decode_tables` inserts it: a key
    // already there keeps its place.
    for t in schema.tables {
        Borrowed::insert(&mut members, Cow::Borrowed(t.key), BorrowedValue::Null);
    }
    for (t, cells) in schema.tables.iter().zip(tables.iter_mut()) {
        cells.member = members.position(t.key)?;
    }
    Some(Cells { members, tables })
}

/// `parts` written one after another into `buf`, reused key to key.
fn joined<'b>(buf: &'b mut alloc::string::String, parts: [&str; 3]) -> &'b str {
    buf.clear();
    parts.iter().for_each(|p| buf.push_str(p));
    buf
}

/// A payload's members as `B` builds them ([`Owned`] values, or values
/// borrowed from the payload for the check and the borrowed decodes):
/// its scalars, nested members, `_meta`, blobs, then `tables`.
pub(crate) fn decode_parts_as<'a, B: Build<'a>>(
    payload: &'a str,
    parts: &Parts<'a>,
    schema: &Schema,
    tables: &[Table],
    opts: &DecodeOptions,
    budget: &mut Budget,
) -> B::Object {
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
    let typed = |key: &str, v: &Cow<'a, str>| {
        let hint = Hint::of(stypes.get(key).copied().unwrap_or("str"));
        B::cell(v.clone(), hint)
    };

    let mut result = B::object(raw.len() + tables.len());
    for (k, v) in raw.iter_raw() {
        if k != "__tables" && k != "__stypes" && schema.scalars.contains(&k) {
            B::insert(&mut result, Cow::Borrowed(k), typed(k, v));
        }
    }
    // (One buffer for the dotted and prefixed keys looked up.)
    let mut buf = alloc::string::String::new();
    for (parent, subkeys) in schema.nested {
        let mut sub = B::object(subkeys.len());
        for sk in *subkeys {
            let key = joined(&mut buf, [parent, ".", sk]);
            if let Some(v) = raw.get_raw(key) {
                B::insert(&mut sub, Cow::Borrowed(sk), typed(key, v));
            }
        }
        if !B::is_empty(&sub) {
            B::insert(&mut result, Cow::Borrowed(parent), B::object_value(sub));
        }
    }
    let json = |v: &Cow<'a, str>| B::json(v.clone(), opts);
    let mut meta = B::object(0);
    for k in schema.meta {
        let key = joined(&mut buf, ["_meta.", k, ""]);
        if let Some(v) = raw.get_raw(key) {
            B::insert(&mut meta, Cow::Borrowed(k), typed(key, v));
        }
    }
    for (k, v) in raw.iter_raw() {
        if let Some(name) = k.strip_prefix("__json._meta.") {
            if schema.meta_json.contains(&name) {
                B::insert(&mut meta, Cow::Borrowed(name), json(v));
            }
        }
    }
    if !B::is_empty(&meta) {
        B::insert(&mut result, Cow::Borrowed("_meta"), B::object_value(meta));
    }
    for k in schema.blobs {
        if let Some(v) = raw.get_raw(joined(&mut buf, ["__json.", k, ""])) {
            B::insert(&mut result, Cow::Borrowed(k), json(v));
        }
    }
    for (k, v) in raw.iter_raw() {
        let Some(name) = k.strip_prefix("__json.") else {
            continue;
        };
        if name.starts_with("_meta.") || B::contains(&result, name) || !is_universal_body_key(name)
        {
            continue;
        }
        B::insert(&mut result, Cow::Borrowed(name), json(v));
    }

    // The rows a transform regroups are lists of cells in column order.
    let positional = transforms::positional_rows(schema.transform);
    decode_tables::<B>(payload, parts, (tables, positional), budget, &mut result);
    result
}

/// The rows of `tables`, each added to `result` under its key.
pub(crate) fn decode_tables<'a, B: Build<'a>>(
    payload: &'a str,
    parts: &Parts<'a>,
    (tables, positional): (&[Table], Option<&str>),
    budget: &mut Budget,
    result: &mut B::Object,
) {
    if tables.is_empty() {
        return;
    }
    let before = budget.clone();
    let mut outs: Vec<Vec<B::Value>> = tables.iter().map(|_| Vec::new()).collect();
    let rows = (tables, positional);
    if !table_rows::<B>(payload, parts, rows, None, budget, &mut outs) {
        // The allowance ran out: where is decided in the reference's
        // order, table by table.
        *budget = before;
        for only in 0..tables.len() {
            let only = Some(only);
            if !table_rows::<B>(payload, parts, rows, only, budget, &mut outs) {
                return;
            }
        }
    }
    for (t, rows) in tables.iter().zip(outs) {
        B::insert(result, Cow::Borrowed(t.key), B::array(rows));
    }
}

/// One row of a schema table as [`each_table_row`] hands it on: its
/// cells come through [`TableRow::cell`], legend handles expanded and the
/// allowance spent.
struct TableRow<'r, 'a> {
    row: &'r [Cow<'a, str>],
    interned: &'r [bool],
    legend: &'r Legend<'a>,
    payload: &'a str,
    budget: &'r mut Budget,
    /// The allowance lasted so far.
    within: bool,
}

impl<'a> TableRow<'_, 'a> {
    /// Column `i`'s cell (empty past the row's end). Once the allowance
    /// is gone the row is dropped: nothing more is expanded.
    #[inline(always)]
    fn cell(&mut self, i: usize) -> Cow<'a, str> {
        let cell = self.row.get(i + 1).cloned().unwrap_or(Cow::Borrowed(""));
        if !self.within || !self.interned.get(i).copied().unwrap_or(false) {
            return cell;
        }
        match self.legend.expand(&cell) {
            Some(d) => {
                self.within &= self.budget.spend(d.len(), offset_in(self.payload, &cell));
                d
            }
            None => cell,
        }
    }
}

/// Reads the table rows once, one at a time, handing each to `on_row` with the index of the table its tag
/// names (a schema's tags are distinct), or only table `only`'s rows;
/// false where the allowance ran out.
fn each_table_row<'a>(
    payload: &'a str,
    parts: &Parts<'a>,
    tables: &[Table],
    only: Option<usize>,
    budget: &mut Budget,
    mut on_row: impl FnMut(usize, &mut TableRow<'_, 'a>),
) -> bool {
    let interned: Vec<Vec<bool>> = tables.iter().map(Table::interned_columns).collect();
    each_row(&parts.tables, |row: &[Cow<'a, str>]| {
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
        let mut r = TableRow {
            row,
            interned: interned.get(ti).map(Vec::as_slice).unwrap_or_default(),
            legend: &parts.legend,
            payload,
            budget: &mut *budget,
            within: true,
        };
        on_row(ti, &mut r);
        r.within
    })
}

/// [`each_table_row`] adding each row, built as it is read, to its
/// table's list in `outs`; the rows of table `positional` as lists of
/// their cells in column order.
fn table_rows<'a, B: Build<'a>>(
    payload: &'a str,
    parts: &Parts<'a>,
    (tables, positional): (&[Table], Option<&str>),
    only: Option<usize>,
    budget: &mut Budget,
    outs: &mut [Vec<B::Value>],
) -> bool {
    let plans: Vec<RowPlan<'a, B>> = tables
        .iter()
        .map(|t| RowPlan::new(t.cols.iter().map(|c| c.name)))
        .collect();
    each_table_row(payload, parts, tables, only, budget, |ti, r| {
        let (Some(t), Some(RowPlan { slots, shape }), Some(out)) =
            (tables.get(ti), plans.get(ti), outs.get_mut(ti))
        else {
            return;
        };
        if positional == Some(t.key) {
            let cells = t.cols.iter().enumerate();
            out.push(B::array(
                cells
                    .map(|(i, col)| B::cell(r.cell(i), col.ty.into()))
                    .collect(),
            ));
            return;
        }
        if slots.members == t.cols.len() {
            let cells = t.cols.iter().enumerate();
            out.push(B::row(
                shape,
                cells.map(|(i, col)| (Cow::Borrowed(col.name), r.cell(i), col.ty.into())),
            ));
            return;
        }
        let mut obj = B::object(slots.members);
        for (i, col) in t.cols.iter().enumerate() {
            let cell = r.cell(i);
            slots.put_cell::<B>(&mut obj, i, Cow::Borrowed(col.name), cell, col.ty.into());
        }
        out.push(B::object_value(obj));
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
