//! Losses a tier-1 rung is known to make before it encodes anything
//! (spec §7 "Decode" step 6, §8 fr2 and st4): the decoder always returns
//! some members, and st4's and fr2's regroupings rebuild every group and
//! match object with members of their own, so a response without one of
//! those members, or with a member they do not rebuild, cannot come back
//! equal, whatever the payload holds; nor can a tm2 row with a key that
//! is none of its table's columns, nor fr2's file without matches listed
//! after one with matches (regrouped first). The verified ladder refuses
//! both tier-1 rungs of such a response without encoding or decoding it.

use alloc::format;
use alloc::string::String;
use serde_json::{Map, Value};

use super::schema::{Schema, Transform};
use super::transforms::pick;
use crate::encode::lost_cell::key_not_a_column;
use crate::equal::{KeyOrder, Mismatch};
use crate::value::{Kind, kind};

/// A member the tier-1 decode of any payload of `schema` adds to
/// `response` (`key_added`: the decode holds a list there), or `None`
/// when no such loss is known.
///
/// The members the decode always returns: every declared table (`[]`
/// when the payload has no rows for it) of a schema without a transform;
/// st4's `more_files` and its regrouped `results`; fr2's regrouped
/// `references`. The first one the response lacks is reported, in the
/// decode's order. fo1's batch reports the first symbol loss
/// (`file_outline::batch_symbol_loss`); fr2, a file without matches
/// listed after one with matches (`moved_empty_group`).
pub(crate) fn known_loss(schema: &Schema, response: &Map<String, Value>) -> Option<Mismatch> {
    let (always, groups): (&[&str], Option<Regrouped>) = match schema.transform {
        Transform::None => return absent(response, schema.tables.iter().map(|t| t.key)),
        Transform::SearchText => (&["more_files", "results"], Some(ST4)),
        Transform::FindReferences => (&["references"], Some(FR2)),
        // tm2's decode only drops a plate's null columns: a row's key that
        // is no column is lost as in a schema without a transform.
        Transform::TectonicMap => {
            return absent(response, schema.tables.iter().map(|t| t.key))
                .or_else(|| extra_key(schema, response));
        }
        // fo1's batch: a symbol's member or cell every form loses.
        Transform::FileOutline => {
            return super::transforms::file_outline::batch_symbol_loss(response);
        }
        // The other transforms rebuild or drop members of their own.
        Transform::SearchAst | Transform::DependencyCycles => (&[], None),
    };
    let lost = absent(response, always.iter().copied()).or_else(|| groups?.member_lost(response));
    match schema.transform {
        Transform::FindReferences => lost.or_else(|| moved_empty_group(response)),
        _ => lost,
    }
}

/// fr2 keeps the files without matches apart and regroups them first: in
/// a list of `{file, matches}` groups with distinct string files, a group
/// whose matches are `[]` after one that has matches comes back moved.
/// The first group that comes back other than it went (the `k`-th, the
/// first with matches) is compared with the one regrouped in its place:
/// the first group without matches after it.
fn moved_empty_group(response: &Map<String, Value>) -> Option<Mismatch> {
    let Some(Value::Array(groups)) = response.get("references") else {
        return None;
    };
    // Each group's file and matches, when it is `{file, matches}` with a
    // string file and a list of matches (no key hashed).
    fn parts(group: &Value) -> Option<(&String, &[Value])> {
        match group {
            Value::Object(g) if g.len() == 2 => match pick(g, ["file", "matches"]) {
                [Some(Value::String(f)), Some(Value::Array(m))] => Some((f, m)),
                _ => None,
            },
            _ => None,
        }
    }
    // The first group with matches, and the first without after it.
    let mut first_with = None;
    let mut moved = None;
    for (i, group) in groups.iter().enumerate() {
        let (file, matches) = parts(group)?;
        match (matches.is_empty(), first_with) {
            (false, None) => first_with = Some(i),
            (true, Some(_)) => {
                moved = Some(file);
                break;
            }
            _ => {}
        }
    }
    let (k, file) = (first_with?, moved?);
    // Every group of that shape, no file listed twice (a file's groups
    // are merged).
    let mut files = hashbrown::HashSet::with_capacity(groups.len());
    if !groups
        .iter()
        .all(|g| parts(g).is_some_and(|(f, _)| files.insert(f.as_str())))
    {
        return None;
    }
    let mut back = Map::new();
    back.insert("file".into(), Value::String(file.clone()));
    back.insert("matches".into(), Value::Array(alloc::vec::Vec::new()));
    let there = groups.get(k)?;
    let m = crate::equal::first_mismatch(there, &Value::Object(back), KeyOrder::Any)?;
    let rest = m.path.get(1..).unwrap_or_default();
    lost(format!("$.references[{k}]{rest}"), m.kind)
}

