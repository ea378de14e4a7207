//! One JSON spec-vector line with its keys in a fixed order, whatever
//! serde_json's `preserve_order` feature is in the build (shared through
//! `#[path]` by the golden tests of the crates that use serde_json).

pub(crate) fn line(pairs: &[(&str, serde_json::Value)]) -> String {
    let fields: Vec<String> = pairs
        .iter()
        .map(|(k, v)| format!("{}:{v}", serde_json::Value::from(*k)))
        .collect();
    format!("{{{}}}", fields.join(","))
}
