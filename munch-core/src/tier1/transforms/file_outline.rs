//! fo1's batch transform: per-file `results[].symbols` ↔ a file-tagged
//! symbols table and a per-file results table.

use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{Map, Value};

use super::{iter_items, truthy};
use crate::decode::{Budget, VALUE_COST};
use crate::encode::Fail;
use crate::equal::Mismatch;
use crate::tier1::schema::is_universal_body_key;
use crate::tier1::schemas::FILE_OUTLINE_BATCH_TABLES;
use crate::value::{Kind, kind};

fn or_empty(v: Option<&Value>) -> Value {
    match v {
        Some(v) if truthy(v) => v.clone(),
        _ => Value::String(String::new()),
    }
}

/// Regroups the flat tables into `{results, repo?, _meta?, universal…}`.
pub(crate) fn decode_batch(flat: &mut Map<String, Value>, budget: &mut Budget) {
    // Per file: its symbols, and how many results entries name it.
    let mut by_file: Vec<(String, Vec<Value>, usize)> = Vec::new();
    let mut index: alloc::collections::BTreeMap<String, usize> = Default::default();
    // (`flat` is replaced below: its tables are taken, not copied.)
    for sym in iter_items(flat.shift_remove("symbols").filter(truthy)) {
        let Value::Object(mut sym) = sym else {
            continue;
        };
        let file = match sym.shift_remove("file") {
            Some(Value::String(s)) => s,
            _ => String::new(),
        };
        // A symbol of the file of the symbol before it (the table comes a
        // file at a time) needs no lookup.
        let i = match by_file.last() {
            Some((last, _, _)) if *last == file => by_file.len() - 1,
            _ => match index.get(&file) {
                Some(&i) => i,
                None => {
                    index.insert(file.clone(), by_file.len());
                    by_file.push((file, Vec::new(), 0));
                    by_file.len() - 1
                }
            },
        };
        if let Some(g) = by_file.get_mut(i) {
            g.1.push(Value::Object(sym));
        }
    }
    let repo = flat.get("repo").filter(|v| !v.is_null()).cloned();
    let rows = iter_items(flat.shift_remove("results").filter(truthy));
    let group_of = |row: &Value| match row.get("file") {
        Some(Value::String(f)) => index.get(f).copied(),
        _ => None,
    };
    for row in &rows {
        if let Some(g) = group_of(row).and_then(|i| by_file.get_mut(i)) {
            g.2 += 1;
        }
    }
    let mut results = Vec::new();
    for row in rows {
        let group = group_of(&row);
        let Value::Object(row) = row else {
            continue;
        };
        let file = row
            .get("file")
            .cloned()
            .unwrap_or_else(|| Value::String(String::new()));
        let symbols = group.and_then(|i| by_file.get_mut(i)).map(|g| {
            // Entries naming one file each get a copy of its symbols: the
            // copies count against the budget. The last one takes them.
            budget.spend(g.1.len().saturating_mul(VALUE_COST), 0);
            g.2 -= 1;
            if g.2 == 0 {
                core::mem::take(&mut g.1)
            } else {
                g.1.clone()
            }
        });
        let count = row
            .get("symbol_count")
            .filter(|v| truthy(v))
            .cloned()
            .unwrap_or(Value::from(0));
        let mut meta = Map::new();
        meta.insert("symbol_count".into(), count);
        let mut entry = Map::new();
        entry.insert("file".into(), file);
        entry.insert("language".into(), or_empty(row.get("language")));
        entry.insert("file_summary".into(), or_empty(row.get("file_summary")));
        entry.insert("symbols".into(), Value::Array(symbols.unwrap_or_default()));
        entry.insert("_meta".into(), Value::Object(meta));
        if let Some(r) = &repo {
            entry.insert("repo".into(), r.clone());
        }
        results.push(Value::Object(entry));
        if budget.exhausted_at.is_some() {
            return;
        }
    }
    let mut out = Map::new();
    out.insert("results".into(), Value::Array(results));
    if let Some(r) = repo {
        out.insert("repo".into(), r);
    }
    if let Some(m) = flat.get("_meta") {
        out.insert("_meta".into(), m.clone());
    }
    for (k, v) in flat.iter() {
        if !k.starts_with('_') && is_universal_body_key(k) {
            out.insert(k.clone(), v.clone());
        }
    }
    *flat = out;
}

