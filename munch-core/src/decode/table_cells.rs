//! A table's rows kept as their cells, for typed decoding: the cells of
//! each row side by side, in chunks of a few thousand cells so that no
//! allocation is large (a large one is served fresh pages by the system
//! on every decode, and touching them cost more than building the rows).

use alloc::borrow::Cow;
use alloc::vec::Vec;

use super::build::Members;
use super::cells::Hint;

/// A payload read for typed decoding: the members the borrowed tree has,
/// each table's member holding `Null`, and each table's rows as cells.
pub(crate) struct Cells<'a> {
    pub(crate) members: Members<'a>,
    /// Per table, in the order the tree's tables are inserted.
    pub(crate) tables: Vec<TableCells<'a>>,
}

/// A table's columns: each one's name and type.
pub(crate) type Columns<'a> = Vec<(Cow<'a, str>, Hint)>;

/// Cells per chunk (48 KiB of cells on 64-bit targets).
const CHUNK_CELLS: usize = 2048;

/// One table's rows as cells.
pub(crate) struct TableCells<'a> {
    /// The index of the table's member in the decoded object.
    pub(crate) member: usize,
    pub(crate) cols: Columns<'a>,
    /// Whole rows, `cols.len()` cells each.
    chunks: Vec<Vec<Cow<'a, str>>>,
    rows: usize,
}

impl<'a> TableCells<'a> {
    /// No rows yet (`member` is filled in once the members are known).
    pub(crate) fn new(cols: Columns<'a>) -> TableCells<'a> {
        TableCells {
            member: 0,
            cols,
            chunks: Vec::new(),
            rows: 0,
        }
    }

    /// Starts a row: the list its `cols.len()` cells are to be pushed
    /// to, in order, with room for them (always `Some`).
    #[inline]
    pub(crate) fn start_row(&mut self) -> Option<&mut Vec<Cow<'a, str>>> {
        let width = self.cols.len();
        let full = self
            .chunks
            .last()
            .is_none_or(|c| c.len() + width > c.capacity());
        if full {
            let per_chunk = (CHUNK_CELLS / width.max(1)).max(1) * width;
            self.chunks.push(Vec::with_capacity(per_chunk));
        }
        self.rows += 1;
        self.chunks.last_mut()
    }

    /// How many rows.
    pub(crate) fn rows(&self) -> usize {
        self.rows
    }

    /// The columns, and the rows taken out in order, each a slice of
    /// `cols.len()` cells.
    pub(crate) fn into_rows(self) -> (Columns<'a>, RowChunks<'a>) {
        let rows = RowChunks {
            width: self.cols.len(),
            chunks: self.chunks.into_iter(),
            current: Vec::new(),
            next: 0,
        };
        (self.cols, rows)
    }
}

/// The rows of a [`TableCells`], lent out one at a time.
pub(crate) struct RowChunks<'a> {
    width: usize,
    chunks: alloc::vec::IntoIter<Vec<Cow<'a, str>>>,
    current: Vec<Cow<'a, str>>,
    next: usize,
}

impl<'a> RowChunks<'a> {
    /// The next row's cells (theirs to take), `None` after the last.
    pub(crate) fn next_row(&mut self) -> Option<&mut [Cow<'a, str>]> {
        // (Rows without cells cannot be told apart: none are kept.)
        if self.width == 0 {
            return None;
        }
        if self.next + self.width > self.current.len() {
            self.current = self.chunks.next()?;
            self.next = 0;
        }
        let start = self.next;
        self.next += self.width;
        self.current.get_mut(start..start + self.width)
    }
}

#[cfg(test)]
mod tests {
    use super::TableCells;
    use crate::decode::cells::Hint;
    use alloc::borrow::Cow;
    use alloc::format;

    /// Rows come back whole and in order across chunk boundaries, for a
    /// width that does not divide a chunk.
    #[test]
    fn rows_cross_chunks_whole_and_in_order() {
        let cols = ["a", "b", "c"].map(|c| (Cow::Borrowed(c), Hint::Str));
        let mut t = TableCells::new(cols.into());
        for r in 0..5000 {
            let row = t.start_row().unwrap();
            row.extend((0..3).map(|i| Cow::Owned(format!("{r}.{i}"))));
        }
        assert_eq!(t.rows(), 5000);
        let (_, mut rows) = t.into_rows();
        let mut n = 0;
        while let Some(row) = rows.next_row() {
            let got: alloc::vec::Vec<&str> = row.iter().map(|c| c.as_ref()).collect();
            assert_eq!(got, [format!("{n}.0"), format!("{n}.1"), format!("{n}.2")]);
            n += 1;
        }
        assert_eq!(n, 5000);
    }
}
