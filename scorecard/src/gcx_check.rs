//! Whether a GCX1 payload decodes back to its input.
//!
//! GCX1 cells are text, so the comparison is in GCX1's own data model: the
//! payload is decoded with gcx-wire's decoder and both sides are reduced to
//! the multiset of `(key, text)` facts of their non-empty scalars (the key
//! is the nearest object key, JSON cells are opened up, `null` and `""` are
//! the same empty cell). A value lost, altered or invented makes the check
//! false, whatever layout wrote the payload. The only exclusion is the
//! defined mapping of the bench layout (gcx1 spec §9): wrapper keys outside
//! the rule's list are not written, and are reported as dropped.

use gcx_wire::json::{self, Value};

type Facts = Vec<(String, String)>;

fn facts_of(value: &Value<'_>, key: &str, out: &mut Facts) {
    // An explicit stack: inputs are arbitrary user files.
    let mut stack: Vec<(&Value<'_>, &str)> = vec![(value, key)];
    while let Some((v, k)) = stack.pop() {
        match v {
            Value::Null => {}
            Value::Bool(b) => out.push((k.to_owned(), b.to_string())),
            Value::Number(n) => out.push((k.to_owned(), (*n).to_owned())),
            Value::String(s) if s.is_empty() => {}
            Value::String(s) => out.push((k.to_owned(), s.to_string())),
            Value::Array(items) => stack.extend(items.iter().map(|i| (i, k))),
            Value::Object(pairs) => stack.extend(pairs.iter().map(|(pk, pv)| (pv, pk.as_ref()))),
        }
    }
}

/// The top-level wrapper keys the bench layout of gcx1 §9 does not write
/// (rules 1–5 keep their rows key and wrapper meta only).
#[must_use]
pub fn bench_dropped_keys(input: &Value<'_>) -> Vec<String> {
    let Value::Object(pairs) = input else {
        return Vec::new();
    };
    let is_array = |k: &str| matches!(input.get(k), Some(Value::Array(_)));
    let kept: &[&str] = if is_array("results") {
        &["results", "total", "truncated"]
    } else if is_array("symbols") {
        &["symbols", "total", "etag"]
    } else if is_array("nodes") {
        &["nodes", "edges", "total_nodes", "total_edges", "truncated"]
    } else if is_array("edges") && input.get("nodes").is_none() {
        &["edges", "total_edges", "truncated"]
    } else if is_array("implementations") {
        &["implementations", "total"]
    } else {
        return Vec::new();
    };
    pairs
        .iter()
        .map(|(k, _)| k.to_string())
        .filter(|k| !kept.contains(&k.as_str()))
        .collect()
}

/// The facts of the input, without the `dropped` top-level keys.
fn input_facts(input: &Value<'_>, dropped: &[String]) -> Facts {
    let mut out = Facts::new();
    match input {
        Value::Object(pairs) => {
            for (k, v) in pairs
                .iter()
                .filter(|(k, _)| !dropped.iter().any(|d| d == k))
            {
                facts_of(v, k, &mut out);
            }
        }
        other => facts_of(other, "value", &mut out),
    }
    out
}

/// The facts of a decoded payload, or `None` when it does not decode.
fn payload_facts(payload: &[u8]) -> Option<Facts> {
    let decoded = gcx_wire::from_slice(payload).ok()?;
    let mut out = Facts::new();
    for section in &decoded.sections {
        let tool = String::from_utf8_lossy(&section.header.tool);
        // `tool.k` sections hold the elements of member `k`.
        let suffix = tool.split_once('.').map(|(_, s)| s.to_owned());
        for (k, v) in &section.header.meta {
            if k.as_ref() != b"rows" {
                out.push((
                    String::from_utf8_lossy(k).into_owned(),
                    String::from_utf8_lossy(v).into_owned(),
                ));
            }
        }
        let fields: Vec<String> = section
            .header
            .fields
            .iter()
            .map(|f| String::from_utf8_lossy(f).into_owned())
            .collect();
        for row in section.rows() {
            for (field, cell) in fields.iter().zip(row) {
                let key = match (&suffix, field.as_str()) {
                    (Some(s), "value") => s.as_str(),
                    _ => field.as_str(),
                };
                match json::parse(cell) {
                    Ok(v @ (Value::Array(_) | Value::Object(_))) => facts_of(&v, key, &mut out),
                    _ if cell.is_empty() => {}
                    _ => out.push((key.to_owned(), String::from_utf8_lossy(cell).into_owned())),
                }
            }
        }
    }
    Some(out)
}

/// `true` when `payload` decodes to the facts of `input_json` minus the
/// `dropped` wrapper keys.
#[must_use]
pub fn roundtrip(input_json: &[u8], payload: &[u8], dropped: &[String]) -> bool {
    let Ok(input) = json::parse(input_json) else {
        return false;
    };
    let Some(mut got) = payload_facts(payload) else {
        return false;
    };
    let mut want = input_facts(&input, dropped);
    got.sort_unstable();
    want.sort_unstable();
    got == want
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_facts_pass_and_a_changed_cell_fails() {
        let input =
            br#"{"symbols":[{"id":"a","line":3},{"id":"b","line":null}],"total":2,"task":"t"}"#;
        let good = b"GCX1 tool=t fields=id,line rows=2 total=2\na\t3\nb\t\n";
        let dropped = vec![String::from("task")];
        assert!(roundtrip(input, good, &dropped));
        assert!(
            !roundtrip(input, good, &[]),
            "task is a fact when not dropped"
        );
        let changed = b"GCX1 tool=t fields=id,line rows=2 total=2\na\t4\nb\t\n";
        assert!(!roundtrip(input, changed, &dropped));
        let lost = b"GCX1 tool=t fields=id rows=2 total=2\na\nb\n";
        assert!(!roundtrip(input, lost, &dropped));
        assert!(!roundtrip(input, b"not gcx", &dropped));
    }

    #[test]
    fn json_cells_are_opened_and_sections_name_their_member() {
        let input = br#"{"entry_points":["main","init"],"meta":{"k":[1,2]}}"#;
        let payload = b"GCX1 tool=t.entry_points fields=value rows=2\nmain\ninit\nGCX1 tool=t.meta fields=k rows=1\n[1,2]\n";
        assert!(roundtrip(input, payload, &[]));
    }

    #[test]
    fn the_bench_layout_drops_only_unlisted_wrapper_keys() {
        let v = json::parse(br#"{"task":"x","symbols":[],"total":1}"#).unwrap_or(Value::Null);
        assert_eq!(bench_dropped_keys(&v), vec![String::from("task")]);
        let v = json::parse(br#"{"a":[1],"b":[2]}"#).unwrap_or(Value::Null);
        assert!(bench_dropped_keys(&v).is_empty());
    }
}
