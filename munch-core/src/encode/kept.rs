//! What one gen1 rung of a verified encode hands the other: the tables
//! the reference rung found (the hardened rung reads the same lists with
//! the same columns) and, when it wrote them all, the legend's counts over
//! them, with the hasher their string cells were hashed by.

use alloc::vec::Vec;
use hashbrown::DefaultHashBuilder;
use serde_json::Value;

use super::columns::Columns;
use crate::format::legend_build::{Builder, SlotId};
use crate::tier1::schema::Ty;

/// The tables a gen1 rung found, kept for the other gen1 rung of the same
/// verified encode (the hardened rung reads the same lists with the same
/// columns), with the hasher their string cells were hashed by.
#[derive(Default)]
pub(crate) struct Kept<'v> {
    pub(super) hasher: DefaultHashBuilder,
    pub(super) tables: Vec<Columns<'v>>,
    /// The legend's counts of a written rung, for a rung whose tables are
    /// the same lists (then it observes the same strings in the same
    /// order): only the entries chosen from them differ by form.
    pub(super) counted: Option<Counted<'v>>,
}

/// The strings a rung observed in its tables' `str` cells, with the path
/// prefixes counted, and each cell's slot.
pub(super) struct Counted<'v> {
    /// The tables' rows and widths, in order.
    tables: Vec<(&'v [Value], usize)>,
    pub(super) builder: Builder<'v>,
    pub(super) slots: Vec<Option<SlotId>>,
}

impl<'v> Counted<'v> {
    /// Observes the `str` cells of `found` (columns typed by `typed`) with
    /// `hasher` (the one their hashes were taken with) and counts the
    /// path prefixes.
    pub(super) fn new(
        found: &[Columns<'v>],
        typed: &[(Vec<&'v str>, Vec<Ty>)],
        hasher: DefaultHashBuilder,
    ) -> Counted<'v> {
        // Room for every `str` cell (up to a bound), so the table of
        // distinct strings is not rebuilt while it grows.
        let cells: usize = found
            .iter()
            .zip(typed)
            .map(|(c, (_, types))| c.rows * types.iter().filter(|&&ty| ty == Ty::Str).count())
            .sum();
        let mut builder = Builder::with_hasher(cells, hasher);
        // Each `str` cell's slot, in the order the rows are written. Every
        // table was gathered by `table` with this builder's hasher, so each
        // string cell holds its hash.
        let mut slots: Vec<Option<SlotId>> = Vec::with_capacity(cells);
        for (columns, (_, types)) in found.iter().zip(typed) {
            for row in columns.rows() {
                for (cell, ty) in row.iter().zip(types) {
                    if *ty == Ty::Str {
                        if let Some((s, hash)) = cell.hashed_str() {
                            slots.push(builder.observe_hashed(s, hash));
                        }
                    }
                }
            }
        }
        builder.add_prefixes();
        Counted {
            tables: Self::identity(found),
            builder,
            slots,
        }
    }

    /// The lists `found` was read from, with their widths.
    fn identity(found: &[Columns<'v>]) -> Vec<(&'v [Value], usize)> {
        found.iter().map(|c| (c.source, c.width())).collect()
    }

    /// Whether these counts are those of `found`'s tables.
    pub(super) fn of(&self, found: &[Columns<'v>]) -> bool {
        self.tables.len() == found.len()
            && self
                .tables
                .iter()
                .zip(found)
                .all(|(&(rows, width), c)| core::ptr::eq(rows, c.source) && width == c.width())
    }
}

impl<'v> Kept<'v> {
    /// Keeps the tables of a payload whose rung was refused. Their JSON
    /// length is dropped (a written table has its number cells counted in
    /// it as well), so only a rung that measures nothing takes them.
    pub(crate) fn keep(&mut self, tables: impl IntoIterator<Item = Columns<'v>>) {
        self.tables.extend(tables.into_iter().map(|mut c| {
            c.json = None;
            c
        }));
    }
}
