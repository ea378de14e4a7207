//! gen1 decoding (spec §6 "Decoding").

use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{Map, Value};

use super::build::{Borrowed, Build, Members, Owned, RowPlan, Slots};
use super::cells::Hint;
use super::table_cells::{Cells, TableCells};
use super::{Budget, DecodeOptions, VALUE_COST, coerce, offset_in, parse_json};
use crate::borrowed::BorrowedValue;
use crate::decode::tier1::Blocks;
use crate::format::csv::{Rows, each_row};
use crate::format::envelope::blocks;
use crate::format::legend::Legend;
use crate::format::scalars::Scalars;
use crate::unicode::first_line;
use hashbrown::HashMap;

/// The gen1 table tags, in discovery order.
pub(crate) const TAGS: &str = "tuvwxyzabcdefghijklmnopqrs";

/// Undoes the `__tables` escaping (`%25` last); borrowed when there is
/// none.
fn unescape(s: &str) -> Cow<'_, str> {
    if !s.contains('%') {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.replace("%3A", ":")
            .replace("%7C", "|")
            .replace("%2C", ",")
            .replace("%25", "%"),
    )
}

pub(super) struct TableDecl<'t> {
    pub(super) tag: Cow<'t, str>,
    pub(super) key: Cow<'t, str>,
    pub(super) cols: Vec<Cow<'t, str>>,
    /// Per column, its type.
    pub(super) hints: Vec<Hint>,
}

impl TableDecl<'_> {
    fn into_owned<'x>(self) -> TableDecl<'x> {
        let own = |c: Cow<'_, str>| Cow::Owned(c.into_owned());
        TableDecl {
            tag: own(self.tag),
            key: own(self.key),
            cols: self.cols.into_iter().map(own).collect(),
            hints: self.hints,
        }
    }
}

fn table_decls(text: &str) -> Vec<TableDecl<'_>> {
    let mut out = Vec::new();
    for part in text.split(',').filter(|p| !p.is_empty()) {
        let pieces: Vec<&str> = part.split(':').collect();
        let [tag, key, col_spec, rest @ ..] = pieces.as_slice() else {
            continue;
        };
        let type_spec = rest.first().copied().unwrap_or("");
        let cols: Vec<Cow<'_, str>> = if col_spec.is_empty() {
            Vec::new()
        } else {
            col_spec.split('|').map(unescape).collect()
        };
        // A column without a type is `str`; types past the columns are
        // never read.
        let mut hints: Vec<Hint> = if type_spec.is_empty() {
            Vec::new()
        } else {
            type_spec
                .split('|')
                .map(|t| Hint::of(&unescape(t)))
                .collect()
        };
        hints.resize(cols.len(), Hint::Str);
        out.push(TableDecl {
            tag: unescape(tag),
            key: unescape(key),
            cols,
            hints,
        });
    }
    out
}

/// The table declarations of a scalar block, borrowed from the payload
/// where its `__tables` value is.
pub(super) fn decls_of<'a>(scalars: &Scalars<'a>) -> Vec<TableDecl<'a>> {
    match scalars.get_raw("__tables") {
        Some(Cow::Borrowed(text)) => table_decls(text),
        Some(Cow::Owned(text)) => table_decls(text)
            .into_iter()
            .map(TableDecl::into_owned)
            .collect(),
        None => Vec::new(),
    }
}

fn is_table_row(first: &str) -> bool {
    let mut chars = first.chars();
    match (chars.next(), chars.next()) {
        (Some(t), Some(',')) => TAGS.contains(t),
        _ => false,
    }
}

/// A gen1 payload's legend, scalar block and table blocks.
pub(crate) fn parts(payload: &str) -> (Legend<'_>, Option<&str>, Vec<&str>) {
    let blocks = classify(payload);
    (legend_of(&blocks.legends), blocks.scalars, blocks.tables)
}

/// gen1's block classification, without reading the blocks: a block whose
/// first line is a table row (`<tag>,`) holds rows; else a legend starts
/// with `@` and has `=` in its first line; the first other block with `=`
/// there is the scalar block; everything else holds rows.
pub(crate) fn classify(payload: &str) -> Blocks<'_> {
    let mut out = Blocks {
        legends: Vec::new(),
        scalars: None,
        tables: Vec::new(),
    };
    for b in blocks(payload) {
        let first = first_line(b);
        let table_row = is_table_row(first);
        if first.starts_with('@') && first.contains('=') && !table_row {
            out.legends.push(b);
        } else if table_row {
            out.tables.push(b);
        } else if out.scalars.is_none() && first.contains('=') {
            out.scalars = Some(b);
        } else {
            out.tables.push(b);
        }
    }
    out
}

