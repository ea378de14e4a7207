//! The least room a gen1 payload's tables take, known before they are
//! written. `auto`'s gate ([`Gate`](super::gen1::Gate)) refuses a payload
//! that saves less than the threshold; when even this bound saves too
//! little, the payload is not written at all (a reply of long texts, whose
//! CSV is as long as its JSON, is sent as JSON without being encoded
//! first).
//!
//! Each bound is in the gate's unit: code points (`ascii`: the unit of
//! Python's `ensure_ascii` text) or UTF-8 bytes.

use super::columns::{Cell, Columns};
use crate::py::json_write::key_json_len;
use crate::tier1::schema::Ty;

/// What the legend can take off a `str` cell: an entry replaces a prefix
/// of the cell with a handle (`@` and at least one digit), so a cell loses
/// at most the longest entry's bytes less two, and nothing when no entry
/// starts with its first byte.
pub(crate) struct Reach {
    /// Entries' first bytes, a bit each.
    firsts: [u64; 4],
    /// The most an entry takes off a cell.
    most: usize,
}

impl Reach {
    /// The reach of a legend of `entries`.
    pub(crate) fn of(entries: &[&str]) -> Reach {
        let mut firsts = [0u64; 4];
        let mut longest = 0usize;
        for e in entries {
            if let Some(&b) = e.as_bytes().first() {
                if let Some(word) = firsts.get_mut(usize::from(b >> 6)) {
                    *word |= 1 << (b & 63);
                }
            }
            longest = longest.max(e.len());
        }
        Reach {
            firsts,
            most: longest.saturating_sub(2),
        }
    }

    /// Whether an entry may stand for a prefix of `s`.
    fn may_take(&self, s: &str) -> bool {
        s.as_bytes().first().is_some_and(|&b| {
            self.firsts
                .get(usize::from(b >> 6))
                .is_some_and(|word| word & (1 << (b & 63)) != 0)
        })
    }
}

/// A string cell's text, as the CSV writer writes it without a legend, at
/// the least: its code points or bytes, and the two quotes around it when
/// the gather found it needs them and nothing else (a quote in it, doubled
/// and making it quoted, is not looked for: no string is scanned but to
/// count its code points).
fn csv_least(cell: Cell<'_>, ascii: bool) -> Option<(usize, usize)> {
    Some(match cell {
        // Printable ASCII with no byte to quote for (as measured).
        Cell::Bare(s, _) => (s.len(), 0),
        // Printable ASCII with commas but no quote, LF or CR.
        Cell::Wrapped(s, _) => (s.len(), 2),
        Cell::Str(s, _) if ascii && !s.is_ascii() => (s.chars().count(), 0),
        Cell::Str(s, _) => (s.len(), 0),
        _ => return None,
    })
}

/// The least length of the rows gen1 writes for `columns` (typed
/// `types`, the legend's reach over `str` columns `reach`): a tag and a
/// comma per cell and a line break each, and each string cell's text, less
/// what an entry may take off it. Numbers and other cells count nothing.
pub(crate) fn rows_least(columns: &Columns<'_>, types: &[Ty], reach: &Reach, ascii: bool) -> usize {
    let mut least = columns.rows.saturating_mul(columns.width() + 2);
    for row in columns.rows() {
        for (&cell, ty) in row.iter().zip(types) {
            let Some((text, quotes)) = csv_least(cell, ascii) else {
                continue;
            };
            least += match cell.as_str() {
                // A legend entry may replace a prefix (and the commas that
                // made the field quoted with it).
                Some(s) if *ty == Ty::Str && reach.may_take(s) => text.saturating_sub(reach.most),
                _ => text + quotes,
            };
        }
    }
    least
}

