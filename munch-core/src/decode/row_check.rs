//! The verified encoder's check of table rows read back (spec D3): each
//! field, as the CSV reader finds it, decoded and compared with the cell
//! the encoder gathered from the input, with no list of the row's fields
//! and no row's keys loaded again.

use alloc::borrow::Cow;
use alloc::vec::Vec;

use super::cell_equals::{cell_value, column_cell_equals};
use crate::encode::columns::{Cell, Columns};
use crate::format::csv::{FieldSink, RowReader};
use crate::format::legend::Legend;
use crate::tier1::schema::ColumnPlan;
use crate::value::same_bytes;

/// The table rows of `blocks` compared with the encoder's cells of the
/// input's rows (`found`, one per table, tagged `tags`, compared by
/// `plans`): rows are dispatched by tag as the decoder does (an unknown
/// tag is no row), each table's rows are met in order, a missing field
/// reads as empty, and every input row must be met.
pub(crate) fn check_rows(
    blocks: &[&str],
    tags: &[&str],
    found: &[Columns<'_>],
    plans: &[Vec<ColumnPlan>],
    legend: &Legend<'_>,
) -> bool {
    check_rows_at(blocks, tags, found, plans, legend).is_ok()
}

/// [`check_rows`], with the first cell found to differ, when the
/// difference is one cell (`Err(None)`: a row too many or too few).
pub(crate) fn check_rows_at(
    blocks: &[&str],
    tags: &[&str],
    found: &[Columns<'_>],
    plans: &[Vec<ColumnPlan>],
    legend: &Legend<'_>,
) -> Result<(), Option<Difference>> {
    let mut check = RowCheck::new(tags, found, plans, legend);
    for block in blocks {
        let mut reader = RowReader::new(block);
        while check.next_row(&mut reader).is_some() {
            if !check.same() {
                return Err(check.difference.take());
            }
        }
    }
    if check.all_met() { Ok(()) } else { Err(None) }
}

/// A cell read back that differs from the encoder's: its table (index),
/// row and column (indexes), and the value it decodes to.
#[derive(Debug)]
pub(crate) struct Difference {
    pub(crate) table: usize,
    pub(crate) row: usize,
    pub(crate) column: usize,
    pub(crate) got: serde_json::Value,
}

/// Rows read back and compared, one at a time.
pub(crate) struct RowCheck<'c, 'v> {
    /// Each table's tag.
    tags: &'c [&'c str],
    found: &'c [Columns<'v>],
    plans: &'c [Vec<ColumnPlan>],
    legend: &'c Legend<'c>,
    /// Per table, the next row expected.
    next: Vec<usize>,
    /// The row's table, its columns' plan and the cells they are compared
    /// with, once its tag is read (`None`: an unknown tag, or no tag yet).
    row: Option<(usize, &'c [ColumnPlan], &'c [Cell<'v>])>,
    /// Fields read of the row so far.
    index: usize,
    /// No difference found yet.
    same: bool,
    /// The first cell found to differ.
    difference: Option<Difference>,
}

impl<'c, 'v> RowCheck<'c, 'v> {
    /// A check of the rows of the tables tagged `tags` against `found`
    /// (per table), with each table's column plan (a tier-1 table's
    /// [`Table::column_plan`](crate::tier1::schema::Table::column_plan))
    /// and the legend read from the payload.
    pub(crate) fn new(
        tags: &'c [&'c str],
        found: &'c [Columns<'v>],
        plans: &'c [Vec<ColumnPlan>],
        legend: &'c Legend<'c>,
    ) -> Self {
        RowCheck {
            tags,
            found,
            plans,
            legend,
            next: alloc::vec![0; tags.len()],
            row: None,
            index: 0,
            same: true,
            difference: None,
        }
    }

    /// Reads and compares the next row of `reader`: `None` at the end of
    /// its block, else the row's table (`None`: an unknown tag, no row).
    pub(crate) fn next_row<'a>(&mut self, reader: &mut RowReader<'a>) -> Option<Option<usize>> {
        self.index = 0;
        self.row = None;
        if !reader.next_into(self) {
            return None;
        }
        // The columns the row had no field for read as empty.
        if let Some((_, plan, cells)) = self.row {
            for index in self.index.saturating_sub(1)..cells.len() {
                if !field_equals(plan, cells, index, "", self.legend) {
                    self.differs(index, "");
                }
            }
        }
        Some(self.row.map(|(ti, _, _)| ti))
    }

    /// No difference found yet.
    pub(crate) fn same(&self) -> bool {
        self.same
    }

    /// Field `column` of the current row (text `field`) differs from its
    /// cell: the first such field is kept with the value it decodes to.
    #[cold]
    fn differs(&mut self, column: usize, field: &str) {
        self.same = false;
        let Some((table, plan, _)) = self.row else {
            return;
        };
        if self.difference.is_some() {
            return;
        }
        let (Some(&(ty, interned)), Some(&next)) = (plan.get(column), self.next.get(table)) else {
            return;
        };
        self.difference = Some(Difference {
            table,
            row: next.saturating_sub(1),
            column,
            got: cell_value(field, interned, ty.name(), self.legend),
        });
    }

    /// Every table's input rows were met.
    pub(crate) fn all_met(&self) -> bool {
        self.same
            && self
                .next
                .iter()
                .zip(self.found)
                .all(|(&read, columns)| read == columns.rows)
    }

    /// The next field of the row, compared with its cell (the tag: the
    /// row's table and expected row).
    #[inline]
    fn take(&mut self, field: &str) {
        let index = self.index;
        self.index += 1;
        if let Some((_, plan, cells)) = self.row {
            if !field_equals(plan, cells, index - 1, field, self.legend) {
                self.differs(index - 1, field);
            }
            return;
        }
        if index != 0 || !self.same {
            return;
        }
        let Some(ti) = self
            .tags
            .iter()
            .position(|t| same_bytes(t.as_bytes(), field.as_bytes()))
        else {
            return;
        };
        let found = self.found;
        let cells = self.next.get(ti).and_then(|&r| found.get(ti)?.row(r));
        match (self.plans.get(ti), cells) {
            (Some(plan), Some(cells)) => {
                if let Some(r) = self.next.get_mut(ti) {
                    *r += 1;
                }
                self.row = Some((ti, plan, cells));
            }
            // More rows than the input has.
            _ => self.same = false,
        }
    }
}

impl<'a> FieldSink<'a> for RowCheck<'_, '_> {
    #[inline]
    fn field(&mut self, field: Cow<'a, str>) {
        self.take(&field);
    }

    #[inline]
    fn borrowed(&mut self, field: &'a str) {
        self.take(field);
    }
}

/// Field `index` (after the tag) of a row compared with its cell, by its
/// column's plan; true past the table's columns (extra fields are not read
/// into the row).
#[inline]
fn field_equals(
    plan: &[ColumnPlan],
    cells: &[Cell<'_>],
    index: usize,
    text: &str,
    legend: &Legend<'_>,
) -> bool {
    match (plan.get(index), cells.get(index)) {
        (Some(&(ty, interned)), Some(&c)) => column_cell_equals(text, interned, ty, legend, c),
        _ => true,
    }
}
