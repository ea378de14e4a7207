//! Whether a table cell read back decodes to the cell the encoder
//! gathered from the input (spec D3): by a schema column's type for the
//! usual pairs, else by legend expansion, coercion and exact comparison.
//! Shared by the tier-1 and gen1 checks.

use alloc::borrow::Cow;
use serde_json::Value;

use super::coerce;
use crate::encode::columns::Cell;
use crate::equal::{KeyOrder, exact_eq};
use crate::format::legend::Legend;
use crate::tier1::schema::Ty;
use crate::value::{Kind, kind, same_bytes};

/// [`cell_equals`] for an `int` or `float` cell that reads as a finite
/// number, without building the value (`None` otherwise).
fn number_equals(text: &str, hint: &str, want: Cell<'_>) -> Option<bool> {
    match hint {
        "float" => {
            let y = crate::py::number::parse_float(text).filter(|y| y.is_finite())?;
            Some(number_is(Kind::Float(y), want))
        }
        "int" => {
            if let Some(i) = crate::py::number::plain_int(text) {
                return Some(number_is(Kind::Int(&serde_json::Number::from(i)), want));
            }
            let v = crate::py::number::parse_int(text)?;
            let n @ Kind::Int(_) = kind(&v) else {
                return None;
            };
            Some(number_is(n, want))
        }
        _ => None,
    }
}

/// Whether a decoded int or float is exactly the cell `want`.
fn number_is(got: Kind<'_>, want: Cell<'_>) -> bool {
    match (got, want) {
        (Kind::Int(n), Cell::UInt(u)) => n.as_u64() == Some(u),
        (Kind::Int(n), Cell::NegInt(i)) => n.as_i64() == Some(i),
        (Kind::Float(y), Cell::Float(x)) => x.to_bits() == y.to_bits(),
        (Kind::Int(n), Cell::Other(v)) => {
            matches!(kind(v), Kind::Int(w) if crate::value::int_eq(w, n))
        }
        (Kind::Float(y), Cell::Other(v)) => {
            matches!(kind(v), Kind::Float(x) if x.to_bits() == y.to_bits())
        }
        _ => false,
    }
}

/// Whether a `str` cell decoded to `head` followed by `tail` (the legend's
/// literal and the rest) is the non-empty string `s`, compared in place.
#[inline]
fn split_equals(head: &str, tail: &str, s: &str) -> bool {
    let s = s.as_bytes();
    !s.is_empty()
        && s.len() == head.len() + tail.len()
        && same_bytes(s.get(..head.len()).unwrap_or_default(), head.as_bytes())
        && same_bytes(s.get(head.len()..).unwrap_or_default(), tail.as_bytes())
}

/// [`cell_equals`] for a column of a tier-1 schema (type `ty`): the
/// usual pairs — a string column (plain or interned) and a string cell, an
/// int column and an int cell, a float column and a finite float cell —
/// are compared with no dispatch on the type's name; every other pair is
/// left to [`cell_equals`], which they agree with.
#[inline]
pub(crate) fn column_cell_equals(
    cell: &str,
    interned: bool,
    ty: Ty,
    legend: &Legend<'_>,
    want: Cell<'_>,
) -> bool {
    if interned {
        if let (Ty::Str, Cell::Str(s, _) | Cell::Bare(s, _) | Cell::Wrapped(s, _)) = (ty, want) {
            let (head, tail) = legend.decode_split(cell).unwrap_or(("", cell));
            return split_equals(head, tail, s);
        }
    } else {
        match (ty, want) {
            (Ty::Str, Cell::Str(s, _) | Cell::Bare(s, _) | Cell::Wrapped(s, _)) => {
                return !s.is_empty() && same_bytes(s.as_bytes(), cell.as_bytes());
            }
            (Ty::Int, Cell::UInt(_) | Cell::NegInt(_)) => {
                if let Some(i) = crate::py::number::plain_int(cell) {
                    return number_is(Kind::Int(&serde_json::Number::from(i)), want);
                }
            }
            (Ty::Float, Cell::Float(x)) => {
                if let Some(y) = crate::py::number::parse_float(cell).filter(|y| y.is_finite()) {
                    return x.to_bits() == y.to_bits();
                }
            }
            _ => {}
        }
    }
    cell_equals(cell, interned, ty.name(), legend, want)
}

/// A legend literal and the rest of a cell as one text.
fn joined<'c>(head: &str, tail: &'c str) -> Cow<'c, str> {
    if head.is_empty() {
        return Cow::Borrowed(tail);
    }
    let mut s = alloc::string::String::with_capacity(head.len() + tail.len());
    s.push_str(head);
    s.push_str(tail);
    Cow::Owned(s)
}

