//! st4's transform: `results[].matches[]` ↔ flat rows (context lines as
//! JSON text, the enclosing symbol as three columns).

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde_json::{Map, Value};

use super::flat_rows::{FlatRows, Flattened, Src};
use super::{FileGroups, iter_items, pick, py_iter, truthy, without};
use crate::decode::{DecodeOptions, parse_json};
use crate::encode::Fail;
use crate::py::json_write::to_python_json;
use crate::tier1::schemas::st4::ROWS_KEY;
use crate::value::{Kind, kind};

/// The keys of a decoded match, in order (the last three optional).
const MATCH_KEYS: [&str; 5] = ["line", "text", "before", "after", "in"];

/// Regroups rows by file in first-seen order; `results` is appended last.
/// The rows are lists of their cells in column order
/// (`super::positional_rows`).
pub(crate) fn decode(result: &mut Map<String, Value>, opts: &DecodeOptions) {
    let rows = iter_items(result.shift_remove(ROWS_KEY).filter(truthy));
    let mut groups = FileGroups::default();
    // The keys of a match object, per set of the optional ones it has
    // (`before`, `after`, `in`): each made once and cloned per match (no
    // key hashed again).
    let mut shapes: [Option<Map<String, Value>>; 8] = Default::default();
    let in_shape: Map<String, Value> = ["id", "line", "end_line"]
        .into_iter()
        .map(|k| (String::from(k), Value::Null))
        .collect();
    for row in rows {
        let Value::Array(cells) = row else {
            continue;
        };
        let Ok([file, line, text, before, after, in_id, in_line, in_end]) =
            <[Value; 8]>::try_from(cells)
        else {
            continue;
        };
        let Value::String(file) = file else {
            continue;
        };
        let text = if truthy(&text) {
            text
        } else {
            Value::String(String::new())
        };
        let context = |raw: Value| match raw {
            Value::String(raw) if !raw.is_empty() => Some(
                parse_json(&raw, opts).unwrap_or_else(|| Value::Array(vec![Value::String(raw)])),
            ),
            _ => None,
        };
        let (before, after) = (context(before), context(after));
        let inn = truthy(&in_id).then(|| {
            let mut inn = in_shape.clone();
            for (slot, v) in inn.values_mut().zip([in_id, in_line, in_end]) {
                *slot = v;
            }
            Value::Object(inn)
        });
        // The match's keys in order: line, text, then those of
        // `before`, `after` and `in` it has.
        let values = [Some(line), Some(text), before, after, inn];
        let present = values.iter().enumerate().filter(|(_, v)| v.is_some());
        let mask = present.fold(0usize, |m, (i, _)| m | 1 << i);
        let Some(shape) = shapes.get_mut(mask >> 2) else {
            continue;
        };
        let shape = shape.get_or_insert_with(|| {
            let keys = MATCH_KEYS.iter().zip(&values).filter(|(_, v)| v.is_some());
            keys.map(|(k, _)| (String::from(*k), Value::Null)).collect()
        });
        let mut m = shape.clone();
        for (slot, v) in m.values_mut().zip(values.into_iter().flatten()) {
            *slot = v;
        }
        groups.push(&file, Value::Object(m));
    }
    result.insert("results".into(), groups.into_value());
}

/// Flattens `results[].matches[]` into rows: context lines as Python JSON
/// (`""` when falsy), the enclosing symbol as three columns.
pub(crate) fn encode(response: &Map<String, Value>) -> Result<Flattened<'_>, Fail> {
    let mut out = without(response, "results");
    // (The rows are kept apart: the table's place in the members stays.)
    out.insert(ROWS_KEY.into(), Value::Array(Vec::new()));
    let mut rows = FlatRows::new(8);
    for group in py_iter(response.get("results"))? {
        let Some(Kind::Dict(g)) = Some(kind(group)) else {
            continue;
        };
        let [file, matches] = pick(g, ["file", "matches"]);
        let file = Src::or_null(file);
        for m in py_iter(matches.filter(|m| truthy(m)))? {
            let Kind::Dict(m) = kind(m) else {
                continue;
            };
            let [line, text, before, after, inn] =
                pick(m, ["line", "text", "before", "after", "in"]);
            let mut ctx = |v: Option<&Value>| match v {
                Some(v) if truthy(v) => rows.make(Value::String(to_python_json(v))),
                _ => Src::Empty,
            };
            let (before, after) = (ctx(before), ctx(after));
            let inn = match inn {
                Some(v) if truthy(v) => match kind(v) {
                    Kind::Dict(d) => Some(d),
                    _ => return Err(Fail::new("match 'in' is not a dict")),
                },
                _ => None,
            };
            let [id, in_line, in_end] =
                inn.map_or([None; 3], |d| pick(d, ["id", "line", "end_line"]));
            // In the table's column order (`super::positional_rows`).
            rows.push([
                file,
                Src::or_null(line),
                Src::or_empty(text),
                before,
                after,
                Src::or_empty(id),
                Src::or_null(in_line),
                Src::or_null(in_end),
            ]);
        }
    }
    Ok((out, rows))
}

/// Whether st4's regrouping rebuilds `response` exactly from its own
/// flattening, up to key order, whatever the cells read back as: its
/// groups as `super::regroups_groups` asks, and every match one the
/// decode rebuilds with the same members: `line`, `text` as a string (any
/// falsy text reads back as ""), `before` and `after` only as non-empty
/// lists of strings (context lines, read back from their JSON text; a
/// falsy one is dropped), `in` only as
/// `{id, line, end_line}` with a non-empty string id (the decode makes
/// all three, and none without an id), nothing else; and no member named
/// as st4's private key.
pub(crate) fn regroups_exactly(response: &Map<String, Value>) -> bool {
    let lines =
        |v: &Value| matches!(v, Value::Array(l) if !l.is_empty() && l.iter().all(Value::is_string));
    let symbol = |v: &Value| {
        matches!(v, Value::Object(d) if d.len() == 3
            && matches!(pick(d, ["id", "line", "end_line"]),
                [Some(Value::String(id)), Some(_), Some(_)] if !id.is_empty()))
    };
    !response.contains_key(ROWS_KEY)
        && super::regroups_groups(response.get("results"), false, |m| {
            let [line, text, before, after, inn] = pick(m, MATCH_KEYS);
            let optional = [before, after, inn].iter().filter(|v| v.is_some()).count();
            line.is_some()
                && matches!(text, Some(Value::String(_)))
                && m.len() == 2 + optional
                && before.is_none_or(lines)
                && after.is_none_or(lines)
                && inn.is_none_or(symbol)
        })
}
