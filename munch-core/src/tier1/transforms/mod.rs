//! The tool transforms (spec §8): reshaping before the schema encoder and
//! after the schema decoder.

mod dependency_cycles;
mod file_outline;
mod find_references;
mod search_ast;
mod search_text;
mod tectonic_map;

use alloc::string::String;
use serde_json::{Map, Value};

use crate::decode::DecodeOptions;
use crate::tier1::schema::Transform;

/// Runs the inverse transform on a decoded tier-1 object.
pub(crate) fn decode(
    t: Transform,
    batch: bool,
    result: &mut Map<String, Value>,
    opts: &DecodeOptions,
) {
    match t {
        Transform::None => {}
        Transform::FindReferences => find_references::decode(result),
        Transform::SearchText => search_text::decode(result, opts),
        Transform::SearchAst => search_ast::decode(result, opts),
        Transform::FileOutline => {
            if batch {
                file_outline::decode_batch(result);
            }
        }
        Transform::DependencyCycles => dependency_cycles::decode(result),
        Transform::TectonicMap => tectonic_map::decode(result),
    }
}

/// Python truthiness.
pub(crate) fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(m) => !m.is_empty(),
    }
}

/// `value or []` iterated as Python iterates it: a list's items, a
/// string's characters, a dict's keys. Other values give nothing (Python
/// raises there).
pub(crate) fn iter_items(v: Option<Value>) -> alloc::vec::Vec<Value> {
    match v {
        Some(Value::Array(items)) => items,
        Some(Value::String(s)) => s.chars().map(|c| Value::String(c.into())).collect(),
        Some(Value::Object(m)) => m.into_iter().map(|(k, _)| Value::String(k)).collect(),
        _ => alloc::vec::Vec::new(),
    }
}
