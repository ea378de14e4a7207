//! Losses a tier-1 rung is known to make before it encodes anything
//! (spec §7 "Decode" step 6, §8 fr2 and st4): the decoder always returns
//! some members, so a response without one of them cannot come back
//! equal, whatever the payload holds. The verified ladder refuses both
//! tier-1 rungs of such a response without encoding or decoding it.

use alloc::string::String;
use serde_json::{Map, Value};

use super::schema::{Schema, Transform};
use crate::equal::Mismatch;

/// A member the tier-1 decode of any payload of `schema` adds to
/// `response` (`key_added`: the decode holds a list there), or `None`
/// when no such loss is known.
///
/// The members the decode always returns: every declared table (`[]`
/// when the payload has no rows for it) of a schema without a transform;
/// st4's `more_files` and its regrouped `results`; fr2's regrouped
/// `references`. The first one the response lacks is reported, in the
/// decode's order.
pub(crate) fn known_loss(schema: &Schema, response: &Map<String, Value>) -> Option<Mismatch> {
    let always: &[&str] = match schema.transform {
        Transform::None => return absent(response, schema.tables.iter().map(|t| t.key)),
        Transform::SearchText => &["more_files", "results"],
        Transform::FindReferences => &["references"],
        // The other transforms rebuild or drop members of their own.
        Transform::SearchAst
        | Transform::FileOutline
        | Transform::DependencyCycles
        | Transform::TectonicMap => &[],
    };
    absent(response, always.iter().copied())
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
            ("search_symbols", json!({"query": "q", "results": []}), None),
            (
                "find_references",
                json!({"name": "f"}),
                Some("$.references"),
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

    /// Encodes `map` in both tier-1 forms and checks that the decode holds
    /// `m`'s member, non-null, and differs from `map`.
    fn assert_real(schema: &Schema, map: &Map<String, Value>, m: &Mismatch) {
        let key = m.path.trim_start_matches("$.");
        for hardened in [false, true] {
            let p =
                crate::encode::tier1::encode(schema.tool, schema, map, hardened, 0, None, false)
                    .unwrap();
            let back = decode(&p.text).unwrap();
            assert!(back.get(key).is_some_and(|v| !v.is_null()), "{}", p.text);
            let response = Value::Object(map.clone());
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
}
