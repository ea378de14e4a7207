//! The verified tier-1 encoder's check of its table rows (spec D3), made
//! while it writes them: every few dozen rows, the rows just written are
//! read back from the payload and compared with their cells while both
//! are still in cache, instead of in a second pass over the whole table
//! once the payload is done.
//!
//! The reading is the decoder's. A row is read from where the previous
//! one ended, by the same reader, over the payload written so far; it is
//! taken only when it ends exactly where the writer started the next row,
//! so the reader looked at no byte written later and read what it will
//! read in the finished payload. When the payload is done its blocks are
//! classified as the decoder classifies them: the legend must be the block
//! the rows were decoded with, and each table block must start where its
//! rows were read from; the rows after the last checked one are read from
//! those blocks. Anything else (a row read differently, a block elsewhere,
//! a difference) leaves the decision to the check on the finished payload.

use alloc::vec::Vec;

use crate::decode::row_check::RowCheck;
use crate::decode::tier1::classify;
use crate::format::csv::RowReader;

/// Rows per read-back: about 15 KB of payload in the bench response.
const CHUNK: usize = 64;

/// The check of the rows written so far.
pub(crate) struct InlineCheck<'c, 'v> {
    rows: RowCheck<'c, 'v>,
    /// Nothing has been read differently from the finished payload yet.
    ok: bool,
    /// The table being written, and where its block starts.
    table: usize,
    block: usize,
    /// Where the first row not read yet starts (from the block's start).
    pos: usize,
    /// The starts of the rows written but not read yet (from the start of
    /// the payload), the first at `block + pos`.
    starts: Vec<usize>,
    /// Per table block written: its table, where it starts, and where its
    /// first row not read yet starts (from the block's start).
    blocks: Vec<(usize, usize, usize)>,
}

/// What the check found of a payload whose rows all decode to their cells:
/// where the decoder finds the scalar block, left to the caller to read.
#[derive(Clone, Debug)]
pub(crate) struct CheckedRows {
    pub(crate) scalars: Option<core::ops::Range<usize>>,
}

impl<'c, 'v> InlineCheck<'c, 'v> {
    /// A check of the rows about to be written, with `rows` comparing them.
    pub(crate) fn new(rows: RowCheck<'c, 'v>) -> Self {
        InlineCheck {
            rows,
            ok: true,
            table: 0,
            block: 0,
            pos: 0,
            starts: Vec::with_capacity(CHUNK + 1),
            blocks: Vec::new(),
        }
    }

    /// Table `table`'s first row starts at `at` (its block's start).
    pub(crate) fn begin_table(&mut self, table: usize, at: usize) {
        self.table = table;
        self.block = at;
        self.pos = 0;
        self.starts.clear();
        self.starts.push(at);
    }

    /// Another row starts at `at` in `out`, so the one before it is
    /// whole; every [`CHUNK`] rows they are read back.
    #[inline]
    pub(crate) fn row_started(&mut self, at: usize, out: &str) {
        self.starts.push(at);
        if self.starts.len() > CHUNK {
            self.read_written(out);
        }
    }

    /// The table's last row is written.
    pub(crate) fn end_table(&mut self) {
        self.blocks.push((self.table, self.block, self.pos));
    }

    /// Reads back every whole row not read yet: each must be a row of this
    /// table that decodes to its cells and ends where the next one starts.
    fn read_written(&mut self, out: &str) {
        let whole = self.starts.len() - 1;
        if !self.ok {
            self.starts.drain(..whole);
            return;
        }
        let Some(text) = out.get(self.block..) else {
            self.ok = false;
            return;
        };
        let mut reader = RowReader::at(text, self.pos);
        for next in 1..=whole {
            let read = self.rows.next_row(&mut reader);
            let ends = self.starts.get(next).map(|s| s - self.block);
            if read != Some(Some(self.table)) || !self.rows.same() || ends != Some(reader.pos()) {
                self.ok = false;
                break;
            }
        }
        self.pos = reader.pos();
        self.starts.drain(..whole);
    }

    /// Once the payload `out` is complete (its legend block, if any, at
    /// `legend`): the rows not read yet read from the blocks the decoder
    /// finds. `Some` when every row decoded to its cells, every input row
    /// was met and the blocks are where the rows were read.
    pub(crate) fn finish(
        mut self,
        out: &str,
        legend: Option<core::ops::Range<usize>>,
    ) -> Option<CheckedRows> {
        if !self.ok {
            return None;
        }
        let found = classify(out);
        let offset = |block: &str| (block.as_ptr() as usize).checked_sub(out.as_ptr() as usize);
        // The rows were decoded with the legend block written, as the only
        // one the decoder reads.
        match (legend, found.legends.as_slice()) {
            (None, []) => {}
            (Some(range), [only])
                if offset(only) == Some(range.start) && only.len() == range.len() => {}
            _ => return None,
        }
        if found.tables.len() != self.blocks.len() {
            return None;
        }
        for (block, &(table, start, pos)) in found.tables.iter().zip(&self.blocks) {
            if offset(block) != Some(start) || block.len() < pos {
                return None;
            }
            let mut reader = RowReader::at(block, pos);
            loop {
                match self.rows.next_row(&mut reader) {
                    None => break,
                    Some(Some(t)) if t == table && self.rows.same() => {}
                    _ => return None,
                }
            }
        }
        if !self.rows.all_met() {
            return None;
        }
        let scalars = found
            .scalars
            .and_then(|b| offset(b).map(|start| start..start + b.len()));
        Some(CheckedRows { scalars })
    }
}
