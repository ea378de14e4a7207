//! The gen1 encoder (spec §6): tables found by shape, column types
//! inferred, path legend, typed scalars, the `__tables` schema line.
//! The hardened form (spec D3) differs only where a hazard fires.

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{Map, Value};

use super::cell_memo::CellMemo;
use super::columns::{Cell, Columns, written_number};
use super::gen1_same::{safe_table, scalar_hazard, spaced_first_key};
use super::kept::Counted;
pub(crate) use super::kept::Kept;
use super::least_size::{Reach, rows_bounds, rows_least, strings_bounds, strings_least};
use super::lost_cell::lost_cell;
use super::pairs::{Pairs, Scalar};
use super::text::{is_container, push_stype, write_value_text};
use super::{Fail, Payload, check_key, write_cell, write_header, write_str_cell};
use crate::decode::gen1::TAGS;
use crate::equal::Mismatch;
use crate::py::json_write::python_json_len;
use crate::tier1::schema::Ty;
use crate::value::{Kind, kind};
use hashbrown::DefaultHashBuilder;

/// A table found in the response: its first row's keys (every row's, in
/// order) and its cells.
struct Found<'v> {
    key: Cow<'v, str>,
    cols: Vec<&'v str>,
    columns: Columns<'v>,
}

/// What a leftover key carries.
enum Left<'v> {
    Value(&'v Value),
    Owned(Value),
}

impl Left<'_> {
    fn value(&self) -> &Value {
        match self {
            Left::Value(v) => v,
            Left::Owned(v) => v,
        }
    }
}

/// An array of ≥ 2 objects with the same key sequence, its cells gathered
/// on the way (`measure`, `hasher`: see [`Columns::gather`]) or taken from
/// what the other rung kept of it: its columns and cells.
fn table<'v>(
    v: &'v Value,
    measure: Option<bool>,
    hasher: &DefaultHashBuilder,
    kept: &mut Vec<Columns<'v>>,
) -> Option<(Vec<&'v str>, Columns<'v>)> {
    let Kind::List(items) = kind(v) else {
        return None;
    };
    let [first, rest @ ..] = items else {
        return None;
    };
    if rest.is_empty() {
        return None;
    }
    let Kind::Dict(head) = kind(first) else {
        return None;
    };
    let cols: Vec<&str> = head.keys().map(String::as_str).collect();
    // (Kept tables were not measured: see `Kept::keep`.)
    let at = kept.iter().position(|c| {
        measure.is_none() && core::ptr::eq(c.source, items) && c.width() == cols.len()
    });
    if let Some(columns) = at.map(|i| kept.swap_remove(i)) {
        return Some((cols, columns));
    }
    let columns = Columns::gather::<_, true>(items, &cols, measure, Some(hasher))?;
    Some((cols, columns))
}

/// What a gen1 rung may use besides the response: `auto`'s gate (for the
/// ladder's last rung) and the tables the other gen1 rung kept.
#[derive(Default)]
pub(crate) struct Shared<'s, 'v> {
    pub(crate) gate: Option<&'s Gate<'s>>,
    pub(crate) kept: Option<&'s mut Kept<'v>>,
}

/// A cell's kind for the type inference: bool 0, int 1, float 2, any
/// other value 3; `None` for null or no value.
pub(super) fn cell_kind(cell: Cell<'_>) -> Option<u8> {
    Some(match cell {
        Cell::Absent => return None,
        Cell::Str(..) | Cell::Bare(..) | Cell::Wrapped(..) => 3,
        Cell::UInt(_) | Cell::NegInt(_) => 1,
        Cell::Float(_) => 2,
        Cell::Other(v) => match kind(v) {
            Kind::Null => return None,
            Kind::Bool(_) => 0,
            Kind::Int(_) => 1,
            Kind::Float(_) => 2,
            _ => 3,
        },
    })
}

/// Per column, the kinds of its non-null values in row order (a bit per
/// kind: bool, int, float, other), scanning stopped at two kinds: the
/// reference's type inference reads [`type_of_kinds`] of them.
fn column_kinds(columns: &Columns<'_>) -> Vec<u8> {
    // Per column, a bit per kind seen: bool, int, float, other.
    let mut seen: Vec<u8> = alloc::vec![0; columns.width()];
    for row in columns.rows() {
        for (&cell, kinds) in row.iter().zip(seen.iter_mut()) {
            if kinds.count_ones() > 1 {
                continue;
            }
            if let Some(k) = cell_kind(cell) {
                *kinds |= 1 << k;
            }
        }
    }
    seen
}

