//! fr2's transform: `references[].matches[]` ↔ flat rows plus the blob of
//! files without matches.

use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{Map, Value};

use super::flat_rows::{FlatRows, Flattened, Src};
use super::{FileGroups, iter_items, pick, py_iter, truthy, without};
use crate::encode::Fail;
use crate::tier1::schemas::fr2::{EMPTY_GROUPS_KEY, ROWS_KEY};
use crate::value::{Kind, kind};

/// Regroups rows by file: the empty groups first, then the row files in
/// first-seen order; `references` is appended last.
pub(crate) fn decode(result: &mut Map<String, Value>) {
    let rows = iter_items(result.shift_remove(ROWS_KEY).filter(super::truthy));
    let empty = iter_items(result.shift_remove(EMPTY_GROUPS_KEY).filter(super::truthy));
    let mut groups = FileGroups::default();
    for file in &empty {
        if let Value::String(f) = file {
            groups.touch(f);
        }
    }
    // Rows are lists of their cells in column order
    // (`super::positional_rows`).
    for row in rows {
        let Value::Array(cells) = row else {
            continue;
        };
        let Ok([Value::String(file), specifier, match_type]) = <[Value; 3]>::try_from(cells) else {
            continue;
        };
        let mut m = Map::new();
        m.insert("specifier".into(), specifier);
        m.insert("match_type".into(), match_type);
        groups.push(&file, Value::Object(m));
    }
    result.insert("references".into(), groups.into_value());
}

/// Flattens `references` (only when present): one row per object match
/// (kept apart, its cells borrowed: `flat_rows.rs`), files without
/// matches into the `__empty_groups__` blob.
pub(crate) fn encode(response: &Map<String, Value>) -> Result<Option<Flattened<'_>>, Fail> {
    let Some(refs) = response.get("references") else {
        return Ok(None);
    };
    let mut out = without(response, "references");
    let mut rows = FlatRows::new(3);
    let mut empty = Vec::new();
    for group in py_iter(Some(refs))? {
        let Value::Object(g) = group else {
            continue;
        };
        if crate::py::number::sentinel_float(g).is_some() {
            continue;
        }
        let [file, matches] = pick(g, ["file", "matches"]);
        let matches = matches.filter(|m| truthy(m));
        let Some(matches) = matches else {
            if let Some(file @ Value::String(_)) = file {
                empty.push(file.clone());
            }
            continue;
        };
        let file = Src::or_null(file);
        for m in py_iter(Some(matches))? {
            // (A `$float` object is a float to Python: no row.)
            let Kind::Dict(m) = kind(m) else {
                continue;
            };
            let [specifier, match_type] = pick(m, ["specifier", "match_type"]);
            // In the table's column order (`super::positional_rows`).
            rows.push([file, Src::or_empty(specifier), Src::or_empty(match_type)]);
        }
    }
    // (The rows are kept apart: the table's place in the members stays.)
    out.insert(ROWS_KEY.into(), Value::Array(Vec::new()));
    if !empty.is_empty() {
        out.insert(EMPTY_GROUPS_KEY.into(), Value::Array(empty));
    }
    Ok(Some((out, rows)))
}

/// Whether fr2's regrouping rebuilds `response` exactly from its own
/// flattening, up to key order, whatever the cells read back as: its
/// groups as `super::regroups_groups` asks (files without matches, kept
/// in the `__empty_groups__` blob, only before all the others: they are
/// regrouped first), every match a `{specifier, match_type}` object (any
/// other member is dropped, a missing one added), and no member named as
/// fr2's private keys. The verified check then needs only the flattened
/// rows and members read back.
pub(crate) fn regroups_exactly(response: &Map<String, Value>) -> bool {
    !response.contains_key(ROWS_KEY)
        && !response.contains_key(EMPTY_GROUPS_KEY)
        && super::regroups_groups(response.get("references"), true, |m| {
            m.len() == 2 && matches!(pick(m, ["specifier", "match_type"]), [Some(_), Some(_)])
        })
}