/// The first key of a row of a declared table that is none of its
/// columns (`key_dropped`: a tier-1 row carries its columns only).
fn extra_key(schema: &Schema, response: &Map<String, Value>) -> Option<Mismatch> {
    schema.tables.iter().find_map(|t| {
        let Some(Value::Array(rows)) = response.get(t.key) else {
            return None;
        };
        rows.iter().enumerate().find_map(|(r, row)| {
            let Value::Object(m) = row else { return None };
            let k = key_not_a_column(m, t.cols)?;
            Some(Mismatch {
                path: format!("$.{}[{r}].{k}", t.key),
                kind: "key_dropped",
            })
        })
    })
}

/// What a regrouping decode (st4, fr2) rebuilds: `key`'s groups are
/// `{file, matches}` objects, and each match object has the `always`
/// members (a match the input lacks one of reads back with it: null, or
/// `""` where the flag says so) and at most the `optional` ones (any
/// other is dropped).
#[derive(Clone, Copy)]
struct Regrouped {
    key: &'static str,
    always: &'static [(&'static str, bool)],
    optional: &'static [&'static str],
}

/// st4: `{line, text}` (a missing `text` reads back as `""`), and
/// `before`, `after` and `in` when present.
const ST4: Regrouped = Regrouped {
    key: "results",
    always: &[("line", false), ("text", true)],
    optional: &["before", "after", "in"],
};

/// fr2: `{specifier, match_type}` (an empty cell reads back as null).
const FR2: Regrouped = Regrouped {
    key: "references",
    always: &[("specifier", false), ("match_type", false)],
    optional: &[],
};

/// A mismatch, as an answer.
fn lost(path: String, kind: &'static str) -> Option<Mismatch> {
    Some(Mismatch { path, kind })
}

impl Regrouped {
    /// The first member of a group or of a match object that the decode
    /// drops (`key_dropped`) or adds (`key_added_null`, or `key_added`
    /// for one read back as `""`).
    fn member_lost(self, response: &Map<String, Value>) -> Option<Mismatch> {
        let Some(Value::Array(groups)) = response.get(self.key) else {
            return None;
        };
        // Paths are written only for the loss reported.
        let path = |g: usize, i: Option<usize>, k: &str| match i {
            Some(i) => format!("$.{}[{g}].matches[{i}].{k}", self.key),
            None => format!("$.{}[{g}].{k}", self.key),
        };
        for (g, group) in groups.iter().enumerate() {
            let Value::Object(group) = group else {
                continue;
            };
            if crate::py::number::sentinel_float(group).is_some() {
                continue;
            }
            let mut matches = None;
            for (k, v) in group {
                match k.as_str() {
                    "file" => {}
                    "matches" => matches = Some(v),
                    _ => return lost(path(g, None, k), "key_dropped"),
                }
            }
            let Some(Value::Array(matches)) = matches else {
                continue;
            };
            for (i, m) in matches.iter().enumerate() {
                // (A `$float` object is a float to Python, as other
                // values no match row.)
                let Kind::Dict(m) = kind(m) else {
                    continue;
                };
                // One pass over the match's keys (no lookup): the always
                // members seen, as bits.
                let mut seen = 0u32;
                for k in m.keys() {
                    match self.always.iter().position(|(a, _)| a == k) {
                        Some(j) => seen |= 1 << j,
                        None if self.optional.contains(&k.as_str()) => {}
                        None => return lost(path(g, Some(i), k), "key_dropped"),
                    }
                }
                let missing = (0..self.always.len()).find(|j| seen & (1 << j) == 0);
                if let Some((k, text)) = missing.and_then(|j| self.always.get(j)) {
                    let kind = if *text { "key_added" } else { "key_added_null" };
                    return lost(path(g, Some(i), k), kind);
                }
            }
        }
        None
    }
}

