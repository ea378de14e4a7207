//! The gen1 encoder (spec §6): tables found by shape, column types
//! inferred, path legend, typed scalars, the `__tables` schema line.
//! The hardened form (spec D3) differs only where a hazard fires.

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{Map, Value};

use super::cell_memo::CellMemo;
use super::columns::Cell;
use super::pairs::{Pairs, Scalar};
use super::text::{is_container, push_stype, write_value_text};
use super::{Fail, Payload, check_key, write_cell, write_header};
use crate::decode::gen1::TAGS;
use crate::format::csv::FIELD_LIMIT;
use crate::format::legend::Builder;
use crate::py::json_write::write_python_json;
use crate::value::{Kind, kind};

/// A table found in the response.
struct Found<'v> {
    key: Cow<'v, str>,
    rows: &'v [Value],
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

/// An array of ≥ 2 objects with the same key sequence.
fn homogeneous(v: &Value) -> Option<&[Value]> {
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
    for row in rest {
        let Kind::Dict(m) = kind(row) else {
            return None;
        };
        if !m.keys().eq(head.keys()) {
            return None;
        }
    }
    Some(items)
}

/// The hardened table test: every column holds one kind (plus nulls), no
/// container or `""` cell, no cell over the reference's field limit.
fn safe_table(rows: &[Value]) -> bool {
    let Some(Value::Object(head)) = rows.first() else {
        return false;
    };
    for col in head.keys() {
        let mut seen: Option<u8> = None;
        for row in rows {
            let Some(v) = row.get(col) else {
                return false;
            };
            let k = match kind(v) {
                Kind::Null => continue,
                Kind::Bool(_) => 0,
                Kind::Int(_) => 1,
                Kind::Float(_) => 2,
                Kind::Str(s) => {
                    if s.is_empty() || (s.len() > FIELD_LIMIT && s.chars().count() > FIELD_LIMIT) {
                        return false;
                    }
                    3
                }
                Kind::List(_) | Kind::Dict(_) => return false,
            };
            match seen {
                Some(prev) if prev != k => return false,
                _ => seen = Some(k),
            }
        }
    }
    true
}

/// The values of a row object in key order (nothing for a non-object).
fn values(row: &Value) -> impl Iterator<Item = &Value> {
    row.as_object().into_iter().flat_map(|m| m.values())
}

/// Column types by the reference's inference: per column, the kinds of
/// its non-null values in row order, scanning stopped at two kinds.
fn column_types(rows: &[Value], ncols: usize) -> Vec<&'static str> {
    // Per column: seen bool, int, float, other; and whether it stopped.
    let mut seen: Vec<([bool; 4], bool)> = alloc::vec![([false; 4], false); ncols];
    for row in rows {
        for (v, (kinds, stopped)) in values(row).zip(seen.iter_mut()) {
            if *stopped {
                continue;
            }
            let k = match kind(v) {
                Kind::Null => continue,
                Kind::Bool(_) => 0,
                Kind::Int(_) => 1,
                Kind::Float(_) => 2,
                _ => 3,
            };
            if let Some(slot) = kinds.get_mut(k) {
                *slot = true;
            }
            if kinds.iter().filter(|&&x| x).count() > 1 {
                *stopped = true;
            }
        }
    }
    seen.into_iter().map(|(k, _)| type_of_kinds(k)).collect()
}

