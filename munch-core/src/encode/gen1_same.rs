//! Where gen1's hardened form (spec D3) writes something else than its
//! reference form. A reference payload that met none of these hazards is
//! the hardened payload byte for byte, so the ladder need not write the
//! hardened rung: it is the same as the reference (refused with it), or
//! it could not pass `auto`'s gate either.

use alloc::vec::Vec;
use serde_json::Value;

use super::Payload;
use super::columns::{Cell, Columns};
use super::gen1::cell_kind;
use super::pairs::Pairs;
use crate::format::csv::FIELD_LIMIT;
use crate::value::{Kind, kind};

/// The hardened table test: every column holds one kind (plus nulls), no
/// container or `""` cell, no cell over the reference's field limit.
pub(super) fn safe_table(columns: &Columns<'_>) -> bool {
    let mut seen: Vec<Option<u8>> = alloc::vec![None; columns.width()];
    for row in columns.rows() {
        for (&cell, seen) in row.iter().zip(seen.iter_mut()) {
            match cell {
                Cell::Absent => return false,
                Cell::Str(s, _) | Cell::Bare(s, _) | Cell::Wrapped(s, _)
                    if s.is_empty()
                        || (s.len() > FIELD_LIMIT && s.chars().count() > FIELD_LIMIT) =>
                {
                    return false;
                }
                Cell::Other(v) if matches!(kind(v), Kind::List(_) | Kind::Dict(_)) => {
                    return false;
                }
                _ => {}
            }
            let Some(k) = cell_kind(cell) else {
                continue;
            };
            match *seen {
                Some(prev) if prev != k => return false,
                _ => *seen = Some(k),
            }
        }
    }
    true
}

/// A scalar the reference form writes as `key=value` and the hardened
/// form as a `__json.` blob: a null, a reserved `__` key, or a value
/// other than a string whose key holds `:` or `|`.
pub(super) fn scalar_hazard(key: &str, v: &Value) -> bool {
    v.is_null()
        || key == "__tables"
        || key == "__stypes"
        || key.starts_with("__json.")
        || (!v.is_string() && key.contains([':', '|']))
}

/// The scalar line's first key starts with `@` or reads as a table row
/// (`[a-z],`): the hardened form writes a space before it.
pub(super) fn spaced_first_key(pairs: &Pairs<'_>) -> bool {
    let first = pairs.list.first().map_or("", |(k, _)| k.as_ref());
    let b = first.as_bytes();
    first.starts_with('@')
        || (b.len() >= 2
            && b.first().is_some_and(u8::is_ascii_lowercase)
            && b.get(1) == Some(&b','))
}

/// Whether the hardened form of this written gen1 reference payload is
/// the same text: no hazard fired while it was written, and the hardened
/// form keeps every table it wrote (their cells scanned only now: only a
/// payload the ladder refused, or held under the gate, asks).
pub(crate) fn hardened_same(p: &Payload<'_>) -> bool {
    p.unwritten.is_none() && p.loss.is_none() && !p.hazard && p.tables.iter().all(safe_table)
}

#[cfg(test)]
mod tests {
    use super::hardened_same;
    use crate::encode::gen1::{Shared, encode};
    use alloc::format;
    use serde_json::{Map, Value, json};

    /// Clean strings: path-like values a legend takes, with safe
    /// remainders.
    const CLEAN: [&str; 5] = ["src/app/", "src/app/a.py", "src/app/b.py", "plain", "x_y"];