/// `row = dict(sym)` for each `sym` of an entry's (truthy) `symbols`, as
/// Python runs it: a list's items; a dict's keys, of which only `""` makes
/// a dict (`{}`); a string's characters, which never do. Anything else
/// raises, and so does the encoder.
fn symbol_rows(symbols: Option<&Value>) -> Result<Vec<Map<String, Value>>, Fail> {
    match symbols.map(kind) {
        None => Ok(Vec::new()),
        Some(Kind::List(items)) => items.iter().map(dict_of).collect(),
        Some(Kind::Dict(m)) => m
            .keys()
            .map(|k| {
                if k.is_empty() {
                    Ok(Map::new())
                } else {
                    Err(Fail::new("symbol is not a dict"))
                }
            })
            .collect(),
        Some(_) => Err(Fail::new("symbols are not iterable as dicts")),
    }
}

/// Python's `dict(sym)`: a dict's copy, or the pairs of an iterable whose
/// items are 2-item iterables (a 2-item list, a 2-character string, a
/// 2-key dict). Pairs whose key is a number, bool or None are left out: no
/// declared column can read them. Anything else raises.
fn dict_of(sym: &Value) -> Result<Map<String, Value>, Fail> {
    let fail = || Fail::new("symbol is not a dict");
    let items: &[Value] = match kind(sym) {
        Kind::Dict(m) => return Ok(m.clone()),
        Kind::Str("") => return Ok(Map::new()),
        Kind::List(items) => items,
        _ => return Err(fail()),
    };
    let mut row = Map::new();
    for item in items {
        let (key, value) = match kind(item) {
            Kind::List([k, v]) => (k.clone(), v.clone()),
            Kind::Str(s) if s.chars().count() == 2 => {
                let mut c = s.chars();
                let (a, b) = (c.next().ok_or_else(fail)?, c.next().ok_or_else(fail)?);
                (Value::String(a.into()), Value::String(b.into()))
            }
            Kind::Dict(m) if m.len() == 2 => {
                let mut keys = m.keys();
                let (a, b) = (keys.next().ok_or_else(fail)?, keys.next().ok_or_else(fail)?);
                (Value::String(a.clone()), Value::String(b.clone()))
            }
            _ => return Err(fail()),
        };
        match kind(&key) {
            Kind::Str(k) => {
                row.insert(k.into(), value);
            }
            Kind::List(_) | Kind::Dict(_) => return Err(fail()),
            _ => {}
        }
    }
    Ok(row)
}

/// The batch shape (a `results` list): every entry's symbols extended with
/// its `file`, and one results row per entry. `None` for a single file.
pub(crate) fn encode_batch(
    response: &Map<String, Value>,
) -> Result<Option<Map<String, Value>>, Fail> {
    let Some(Value::Array(entries)) = response.get("results") else {
        return Ok(None);
    };
    let mut symbols = Vec::new();
    let mut results = Vec::new();
    for entry in entries {
        let Kind::Dict(entry) = kind(entry) else {
            continue;
        };
        let get = |k: &str| {
            entry
                .get(k)
                .cloned()
                .unwrap_or_else(|| Value::String(String::new()))
        };
        let file = get("file");
        let syms = symbol_rows(entry.get("symbols").filter(|v| truthy(v)))?;
        let count_of_syms = syms.len();
        for mut row in syms {
            row.insert("file".into(), file.clone());
            symbols.push(Value::Object(row));
        }
        let count = match entry.get("_meta").filter(|v| truthy(v)).map(kind) {
            None => None,
            Some(Kind::Dict(m)) => m.get("symbol_count").filter(|v| !v.is_null()).cloned(),
            Some(_) => return Err(Fail::new("entry _meta is not a dict")),
        };
        let count = count.unwrap_or_else(|| Value::from(count_of_syms));
        let mut row = Map::new();
        row.insert("file".into(), file);
        row.insert("language".into(), get("language"));
        row.insert("file_summary".into(), get("file_summary"));
        row.insert("symbol_count".into(), count);
        results.push(Value::Object(row));
    }
    let mut flat = Map::new();
    flat.insert("symbols".into(), Value::Array(symbols));
    flat.insert("results".into(), Value::Array(results));
    for key in ["repo", "_meta"] {
        if let Some(v) = response.get(key) {
            flat.insert(key.into(), v.clone());
        }
    }
    for (k, v) in response {
        if !k.starts_with('_') && is_universal_body_key(k) {
            flat.insert(k.clone(), v.clone());
        }
    }
    Ok(Some(flat))
}

