//! Interned cells written once. A legend-encoded cell's text depends only
//! on its string (the legend and the form are fixed for the whole
//! payload), so a string observed more than once is encoded and quoted at
//! its first row and copied at the others: a column such as a file path,
//! which repeats from row to row, walks the legend tree once per distinct
//! value, not once per row.

use alloc::string::String;
use alloc::vec::Vec;

use super::columns::Cell;
use super::{finish_cell, too_long};
use crate::format::legend_build::{Builder, Entries, SlotId};

/// Where a distinct observed string stands.
#[derive(Clone, Copy, Debug)]
enum Slot {
    /// Observed once: nothing to keep.
    Once,
    /// Repeated, not written yet.
    Pending,
    /// Written: its cell text is `text[start..end]`; whether it exceeds
    /// the reference reader's field limit. (Offsets of four bytes keep
    /// the list small; text past them is not memoized.)
    Written { start: u32, end: u32, long: bool },
}

/// The written text of each repeated interned string.
#[derive(Debug)]
pub(crate) struct CellMemo {
    slots: Vec<Slot>,
    text: String,
}

impl CellMemo {
    /// A memo for the strings `builder` observed so far (slots as
    /// [`Builder::observe`] returned them).
    pub(crate) fn new(builder: &Builder<'_>) -> CellMemo {
        CellMemo {
            slots: builder
                .repeated()
                .map(|r| if r { Slot::Pending } else { Slot::Once })
                .collect(),
            text: String::new(),
        }
    }

    /// Appends the interned string cell `cell` (observed in `slot`)
    /// legend-encoded and quoted as Python's `csv` writes it, as
    /// `legend.encode` + `finish_cell` would; true when its text exceeds
    /// the reference reader's field limit. A [`Cell::Bare`] string is not
    /// searched for quoting: its encoding is made of its own bytes, `@`
    /// and digits.
    pub(crate) fn write(
        &mut self,
        slot: Option<SlotId>,
        cell: Cell<'_>,
        (legend, hardened): (&Entries<'_>, bool),
        out: &mut String,
    ) -> bool {
        let Some(s) = cell.as_str() else {
            return false;
        };
        let slot = slot.map(SlotId::index);
        let state = slot.and_then(|k| self.slots.get(k).copied());
        if let Some(Slot::Written { start, end, long }) = state {
            out.push_str(
                self.text
                    .get(start as usize..end as usize)
                    .unwrap_or_default(),
            );
            return long;
        }
        let at = out.len();
        let long = match cell {
            Cell::Bare(..) => {
                legend.encode(s, hardened, out);
                too_long(out.get(at..).unwrap_or_default())
            }
            Cell::Wrapped(..) => wrapped(s, (legend, hardened), out),
            _ => {
                legend.encode(s, hardened, out);
                finish_cell(out, at)
            }
        };
        if let (Some(Slot::Pending), Some(k)) = (state, slot) {
            let written = out.get(at..).unwrap_or_default();
            let start = u32::try_from(self.text.len());
            let end = u32::try_from(self.text.len() + written.len());
            if let (Ok(start), Ok(end), Some(place)) = (start, end, self.slots.get_mut(k)) {
                self.text.push_str(written);
                *place = Slot::Written { start, end, long };
            }
        }
        long
    }
}

/// Appends a [`Cell::Wrapped`] string (commas, but no quote, LF or CR)
/// legend-encoded, quoted when a comma is left after the legend took its
/// prefix, as `legend.encode` + `finish_cell` would: the opening quote is
/// written first and taken back when no comma is left, so the usual cell
/// is neither searched for quotes nor moved; true when its text exceeds
/// the reference reader's field limit.
fn wrapped(s: &str, (legend, hardened): (&Entries<'_>, bool), out: &mut String) -> bool {
    let at = out.len();
    out.push('"');
    let taken = legend.encode(s, hardened, out);
    let text = out.get(at + 1..).unwrap_or_default();
    let long = too_long(text);
    // The string has a comma: it is left in the cell unless the entry
    // took every one.
    let rest = s.as_bytes().get(taken..).unwrap_or_default();
    if taken == 0 || memchr::memchr(b',', rest).is_some() {
        out.push('"');
    } else {
        out.remove(at);
    }
    long
}

#[cfg(test)]
mod tests {
    use super::{Cell, CellMemo};
    use crate::encode::finish_cell;
    use crate::format::legend_build::Builder;
    use alloc::string::String;
    use alloc::vec::Vec;

    /// Every cell, first or repeated, is written as `legend.encode` and
    /// `finish_cell` write it (quotes, `@` literals and handles followed
    /// by digits included), and reports the same length flag.
    #[test]
    fn repeated_cells_are_written_as_encoded() {
        let values = [
            "src/app/main.py",
            "src/app/main.py",
            "src/app/cli.py",
            "src/app/main.py::run",
            "a,b \"quoted\"",
            "a,b \"quoted\"",
            // Commas only: in a prefix the legend takes, after it, both.
            "src/a,b/x.py",
            "src/a,b/x.py",
            "src/a,b/y.py",
            "src/a,b/x.py, and more",
            "one, two",
            "one, two",
            "@literal",
            "@literal",
            "src/app/main.py1",
            "src/app/main.py1",
            "",
            "",
            "once",
            // Too short for the legend: written as a quoted literal.
            "a,\"b",
            "a,\"b",
        ];
        for hardened in [false, true] {
            let mut builder = Builder::with_capacity(values.len());
            let slots: Vec<_> = values.iter().map(|v| builder.observe(v)).collect();
            let mut memo = CellMemo::new(&builder);
            let legend = builder.finish(1, hardened);
            let (mut memoized, mut direct) = (String::new(), String::new());
            for (v, &slot) in values.iter().zip(&slots) {
                memoized.push(',');
                let cell = if v.contains(['"', '\n', '\r']) {
                    Cell::Str(v, 0)
                } else if v.contains(',') {
                    Cell::Wrapped(v, 0)
                } else {
                    Cell::Bare(v, 0)
                };
                let long = memo.write(slot, cell, (&legend, hardened), &mut memoized);
                direct.push(',');
                let start = direct.len();
                let _ = legend.encode(v, hardened, &mut direct);
                assert_eq!(long, finish_cell(&mut direct, start));
            }
            assert_eq!(memoized, direct);
            // A wrapped string whose commas the legend took is not quoted;
            // one with a comma after the legend's prefix is.
            assert!(!direct.contains("src/a,b/x.py"), "{direct}");
            assert!(direct.contains(",\"@"), "{direct}");
            assert!(direct.ends_with(",\"a,\"\"b\",\"a,\"\"b\""), "{direct}");
        }
    }
}