/// The first of `keys` that `response` lacks, as a `key_added` mismatch.
fn absent<'k>(
    response: &Map<String, Value>,
    mut keys: impl Iterator<Item = &'k str>,
) -> Option<Mismatch> {
    let key = keys.find(|k| !response.contains_key(*k))?;
    let mut path = String::from("$.");
    path.push_str(key);
    Some(Mismatch {
        path,
        kind: "key_added",
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode;
    use crate::equal::{KeyOrder, first_mismatch};
    use crate::tier1::schemas;
    use serde_json::json;

    /// Every loss reported is one the decode of the reference encoding
    /// makes: the decoded value has the member, the response does not.
    #[test]
    fn reported_losses_are_real() {
        let cases = [
            (
                "search_text",
                json!({"result_count": 1, "query": "q", "results": [
                    {"file": "a.py", "matches": [{"line": 1, "text": "x"}]}]}),
                Some("$.more_files"),
            ),
            (
                "search_text",
                json!({"query": "q", "results": [], "more_files": []}),
                None,
            ),
            (
                "search_text",
                json!({"query": "q", "more_files": []}),
                Some("$.results"),
            ),
            (
                "get_call_hierarchy",
                json!({"symbol": "f", "callers": [{"id": "a", "name": "a"}]}),
                Some("$.callees"),
            ),
            ("search_symbols", json!({"query": "q"}), Some("$.results")),
            (
                "get_tectonic_map",
                json!({"repo": "r", "plates": [{"plate_id": 1, "anchor": "a", "files": ["x"]}],
                       "drifter_summary": []}),
                Some("$.plates[0].files"),
            ),
            (
                "get_tectonic_map",
                json!({"repo": "r", "plates": [{"plate_id": 1, "anchor": "a"}],
                       "drifter_summary": []}),
                None,
            ),
            (
                "get_tectonic_map",
                json!({"repo": "r", "plates": []}),
                Some("$.drifter_summary"),
            ),
            ("search_symbols", json!({"query": "q", "results": []}), None),
            (
                "find_references",
                json!({"name": "f"}),
                Some("$.references"),
            ),
            (
                "find_references",
                json!({"name": "f", "references": [{"file": "a.py", "matches": [
                    {"specifier": "x", "match_type": "import", "line": 3}]}]}),
                Some("$.references[0].matches[0].line"),
            ),
            (
                "find_references",
                json!({"name": "f", "references": [{"file": "a.py", "matches": [
                    {"specifier": "x"}]}]}),
                Some("$.references[0].matches[0].match_type"),
            ),
            (
                "find_references",
                json!({"name": "f", "references": [
                    {"file": "a.py", "count": 1, "matches": [{"specifier": "x", "match_type": "m"}]}]}),
                Some("$.references[0].count"),
            ),
            (
                "find_references",
                json!({"name": "f", "references": [{"file": "a.py", "matches": [
                    {"specifier": "x", "match_type": "import"}]}]}),
                None,
            ),
            (
                "find_references",
                json!({"name": "f", "references": [
                    {"file": "e.py", "matches": []},
                    {"file": "a.py", "matches": [{"specifier": "x", "match_type": "m"}]}]}),
                None,
            ),
            (
                "find_references",
                json!({"name": "f", "references": [
                    {"file": "a.py", "matches": [{"specifier": "x", "match_type": "m"}]},
                    {"file": "e.py", "matches": []}]}),
                Some("$.references[0].file"),
            ),
            (
                "find_references",
                json!({"name": "f", "references": [
                    {"matches": [{"specifier": "x", "match_type": "m"}], "file": "a.py"},
                    {"file": "e.py", "matches": []}]}),
                Some("$.references[0].matches"),
            ),
            (
                "search_text",
                json!({"query": "q", "more_files": [], "results": [{"file": "a.py", "matches": [
                    {"line": 1, "text": "x", "column": 4}]}]}),
                Some("$.results[0].matches[0].column"),
            ),
            (
                "search_text",
                json!({"query": "q", "more_files": [], "results": [{"file": "a.py", "matches": [
                    {"text": "x"}]}]}),
                Some("$.results[0].matches[0].line"),
            ),
            (
                "search_text",
                json!({"query": "q", "more_files": [], "results": [{"file": "a.py", "matches": [
                    {"line": 1, "text": "x", "before": ["a"],
                     "in": {"id": "i", "line": 1, "end_line": 2}}]}]}),
                None,
            ),
        ];
        for (tool, response, want) in cases {
            let schema = schemas::by_tool(tool).unwrap();
            let Value::Object(map) = &response else {
                unreachable!()
            };
            let got = known_loss(schema, map);
            assert_eq!(
                got.as_ref().map(|m| m.path.as_str()),
                want,
                "{tool} {response}"
            );
            if let Some(m) = got {
                assert_real(schema, map, &m);
            }
        }
    }

    /// Encodes `map` in both tier-1 forms and checks that the decode and
    /// `map` differ at `m`'s path: a member on one side only (an added
    /// one null only for `key_added_null`), or two different values.
    fn assert_real(schema: &Schema, map: &Map<String, Value>, m: &Mismatch) {
        let pointer = m.path.trim_start_matches('$').replace(['.', '['], "/");
        let pointer = pointer.replace(']', "");
        let response = Value::Object(map.clone());
        for hardened in [false, true] {
            let p =
                crate::encode::tier1::encode(schema.tool, schema, map, hardened, 0, None, false)
                    .unwrap();
            let back = decode(&p.text).unwrap();
            let differs = match (response.pointer(&pointer), back.pointer(&pointer)) {
                (None, Some(added)) => added.is_null() == (m.kind == "key_added_null"),
                (Some(w), Some(g)) => !crate::equal::exact_eq(w, g, KeyOrder::Any),
                (w, g) => w.is_some() != g.is_some(),
            };
            assert!(differs, "{} {} {}", m.path, m.kind, p.text);
            assert!(first_mismatch(&response, &back, KeyOrder::Any).is_some());
        }
    }

    /// Every schema without a transform, with one of its tables left out
    /// of a response holding a row in each of the others: the loss is
    /// that table, and it is real; with every table there, no loss.
    #[test]
    fn each_missing_table_of_each_schema() {
        use crate::tier1::schema::{Table, Ty};
        let row = |t: &Table| {
            let cells = t.cols.iter().map(|c| {
                let v = match c.ty {
                    Ty::Str => json!("src/a.py"),
                    Ty::Int => json!(3),
                    Ty::Float => json!(0.5),
                    Ty::Bool => json!(true),
                };
                (String::from(c.name), v)
            });
            json!([Value::Object(cells.collect())])
        };
        let mut checked = 0;
        for schema in schemas::ALL {
            if schema.transform != Transform::None {
                continue;
            }
            let mut full = Map::new();
            for t in schema.tables {
                full.insert(t.key.into(), row(t));
            }
            assert_eq!(known_loss(schema, &full), None, "{}", schema.id);
            for left_out in schema.tables {
                let mut map = full.clone();
                map.shift_remove(left_out.key);
                let m = known_loss(schema, &map).unwrap();
                assert_eq!(m.path, alloc::format!("$.{}", left_out.key));
                assert_real(schema, &map, &m);
                checked += 1;
            }
        }
        assert!(checked >= 12, "{checked}");
    }

    /// A file without matches listed after one with matches: the mismatch
    /// reported is the one the full decode of either tier-1 form finds
    /// first, over every `find_references` vector with no other loss known
    /// and such a group put in every place after the first.
    #[test]
    fn a_moved_empty_group_is_the_decodes_first_mismatch() {
        let schema = schemas::by_tool("find_references").unwrap();
        let vectors = include_str!("../../tests/vectors/jcodemunch-1.108.399.jsonl");
        let mut checked = 0;
        for line in vectors.lines() {
            let Ok(vector) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            let Some(Value::Object(base)) = vector
                .get("input")
                .filter(|_| vector["tool"] == "find_references")
            else {
                continue;
            };
            let Some(Value::Array(groups)) = base.get("references") else {
                continue;
            };
            // (Another loss may be reported first.)
            if known_loss(schema, base).is_some() {
                continue;
            }
            for at in 1..=groups.len() {
                let mut map = base.clone();
                let Some(Value::Array(groups)) = map.get_mut("references") else {
                    continue;
                };
                groups.insert(at, json!({"file": "zz/none.py", "matches": []}));
                let Some(m) = known_loss(schema, &map) else {
                    continue;
                };
                let response = Value::Object(map.clone());
                for hardened in [false, true] {
                    let p = crate::encode::tier1::encode(
                        schema.tool,
                        schema,
                        &map,
                        hardened,
                        0,
                        None,
                        false,
                    )
                    .unwrap();
                    let back = decode(&p.text).unwrap();
                    assert_eq!(
                        first_mismatch(&response, &back, KeyOrder::Any),
                        Some(m.clone())
                    );
                }
                checked += 1;
            }
        }
        assert!(checked >= 5, "{checked}");
    }
}
