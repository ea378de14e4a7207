//! Exact value equality (spec D3 (a)): same types, ints by value, floats
//! bit for bit (NaN equal to NaN, −0.0 unequal to 0.0), arrays element by
//! element, objects by key set and values — and by key order on request.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;
use serde_json::Value;

use crate::value::{Kind, int_eq, kind};

/// Whether object key order counts.
///
/// ```
/// use munch_core::{KeyOrder, exact_eq};
/// let a = serde_json::json!({"a": 1, "b": 2});
/// let b = serde_json::json!({"b": 2, "a": 1});
/// assert!(exact_eq(&a, &b, KeyOrder::Any));
/// assert!(!exact_eq(&a, &b, KeyOrder::Exact));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KeyOrder {
    /// Objects are compared as JSON objects: key order ignored. The default.
    #[default]
    Any,
    /// Keys must also come in the same order.
    Exact,
}

/// The first difference found between two values.
///
/// ```
/// let a = serde_json::json!({"x": [1, 2]});
/// let b = serde_json::json!({"x": [1, 2.0]});
/// let m = munch_core::first_mismatch(&a, &b, munch_core::KeyOrder::Any).unwrap();
/// assert_eq!(m.path, "$.x[1]");
/// assert_eq!(m.kind, "int_to_float");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// JSONPath-like location (`$.a[2].b`).
    pub path: String,
    /// What changed, in the vocabulary of the reference vectors
    /// (`key_dropped`, `key_added`, `empty_string_to_null`, …).
    pub kind: &'static str,
}

