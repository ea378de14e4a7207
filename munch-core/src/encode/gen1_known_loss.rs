//! A loss the gen1 reference form is known to make before it writes
//! anything: a table cell holding a list or an object. Its column is a
//! `str` column (a container is a kind of its own), so the reference
//! form writes the container as text and every decode reads a string
//! back (spec §6; the hardened form writes such a table as a blob). The
//! verified ladder's gen1 reference rung stops at the tables it found and
//! reports the loss without writing or decoding a payload.

use alloc::format;
use alloc::string::String;

use super::columns::{Cell, Columns};
use crate::equal::Mismatch;
use crate::value::{Kind, kind};

/// The first cell of table `key` (columns `cols`, a member of the
/// response) holding a list or an object, as a `container_stringified`
/// mismatch.
pub(crate) fn container_cell(key: &str, cols: &[&str], columns: &Columns<'_>) -> Option<Mismatch> {
    if !columns.containers {
        return None;
    }
    // One pass over the cells, in row order, looking at each one's tag.
    let at = columns.cells().iter().position(|c| match c {
        Cell::Other(v) => matches!(kind(v), Kind::List(_) | Kind::Dict(_)),
        _ => false,
    })?;
    let width = columns.width().max(1);
    let col = cols.get(at % width)?;
    let mut path = String::from("$.");
    path.push_str(key);
    path.push_str(&format!("[{}].{col}", at / width));
    Some(Mismatch {
        path,
        kind: "container_stringified",
    })
}

#[cfg(test)]
mod tests {
    use crate::decode::decode;
    use crate::equal::{KeyOrder, first_mismatch};
    use serde_json::{Map, Value, json};

    /// The reference form stops at a container cell of a top-level table
    /// (dotted keys, nested tables and tables past the 26 tags are left
    /// to the full check), and each loss it reports is real: the payload
    /// it would have written decodes to a string at that path.
    #[test]
    fn reported_losses_are_real() {
        let row = |m: Value| json!({"file": "src/a.py", "matches": m});
        let many_tables: Map<String, Value> = (0..27)
            .map(|i| (format!("t{i:02}"), json!([row(json!(1)), row(json!(2))])))
            .chain([("z".into(), json!([row(json!([1])), row(json!([2]))]))])
            .collect();
        let cases = [
            (
                json!({"q": "x", "results": [row(json!(2)), row(json!([{"line": 1}]))]}),
                Some("$.results[1].matches"),
            ),
            (
                json!({"results": [row(json!({"a": 1})), row(json!(null))]}),
                Some("$.results[0].matches"),
            ),
            (json!({"results": [row(json!([1]))]}), None),
            (
                json!({"results": [row(json!([1])), {"file": "b", "other": [2]}]}),
                None,
            ),
            (json!({"results": [row(json!(1)), row(json!("s"))]}), None),
            (json!({"a.b": [row(json!([1])), row(json!([2]))]}), None),
            (
                json!({"outer": {"rows": [row(json!([1])), row(json!([2]))]}}),
                None,
            ),
            (Value::Object(many_tables), None),
        ];
        for (response, want) in cases {
            let Value::Object(map) = &response else {
                unreachable!()
            };
            let stopped = crate::encode::gen1::encode("t", map, false, 0, None, true).unwrap();
            let got = stopped.loss.as_ref().map(|m| m.path.as_str());
            assert_eq!(got, want, "{response}");
            let Some(m) = stopped.loss else {
                continue;
            };
            assert!(stopped.text.is_empty());
            let p = crate::encode::gen1::encode("t", map, false, 0, None, false).unwrap();
            assert!(p.loss.is_none());
            let back = decode(&p.text).unwrap();
            let pointer = m.path.trim_start_matches('$').replace(['.', '['], "/");
            let pointer = pointer.replace(']', "");
            assert!(
                back.pointer(&pointer).is_some_and(Value::is_string),
                "{}",
                p.text
            );
            assert!(first_mismatch(&response, &back, KeyOrder::Any).is_some());
        }
    }
}
