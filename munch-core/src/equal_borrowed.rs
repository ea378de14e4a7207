//! [`exact_eq`](crate::exact_eq) between a value and a tree borrowed from
//! a payload ([`BorrowedValue`]): the verified encoder reads its JSON
//! blobs back into borrowed trees (no key hashed, no string copied) and
//! compares them with the input where it stands.

use alloc::vec::Vec;
use serde_json::Value;

use crate::borrowed::BorrowedValue;
use crate::borrowed::de::sentinel;
use crate::equal::{KeyOrder, scalars_eq};
use crate::value::{Kind, kind, number_kind};

/// Whether `a` and `b` are exactly equal as `exact_eq` compares two
/// values: the same types, ints by value, floats by bits (NaN equal to
/// NaN, a `$float` sentinel standing for its float), objects by key set
/// (and order with [`KeyOrder::Exact`]).
pub(crate) fn exact_eq_borrowed(a: &Value, b: &BorrowedValue<'_>, order: KeyOrder) -> bool {
    let mut stack: Vec<(&Value, &BorrowedValue<'_>)> = alloc::vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        let ka = kind(a);
        let same = match (ka, b) {
            (Kind::List(x), BorrowedValue::Array(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                stack.extend(x.iter().zip(y.iter()));
                true
            }
            (Kind::Dict(x), BorrowedValue::Object(y)) if sentinel(y).is_none() => {
                if x.len() != y.len() {
                    return false;
                }
                // In order while the keys agree (no hashing), then by key.
                let mut in_order = true;
                for ((k, w), xs) in y.iter().zip(x.iter()) {
                    if in_order {
                        if xs.0 == k {
                            stack.push((xs.1, w));
                            continue;
                        }
                        if order == KeyOrder::Exact {
                            return false;
                        }
                        in_order = false;
                    }
                    match x.get(k.as_ref()) {
                        Some(v) => stack.push((v, w)),
                        None => return false,
                    }
                }
                true
            }
            (ka, b) => scalars_eq(ka, borrowed_scalar(b)) == Some(true),
        };
        if !same {
            return false;
        }
    }
    true
}

/// The Python kind of a borrowed scalar (a container: an empty list, so
/// that `scalars_eq` answers for any mix).
pub(crate) fn borrowed_scalar<'b>(b: &'b BorrowedValue<'_>) -> Kind<'b> {
    match b {
        BorrowedValue::Null => Kind::Null,
        BorrowedValue::Bool(x) => Kind::Bool(*x),
        BorrowedValue::Number(n) => number_kind(n),
        BorrowedValue::String(s) => Kind::Str(s),
        BorrowedValue::Object(m) => sentinel(m).map_or(Kind::List(&[]), Kind::Float),
        BorrowedValue::Array(_) => Kind::List(&[]),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::equal::exact_eq;
    use crate::py::json_parse::{parse, parse_borrowed};

    /// Texts of values that differ in every way `exact_eq` tells apart
    /// (kinds, ints and floats, NaN, `$float` objects, big ints, key
    /// order, duplicate keys), shared with `py/json_compare.rs`.
    pub(crate) const TEXTS: &[&str] = &[
        r#"{"a": [1, 2.0, "x", null, true], "b": {"c": NaN, "d": -0.0}}"#,
        r#"{"b": {"d": 0.0, "c": NaN}, "a": [1, 2, "x", null, true]}"#,
        r#"{"a": [1, 2.0, "x", null, true], "b": {"c": Infinity, "d": -0.0}}"#,
        r#"{"a": [1, 2.0, "x", null], "b": {"c": NaN, "d": -0.0}}"#,
        r#"{"a": [1, 2.0, "x", null, true], "b": {"$float": "nan"}}"#,
        r#"{"a": [1, 2.0, "x", null, 1], "b": {"c": NaN, "d": -0.0}, "e": 1}"#,
        r#"{"a": [1, 2.0, "x", null, true], "b": {"c": NaN, "d": -0.0, "d": 1}}"#,
        r#"[{"$float": "inf"}, {"$float": "x"}, 18446744073709551616, 1e400, "\u00e9"]"#,
        r#"[Infinity, {"$float": "x"}, 18446744073709551616.0, 1e400, "é"]"#,
        r#"{"k": {}, "l": []}"#,
        r#"{"k": [], "l": {}}"#,
    ];

    /// Reading a text into a borrowed tree and comparing it with a value
    /// answers as reading it into a value and comparing the two.
    #[test]
    fn answers_as_the_owned_comparison() {
        let texts = TEXTS;
        for x in texts {
            for y in texts {
                let (a, b) = (parse(x, 64).unwrap(), parse(y, 64).unwrap());
                let bb = parse_borrowed(y, 64).unwrap();
                for order in [KeyOrder::Any, KeyOrder::Exact] {
                    let want = exact_eq(&a, &b, order);
                    assert_eq!(exact_eq_borrowed(&a, &bb, order), want, "{x} {y} {order:?}");
                }
            }
        }
    }
}