/// An upper bound of [`rows_least`] read without counting a string's
/// code points, and a lower bound of the table's JSON length (in the same
/// unit). A string's CSV text is never longer than its JSON text, which
/// has the same quotes around it, escapes every `"` and takes at least a
/// code point per byte; a row's tag, commas and line break take no more
/// than its braces, commas and colons. For a measured table of dict rows
/// with exactly the columns `cols`, the first is its JSON length less each
/// row's keys, the second that length; otherwise each string's bytes (and
/// the quotes of one the gather found needs them), and each row's keys and
/// strings (nothing for a table whose rows differ).
pub(crate) fn rows_bounds(columns: &Columns<'_>, cols: &[&str], ascii: bool) -> (usize, usize) {
    let keys: usize = cols.iter().map(|c| key_json_len(c, ascii)).sum();
    let (rows, width) = (columns.rows, columns.width());
    if let (Some((json, _)), true) = (columns.json, columns.exact) {
        // The JSON of the list: its brackets and a comma between rows;
        // per row, its braces, a comma between members, and each member's
        // key, colon and value (numbers not counted yet).
        let most = json.saturating_sub(1 + rows.saturating_mul(width + keys));
        return (most, json);
    }
    let mut most = rows.saturating_mul(width + 2);
    let mut strings = 0usize;
    for &cell in columns.cells() {
        let (text, quotes) = match cell {
            Cell::Bare(s, _) | Cell::Str(s, _) => (s.len(), 0),
            Cell::Wrapped(s, _) => (s.len(), 2),
            _ => continue,
        };
        most += text + quotes;
        strings += text + 2;
    }
    let json = if columns.exact {
        1 + rows + rows.saturating_mul(1 + 2 * width + keys) + strings
    } else {
        0
    };
    (most, json)
}

/// The least length of string scalars as gen1 writes them (`key=value`,
/// the value as it is, or quoted with its quotes, backslashes and line
/// breaks escaped, or as a JSON blob): each one's code points or bytes.
pub(crate) fn strings_least<'s>(strings: impl Iterator<Item = &'s str>, ascii: bool) -> usize {
    strings
        .map(|s| {
            if ascii && !s.is_ascii() {
                s.chars().count()
            } else {
                s.len()
            }
        })
        .sum()
}

/// For string scalars, what [`rows_bounds`] gives for tables: an upper
/// bound of [`strings_least`] (their bytes) and a lower bound of their
/// JSON length (their bytes and quotes: a code point of JSON text per
/// byte at the least).
pub(crate) fn strings_bounds<'s>(strings: impl Iterator<Item = &'s str>) -> (usize, usize) {
    strings.fold((0, 0), |(most, json), s| {
        (most + s.len(), json + s.len() + 2)
    })
}

#[cfg(test)]
mod tests {
    use super::{Reach, rows_bounds, rows_least};
    use crate::encode::columns::Columns;
    use crate::tier1::schema::Ty;
    use serde_json::{Value, json};

    /// Without a legend the bound is the rows' text less the numbers and
    /// the quoting of strings the gather did not look into: a tag, commas,
    /// line breaks, and each string's code points or bytes (two quotes
    /// more for one measured as needing them and nothing else).
    #[test]
    fn without_a_legend_the_bound_is_the_strings_text() {
        let rows = json!([
            {"a": "x,\"y\"", "n": 12, "b": "plain"},
            {"a": "é,é", "n": 3, "b": "a,b"},
        ]);
        let list = rows.as_array().cloned().unwrap_or_default();
        let cols = ["a", "n", "b"];
        let types = [Ty::Str, Ty::Int, Ty::Str];
        for (measure, quotes) in [(None, 0), (Some(true), 2), (Some(false), 2)] {
            let columns = Columns::gather::<_, true>(&list, &cols, measure, None).unwrap();
            let none = Reach::of(&[]);
            // Rows: 2 × (tag + 3 commas + line break) = 10; `x,"y"` 5,
            // `plain` 5, `é,é` 3 code points (5 bytes), `a,b` 3 (and its
            // quotes once measured).
            let cp = 10 + 5 + 5 + 3 + 3 + quotes;
            assert_eq!(rows_least(&columns, &types, &none, true), cp);
            assert_eq!(rows_least(&columns, &types, &none, false), cp + 2);
            for ascii in [true, false] {
                if measure.is_some_and(|m| m != ascii) {
                    continue;
                }
                let (most, json) = rows_bounds(&columns, &cols, ascii);
                assert!(
                    most >= rows_least(&columns, &types, &none, ascii),
                    "{measure:?} {ascii}"
                );
                let walked =
                    crate::py::json_write::value_json_len(&Value::Array(list.clone()), ascii);
                // (Measured, the numbers are left out until written.)
                assert!(json <= walked.0 && json + 3 >= walked.0 * usize::from(measure.is_some()));
            }
            // An entry starting a cell may take up to its length less two
            // off it, its quotes included.
            let reach = Reach::of(&["x,\"", "a,"]);
            let taken = 10 + 4 + 5 + 3 + 2;
            assert_eq!(rows_least(&columns, &types, &reach, true), taken);
        }
    }
}
