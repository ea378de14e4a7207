//! The encoders: gen1 and tier-1, each in the reference form and the
//! hardened form of spec D3.

mod cell_memo;
pub(crate) mod columns;
pub(crate) mod gen1;
pub(crate) mod gen1_same;
pub(crate) mod inline_check;
mod kept;
mod least_size;
pub(crate) mod lost_cell;
mod pairs;
mod text;
pub(crate) mod tier1;

use alloc::string::String;

use crate::unicode::{is_break, is_space};

/// An encoder's output: the payload and the id in its header.
pub(crate) struct Payload<'v> {
    pub(crate) text: String,
    pub(crate) enc: &'static str,
    /// A table cell is longer than the reference reader's field limit.
    pub(crate) long_cell: bool,
    /// Response members the encoder measured on its way (a table's list,
    /// asked for with a measure): key, Python JSON length, depth.
    pub(crate) measured: alloc::vec::Vec<(&'v str, usize, usize)>,
    /// The encoder's tables as it found them in the input, in the order
    /// it declares them (none when a tier-1 transform reshaped the input
    /// first): the check compares the rows it reads back with these cells.
    pub(crate) tables: alloc::vec::Vec<columns::Columns<'v>>,
    /// Set by a tier-1 encoder asked to check its rows as it wrote them
    /// when they all decode to the input's (`encode/inline_check.rs`).
    pub(crate) checked: Option<inline_check::CheckedRows>,
    /// A loss found before anything was written (`gen1_known_loss.rs`):
    /// then `text` is empty and the rung is refused with this mismatch.
    pub(crate) loss: Option<crate::equal::Mismatch>,
    /// The form may differ from the other form of its encoder: a hazard
    /// fired in a reference encode (spec D3; for gen1, what its tables
    /// hold is asked apart, `gen1_same::hardened_same`), or nobody looked
    /// (every other payload).
    pub(crate) hazard: bool,
    /// Not written: its JSON blobs, string scalars and table cells alone
    /// are this long, which no payload passing `auto`'s gate can be (gen1
    /// asked with a [`gen1::Gate`]; `least_size.rs`).
    pub(crate) unwritten: Option<usize>,
}

impl Payload<'_> {
    /// No payload: the encoder stopped at a loss (`lost_cell.rs`).
    pub(crate) fn lost<'w>(loss: crate::equal::Mismatch) -> Payload<'w> {
        Payload::unwritten_with("", Some(loss), None)
    }

    /// No payload: what it would hold for sure (`least` long) is more than
    /// `auto`'s gate lets through.
    pub(crate) fn unwritten<'w>(least: usize) -> Payload<'w> {
        Payload::unwritten_with("gen1", None, Some(least))
    }

    fn unwritten_with<'w>(
        enc: &'static str,
        loss: Option<crate::equal::Mismatch>,
        unwritten: Option<usize>,
    ) -> Payload<'w> {
        Payload {
            text: String::new(),
            enc,
            long_cell: false,
            measured: alloc::vec::Vec::new(),
            tables: alloc::vec::Vec::new(),
            checked: None,
            loss,
            hazard: true,
            unwritten,
        }
    }

    /// The payload without the cells it borrows.
    pub(crate) fn detached<'w>(self) -> Payload<'w> {
        Payload {
            text: self.text,
            enc: self.enc,
            long_cell: self.long_cell,
            measured: alloc::vec::Vec::new(),
            tables: alloc::vec::Vec::new(),
            checked: None,
            loss: self.loss,
            hazard: self.hazard,
            unwritten: self.unwritten,
        }
    }
}

/// Whether a cell's text exceeds the reference reader's field limit
/// (131,072 characters).
fn too_long(cell: &str) -> bool {
    use crate::format::csv::FIELD_LIMIT;
    cell.len() > FIELD_LIMIT && cell.chars().count() > FIELD_LIMIT
}