/// The value a table cell decodes to: its legend handle expanded when
/// `interned`, then coerced by its column's type `hint`.
pub(crate) fn cell_value(cell: &str, interned: bool, hint: &str, legend: &Legend<'_>) -> Value {
    let (head, tail) = match interned.then(|| legend.decode_split(cell)).flatten() {
        Some(split) => split,
        None => ("", cell),
    };
    coerce(joined(head, tail), hint)
}

/// Whether a table cell decodes (legend, then the type's coercion) to
/// exactly `want`; strings are compared without building them.
pub(crate) fn cell_equals(
    cell: &str,
    interned: bool,
    hint: &str,
    legend: &Legend<'_>,
    want: Cell<'_>,
) -> bool {
    let (head, tail) = match interned.then(|| legend.decode_split(cell)).flatten() {
        Some(split) => split,
        None => ("", cell),
    };
    if hint == "str" {
        return match want {
            Cell::Str(s, _) | Cell::Bare(s, _) | Cell::Wrapped(s, _) => split_equals(head, tail, s),
            Cell::Other(v) => matches!(kind(v), Kind::Null) && head.is_empty() && tail.is_empty(),
            _ => false,
        };
    }
    if head.is_empty() {
        // An empty cell reads as null whatever its type (`coerce`).
        if tail.is_empty() {
            return matches!(want, Cell::Other(Value::Null));
        }
        if let Some(same) = number_equals(tail, hint, want) {
            return same;
        }
    }
    let got = coerce(joined(head, tail), hint);
    match want {
        Cell::Other(v) => exact_eq(&got, v, KeyOrder::Any),
        Cell::Str(s, _) | Cell::Bare(s, _) | Cell::Wrapped(s, _) => {
            matches!(&got, Value::String(x) if x == s)
        }
        Cell::Absent => false,
        number => number_is(kind(&got), number),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The typed comparison of a schema column agrees with the general
    /// one on every pair of field text and cell, plain and interned.
    #[test]
    fn column_comparison_agrees_with_the_general_one() {
        let texts = [
            "",
            "1",
            "-1",
            "01",
            "-0",
            "0",
            "1.5",
            "1.50",
            "-0.0",
            "0.1",
            "1e5",
            "1E-3",
            "nan",
            "inf",
            " 1",
            "1_0",
            "\u{661}",
            "9999999999999999999",
            "18446744073709551616",
            "abc",
            "@1",
            "@1x",
            "@@1",
            "ab",
            "0.30000000000000004",
        ];
        let null = Value::Null;
        let cells = [
            Cell::Absent,
            Cell::Str("1", 0),
            Cell::Str("", 0),
            Cell::Bare("abc", 0),
            Cell::Wrapped("abx", 0),
            Cell::Bare("@1", 0),
            Cell::UInt(0),
            Cell::UInt(1),
            Cell::UInt(10),
            Cell::UInt(u64::MAX),
            Cell::NegInt(-1),
            Cell::Float(1.5),
            Cell::Float(0.0),
            Cell::Float(-0.0),
            Cell::Float(0.1),
            Cell::Float(1e5),
            Cell::Float(0.30000000000000004),
            Cell::Other(&null),
        ];
        let legend = Legend::read("@1=ab");
        for text in texts {
            for ty in [Ty::Str, Ty::Int, Ty::Float, Ty::Bool] {
                for want in cells {
                    for interned in [false, true] {
                        assert_eq!(
                            column_cell_equals(text, interned, ty, &legend, want),
                            cell_equals(text, interned, ty.name(), &legend, want),
                            "{text:?} {ty:?} {want:?} {interned}"
                        );
                    }
                }
            }
        }
    }

    /// The number fast path answers as coercion and exact comparison do.
    #[test]
    fn number_cells_compare_as_their_coerced_values() {
        let texts = [
            "",
            "7",
            "-7",
            "007",
            " 7",
            "7_0",
            "1.5",
            "-0.0",
            "0.0",
            "1e3",
            "1.0",
            "inf",
            "nan",
            "x",
            "99999999999999999999",
        ];
        let wants = [
            json!(7),
            json!(-7),
            json!(70),
            json!(1.5),
            json!(-0.0),
            json!(0.0),
            json!(1000.0),
            json!(1.0),
            json!(1),
            json!("7"),
            json!(null),
            json!(99_999_999_999_999_999_999.0),
        ];
        for text in texts {
            for hint in ["int", "float", "bool"] {
                for want in &wants {
                    let slow = exact_eq(&coerce(Cow::Borrowed(text), hint), want, KeyOrder::Any);
                    if let Some(fast) = number_equals(text, hint, Cell::of(want)) {
                        assert_eq!(fast, slow, "{text:?} {hint} {want}");
                    }
                    let legend = Legend::default();
                    assert_eq!(
                        cell_equals(text, false, hint, &legend, Cell::of(want)),
                        slow
                    );
                }
            }
        }
    }
}