fn type_of_kinds([b, i, f, o]: [bool; 4]) -> &'static str {
    match (b, i, f, o) {
        (_, _, _, true) => "str",
        (true, false, false, false) => "bool",
        (false, true, false, false) => "int",
        (false, false, true, false) | (false, true, true, false) => "float",
        _ => "str",
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

/// Encodes `response` as gen1. `hardened` applies the spec D3 fixes;
/// `capacity` is a size hint for the payload.
pub(crate) fn encode(
    tool: &str,
    response: &Map<String, Value>,
    hardened: bool,
    capacity: usize,
) -> Result<Payload<'static>, Fail> {
    let mut tables: Vec<Found<'_>> = Vec::new();
    let mut left: Vec<(Cow<'_, str>, Left<'_>)> = Vec::new();
    for (key, value) in response {
        if hardened {
            check_key(key)?;
        } else if key == "__tables" || key == "__stypes" {
            continue;
        }
        let table_ok =
            |k: &str, rows: &[Value]| !hardened || (!k.contains('.') && safe_table(rows));
        if let Some(rows) = homogeneous(value) {
            if table_ok(key, rows) {
                tables.push(Found {
                    key: Cow::Borrowed(key),
                    rows,
                });
                continue;
            }
        } else if let Kind::Dict(children) = kind(value) {
            let mut inner: Vec<Found<'_>> = Vec::new();
            let mut rest = Map::new();
            if !(hardened && key.contains('.')) {
                for (sub, sv) in children {
                    match homogeneous(sv) {
                        Some(rows) if table_ok(sub, rows) => {
                            inner.push(Found {
                                key: Cow::Owned(format!("{key}.{sub}")),
                                rows,
                            });
                        }
                        _ => {
                            rest.insert(sub.clone(), sv.clone());
                        }
                    }
                }
            }
            if !inner.is_empty() {
                tables.extend(inner);
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

    // Column types, then the legend over `str` columns.
    let typed: Vec<(Vec<&str>, Vec<&'static str>)> = tables
        .iter()
        .map(|t| {
            let cols: Vec<&str> = match t.rows.first() {
                Some(Value::Object(m)) => m.keys().map(String::as_str).collect(),
                _ => Vec::new(),
            };
            let types = column_types(t.rows, cols.len());
            (cols, types)
        })
        .collect();
    // Room for every `str` cell (up to a bound), so the table of distinct
    // strings is not rebuilt while it grows.
    let cells: usize = tables
        .iter()
        .zip(&typed)
        .map(|(t, (_, types))| t.rows.len() * types.iter().filter(|&&ty| ty == "str").count())
        .sum();
    let mut builder = Builder::with_capacity(cells);
    // Each `str` cell's slot, in the order the rows are written.
    let mut slots: Vec<Option<usize>> = Vec::with_capacity(cells);
    for (t, (_, types)) in tables.iter().zip(&typed) {
        for row in t.rows {
            // Every row has the table's key sequence (see `homogeneous`).
            for (v, ty) in values(row).zip(types) {
                if *ty == "str" {
                    if let Value::String(s) = v {
                        slots.push(builder.observe(s));
                    }
                }
            }
        }
    }
    let mut memo = CellMemo::new(&builder);
    builder.add_prefixes();
    let legend = builder.finish(2, hardened);

    // Scalars: leftovers in order, then overflow blobs, __stypes, __tables.
    let mut pairs = Pairs::default();
    let mut stypes = String::new();
    let blob = |v: &Value| {
        let mut s = String::new();
        write_python_json(v, &mut s);
        Scalar::Text(s)
    };
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
        pairs.set(
            Cow::Owned(format!("__json.{}", t.key)),
            blob(&Value::Array(t.rows.to_vec())),
        );
    }
    if !stypes.is_empty() {
        pairs.set(Cow::Borrowed("__stypes"), Scalar::Text(stypes));
    }
    let mut schema = String::new();
    for (n, (t, (cols, types))) in tables.iter().zip(&typed).enumerate() {
        if n > 0 {
            schema.push(',');
        }
        let tag = TAGS.get(n..=n).unwrap_or("t");
        escape_schema(tag, &mut schema);
        schema.push(':');
        escape_schema(&t.key, &mut schema);
        schema.push(':');
        for (i, c) in cols.iter().enumerate() {
            if i > 0 {
                schema.push('|');
            }
            escape_schema(c, &mut schema);
        }
        schema.push(':');
        schema.push_str(&types.join("|"));
    }
    pairs.set(Cow::Borrowed("__tables"), Scalar::Text(schema));

    let mut out = String::with_capacity(capacity);
    write_header(tool, "gen1", &mut out);
    out.push_str("\n\n");
    if legend.write(&mut out) {
        out.push_str("\n\n");
    }
    if hardened {
        let first = pairs.list.first().map_or("", |(k, _)| k.as_ref());
        let b = first.as_bytes();
        if first.starts_with('@')
            || (b.len() >= 2
                && b.first().is_some_and(u8::is_ascii_lowercase)
                && b.get(1) == Some(&b','))
        {
            out.push(' ');
        }
    }
    pairs.write(hardened, &mut out);
    let mut long_cell = false;
    let mut slots = slots.into_iter();
    for (n, (t, (_, types))) in tables.iter().zip(&typed).enumerate() {
        out.push_str("\n\n");
        let tag = TAGS.get(n..=n).unwrap_or("t");
        for (r, row) in t.rows.iter().enumerate() {
            if r > 0 {
                out.push('\n');
            }
            out.push_str(tag);
            for (v, ty) in values(row).zip(types) {
                out.push(',');
                long_cell |= match v {
                    Value::String(s) if *ty == "str" => {
                        let slot = slots.next().flatten();
                        memo.write(slot, Cell::Str(s), (&legend, hardened), &mut out)
                    }
                    v => write_cell(v, &mut out),
                };
            }
        }
    }
    out.push('\n');
    Ok(Payload {
        text: out,
        enc: "gen1",
        long_cell,
        measured: alloc::vec::Vec::new(),
        tables: alloc::vec::Vec::new(),
        checked: None,
    })
}
