//! A table's cells found once: each dict row's value per column, in column
//! order, so the legend's observation and the row writer never compare a
//! row's keys again (on a large response each key compare is a load from
//! a separate allocation).

use alloc::vec::Vec;
use serde_json::Value;

use crate::tier1::schema::Table;
use crate::value::{Kind, kind, same_bytes};

/// The dict rows of one table, `width` values per row (`None`: the row has
/// no such key).
pub(crate) struct Columns<'v> {
    cells: Vec<Option<&'v Value>>,
    width: usize,
    /// How many dict rows were found (rows that are not dicts are skipped,
    /// as both the observation and the writer skip them).
    pub(crate) rows: usize,
}

impl<'v> Columns<'v> {
    /// Finds every column of every dict row of `rows`. A row whose keys
    /// come in column order costs one key compare per key.
    pub(crate) fn gather(rows: &'v [Value], t: &Table) -> Columns<'v> {
        let width = t.cols.len();
        let mut cells = Vec::with_capacity(rows.len().saturating_mul(width));
        let mut count = 0usize;
        for row in rows {
            let Kind::Dict(m) = kind(row) else {
                continue;
            };
            count += 1;
            let base = cells.len();
            cells.resize(base + width, None);
            let mut next = 0usize;
            for (k, v) in m {
                let k = k.as_bytes();
                let at = match t.cols.get(next) {
                    Some(c) if same_bytes(c.name.as_bytes(), k) => Some(next),
                    _ => t.cols.iter().position(|c| same_bytes(c.name.as_bytes(), k)),
                };
                if let Some(j) = at {
                    if let Some(slot) = cells.get_mut(base + j) {
                        *slot = Some(v);
                    }
                    next = j + 1;
                }
            }
        }
        Columns {
            cells,
            width,
            rows: count,
        }
    }

    /// The rows' values, one slice of `width` per dict row.
    pub(crate) fn rows(&self) -> impl Iterator<Item = &[Option<&'v Value>]> {
        (0..self.rows).map(|r| {
            self.cells
                .get(r * self.width..(r + 1) * self.width)
                .unwrap_or_default()
        })
    }
}