    /// A hazard of each kind, put into a clean response.
    fn inject(kind: usize, map: &mut Map<String, Value>, pick: &mut dyn FnMut(usize) -> usize) {
        let rows = |cells: &[Value]| {
            Value::Array(cells.iter().map(|c| json!({ "p": c, "q": 1 })).collect())
        };
        let odd = [
            "src/app/1.py",
            "x\u{a0}y",
            "a\nb",
            "q\"",
            "@1",
            "src\u{2003}x",
        ];
        let odd = odd[pick(odd.len())];
        match kind {
            // A string the legend, a cell or the scalar line treats apart.
            0 => {
                map.insert(
                    "odd".into(),
                    rows(&[json!(odd), json!(odd), json!("src/app/a.py")]),
                );
            }
            1 => {
                map.insert("odd".into(), json!(odd));
            }
            2 => {
                map.insert("nothing".into(), Value::Null);
            }
            3 => {
                let key = ["__tables", "__stypes", "__json.x"][pick(3)];
                map.insert(key.into(), json!("v"));
            }
            4 => {
                let key = ["k:1", "k|2"][pick(2)];
                map.insert(key.into(), json!(pick(9)));
            }
            5 => {
                map.insert("d.t".into(), rows(&[json!("a"), json!("b")]));
            }
            6 => {
                let sub = rows(&[json!("a"), json!("b")]);
                map.insert("d.t".into(), json!({ "sub": sub, "note": "n" }));
            }
            7 => {
                let sub = rows(&[json!("a"), json!("b")]);
                map.insert("d".into(), json!({ "s.b": sub, "note": "n" }));
            }
            8 => {
                let key = ["x=y", " lead", "q\"k", "a\nb"][pick(4)];
                map.insert(key.into(), json!("v"));
            }
            9 => {
                let first = ["@k", "a,b"][pick(2)];
                let mut front = Map::new();
                front.insert(first.into(), json!("v"));
                front.append(map);
                *map = front;
            }
            10 => {
                let cell = [json!(""), json!([1]), json!(2), json!({"a": 1})][pick(4)].clone();
                map.insert("mixed".into(), rows(&[json!("a"), cell]));
            }
            // (Not a hazard: rows with a key missing are no table, but
            // the same blob in both forms.)
            11 => {
                let rows = json!([{"p": "a", "q": 1}, {"p": "b"}, {"p": "c", "q": 2}]);
                map.insert("gappy".into(), rows);
            }
            // More tables than tags, one past them the hardened form
            // refuses.
            _ => {
                for t in 0..30 {
                    let cell = if t == 28 { json!("") } else { json!("z") };
                    map.insert(format!("t{t}"), rows(&[json!("a"), cell]));
                }
            }
        }
    }

    /// A gen1 reference payload `hardened_same` accepts is the hardened
    /// payload byte for byte: over random clean responses (scalars,
    /// tables, nested tables, more tables than tags) and the same with
    /// one hazard of each kind put in (entries followed by digits, W
    /// characters, line breaks and odd quotes in repeated strings or
    /// scalars, nulls, reserved, dotted and refused keys, a first key the
    /// hardened form spaces, tables of mixed kinds, with `""`, containers
    /// or containers, a refused table past the tags). Every kind is called
    /// a hazard at least once, and most clean responses the same.
    #[test]
    fn same_means_the_hardened_text() {
        const KINDS: usize = 13;
        let mut next = crate::test_rng::xorshift32(0x2545_f491);
        let mut pick = |n: usize| next() as usize % n;
        let (mut clean, mut fired) = (0, [0usize; KINDS]);
        for round in 0..800 {
            let mut map = Map::new();
            let members = if round % 40 == 0 { 30 } else { 1 + pick(5) };
            for m in 0..members {
                let table = |pick: &mut dyn FnMut(usize) -> usize| {
                    let rows: Vec<Value> = (0..2 + pick(4))
                        .map(|_| json!({ "p": CLEAN[pick(CLEAN.len())], "q": pick(9), "r": true }))
                        .collect();
                    Value::Array(rows)
                };
                let v = match pick(6) {
                    0 => json!(CLEAN[pick(CLEAN.len())]),
                    1 => json!(pick(9) as f64 / 4.0),
                    2 => json!({ "sub": table(&mut pick), "note": "n" }),
                    _ => table(&mut pick),
                };
                map.insert(format!("{}{m}", ["a", "b", "path", "n"][pick(4)]), v);
            }
            let kind = round % (KINDS + 1);
            if kind < KINDS {
                inject(kind, &mut map, &mut pick);
            }
            for stop_at_loss in [false, true] {
                let reference = encode("t", &map, false, 0, None, stop_at_loss, Shared::default());
                let Ok(reference) = reference else {
                    continue;
                };
                if !hardened_same(&reference) {
                    if let Some(n) = fired.get_mut(kind) {
                        *n += 1;
                    }
                    continue;
                }
                clean += usize::from(kind == KINDS);
                let hardened = encode("t", &map, true, 0, None, false, Shared::default());
                assert_eq!(
                    hardened.ok().map(|p| p.text).as_deref(),
                    Some(reference.text.as_str()),
                    "{map:?}"
                );
            }
        }
        assert!(clean >= 80, "{clean} clean responses the same");
        let missed = (0..KINDS).filter(|&k| k != 11 && fired.get(k) == Some(&0));
        assert_eq!(missed.count(), 0, "hazards fired: {fired:?}");
        assert_eq!(fired.get(11), Some(&0));
    }
}