/// Ends the cell whose raw text was appended to `out` from `start`: quoted
/// as Python's `csv` writes it; true when the text exceeds the reference
/// reader's field limit.
pub(crate) fn finish_cell(out: &mut String, start: usize) -> bool {
    let long = too_long(out.get(start..).unwrap_or_default());
    crate::format::csv::finish_field(out, start);
    long
}

/// Appends a cell that is not legend-encoded as Python's `csv` writes
/// the reference's text of `v` (spec §3 "Value to text"); true when it
/// exceeds the reference reader's field limit. A string's quoting is
/// decided before it is written; a number's, a bool's or a null's text
/// never needs quotes, so it is not searched.
pub(crate) fn write_cell(v: &serde_json::Value, out: &mut String) -> bool {
    if let serde_json::Value::String(s) = v {
        return write_str_cell(s, out);
    }
    let start = out.len();
    text::write_value_text(v, out);
    // A container travels as its Python `repr`, which may need quotes.
    if matches!(
        v,
        serde_json::Value::Array(_) | serde_json::Value::Object(_)
    ) {
        finish_cell(out, start)
    } else {
        too_long(out.get(start..).unwrap_or_default())
    }
}

/// Appends a string cell that is not legend-encoded, quoted as Python's
/// `csv` writes it; true when it exceeds the reference reader's field
/// limit.
pub(crate) fn write_str_cell(s: &str, out: &mut String) -> bool {
    crate::format::csv::write_field(s, out);
    too_long(s)
}

/// Why an encoder gave up (the reference raises there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Fail(pub(crate) &'static str);

impl Fail {
    pub(crate) const fn new(why: &'static str) -> Fail {
        Fail(why)
    }
}

/// Looks up a row's columns in order: a key compare when the row's keys
/// come in the same order (the usual case), a hash lookup otherwise.
pub(crate) struct RowCursor<'v> {
    map: &'v serde_json::Map<String, serde_json::Value>,
    iter: serde_json::map::Iter<'v>,
    pending: Option<(&'v String, &'v serde_json::Value)>,
}

impl<'v> RowCursor<'v> {
    pub(crate) fn new(map: &'v serde_json::Map<String, serde_json::Value>) -> Self {
        RowCursor {
            map,
            iter: map.iter(),
            pending: None,
        }
    }

    /// The value of column `key`.
    pub(crate) fn get(&mut self, key: &str) -> Option<&'v serde_json::Value> {
        if self.pending.is_none() {
            self.pending = self.iter.next();
        }
        if let Some((k, v)) = self.pending {
            if crate::value::same_bytes(k.as_bytes(), key.as_bytes()) {
                self.pending = None;
                return Some(v);
            }
        }
        self.map.get(key)
    }
}

/// The least room a payload's text gets up front: a small reply's header,
/// scalar line and schema line fit without growing the buffer step by
/// step (the JSON length of its tables sizes a larger one).
pub(crate) const PAYLOAD_ROOM: usize = 512;

/// `#MUNCH/1 tool=<tool> enc=<id>` (the tool written raw).
pub(crate) fn write_header(tool: &str, id: &str, out: &mut String) {
    out.push_str("#MUNCH/1 tool=");
    out.push_str(tool);
    out.push_str(" enc=");
    out.push_str(id);
}

/// Keys the hardened forms cannot carry: `=`, `"` or a B break inside,
/// or a leading W.
pub(crate) fn check_key(key: &str) -> Result<(), Fail> {
    // Printable ASCII holds no B break, and no W but the space: the usual
    // key is settled in one byte scan.
    let printable = key
        .bytes()
        .all(|b| (0x20..0x7f).contains(&b) && b != b'=' && b != b'"');
    if printable && !key.starts_with(' ') {
        return Ok(());
    }
    if key.contains(['=', '"']) || key.contains(is_break) || key.starts_with(is_space) {
        return Err(Fail::new(
            "key holds '=', '\"', a line break or leading whitespace",
        ));
    }
    Ok(())
}