/// The blocks the reference decoder passes to its CSV reader: it reads the
/// table blocks once per table its `__tables` scalar declares, so when it
/// parses no declaration (a line break its `splitlines` sees inside the
/// scalar, a malformed entry) it reads none.
pub(crate) fn blocks_read(payload: &str) -> Vec<&str> {
    let (_, scalar_block, table_blocks) = parts(payload);
    let scalars = scalar_block.map(Scalars::parse).unwrap_or_default();
    if table_decls(scalars.get("__tables").unwrap_or("")).is_empty() {
        return Vec::new();
    }
    table_blocks
}

/// How a member the scalar line decodes to is made: a `__json.` blob's
/// JSON, a typed scalar (its raw text and its `__stypes` type) or a
/// string.
#[derive(Clone, Copy, Debug)]
pub(super) enum Source<'s> {
    Json(&'s str),
    Typed(&'s str, &'s str),
    Text(&'s str),
}

impl Source<'_> {
    /// The member's value.
    pub(super) fn value(self, opts: &DecodeOptions) -> Value {
        match self {
            Source::Json(v) => parse_json(v, opts).unwrap_or_else(|| Value::String(v.into())),
            Source::Typed(v, hint) => coerce(Cow::Borrowed(v), hint),
            Source::Text(v) => Value::String(v.into()),
        }
    }
}

/// The members the scalar line decodes to besides the tables, in line
/// order (`__tables` and `__stypes` left out), each with how its value is
/// made; a later member of the same key replaces an earlier one.
pub(super) fn rest_members<'s>(scalars: &'s Scalars<'_>) -> Vec<(&'s str, Source<'s>)> {
    let mut stypes: BTreeMap<&str, &str> = BTreeMap::new();
    for part in scalars
        .get("__stypes")
        .unwrap_or("")
        .split('|')
        .filter(|p| !p.is_empty())
    {
        let (name, hint) = part.split_once(':').unwrap_or((part, ""));
        if !name.is_empty() && !hint.is_empty() {
            stypes.insert(name, hint);
        }
    }
    let members = scalars
        .iter()
        .filter(|(k, _)| *k != "__tables" && *k != "__stypes");
    members
        .map(|(k, v)| match (k.strip_prefix("__json."), stypes.get(k)) {
            (Some(real), _) => (real, Source::Json(v)),
            (None, Some(hint)) => (k, Source::Typed(v, hint)),
            (None, None) => (k, Source::Text(v)),
        })
        .collect()
}

/// The members the scalar line decodes to besides the tables.
pub(super) fn decode_rest(scalars: &Scalars<'_>, opts: &DecodeOptions) -> Map<String, Value> {
    let mut result = Map::new();
    for (k, source) in rest_members(scalars) {
        result.insert(k.into(), source.value(opts));
    }
    result
}

pub(crate) fn decode(payload: &str, opts: &DecodeOptions, budget: &mut Budget) -> Value {
    let (legend, scalar_block, table_blocks) = parts(payload);
    let scalars = scalar_block.map(Scalars::parse).unwrap_or_default();
    let mut result = decode_rest(&scalars, opts);
    let decls = decls_of(&scalars);
    if !decode_tables::<Owned>(payload, &legend, &table_blocks, decls, budget, &mut result) {
        return Value::Null;
    }
    Value::Object(result)
}

/// [`decode`] into values borrowed from the payload.
pub(crate) fn decode_borrowed<'a>(
    payload: &'a str,
    opts: &DecodeOptions,
    budget: &mut Budget,
) -> BorrowedValue<'a> {
    let (legend, scalar_block, table_blocks) = parts(payload);
    let scalars = scalar_block.map(Scalars::parse).unwrap_or_default();
    let mut result = Members::from_map(decode_rest(&scalars, opts));
    let decls = decls_of(&scalars);
    if !decode_tables::<Borrowed>(payload, &legend, &table_blocks, decls, budget, &mut result) {
        return BorrowedValue::Null;
    }
    Borrowed::object_value(result)
}

