//! The scalar payload being built: ordered `key → value` pairs where a
//! repeated key replaces the value at its first position (a Python dict).

use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::Value;

use super::text::write_value_text;
use crate::format::scalars::{quoting_hazard, write_pair};
use crate::py::json_write::{write_python_json_line, write_python_json_line_list};

/// A scalar's value: a response value written as cell text, text made
/// already (`__stypes`, `__tables`), or a JSON blob.
#[derive(Debug)]
pub(crate) enum Scalar<'v> {
    Value(&'v Value),
    Text(String),
    /// A value written as a JSON blob (`write_python_json_line`: quoted
    /// and escaped where it needs to be, the same in either form), straight
    /// into the payload when the line is written: a large blob is neither
    /// grown in a buffer of its own nor copied.
    Json(&'v Value),
    /// A list written as a JSON blob, from its items
    /// (`write_python_json_line_list`).
    JsonList(&'v [Value]),
}

/// Ordered scalar pairs.
#[derive(Debug, Default)]
pub(crate) struct Pairs<'v> {
    pub(crate) list: Vec<(Cow<'v, str>, Scalar<'v>)>,
    index: BTreeMap<String, usize>,
}

impl<'v> Pairs<'v> {
    /// Sets `key`, keeping the first position of a repeated key.
    pub(crate) fn set(&mut self, key: Cow<'v, str>, value: Scalar<'v>) {
        if let Some(&i) = self.index.get(key.as_ref()) {
            if let Some(slot) = self.list.get_mut(i) {
                slot.1 = value;
            }
            return;
        }
        self.index
            .insert(String::from(key.as_ref()), self.list.len());
        self.list.push((key, value));
    }

    /// Writes the scalar line. `hardened` quotes values holding any W;
    /// the reference form (`!hardened`) returns whether it left a value
    /// unquoted that the hardened form quotes (a hazard, spec D3).
    pub(crate) fn write(&self, hardened: bool, out: &mut String) -> bool {
        let mut text = String::new();
        let mut hazard = false;
        for (i, (k, v)) in self.list.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            let value: &str = match v {
                Scalar::Value(v) => {
                    text.clear();
                    write_value_text(v, &mut text);
                    &text
                }
                Scalar::Text(t) => t,
                Scalar::Json(v) => {
                    out.push_str(k);
                    out.push('=');
                    write_python_json_line(v, out);
                    continue;
                }
                Scalar::JsonList(items) => {
                    out.push_str(k);
                    out.push('=');
                    write_python_json_line_list(items, out);
                    continue;
                }
            };
            hazard |= !hardened && quoting_hazard(value);
            write_pair(k, value, hardened, out);
        }
        hazard
    }
}