/// The first cell of top-level table `key` that its column's type does
/// not keep, in a column of two kinds or more (`kinds`, `types`): an int
/// in a `float` column reads back as a float, a number or a bool in a
/// `str` column as a string.
fn mixed_cell(
    key: &str,
    cols: &[&str],
    columns: &Columns<'_>,
    (kinds, types): (&[u8], &[Ty]),
) -> Option<Mismatch> {
    if key.contains('.') || kinds.iter().all(|k| k.count_ones() < 2) {
        return None;
    }
    let width = columns.width().max(1);
    let (at, kind) = columns.cells().iter().enumerate().find_map(|(i, &cell)| {
        let ty = types.get(i % width)?;
        let lost = match (ty, cell_kind(cell)) {
            (Ty::Float, Some(1)) => "int_to_float",
            (Ty::Str, Some(0)) => "bool_stringified",
            (Ty::Str, Some(1)) => "int_stringified",
            (Ty::Str, Some(2)) => "float_stringified",
            _ => return None,
        };
        Some((i, lost))
    })?;
    let col = cols.get(at % width)?;
    let path = format!("$.{key}[{}].{col}", at / width);
    Some(Mismatch { path, kind })
}

fn type_of_kinds(kinds: u8) -> Ty {
    let has = |k: u8| kinds & (1 << k) != 0;
    match (has(0), has(1), has(2), has(3)) {
        (_, _, _, true) => Ty::Str,
        (true, false, false, false) => Ty::Bool,
        (false, true, false, false) => Ty::Int,
        (false, false, true, false) | (false, true, true, false) => Ty::Float,
        _ => Ty::Str,
    }
}

fn escape_schema(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '%' => out.push_str("%25"),
            ':' => out.push_str("%3A"),
            '|' => out.push_str("%7C"),
            ',' => out.push_str("%2C"),
            c => out.push(c),
        }
    }
}

/// A response member's JSON length as it was measured: key, length,
/// nesting depth.
pub(crate) type Measured<'k> = (&'k str, usize, usize);

/// The response's JSON length, given the tables a rung measured.
pub(crate) type JsonOf<'g> = dyn Fn(&[Measured<'_>]) -> usize + 'g;

/// `auto`'s gate, for a gen1 rung it may refuse before writing it: the
/// threshold, and the response's JSON length (in the gate's unit:
/// `ascii`, code points of Python's `ensure_ascii` text, else UTF-8 bytes)
/// given the tables the rung measured, as `(key, length, depth)`. For the
/// ladder's first rung that is when the size walk is made; a later rung's
/// gate knows it already, with the JSON length of each container member
/// (`measured`) for the blobs.
pub(crate) struct Gate<'g> {
    pub(crate) threshold: f64,
    pub(crate) json: &'g JsonOf<'g>,
    pub(crate) measured: Option<&'g [Measured<'g>]>,
    pub(crate) ascii: bool,
}

impl Gate<'_> {
    /// Whether a payload at least `least` long cannot pass the gate of a
    /// response `json` long.
    fn cannot_pass(&self, least: usize, json: usize) -> bool {
        crate::savings::saved_ratio(json, least) < self.threshold
    }
}

/// The length, in `gate`'s unit, of the JSON blobs written for the
/// containers among `left` (a whole member's from `gate.measured`): a lower
/// bound of the payload's size, since each blob is written whole
/// (`ensure_ascii`, quoted); and whether it is more than the gate lets
/// through. Nothing for a gate that has not measured the members (a first
/// rung's: the size walk has not been made).
fn blobs_least(left: &[(Cow<'_, str>, Left<'_>)], gate: &Gate<'_>) -> (usize, bool) {
    let Some(members) = gate.measured else {
        return (0, false);
    };
    let json = (gate.json)(&[]);
    let mut least = 0usize;
    for (key, l) in left {
        let v = l.value();
        if !is_container(v) {
            continue;
        }
        // (A member whose tables were taken out is written without them:
        // its length is not the walk's.)
        let measured = match (key, l) {
            (Cow::Borrowed(k), Left::Value(_)) => members.iter().find(|m| m.0 == *k).map(|m| m.1),
            _ => None,
        };
        least += measured.unwrap_or_else(|| python_json_len(v, gate.ascii).0);
        if gate.cannot_pass(least, json) {
            return (least, true);
        }
    }
    (least, false)
}

