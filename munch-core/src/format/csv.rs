//! Table rows as Python's `csv` module writes and reads them (spec §4):
//! excel dialect, `\n` line terminator, minimal quoting with CR always
//! quoted; non-strict reading. Where the reference's reader raises (a
//! field over 131,072 characters, a bare CR inside an unquoted field)
//! this reader reads on (spec D1.2).

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use wire_lex::{ByteSet, Finder};

/// The reference reader's field size limit, in characters.
pub(crate) const FIELD_LIMIT: usize = 131_072;

/// Bytes that end an unquoted field.
const UNQUOTED_STOP: ByteSet = ByteSet::new(b",\n\r");

/// Bytes that make the writer quote a field.
const QUOTE_TRIGGERS: ByteSet = ByteSet::new(b",\"\n\r");

/// One row: its fields, the tag first.
pub(crate) type Row<'a> = [Cow<'a, str>];

/// The rows of table blocks, in block and row order, their fields kept in
/// one vector (no allocation per row).
#[derive(Debug, Default)]
pub(crate) struct Rows<'a> {
    fields: Vec<Cow<'a, str>>,
    /// Where each row's fields end in `fields`.
    ends: Vec<usize>,
}

impl<'a> Rows<'a> {
    /// Reads every row of every block. Blank lines give no row.
    pub(crate) fn read(blocks: &[&'a str]) -> Rows<'a> {
        let mut rows = Rows::default();
        // Sized once: a row per line at most, and (after the first row)
        // as many fields per row as the first has, never more fields than
        // the text has bytes to separate them.
        let bytes: usize = blocks.iter().map(|b| b.len()).sum();
        let lines: usize = blocks
            .iter()
            .map(|b| memchr::memchr_iter(b'\n', b.as_bytes()).count() + 1)
            .sum();
        rows.ends.reserve(lines);
        for b in blocks {
            rows.read_block(b, lines, bytes);
        }
        rows
    }

    /// All rows.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &Row<'a>> {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let row = self.fields.get(start..end).unwrap_or_default();
            start = end;
            row
        })
    }

    /// The rows whose first field is `tag` (how the reference finds a
    /// table's rows).
    pub(crate) fn tagged<'r>(&'r self, tag: &'r str) -> impl Iterator<Item = &'r Row<'a>> {
        self.iter().filter(move |r| {
            r.first()
                .is_some_and(|c| crate::value::same_bytes(c.as_bytes(), tag.as_bytes()))
        })
    }

    fn read_block(&mut self, text: &'a str, lines: usize, total: usize) {
        let mut reader = RowReader::new(text);
        while reader.next_into(&mut self.fields) {
            self.ends.push(self.fields.len());
            if self.ends.len() == 1 {
                let per_row = self.fields.len();
                let want = per_row.saturating_mul(lines).min(total / 2 + lines);
                self.fields.reserve(want.saturating_sub(per_row));
            }
        }
    }
}

/// Hands every row of `blocks` to `add`, from `rows` (read before) or
/// read one at a time when it is `None`; stops at the first `false`
/// (returned).
pub(crate) fn each_row<'a>(blocks: &[&'a str], mut add: impl FnMut(&Row<'a>) -> bool) -> bool {
    let mut fields: Vec<Cow<'a, str>> = Vec::new();
    for block in blocks {
        let mut reader = RowReader::new(block);
        loop {
            fields.clear();
            if !reader.next_into(&mut fields) {
                break;
            }
            if !add(&fields) {
                return false;
            }
        }
    }
    true
}

/// Where a row reader puts the fields it reads, in order: a list of them,
/// or a caller that looks at each as it comes (the verified encoder's
/// check compares it with the input's cell).
pub(crate) trait FieldSink<'a> {
    /// The next field of the row being read.
    fn field(&mut self, field: Cow<'a, str>);

    /// The next field, a slice of the text (most fields).
    #[inline]
    fn borrowed(&mut self, field: &'a str) {
        self.field(Cow::Borrowed(field));
    }
}

impl<'a> FieldSink<'a> for Vec<Cow<'a, str>> {
    #[inline]
    fn field(&mut self, field: Cow<'a, str>) {
        self.push(field);
    }
}

/// Rows of one block read one at a time (what [`Rows::read`] reads, with
/// no table of every field).
pub(crate) struct RowReader<'a> {
    text: &'a str,
    pos: usize,
    /// Where unquoted fields end: commas, LFs, and quotes (data inside an
    /// unquoted field, skipped). A CR ends a field only in a run reaching
    /// an LF or the end, so it is found from there, looking back.
    stops: Finder<'a>,
}