/// The first loss of a batch reply's symbols that every tier-1 form
/// makes, found on the reply itself before the transform runs: in a
/// symbol of an entry naming its file (a non-empty string), a member that
/// is no column (dropped), a column the symbol lacks (read back as null),
/// an empty string (read back as null) or a list or an object (read back
/// as a string) in a column other than `file` (which comes from the
/// entry). The regrouping gives that entry every symbol of its file and
/// no decoded symbol has any of these, so the reply never comes back
/// equal.
///
/// `None` unless the tier-1 encoder would write the reply's tables: a
/// batch (`results` a list) whose entries' symbols are lists of objects
/// and whose `_meta`s are objects (the transform fails on others), and
/// no other member holding a table (an undeclared table fails the
/// encoder).
pub(crate) fn batch_symbol_loss(response: &Map<String, Value>) -> Option<Mismatch> {
    let Some(Value::Array(entries)) = response.get("results") else {
        return None;
    };
    let is_table = |v: &Value| matches!(kind(v), Kind::List(rows) if !rows.is_empty() && rows.iter().all(|r| matches!(kind(r), Kind::Dict(_))));
    let declared = |k: &str| k == "results" || k == "symbols" || k.starts_with('_');
    if response.iter().any(|(k, v)| !declared(k) && is_table(v)) {
        return None;
    }
    let symbols_table = FILE_OUTLINE_BATCH_TABLES
        .iter()
        .find(|t| t.key == "symbols")?;
    let cols = || symbols_table.cols.iter().map(|c| c.name);
    let mut lost = None;
    for (e, entry) in entries.iter().enumerate() {
        let Kind::Dict(entry) = kind(entry) else {
            continue;
        };
        let meta = entry.get("_meta").filter(|v| truthy(v));
        if !meta.is_none_or(|m| matches!(kind(m), Kind::Dict(_))) {
            return None;
        }
        let symbols = match entry.get("symbols").filter(|v| truthy(v)).map(kind) {
            None => continue,
            Some(Kind::List(items)) => items,
            Some(_) => return None,
        };
        let file = matches!(entry.get("file").map(kind), Some(Kind::Str(f)) if !f.is_empty());
        for (j, sym) in symbols.iter().enumerate() {
            let Kind::Dict(sym) = kind(sym) else {
                return None;
            };
            if lost.is_some() || !file {
                continue;
            }
            let what = sym
                .iter()
                .find_map(|(k, v)| match kind(v) {
                    _ if !cols().any(|c| c == k) => Some((k.as_str(), "key_dropped")),
                    _ if k == "file" => None,
                    Kind::Str("") => Some((k.as_str(), "empty_string_to_null")),
                    Kind::List(_) | Kind::Dict(_) => Some((k.as_str(), "container_stringified")),
                    _ => None,
                })
                .or_else(|| {
                    let missing = cols().find(|c| *c != "file" && !sym.contains_key(*c));
                    missing.map(|c| (c, "key_added_null"))
                });
            lost = what.map(|(col, kind)| Mismatch {
                path: alloc::format!("$.results[{e}].symbols[{j}].{col}"),
                kind,
            });
        }
    }
    lost
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Every entry naming a file gets all of its symbols, in table order,
    /// however the symbols and the entries are interleaved (the last
    /// entry takes the list, the others copy it); an entry of no known
    /// file gets none.
    #[test]
    fn entries_get_their_files_symbols() {
        let sym = |f: &str, n: &str| json!({"file": f, "name": n});
        let Value::Object(mut flat) = json!({
            "symbols": [sym("a", "1"), sym("b", "2"), sym("a", "3"), sym("a", "4")],
            "results": [
                {"file": "a", "language": "py"},
                {"file": "b"},
                {"file": "c"},
                {"file": "a"},
            ],
        }) else {
            unreachable!()
        };
        decode_batch(&mut flat, &mut Budget::unlimited());
        let results = flat.get("results").and_then(Value::as_array).unwrap();
        let names = |r: &Value| -> Vec<String> {
            let syms = r.get("symbols").and_then(Value::as_array).unwrap();
            syms.iter()
                .map(|s| s["name"].as_str().unwrap().into())
                .collect()
        };
        let got: Vec<Vec<String>> = results.iter().map(names).collect();
        assert_eq!(
            got,
            [vec!["1", "3", "4"], vec!["2"], vec![], vec!["1", "3", "4"]]
        );
        assert!(
            results
                .iter()
                .all(|r| r["symbols"][0].get("file").is_none())
        );
    }
}