/// Adds every declared table's rows to `result`; false where the budget
/// ran out.
///
/// The rows are read once, one at a time, and each goes to every
/// declaration of its tag, found by one lookup (the reference scans every
/// block for every declaration, quadratic on hostile input). The first
/// declaration of a tag takes the payload's rows, later ones copy them.
fn decode_tables<'a, B: Build<'a>>(
    payload: &'a str,
    legend: &Legend<'a>,
    table_blocks: &[&'a str],
    decls: Vec<TableDecl<'a>>,
    budget: &mut Budget,
    result: &mut B::Object,
) -> bool {
    let mut by_tag: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut rank = Vec::with_capacity(decls.len());
    for (i, d) in decls.iter().enumerate() {
        let ids = by_tag.entry(d.tag.as_ref()).or_default();
        rank.push(ids.len());
        ids.push(i);
    }
    let plans: Vec<RowPlan<'a, B>> = decls
        .iter()
        .map(|d| RowPlan::new(d.cols.iter().map(AsRef::as_ref)))
        .collect();
    let before = budget.clone();
    let mut outs: Vec<Vec<B::Value>> = decls.iter().map(|_| Vec::new()).collect();
    let mut row_ctx = RowContext {
        payload,
        legend,
        budget,
    };
    let read = each_row(table_blocks, |row| {
        let Some(ids) = row.first().and_then(|tag| by_tag.get(tag.as_ref())) else {
            return true;
        };
        ids.iter().all(|&di| {
            let (Some(decl), Some(plan), Some(out)) =
                (decls.get(di), plans.get(di), outs.get_mut(di))
            else {
                return true;
            };
            let copy = rank.get(di).is_some_and(|&r| r > 0);
            row_ctx.add::<B>(decl, plan, copy, row, out)
        })
    });
    if !read {
        // The allowance ran out: where is decided in the reference's
        // order, declaration by declaration (rows grouped by tag once).
        *row_ctx.budget = before;
        let all = Rows::read(table_blocks);
        let mut rows_of: HashMap<&str, Vec<&[Cow<'a, str>]>> = HashMap::new();
        for row in all.iter() {
            if let Some(tag) = row.first() {
                rows_of.entry(tag.as_ref()).or_default().push(row);
            }
        }
        for (di, decl) in decls.iter().enumerate() {
            let (Some(plan), Some(out)) = (plans.get(di), outs.get_mut(di)) else {
                continue;
            };
            let copy = rank.get(di).is_some_and(|&r| r > 0);
            for row in rows_of.get(decl.tag.as_ref()).into_iter().flatten() {
                if !row_ctx.add::<B>(decl, plan, copy, row, out) {
                    return false;
                }
            }
        }
        return false;
    }
    drop(by_tag);
    for (decl, rows) in decls.into_iter().zip(outs) {
        let rows = B::array(rows);
        match decl.key.split_once('.') {
            Some((parent, child)) => B::nest(result, parent, child, rows),
            None => B::insert(result, decl.key, rows),
        }
    }
    true
}

/// What building a gen1 row needs besides the row and its declaration.
struct RowContext<'a, 'b> {
    payload: &'a str,
    legend: &'b Legend<'a>,
    budget: &'b mut Budget,
}

impl<'a> RowContext<'a, '_> {
    /// Adds `row` as a row of `decl` to `out`; false where the budget ran
    /// out. `copy`: an earlier declaration with the same tag took the
    /// row, so this one copies it.
    fn add<B: Build<'a>>(
        &mut self,
        decl: &TableDecl<'a>,
        RowPlan { slots, shape }: &RowPlan<'a, B>,
        copy: bool,
        row: &[Cow<'a, str>],
        out: &mut Vec<B::Value>,
    ) -> bool {
        if !self.spend_row(decl, copy, row) {
            return false;
        }
        let mut within = true;
        if slots.members == decl.cols.len() {
            let cells = decl.cols.iter().enumerate();
            out.push(B::row(
                shape,
                cells.map(|(i, col)| {
                    let (raw, hint) = self.cell(decl, row, i, &mut within);
                    (col.clone(), raw, hint)
                }),
            ));
            return within;
        }
        let mut obj = B::object(slots.members);
        for (i, col) in decl.cols.iter().enumerate() {
            let (raw, hint) = self.cell(decl, row, i, &mut within);
            slots.put_cell::<B>(&mut obj, i, col.clone(), raw, hint);
        }
        out.push(B::object_value(obj));
        within
    }

    /// Spends what `decl` builds of `row` (false where the budget ran
    /// out): each cell's text, and where the decoder makes more than the
    /// payload holds — a column the row lacks, or rows an earlier decl
    /// with the same tag already took (`copy`: every decl copies its
    /// rows) — the member's key and the value holding it too.
    fn spend_row(&mut self, decl: &TableDecl<'a>, copy: bool, row: &[Cow<'a, str>]) -> bool {
        let size: usize = decl
            .cols
            .iter()
            .enumerate()
            .map(|(i, col)| match row.get(i + 1) {
                Some(c) if !copy => c.len() + 1,
                c => c.map_or(0, |c| c.len()) + col.len() + VALUE_COST,
            })
            .sum();
        let at = row.first().map_or(0, |c| offset_in(self.payload, c));
        self.budget.spend(size, at)
    }

    /// Column `i`'s cell of `row` and its type, legend handles expanded
    /// in `str` cells while the allowance lasts (`within`; once it is gone
    /// the row is dropped: expand no more).
    #[inline(always)]
    fn cell(
        &mut self,
        decl: &TableDecl<'a>,
        row: &[Cow<'a, str>],
        i: usize,
        within: &mut bool,
    ) -> (Cow<'a, str>, Hint) {
        let raw = row.get(i + 1).cloned().unwrap_or(Cow::Borrowed(""));
        let hint = decl.hints.get(i).copied().unwrap_or(Hint::Str);
        if !*within || hint != Hint::Str {
            return (raw, hint);
        }
        match self.legend.expand(&raw) {
            Some(d) => {
                *within &= self.budget.spend(d.len(), offset_in(self.payload, &raw));
                (d, hint)
            }
            None => (raw, hint),
        }
    }
}

/// [`decode_borrowed`] with each table's rows left as cells, for the
/// payloads where it builds every table's rows straight from their cells
/// (tags distinct, no dotted table key, every table's column names
/// distinct); `None` for the others and where the allowance ran out (the
/// caller decodes as [`decode_borrowed`] does, which reports where).
pub(crate) fn decode_cells<'a>(
    payload: &'a str,
    opts: &DecodeOptions,
    budget: &mut Budget,
) -> Option<Cells<'a>> {
    let (legend, scalar_block, table_blocks) = parts(payload);
    let scalars = scalar_block.map(Scalars::parse).unwrap_or_default();
    let decls = decls_of(&scalars);
    let mut by_tag: HashMap<&str, usize> = HashMap::with_capacity(decls.len());
    for (i, d) in decls.iter().enumerate() {
        let distinct = Slots::new(d.cols.iter().map(AsRef::as_ref)).members == d.cols.len();
        // (A table without columns would have rows and no cells.)
        let plain = !d.cols.is_empty() && distinct && !d.key.contains('.');
        if !plain || by_tag.insert(d.tag.as_ref(), i).is_some() {
            return None;
        }
    }
    if decls.is_empty() {
        return None;
    }
    let mut members = Members::from_map(decode_rest(&scalars, opts));
    let mut tables: Vec<TableCells<'a>> = decls
        .iter()
        .map(|d| {
            TableCells::new(
                d.cols
                    .iter()
                    .cloned()
                    .zip(d.hints.iter().copied())
                    .collect(),
            )
        })
        .collect();
    let mut ctx = RowContext {
        payload,
        legend: &legend,
        budget,
    };
    let read = each_row(&table_blocks, |row| {
        let Some(&di) = row.first().and_then(|tag| by_tag.get(tag.as_ref())) else {
            return true;
        };
        let (Some(decl), Some(out)) = (decls.get(di), tables.get_mut(di)) else {
            return true;
        };
        if !ctx.spend_row(decl, false, row) {
            return false;
        }
        let mut within = true;
        if let Some(cells) = out.start_row() {
            for i in 0..decl.cols.len() {
                cells.push(ctx.cell(decl, row, i, &mut within).0);
            }
        }
        within
    });
    drop(by_tag);
    if !read || budget.exhausted_at.is_some() {
        return None;
    }
    // Each table's key is inserted as `decode_tables` inserts it: a key
    // already there keeps its place.
    for d in &decls {
        Borrowed::insert(&mut members, d.key.clone(), BorrowedValue::Null);
    }
    for (d, t) in decls.iter().zip(tables.iter_mut()) {
        t.member = members.position(&d.key)?;
    }
    Some(Cells { members, tables })
}

/// The legend of a payload's legend blocks, as the decoder reads them.
pub(super) fn legend_of<'p>(legends: &[&'p str]) -> Legend<'p> {
    let mut legend = Legend::default();
    for b in legends {
        // Python reads every legend block; one that raises raises.
        let raised = legend.raises;
        legend = Legend::read(b);
        legend.raises |= raised;
    }
    legend
}