/// Whether `a` and `b` are exactly equal.
///
/// ```
/// use munch_core::{KeyOrder, exact_eq};
/// assert!(!exact_eq(&serde_json::json!(1), &serde_json::json!(1.0), KeyOrder::Any));
/// ```
#[must_use]
pub fn exact_eq(a: &Value, b: &Value, order: KeyOrder) -> bool {
    // Two scalars need no stack.
    if let Some(same) = scalars_eq(kind(a), kind(b)) {
        return same;
    }
    // No paths are built on this path: they are only needed to report a
    // difference, which `first_mismatch` does.
    let mut stack: Vec<(&Value, &Value)> = alloc::vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        let (ka, kb) = (kind(a), kind(b));
        if let Some(same) = scalars_eq(ka, kb) {
            if !same {
                return false;
            }
            continue;
        }
        let same = match (ka, kb) {
            (Kind::List(x), Kind::List(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                stack.extend(x.iter().zip(y.iter()));
                true
            }
            (Kind::Dict(x), Kind::Dict(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                // Walk both in order while the keys agree (no hashing);
                // from the first disagreement on, look keys up.
                let mut ys = y.iter();
                let mut in_order = true;
                for (k, v) in x {
                    if in_order {
                        match ys.next() {
                            Some((yk, w)) if yk == k => {
                                stack.push((v, w));
                                continue;
                            }
                            _ if order == KeyOrder::Exact => return false,
                            _ => in_order = false,
                        }
                    }
                    match y.get(k) {
                        Some(w) => stack.push((v, w)),
                        None => return false,
                    }
                }
                true
            }
            _ => false,
        };
        if !same {
            return false;
        }
    }
    true
}

/// Whether two values of these kinds are equal, when one of them is a
/// scalar (`None` for two containers).
pub(crate) fn scalars_eq(a: Kind<'_>, b: Kind<'_>) -> Option<bool> {
    Some(match (a, b) {
        (Kind::List(_) | Kind::Dict(_), Kind::List(_) | Kind::Dict(_)) => return None,
        (Kind::Null, Kind::Null) => true,
        (Kind::Bool(x), Kind::Bool(y)) => x == y,
        (Kind::Int(x), Kind::Int(y)) => int_eq(x, y),
        (Kind::Float(x), Kind::Float(y)) => {
            x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
        }
        (Kind::Str(x), Kind::Str(y)) => x == y,
        _ => false,
    })
}

fn type_name(k: &Kind<'_>) -> &'static str {
    match k {
        Kind::Null => "null",
        Kind::Bool(_) => "bool",
        Kind::Int(_) => "int",
        Kind::Float(_) => "float",
        Kind::Str(_) => "string",
        Kind::List(_) => "list",
        Kind::Dict(_) => "dict",
    }
}

pub(crate) fn changed(expected: &Kind<'_>, got: &Kind<'_>) -> &'static str {
    match (expected, got) {
        (Kind::Str(""), Kind::Null) => "empty_string_to_null",
        (Kind::Null, Kind::Str("")) => "null_to_empty_string",
        (Kind::Int(_), Kind::Float(_)) => "int_to_float",
        (Kind::Bool(_), Kind::Str(_)) => "bool_stringified",
        (Kind::Int(_), Kind::Str(_)) => "int_stringified",
        (Kind::Float(_), Kind::Str(_)) => "float_stringified",
        (Kind::List(_) | Kind::Dict(_), Kind::Str(_)) => "container_stringified",
        (Kind::Str(_), Kind::Str(_)) => "string_changed",
        _ if type_name(expected) == type_name(got) => "value_changed",
        _ => "type_changed",
    }
}

/// The first place where `got` differs from `expected` (`None` when they
/// are exactly equal). Walks without recursion.
///
/// ```
/// use munch_core::{KeyOrder, first_mismatch};
/// let expected = serde_json::json!({"rows": [{"a": ""}]});
/// let got = serde_json::json!({"rows": [{"a": null}]});
/// let m = first_mismatch(&expected, &got, KeyOrder::Any).unwrap();
/// assert_eq!((m.path.as_str(), m.kind), ("$.rows[0].a", "empty_string_to_null"));
/// assert_eq!(first_mismatch(&expected, &expected, KeyOrder::Any), None);
/// ```
#[must_use]
pub fn first_mismatch(expected: &Value, got: &Value, order: KeyOrder) -> Option<Mismatch> {
    if exact_eq(expected, got, order) {
        return None;
    }
    // Each value compared has a step of its path (its key or index after
    // its parent's step); a path is written out only for the difference.
    let mut steps: Vec<(usize, Step<'_>)> = Vec::new();
    let mut stack: Vec<(&Value, &Value, usize)> = alloc::vec![(expected, got, ROOT)];
    let at = |steps: &[(usize, Step<'_>)], step: usize, last: Option<&str>| {
        let mut path = path_of(steps, step);
        if let Some(key) = last {
            path.push('.');
            path.push_str(key);
        }
        path
    };
    while let Some((e, g, step)) = stack.pop() {
        let (ke, kg) = (kind(e), kind(g));
        let same = match (&ke, &kg) {
            _ if scalars_eq(ke, kg).is_some() => scalars_eq(ke, kg) == Some(true),
            (Kind::List(x), Kind::List(y)) => {
                if x.len() != y.len() {
                    return Some(Mismatch {
                        path: at(&steps, step, None),
                        kind: "length_changed",
                    });
                }
                for (i, (a, b)) in x.iter().zip(y.iter()).enumerate().rev() {
                    stack.push((a, b, steps.len()));
                    steps.push((step, Step::Index(i)));
                }
                true
            }
            (Kind::Dict(x), Kind::Dict(y)) => {
                // Keys in the same order (the usual case) are paired
                // without a lookup.
                let aligned = x.len() == y.len() && x.keys().eq(y.keys());
                if !aligned {
                    if let Some(k) = x.keys().find(|k| !y.contains_key(*k)) {
                        return Some(Mismatch {
                            path: at(&steps, step, Some(k)),
                            kind: "key_dropped",
                        });
                    }
                    if let Some((k, v)) = y.iter().find(|(k, _)| !x.contains_key(*k)) {
                        let kind = if v.is_null() {
                            "key_added_null"
                        } else {
                            "key_added"
                        };
                        return Some(Mismatch {
                            path: at(&steps, step, Some(k)),
                            kind,
                        });
                    }
                    if order == KeyOrder::Exact {
                        return Some(Mismatch {
                            path: at(&steps, step, None),
                            kind: "key_order",
                        });
                    }
                }
                let first = stack.len();
                if aligned {
                    for ((k, a), b) in x.iter().zip(y.values()) {
                        stack.push((a, b, steps.len()));
                        steps.push((step, Step::Key(k)));
                    }
                } else {
                    for (k, a) in x.iter() {
                        if let Some(b) = y.get(k) {
                            stack.push((a, b, steps.len()));
                            steps.push((step, Step::Key(k)));
                        }
                    }
                }
                // Members are compared in order.
                if let Some(pushed) = stack.get_mut(first..) {
                    pushed.reverse();
                }
                true
            }
            _ => false,
        };
        if !same {
            return Some(Mismatch {
                kind: changed(&ke, &kg),
                path: at(&steps, step, None),
            });
        }
    }
    None
}

/// The step of the root value.
const ROOT: usize = usize::MAX;

/// A value's place in its parent.
#[derive(Clone, Copy)]
enum Step<'v> {
    Index(usize),
    Key(&'v str),
}

/// The path (`$.a[2].b`) of the value at `step`, walking up its parents.
fn path_of(steps: &[(usize, Step<'_>)], mut step: usize) -> String {
    let mut chain = Vec::new();
    while let Some(&(parent, s)) = steps.get(step) {
        chain.push(s);
        step = parent;
    }
    let mut path = String::from("$");
    for s in chain.iter().rev() {
        match s {
            Step::Index(i) => {
                let _ = write!(path, "[{i}]");
            }
            Step::Key(k) => {
                path.push('.');
                path.push_str(k);
            }
        }
    }
    path
}

/// Python `==`: `1 == 1.0 == True`, NaN unequal to itself, dicts by key
/// set, lists element by element.
pub(crate) fn py_eq(a: &Value, b: &Value) -> bool {
    let mut stack: Vec<(&Value, &Value)> = alloc::vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        let (ka, kb) = (kind(a), kind(b));
        let same = match (&ka, &kb) {
            (Kind::Null, Kind::Null) => true,
            (Kind::Str(x), Kind::Str(y)) => x == y,
            (Kind::List(x), Kind::List(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                stack.extend(x.iter().zip(y.iter()));
                true
            }
            (Kind::Dict(x), Kind::Dict(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                for (k, v) in x.iter() {
                    match y.get(k) {
                        Some(w) => stack.push((v, w)),
                        None => return false,
                    }
                }
                true
            }
            (Kind::Int(x), Kind::Int(y)) => int_eq(x, y),
            (Kind::Int(n), Kind::Float(f)) | (Kind::Float(f), Kind::Int(n)) => int_float_eq(n, *f),
            _ => match (py_number(&ka), py_number(&kb)) {
                (Some(x), Some(y)) => x == y,
                _ => false,
            },
        };
        if !same {
            return false;
        }
    }
    true
}

/// Python's `int == float`: exact (`2**64 + 1 == 2.0**64` is false), true
/// only for a finite float with no fraction whose integer value is the
/// int's.
fn int_float_eq(n: &serde_json::Number, f: f64) -> bool {
    // Every float from 2^53 up is integral; below, the i64 round trip
    // tells (no `f64::fract` without std).
    let integral = f.abs() >= 9_007_199_254_740_992.0 || (f as i64) as f64 == f;
    if !f.is_finite() || !integral {
        return false;
    }
    // A finite float without fraction below 2^127 converts exactly.
    if let Some(i) = n.as_i64() {
        return f as i128 == i128::from(i);
    }
    if let Some(u) = n.as_u64() {
        return f as i128 == i128::from(u);
    }
    let mut text = String::new();
    crate::value::write_int(n, &mut text);
    text == integer_text(f)
}

/// The exact decimal text of a finite float without fraction (`-` for a
/// negative one): its mantissa times a power of two, in base-10^9 limbs.
fn integer_text(f: f64) -> String {
    const BASE: u64 = 1_000_000_000;
    let bits = f.abs().to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i32;
    let mut out = String::new();
    if f < 0.0 {
        out.push('-');
    }
    if exponent == 0 {
        out.push('0');
        return out;
    }
    let mantissa = (bits & ((1 << 52) - 1)) | (1 << 52);
    let shift = exponent - 1075;
    if shift <= 0 {
        // Integral, so the bits shifted out are zero.
        crate::value::push_u64(mantissa >> (-shift).min(63), &mut out);
        return out;
    }
    // Little-endian limbs of the mantissa, doubled `shift` times, 29 bits
    // at a time (a limb times 2^29 plus a carry fits in a u64).
    let mut limbs: Vec<u64> = alloc::vec![
        mantissa % BASE,
        (mantissa / BASE) % BASE,
        mantissa / (BASE * BASE)
    ];
    let mut left = shift;
    while left > 0 {
        let k = left.min(29);
        left -= k;
        let mut carry = 0u64;
        for limb in limbs.iter_mut() {
            let v = (*limb << k) + carry;
            *limb = v % BASE;
            carry = v / BASE;
        }
        while carry > 0 {
            limbs.push(carry % BASE);
            carry /= BASE;
        }
    }
    while limbs.len() > 1 && limbs.last() == Some(&0) {
        limbs.pop();
    }
    let mut first = true;
    for &limb in limbs.iter().rev() {
        if first {
            crate::value::push_u64(limb, &mut out);
            first = false;
        } else {
            let _ = write!(out, "{limb:09}");
        }
    }
    out
}

/// A bool, int or float as an f64 for Python's mixed comparisons.
fn py_number(k: &Kind<'_>) -> Option<f64> {
    match k {
        Kind::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        Kind::Int(n) => n
            .as_i64()
            .map(|v| v as f64)
            .or_else(|| n.as_u64().map(|v| v as f64))
            .or_else(|| n.as_f64()),
        Kind::Float(f) => Some(*f),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::{KeyOrder, first_mismatch, int_float_eq, integer_text, py_eq};
    use serde_json::{Number, json};

    /// The first difference in the order the values are read (object
    /// members in the expected value's order, items in order), members
    /// paired by key whatever their order, key-set changes reported at
    /// the object before any member.
    #[test]
    fn first_mismatch_reports_the_first_difference_in_order() {
        let cases = [
            (
                json!({"a": [1, {"b": 2}], "c": 3}),
                json!({"a": [1, {"b": 2.0}], "c": 4}),
                "$.a[1].b",
                "int_to_float",
            ),
            (
                json!({"a": 1, "c": [1, 2]}),
                json!({"c": [1, 3], "a": 1}),
                "$.c[1]",
                "value_changed",
            ),
            (
                json!({"a": {"x": ""}, "b": 1}),
                json!({"b": 2, "a": {"x": null}}),
                "$.a.x",
                "empty_string_to_null",
            ),
            (
                json!({"a": [1], "b": 1}),
                json!({"a": [2], "c": 1}),
                "$.b",
                "key_dropped",
            ),
            (
                json!({"a": [1]}),
                json!({"a": [1], "z": null}),
                "$.z",
                "key_added_null",
            ),
            (
                json!({"r": [[1, 2], [3]]}),
                json!({"r": [[1, 2], [3, 4]]}),
                "$.r[1]",
                "length_changed",
            ),
            (
                json!({"r": [{"k": [1]}]}),
                json!({"r": [{"k": "[1]"}]}),
                "$.r[0].k",
                "container_stringified",
            ),
        ];
        for (e, g, path, kind) in cases {
            let m = first_mismatch(&e, &g, KeyOrder::Any).unwrap();
            assert_eq!((m.path.as_str(), m.kind), (path, kind), "{e} {g}");
        }
        let (e, g) = (
            json!({"o": {"a": 1, "b": 2}}),
            json!({"o": {"b": 2, "a": 1}}),
        );
        assert_eq!(first_mismatch(&e, &g, KeyOrder::Any), None);
        let m = first_mismatch(&e, &g, KeyOrder::Exact).unwrap();
        assert_eq!((m.path.as_str(), m.kind), ("$.o", "key_order"));
    }

    #[test]
    fn a_float_without_fraction_has_its_exact_integer_text() {
        assert_eq!(integer_text(0.0), "0");
        assert_eq!(integer_text(1.0), "1");
        assert_eq!(integer_text(-7.0), "-7");
        assert_eq!(integer_text(2f64.powi(64)), "18446744073709551616");
        assert_eq!(integer_text(-(2f64.powi(70))), "-1180591620717411303424");
        // Python's `int(1e300)`.
        assert_eq!(
            integer_text(1e300),
            "1000000000000000052504760255204420248704468581108159154915854115511802457988908195786371375080447864043704443832883878176942523235360430575644792184786706982848387200926575803737830233794788090059368953234970799945081119038967640880074652742780142494579258788820056842838115669472196386865459400540160"
        );
    }

    #[test]
    fn ints_equal_floats_exactly_as_in_python() {
        let n = |t: &str| serde_json::from_str::<Number>(t).unwrap();
        assert!(int_float_eq(&n("9007199254740992"), 9007199254740992.0));
        assert!(!int_float_eq(&n("9007199254740993"), 9007199254740992.0));
        assert!(int_float_eq(&n("-7"), -7.0));
        assert!(!int_float_eq(&n("1"), 1.5));
        assert!(!int_float_eq(&n("1"), f64::NAN));
        if crate::value::arbitrary_precision() {
            assert!(int_float_eq(&n("18446744073709551616"), 2f64.powi(64)));
            assert!(!int_float_eq(&n("18446744073709551617"), 2f64.powi(64)));
            assert!(!py_eq(
                &json!([n("18446744073709551617")]),
                &json!([2f64.powi(64)])
            ));
        }
        assert!(py_eq(&json!([1, true, 2.0]), &json!([1.0, 1, 2])));
    }
}
