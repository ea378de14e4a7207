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
use crate::value::{SCANNED_KEYS, key_position};

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
    /// Each key's position, made once there are more than
    /// [`Pairs::SCANNED`] pairs (fewer are found by a scan).
    index: BTreeMap<String, usize>,
}

impl<'v> Pairs<'v> {
    /// The most pairs found by scanning them: most payloads have a few
    /// scalars, and a long line does not cost a scan per key.
    const SCANNED: usize = SCANNED_KEYS;

    /// Room for `n` pairs.
    pub(crate) fn with_capacity(n: usize) -> Self {
        Pairs {
            list: Vec::with_capacity(n),
            index: BTreeMap::new(),
        }
    }

    /// Sets `key`, keeping the first position of a repeated key.
    pub(crate) fn set(&mut self, key: Cow<'v, str>, value: Scalar<'v>) {
        let at = if self.list.len() <= Self::SCANNED {
            key_position(&self.list, |(k, _)| k, &key)
        } else {
            self.index.get(key.as_ref()).copied()
        };
        if let Some(slot) = at.and_then(|i| self.list.get_mut(i)) {
            slot.1 = value;
            return;
        }
        self.list.push((key, value));
        let n = self.list.len();
        if n == Self::SCANNED + 1 {
            let keys = self.list.iter().enumerate();
            self.index
                .extend(keys.map(|(i, (k, _))| (String::from(k.as_ref()), i)));
        } else if let Some((k, _)) = self.list.last().filter(|_| n > Self::SCANNED) {
            self.index.insert(String::from(k.as_ref()), n - 1);
        }
    }

    /// Writes the scalar line. `hardened` quotes values holding any W;
    /// the reference form (`!hardened`) returns whether it left a value
    /// unquoted that the hardened form quotes (a hazard, spec D3).
    pub(crate) fn write(&self, hardened: bool, out: &mut String) -> bool {
        let mut text = String::with_capacity(64);
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

#[cfg(test)]
mod tests {
    use super::{Pairs, Scalar};
    use alloc::borrow::Cow;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    /// A repeated key replaces the value at its first position whether
    /// the keys are scanned or indexed: 1 to 120 sets over 48 keys,
    /// against a list searched from the start.
    #[test]
    fn a_repeated_key_keeps_its_first_position_at_any_length() {
        let mut next = crate::test_rng::xorshift32(0x85eb_ca6b);
        for n in 1..=120 {
            let mut pairs = Pairs::default();
            let mut want: Vec<(String, String)> = Vec::new();
            for v in 0..n {
                let key = alloc::format!("k{}", next() % 48);
                pairs.set(Cow::Owned(key.clone()), Scalar::Text(v.to_string()));
                match want.iter_mut().find(|(k, _)| *k == key) {
                    Some(slot) => slot.1 = v.to_string(),
                    None => want.push((key, v.to_string())),
                }
            }
            let got: Vec<(String, String)> = pairs
                .list
                .iter()
                .map(|(k, v)| match v {
                    Scalar::Text(t) => (k.to_string(), t.clone()),
                    _ => (k.to_string(), String::new()),
                })
                .collect();
            assert_eq!(got, want, "{n}");
        }
    }
}