/// With the blobs (`blobs` long), the least the payload's string scalars
/// (among `left`) and tables take, once that is more than `gate` lets
/// through (`least_size.rs`), with the tables' measure handed to the
/// gate (for the size walk). It is counted, and a first rung's gate
/// asked for the response's JSON length, only when an upper bound of it,
/// read from the cells' lengths, saves too little (for a first rung: of a
/// lower bound of the JSON of its tables and strings).
fn past_gate<'v>(
    gate: &Gate<'_>,
    (blobs, left): (usize, &[(Cow<'_, str>, Left<'_>)]),
    keys: &[Cow<'v, str>],
    found: &[Columns<'v>],
    typed: &[(Vec<&str>, Vec<Ty>)],
    legend: &[&str],
) -> Option<(usize, Vec<Measured<'v>>)> {
    let strings = || {
        left.iter().filter_map(|(_, l)| match l {
            Left::Value(Value::String(s)) => Some(s.as_str()),
            _ => None,
        })
    };
    let (mut most, mut floor) = strings_bounds(strings());
    most += blobs;
    for (c, (cols, _)) in found.iter().zip(typed) {
        let (m, f) = rows_bounds(c, cols, gate.ascii);
        most += m;
        floor += f;
    }
    // The response's JSON length when the gate knows it already, else
    // its tables' at the least (a share saved of less is less).
    let json = match gate.measured {
        Some(_) => (gate.json)(&[]),
        None => floor,
    };
    if crate::savings::saved_ratio(json, most) >= gate.threshold {
        return None;
    }
    let reach = Reach::of(legend);
    let least = blobs
        + strings_least(strings(), gate.ascii)
        + found
            .iter()
            .zip(typed)
            .map(|(c, (_, types))| rows_least(c, types, &reach, gate.ascii))
            .sum::<usize>();
    let measured = measured_tables(keys, found, true);
    let json = (gate.json)(&measured);
    gate.cannot_pass(least, json).then_some((least, measured))
}

/// The response members whose JSON length their gather counted: the
/// tables that are whole members, as `(key, length, depth)`
/// (`Payload::measured`). `numbers`: their number cells are not written
/// yet, so their length is added here.
fn measured_tables<'v>(
    keys: &[Cow<'v, str>],
    found: &[Columns<'v>],
    numbers: bool,
) -> Vec<(&'v str, usize, usize)> {
    keys.iter()
        .zip(found)
        .filter_map(|(key, c)| match (key, c.json) {
            (Cow::Borrowed(key), Some((len, depth))) => {
                let len = if numbers { len + c.number_len() } else { len };
                Some((*key, len, depth))
            }
            _ => None,
        })
        .collect()
}

/// Encodes `response` as gen1. `hardened` applies the spec D3 fixes;
/// `capacity` is a size hint for the payload. Each table's cells are
/// found once and kept in the payload (`Payload::tables`, for the check);
/// with `measure` (`ensure_ascii`) the Python JSON length of each table
/// that is a member of `response` is counted on the way
/// (`Payload::measured`). With `stop_at_loss`, the reference form stops
/// at a table cell it is known to lose (`Payload::loss`, `lost_cell.rs`),
/// writing nothing. With `shared.gate`, an encode whose JSON blobs alone
/// cannot pass `auto`'s gate writes nothing either (`Payload::unwritten`).
/// With `shared.kept`, tables are taken from what the other rung kept, and
/// strings hashed with its hasher; a payload refused at a loss keeps its
/// tables (`Payload::tables`).
pub(crate) fn encode<'v>(
    tool: &str,
    response: &'v Map<String, Value>,
    hardened: bool,
    capacity: usize,
    measure: Option<bool>,
    stop_at_loss: bool,
    shared: Shared<'_, 'v>,
) -> Result<Payload<'v>, Fail> {
    let Shared { gate, kept } = shared;
    let mut spare = Vec::new();
    // The legend's hasher: string cells are hashed as they are gathered
    // (with the other rung's, when its tables are taken).
    let mut spare_counted = None;
    let (hasher, kept, counted) = match kept {
        Some(k) => (k.hasher.clone(), &mut k.tables, &mut k.counted),
        None => (
            DefaultHashBuilder::default(),
            &mut spare,
            &mut spare_counted,
        ),
    };
    let mut tables: Vec<Found<'_>> = Vec::new();
    let mut left: Vec<(Cow<'_, str>, Left<'_>)> = Vec::new();
    // The reference form met a hazard (spec D3): the hardened form would
    // write something else. (Whether its tables are ones the hardened
    // form keeps is asked only of a refused payload: `hardened_same`.)
    let mut hazard = false;
    for (key, value) in response {
        if hardened {
            check_key(key)?;
        } else {
            hazard |= check_key(key).is_err();
            if key == "__tables" || key == "__stypes" {
                hazard = true;
                continue;
            }
        }
        let table_ok =
            |k: &str, columns: &Columns<'_>| !hardened || (!k.contains('.') && safe_table(columns));
        // A table that is a member of the response is its whole list: its
        // JSON length is counted as it is gathered.
        if let Some((cols, columns)) = table(value, measure, &hasher, kept) {
            if table_ok(key, &columns) {
                hazard |= key.contains('.');
                tables.push(Found {
                    key: Cow::Borrowed(key),
                    cols,
                    columns,
                });
                continue;
            }
        } else if let Kind::Dict(children) = kind(value) {
            let mut inner: Vec<(&str, Found<'_>)> = Vec::new();
            if !(hardened && key.contains('.')) {
                for (sub, sv) in children {
                    match table(sv, None, &hasher, kept) {
                        Some((cols, columns)) if table_ok(sub, &columns) => {
                            hazard |= key.contains('.') || sub.contains('.');
                            let key = Cow::Owned(format!("{key}.{sub}"));
                            inner.push((sub, Found { key, cols, columns }));
                        }
                        _ => {}
                    }
                }
            }
            if !inner.is_empty() {
                // The other children stay together, copied (only when a
                // child is a table).
                let rest: Map<String, Value> = children
                    .iter()
                    .filter(|(sub, _)| !inner.iter().any(|(t, _)| *t == sub.as_str()))
                    .map(|(sub, sv)| (sub.clone(), sv.clone()))
                    .collect();
                tables.extend(inner.into_iter().map(|(_, found)| found));
                if !rest.is_empty() {
                    left.push((Cow::Borrowed(key), Left::Owned(Value::Object(rest))));
                }
                continue;
            }
        }
        left.push((Cow::Borrowed(key), Left::Value(value)));
    }
    let overflow = if tables.len() > TAGS.len() {
        tables.split_off(TAGS.len())
    } else {
        Vec::new()
    };
    // (A table past the tags the hardened form refuses moves the blobs.)
    hazard |= !hardened && overflow.iter().any(|t| !safe_table(&t.columns));
    let blobs = gate.map(|g| blobs_least(&left, g));
    if let Some((least, true)) = blobs {
        return Ok(Payload::unwritten(least));
    }
    // The column types, and the legend over `str` columns.
    let mut keys: Vec<Cow<'_, str>> = Vec::with_capacity(tables.len());
    let mut found: Vec<Columns<'v>> = Vec::with_capacity(tables.len());
    let mut typed: Vec<(Vec<&str>, Vec<Ty>)> = Vec::with_capacity(tables.len());
    let mut tables = tables.into_iter();
    while let Some(t) = tables.next() {
        let kinds = column_kinds(&t.columns);
        let types: Vec<Ty> = kinds.iter().map(|&k| type_of_kinds(k)).collect();
        if let (true, false, Cow::Borrowed(key)) = (stop_at_loss, hardened, &t.key) {
            // The reference form stops at a cell it is known to lose: an
            // empty string or a container, or a cell of a kind its
            // column's type does not keep (an int in a float column, a
            // number or a bool in a str column).
            let loss = (!key.contains('.'))
                .then(|| lost_cell(key, &t.cols, &t.columns))
                .flatten()
                .or_else(|| mixed_cell(key, &t.cols, &t.columns, (&kinds, &types)));
            if let Some(m) = loss {
                // Its tables, for the hardened rung, and what their
                // gather measured, for the size walk.
                keys.push(t.key);
                found.push(t.columns);
                for t in tables {
                    keys.push(t.key);
                    found.push(t.columns);
                }
                let mut lost = Payload::lost(m);
                lost.measured = measured_tables(&keys, &found, true);
                lost.tables = found;
                return Ok(lost);
            }
        }
        keys.push(t.key);
        found.push(t.columns);
        typed.push((t.cols, types));
    }
    // The JSON length of the tables bounds the payload's well enough.
    let capacity = capacity.max(found.iter().filter_map(|c| c.json).map(|j| j.0).sum());
    // The legend's counts: the other rung's, when it read the same tables.
    let taken = counted.take().filter(|c| c.of(&found));
    let counts = taken.unwrap_or_else(|| Counted::new(&found, &typed, hasher));
    let legend = counts.builder.finish(2, hardened);
    // `auto`'s gate: a payload whose blobs, strings and table cells alone
    // save too little is not written (its tables and counts kept for the
    // other rung, as for a refused one).
    if let (Some(g), Some((blobs, _))) = (gate, blobs) {
        let scalars = (blobs, &left[..]);
        if let Some((least, measured)) = past_gate(g, scalars, &keys, &found, &typed, &legend.list)
        {
            let mut unwritten = Payload::unwritten(least);
            unwritten.measured = measured;
            unwritten.tables = found;
            if !hardened {
                *counted = Some(counts);
            }
            return Ok(unwritten);
        }
    }
    let mut memo = CellMemo::new(&counts.builder);

    // Scalars: leftovers in order, then overflow blobs, __stypes, __tables.
    // (Room for the leftovers and the lines after them.)
    let mut pairs = Pairs::with_capacity(left.len() + 3);
    let mut stypes = String::with_capacity(64);
    let blob = Scalar::Json;
    for (k, l) in &left {
        let v = l.value();
        let as_json = is_container(v)
            || (hardened
                && (v.is_null()
                    || k == "__tables"
                    || k == "__stypes"
                    || k.starts_with("__json.")
                    || (!v.is_string() && (k.contains(':') || k.contains('|')))));
        if as_json {
            pairs.set(Cow::Owned(format!("__json.{k}")), blob(v));
            continue;
        }
        hazard |= scalar_hazard(k, v);
        push_stype(k, v, &mut stypes);
        let scalar = match l {
            Left::Value(v) => Scalar::Value(v),
            Left::Owned(v) => {
                let mut s = String::new();
                write_value_text(v, &mut s);
                Scalar::Text(s)
            }
        };
        pairs.set(k.clone(), scalar);
    }
    for t in &overflow {
        let key = Cow::Owned(format!("__json.{}", t.key));
        pairs.set(key, Scalar::JsonList(t.columns.source));
    }
    if !stypes.is_empty() {
        pairs.set(Cow::Borrowed("__stypes"), Scalar::Text(stypes));
    }
    let mut schema = String::new();
    for (n, (key, (cols, types))) in keys.iter().zip(&typed).enumerate() {
        if n > 0 {
            schema.push(',');
        }
        let tag = TAGS.get(n..=n).unwrap_or("t");
        escape_schema(tag, &mut schema);
        schema.push(':');
        escape_schema(key, &mut schema);
        schema.push(':');
        for (i, c) in cols.iter().enumerate() {
            if i > 0 {
                schema.push('|');
            }
            escape_schema(c, &mut schema);
        }
        schema.push(':');
        for (i, ty) in types.iter().enumerate() {
            if i > 0 {
                schema.push('|');
            }
            schema.push_str(ty.name());
        }
    }
    pairs.set(Cow::Borrowed("__tables"), Scalar::Text(schema));

    let mut out = String::with_capacity(capacity.max(super::PAYLOAD_ROOM));
    write_header(tool, "gen1", &mut out);
    out.push_str("\n\n");
    if legend.write(&mut out) {
        out.push_str("\n\n");
    }
    if spaced_first_key(&pairs) {
        if hardened {
            out.push(' ');
        }
        hazard = true;
    }
    hazard |= pairs.write(hardened, &mut out);
    let mut long_cell = false;
    let mut slots = counts.slots.iter().copied();
    for (n, (columns, (_, types))) in found.iter_mut().zip(&typed).enumerate() {
        out.push_str("\n\n");
        let tag = TAGS.get(n..=n).unwrap_or("t");
        // The text of the number cells, which the measure left to this
        // writer (the JSON text of each is the text written).
        let mut written = 0usize;
        for (r, row) in columns.rows().enumerate() {
            if r > 0 {
                out.push('\n');
            }
            out.push_str(tag);
            for (&cell, ty) in row.iter().zip(types) {
                out.push(',');
                let start = out.len();
                long_cell |= match cell {
                    Cell::Str(..) | Cell::Bare(..) | Cell::Wrapped(..) if *ty == Ty::Str => {
                        let slot = slots.next().flatten();
                        memo.write(slot, cell, (&legend, hardened), &mut out)
                    }
                    Cell::Str(s, _) | Cell::Bare(s, _) | Cell::Wrapped(s, _) => {
                        write_str_cell(s, &mut out)
                    }
                    Cell::UInt(_) | Cell::NegInt(_) | Cell::Float(_) => {
                        cell.write_number(&mut out);
                        written += out.len() - start;
                        false
                    }
                    Cell::Other(v) => {
                        let long = write_cell(v, &mut out);
                        if written_number(v) {
                            written += out.len() - start;
                        }
                        long
                    }
                    Cell::Absent => false,
                };
            }
        }
        columns.add_written_numbers(written);
    }
    let measured = measured_tables(&keys, &found, false);
    out.push('\n');
    // For the hardened rung, if this one is refused.
    if !hardened {
        *counted = Some(counts);
    }
    Ok(Payload {
        text: out,
        enc: "gen1",
        long_cell,
        measured,
        tables: found,
        checked: None,
        loss: None,
        hazard: hazard || legend.hazard(),
        unwritten: None,
    })
}

#[cfg(test)]
mod tests {
    use super::{Kept, Shared, encode};
    use serde_json::{Value, json};

    /// The hardened rung writes the same payload whether it takes the
    /// tables the reference rung kept (refused at a loss, or written and
    /// refused by the check), and the legend's counts of a written rung
    /// over the same tables, or finds them itself; and it does take them.
    #[test]
    fn hardened_rung_takes_the_kept_tables() {
        let responses = [
            // An empty string: the reference rung stops at it.
            json!({"n": 2, "rows": [{"a": "x", "b": 1}, {"a": "", "b": 2}], "more": [{"k": 1.5}, {"k": 2.5}]}),
            // Written whole by the reference rung; nested and dotted tables.
            json!({"outer": {"rows": [{"a": "src/x/1", "b": true}, {"a": "src/x/2", "b": false}], "note": "n"},
                   "t.x": [{"c": "1"}, {"c": "2"}], "rows": [{"p": "@1"}, {"p": "q"}]}),
            // A table whose cells the hardened form refuses (mixed kinds).
            json!({"rows": [{"v": 1}, {"v": "1"}, {"v": null}], "keep": [{"w": "a,b"}, {"w": "c\nd"}]}),
            // The same tables in both forms (an entry followed by a digit
            // in the reference form): the legend's counts are taken too.
            json!({"rows": [{"m": "module_1"}, {"m": "module_1"}, {"m": "module_1"}, {"m": "module_12"}]}),
        ];
        for response in responses {
            let Value::Object(map) = &response else {
                panic!("an object");
            };
            let mut kept = Kept::default();
            let shared = Shared {
                gate: None,
                kept: Some(&mut kept),
            };
            let reference = encode("t", map, false, 0, None, true, shared).unwrap();
            kept.keep(reference.tables);
            let before = kept.tables.len();
            assert!(before > 0, "{response}");
            let fresh = encode("t", map, true, 0, None, false, Shared::default()).unwrap();
            // The counts a written reference rung kept are those of the
            // hardened rung's tables when they are the same lists.
            let same = kept.counted.as_ref().is_some_and(|c| c.of(&fresh.tables));
            assert_eq!(
                same,
                response
                    .get("rows")
                    .is_some_and(|r| r[0].get("m").is_some())
            );
            let shared = Shared {
                gate: None,
                kept: Some(&mut kept),
            };
            let taken = encode("t", map, true, 0, None, false, shared).unwrap();
            assert_eq!(taken.text, fresh.text, "{response}");
            assert!(kept.tables.len() < before, "{response}");
        }
    }
}