impl<'a> RowReader<'a> {
    pub(crate) fn new(text: &'a str) -> RowReader<'a> {
        RowReader::at(text, 0)
    }

    /// A reader of `text` resuming at `pos`, where an earlier reader of
    /// the same bytes (or of a prefix of them) stopped after a row.
    pub(crate) fn at(text: &'a str, pos: usize) -> RowReader<'a> {
        RowReader {
            text,
            pos,
            stops: Finder::new(text.as_bytes(), b",\n\""),
        }
    }

    /// Where the next row starts (after the rows read so far).
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// Appends the next row's fields to `fields`; false at the end of the
    /// block. Blank lines give no row.
    pub(crate) fn next_into(&mut self, fields: &mut impl FieldSink<'a>) -> bool {
        let bytes = self.text.as_bytes();
        // `pos` is at the start of a record.
        while self.pos < bytes.len() {
            match bytes.get(self.pos) {
                Some(b'\n') => {
                    self.pos += 1;
                    continue;
                }
                Some(b'\r') => {
                    if let Some(after) = row_end_after_cr(bytes, self.pos) {
                        self.pos = after;
                        continue;
                    }
                }
                _ => {}
            }
            // Fields of one record: runs of unquoted fields are split from
            // one scan of their words; a quoted field is read on its own.
            loop {
                if bytes.get(self.pos) == Some(&b'"') {
                    let stops = &mut self.stops;
                    let (field, next, ends_row) =
                        read_quoted(self.text, self.pos + 1, |i| next_quote(stops, bytes, i));
                    fields.field(field);
                    self.pos = next;
                    if ends_row {
                        return true;
                    }
                    continue;
                }
                match unquoted_run(self.text, self.pos, fields, &mut self.stops) {
                    Run::RowEnd(next) => {
                        self.pos = next;
                        return true;
                    }
                    Run::Quoted(at) => self.pos = at,
                }
            }
        }
        false
    }
}

/// Where a run of unquoted fields stopped.
enum Run {
    /// The record ended; the next one starts here.
    RowEnd(usize),
    /// A field starting with a quote starts here.
    Quoted(usize),
}

/// Reads unquoted fields from `start` (a field start that is not a quote)
/// into `fields`, as a reader of one field at a time reads them, until the
/// record ends or a field starts with a quote. A CR run ends the record
/// where it reaches an LF or the end of the text (spec D1.2), so each
/// field's end is pulled back over the CRs just before them.
fn unquoted_run<'a>(
    text: &'a str,
    start: usize,
    fields: &mut impl FieldSink<'a>,
    stops: &mut Finder<'a>,
) -> Run {
    let bytes = text.as_bytes();
    let mut field = start;
    let mut from = start;
    loop {
        let Some(at) = stops.next_from(from) else {
            let end = before_cr_run(bytes, field, bytes.len());
            fields.borrowed(text.get(field..end).unwrap_or_default());
            return Run::RowEnd(bytes.len());
        };
        match bytes.get(at) {
            Some(b',') => {
                fields.borrowed(text.get(field..at).unwrap_or_default());
                field = at + 1;
                from = field;
                if bytes.get(field) == Some(&b'"') {
                    return Run::Quoted(field);
                }
            }
            Some(b'\n') => {
                let end = before_cr_run(bytes, field, at);
                fields.borrowed(text.get(field..end).unwrap_or_default());
                return Run::RowEnd(at + 1);
            }
            // A quote inside an unquoted field is data.
            _ => from = at + 1,
        }
    }
}

/// The start of the run of CRs that ends at `end`, not before `field`.
#[inline]
fn before_cr_run(bytes: &[u8], field: usize, end: usize) -> usize {
    let mut i = end;
    while i > field && bytes.get(i - 1) == Some(&b'\r') {
        i -= 1;
    }
    i
}

/// Whether reading `block` as the reference's `csv` reader does meets a
/// field over its limit (where that reader raises).
pub(crate) fn has_long_field(block: &str) -> bool {
    block.len() > FIELD_LIMIT
        && Rows::read(&[block])
            .iter()
            .flatten()
            .any(|f| f.len() > FIELD_LIMIT && f.chars().count() > FIELD_LIMIT)
}

/// Where the row continues after a CR at `at` that ends it: the CR run
/// reaches an LF (skipped too) or the end of the text. `None` when another
/// character follows, so the CR is data (spec D1.2).
fn row_end_after_cr(bytes: &[u8], at: usize) -> Option<usize> {
    let mut i = at;
    while bytes.get(i) == Some(&b'\r') {
        i += 1;
    }
    match bytes.get(i) {
        None => Some(i),
        Some(b'\n') => Some(i + 1),
        Some(_) => None,
    }
}

/// Reads one field at `pos` (the state "field start"). Returns the field,
/// the offset after it and its delimiter, and whether the row ends. (The
/// reader takes runs of unquoted fields at once; this one-field reader is
/// what the tests hold it to.)
#[cfg(test)]
fn read_field(text: &str, pos: usize) -> (Cow<'_, str>, usize, bool) {
    let bytes = text.as_bytes();
    if bytes.get(pos) == Some(&b'"') {
        return read_quoted(text, pos + 1, |i| {
            memchr::memchr(b'"', bytes.get(i..).unwrap_or_default()).map(|off| i + off)
        });
    }
    let (end, next, ends_row) = unquoted_end(bytes, pos);
    (
        Cow::Borrowed(text.get(pos..end).unwrap_or_default()),
        next,
        ends_row,
    )
}

/// The end of unquoted text starting at `pos`: (end of field, next
/// position, row ends).
fn unquoted_end(bytes: &[u8], pos: usize) -> (usize, usize, bool) {
    let mut i = pos;
    loop {
        let Some(off) = UNQUOTED_STOP.find(bytes.get(i..).unwrap_or_default()) else {
            return (bytes.len(), bytes.len(), true);
        };
        let at = i + off;
        match bytes.get(at) {
            Some(b',') => {
                // A delimiter at the very end still opens one more
                // (empty) field, which the caller reads at `at + 1`.
                return (at, at + 1, false);
            }
            Some(b'\n') => return (at, at + 1, true),
            _ => match row_end_after_cr(bytes, at) {
                Some(after) => return (at, after, true),
                None => i = at + 1,
            },
        }
    }
}

/// The first quote at or after `from`, found with the row reader's
/// finder of field stops (whose window over the row is usually loaded
/// already): a quoted field costs no scan of its own.
#[inline]
fn next_quote(stops: &mut Finder<'_>, bytes: &[u8], mut from: usize) -> Option<usize> {
    loop {
        let at = stops.next_from(from)?;
        if bytes.get(at) == Some(&b'"') {
            return Some(at);
        }
        from = at + 1;
    }
}

/// A quoted field whose opening quote is just before `start`
/// (`next_quote(i)`: the first quote at or after `i`).
fn read_quoted(
    text: &str,
    start: usize,
    mut next_quote: impl FnMut(usize) -> Option<usize>,
) -> (Cow<'_, str>, usize, bool) {
    let bytes = text.as_bytes();
    let mut owned: Option<String> = None;
    let mut from = start;
    let mut i = start;
    loop {
        let Some(q) = next_quote(i) else {
            // Open quoted field at the end of the input: kept.
            return (append(owned, text, from, bytes.len()), bytes.len(), true);
        };
        match bytes.get(q + 1) {
            Some(b'"') => {
                let s = owned.get_or_insert_with(String::new);
                s.push_str(text.get(from..=q).unwrap_or_default());
                from = q + 2;
                i = q + 2;
            }
            None => return (append(owned, text, from, q), q + 1, true),
            Some(b',') => return (append(owned, text, from, q), q + 2, false),
            Some(b'\n') => return (append(owned, text, from, q), q + 2, true),
            Some(&b) => {
                if b == b'\r' {
                    if let Some(after) = row_end_after_cr(bytes, q + 1) {
                        return (append(owned, text, from, q), after, true);
                    }
                }
                // Text after the closing quote is data (non-strict): the
                // field goes on unquoted.
                let mut s = owned.unwrap_or_default();
                s.push_str(text.get(from..q).unwrap_or_default());
                let (end, next, ends_row) = unquoted_end(bytes, q + 1);
                s.push_str(text.get(q + 1..end).unwrap_or_default());
                return (Cow::Owned(s), next, ends_row);
            }
        }
    }
}

fn append(owned: Option<String>, text: &str, from: usize, to: usize) -> Cow<'_, str> {
    let piece = text.get(from..to).unwrap_or_default();
    match owned {
        Some(mut s) => {
            s.push_str(piece);
            Cow::Owned(s)
        }
        None => Cow::Borrowed(piece),
    }
}

