//! Table rows as objects: every row of a table has the same keys in the
//! same order, so the keys are hashed into one template object per table
//! and each row is a clone of it (an `IndexMap` clone copies the stored
//! hashes; nothing is hashed or probed again) with its values written in
//! place. Columns that repeat a name fall back to inserting member by
//! member, where a later column overwrites the earlier one's value.

use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{Map, Value};

/// The member layout of one table's rows.
pub(crate) struct RowShape {
    /// The distinct column names, each with a null value; `None` when two
    /// columns share a name.
    template: Option<Map<String, Value>>,
}

impl RowShape {
    /// The shape of rows with these column names, in order.
    pub(crate) fn new<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> RowShape {
        let n = names.len();
        let mut template = Map::with_capacity(n);
        for name in names {
            template.insert(name.into(), Value::Null);
        }
        RowShape {
            template: (template.len() == n).then_some(template),
        }
    }

    /// The row whose `i`-th column (name `names[i]`) holds `values[i]`;
    /// `values` is left empty for the next row.
    pub(crate) fn row<'a>(
        &self,
        names: impl Iterator<Item = &'a str>,
        values: &mut Vec<Value>,
    ) -> Map<String, Value> {
        match &self.template {
            Some(template) => {
                let mut obj = template.clone();
                for (slot, v) in obj.values_mut().zip(values.drain(..)) {
                    *slot = v;
                }
                obj
            }
            None => {
                let mut obj = Map::with_capacity(values.len());
                for (name, v) in names.zip(values.drain(..)) {
                    obj.insert(name.into(), v);
                }
                obj
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::RowShape;
    use alloc::vec;
    use serde_json::{Value, json};

    /// A cloned template gives the object that inserting member by member
    /// gives, key order included, with or without repeated names.
    #[test]
    fn rows_equal_member_by_member_inserts() {
        for names in [vec!["a", "b", "c"], vec!["a", "b", "a"], vec![], vec!["x"]] {
            let shape = RowShape::new(names.iter().copied());
            for round in 0..3 {
                let values: vec::Vec<Value> = (0..names.len()).map(|i| json!(i + round)).collect();
                let mut expected = serde_json::Map::new();
                for (n, v) in names.iter().zip(values.iter()) {
                    expected.insert((*n).into(), v.clone());
                }
                let mut buf = values.clone();
                let got = shape.row(names.iter().copied(), &mut buf);
                assert!(buf.is_empty());
                assert_eq!(
                    serde_json::to_string(&got).unwrap(),
                    serde_json::to_string(&expected).unwrap(),
                    "{names:?}"
                );
            }
        }
    }
}