/// Turns the text appended to `out` since `start` (one field's raw text)
/// into the field Python's `csv.writer` writes: left in place unless it
/// needs quotes, quoted in place unless it holds quotes to double.
pub(crate) fn finish_field(out: &mut String, start: usize) {
    let Some(raw) = out.get(start..) else { return };
    let Some(at) = QUOTE_TRIGGERS.find(raw.as_bytes()) else {
        return;
    };
    let has_quote = raw
        .as_bytes()
        .get(at..)
        .is_some_and(|rest| memchr::memchr(b'"', rest).is_some());
    if has_quote {
        let raw = out.split_off(start);
        write_field(&raw, out);
    } else {
        out.insert(start, '"');
        out.push('"');
    }
}

/// Appends one field as Python's `csv.writer` writes it.
pub(crate) fn write_field(field: &str, out: &mut String) {
    let bytes = field.as_bytes();
    let Some(first) = QUOTE_TRIGGERS.find(bytes) else {
        out.push_str(field);
        return;
    };
    out.push('"');
    // Quotes to double lie at or after the first trigger.
    let mut done = 0;
    let mut from = first;
    while let Some(q) = bytes
        .get(from..)
        .and_then(|rest| memchr::memchr(b'"', rest))
        .map(|i| from + i)
    {
        out.push_str(field.get(done..=q).unwrap_or_default());
        out.push('"');
        done = q + 1;
        from = q + 1;
    }
    out.push_str(field.get(done..).unwrap_or_default());
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Vec<Vec<String>> {
        Rows::read(&[text])
            .iter()
            .map(|r| r.iter().map(|c| c.clone().into_owned()).collect())
            .collect()
    }

    #[test]
    fn a_field_finished_in_place_is_the_field_written() {
        for field in [
            "",
            "plain",
            "a,b",
            "say \"hi\"",
            "\"",
            "line\nbreak",
            "cr\r",
            "x,\"y\"",
            "é,ü",
        ] {
            let mut written = String::from("r,");
            write_field(field, &mut written);
            let mut finished = String::from("r,");
            finished.push_str(field);
            finish_field(&mut finished, 2);
            assert_eq!(finished, written, "{field:?}");
        }
    }

    /// The rows a field-at-a-time reader gives: `read_field` from each
    /// field start, blank lines skipped between records.
    fn rows_one_field_at_a_time(text: &str) -> Vec<Vec<String>> {
        let bytes = text.as_bytes();
        let mut rows = Vec::new();
        let mut pos = 0;
        while pos < bytes.len() {
            match bytes.get(pos) {
                Some(b'\n') => {
                    pos += 1;
                    continue;
                }
                Some(b'\r') => {
                    if let Some(after) = row_end_after_cr(bytes, pos) {
                        pos = after;
                        continue;
                    }
                }
                _ => {}
            }
            let mut row = Vec::new();
            loop {
                let (field, next, ends_row) = read_field(text, pos);
                row.push(field.into_owned());
                pos = next;
                if ends_row {
                    break;
                }
            }
            rows.push(row);
        }
        rows
    }

    /// Runs of unquoted fields split from block masks read what one field
    /// at a time reads, on every text of a small alphabet up to five
    /// characters and on random longer ones (some over the finder's
    /// 512-byte window).
    #[test]
    fn block_scan_reads_what_field_reads_read() {
        let alphabet = ["a", ",", "\"", "\n", "\r", "é", "\0"];
        let mut texts = vec![String::new()];
        let mut layer = vec![String::new()];
        for _ in 0..5 {
            layer = layer
                .iter()
                .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
                .collect();
            texts.extend(layer.iter().cloned());
        }
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..3000 {
            let mut t = String::new();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = if x % 10 == 0 {
                (x % 900) as usize
            } else {
                (x % 60) as usize
            };
            for _ in 0..len {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                t.push_str(["ab", "c", ",", ",", "\"", "\n", "\r", "é", "xyzw"][(x % 9) as usize]);
            }
            texts.push(t);
        }
        for t in &texts {
            assert_eq!(rows(t), rows_one_field_at_a_time(t), "{t:?}");
        }
    }

    #[test]
    fn reads_like_python() {
        assert_eq!(
            rows("r,a,b\n\nr,\"x,\"\"y\"\"\n\nz\",\n"),
            [vec!["r", "a", "b"], vec!["r", "x,\"y\"\n\nz", ""],]
        );
        assert_eq!(rows("r,a\"b,\"c\"d,\"e\""), [vec!["r", "a\"b", "cd", "e"]]);
        assert_eq!(
            rows("r,a\r\nr,b\r\r\nr,\"c\r\"\r"),
            [vec!["r", "a"], vec!["r", "b"], vec!["r", "c\r"]]
        );
        assert_eq!(rows("r,\"open\nx"), [vec!["r", "open\nx"]]);
        assert_eq!(rows("r,"), [vec!["r", ""]]);
        assert_eq!(rows("\n\n"), Vec::<Vec<String>>::new());
        // A bare CR before data is data (the reference raises).
        assert_eq!(rows("r,a\rb,c"), [vec!["r", "a\rb", "c"]]);
        assert_eq!(rows("\rx"), [vec!["\rx"]]);
    }

    #[test]
    fn writes_like_python() {
        let mut out = String::new();
        for f in ["a b", "x,y", "q\"", "cr\r", "=;|#'"] {
            write_field(f, &mut out);
            out.push(',');
        }
        assert_eq!(out, "a b,\"x,y\",\"q\"\"\",\"cr\r\",=;|#',");
    }
}
