//! Whether a JSON text reads — as Python's `json.loads` reads it
//! (`json_parse.rs`) — to exactly a given value, found while reading it:
//! no tree is built, each scalar is compared as it is read and each
//! container against the value's own at that place. The verified encoder
//! checks its JSON blobs this way.
//!
//! Only "equal" is a sure answer. Keys must come in the value's order (the
//! encoder writes them so); a key out of order or repeated, a difference,
//! text past the value or a text that does not parse leave the answer to
//! the comparison of a tree read from the text (`equal_borrowed.rs`),
//! which knows every rule of those cases.

use alloc::vec::Vec;
use serde_json::Value;

use super::json_parse::Parser;
use super::json_sink::Borrowed;
use crate::equal::scalars_eq;
use crate::equal_borrowed::borrowed_scalar;
use crate::value::{Kind, kind};

/// A container being read, with what is left of the value's.
enum Open<'w> {
    /// The list's items not matched yet.
    Array(core::slice::Iter<'w, Value>),
    /// The object's members not matched yet, in order.
    Object(serde_json::map::Iter<'w>),
}

impl<'w> Open<'w> {
    /// The container `want` holds when the text opens one with `opener`.
    fn of(opener: u8, want: &'w Value) -> Option<Open<'w>> {
        match (opener, kind(want)) {
            (b'[', Kind::List(items)) => Some(Open::Array(items.iter())),
            (b'{', Kind::Dict(members)) => Some(Open::Object(members.iter())),
            _ => None,
        }
    }

    /// The closer of the container in the text.
    fn closer(&self) -> u8 {
        match self {
            Open::Array(_) => b']',
            Open::Object(_) => b'}',
        }
    }

    /// What the next item must read as, an object's key read first
    /// (`None`: the value has no such item, or another key there). (The
    /// value is no `$float` sentinel, or its kind would be a float: an
    /// object read member for member as its own is none either.)
    fn next(&mut self, p: &mut Parser<'_>) -> Option<&'w Value> {
        match self {
            Open::Array(items) => items.next(),
            Open::Object(members) => {
                // The key as the encoder writes it, compared in place.
                let mut ahead = members.clone();
                if let Some((k, v)) = ahead.next() {
                    if p.eat_plain_string(k) || p.eat_escaped_string(k) {
                        *members = ahead;
                        return p.colon().then_some(v);
                    }
                }
                let key = p.key().ok()?;
                members.next().filter(|(k, _)| **k == key).map(|(_, v)| v)
            }
        }
    }

    /// Whether every item of the value was matched.
    fn done(&mut self) -> bool {
        match self {
            Open::Array(items) => items.next().is_none(),
            Open::Object(members) => members.next().is_none(),
        }
    }
}

/// True when `text` reads to exactly `want` (as [`exact_eq`] compares,
/// objects by key set): then a tree read from it would compare equal.
/// False when that is not sure; a container nested deeper than
/// `depth_limit` is never sure (the parse refuses it).
///
/// [`exact_eq`]: crate::exact_eq
pub(crate) fn reads_as(text: &str, want: &Value, depth_limit: usize) -> bool {
    if text.starts_with('\u{feff}') {
        return false;
    }
    let mut p = Parser::new(text);
    let mut stack: Vec<Open<'_>> = Vec::new();
    let mut want = want;
    p.skip_ws();
    'value: loop {
        // A value starts here; `want` is the value it must read as.
        match p.peek() {
            Some(b'[' | b'{') if stack.len() >= depth_limit => return false,
            Some(opener @ (b'[' | b'{')) => {
                let Some(mut open) = Open::of(opener, want) else {
                    return false;
                };
                p.bump();
                p.skip_ws();
                if p.peek() == Some(open.closer()) {
                    p.bump();
                    if !open.done() {
                        return false;
                    }
                } else {
                    let Some(first) = open.next(&mut p) else {
                        return false;
                    };
                    stack.push(open);
                    want = first;
                    continue 'value;
                }
            }
            // A plain string or a small int compared in place, any other
            // scalar as `exact_eq_borrowed` compares one.
            _ => match plain_scalar(&mut p, want) {
                Some(true) => {}
                Some(false) => return false,
                None => match p.scalar::<Borrowed>() {
                    Ok(got) if scalars_eq(kind(want), borrowed_scalar(&got)) == Some(true) => {}
                    _ => return false,
                },
            },
        }
        // The value is read: on to its container's next one, or its end.
        loop {
            let Some(open) = stack.last_mut() else {
                p.skip_ws();
                return p.at_end();
            };
            p.skip_ws();
            match p.peek() {
                Some(b',') => {
                    p.bump();
                    p.skip_ws();
                    let Some(next) = open.next(&mut p) else {
                        return false;
                    };
                    want = next;
                    continue 'value;
                }
                Some(b) if b == open.closer() => {
                    p.bump();
                    if !open.done() {
                        return false;
                    }
                    stack.pop();
                }
                _ => return false,
            }
        }
    }
}

/// Whether the scalar at the cursor reads as `want` when `want` is a
/// string or an int and the text is as the encoder writes it (the string
/// with or without escapes, the int in digits), the cursor moved past it;
/// `None`, the cursor left, for any other text or value.
fn plain_scalar(p: &mut Parser<'_>, want: &Value) -> Option<bool> {
    match want {
        Value::String(s) => (p.eat_plain_string(s) || p.eat_escaped_string(s)).then_some(true),
        // (A number that is an `i64` is an int to `exact_eq`.)
        Value::Number(n) => {
            let want = n.as_i64()?;
            p.eat_small_int().map(|got| got == want)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::reads_as;
    use crate::equal::{KeyOrder, exact_eq};
    use crate::equal_borrowed::tests::TEXTS;
    use crate::py::json_parse::parse;
    use serde_json::Value;

    /// Whenever the reading answers "equal", reading a tree and comparing
    /// it answers so too; and it answers for the texts the encoder writes
    /// (each value's own text, keys in its order).
    #[test]
    fn equal_only_when_the_tree_is() {
        let more = [
            r#"{"k": [[]], "l": [{}], "m": [{"n": [1, [2, [3]]]}]}"#,
            r#"{"k": [[]], "l": [{}], "m": [{"n": [1, [2, [3, 4]]]}]}"#,
            r#"{"k": [[]], "l": [{}], "m": [{"n": [1, [2, []]]}]}"#,
            r#"{"a": 1, "a": 2}"#,
            r#"{"a": 2}"#,
            r#"  [1, "a\"b\\c\n", -0, 0, 1E2 ] "#,
            r#"[1, "a\"b\\c\n", 0, 0, 100.0]"#,
            r#"[1] x"#,
            r#"[1"#,
            r#"{"a": 1,}"#,
            "\u{feff}[1]",
            r#""just a string""#,
        ];
        let texts: alloc::vec::Vec<&str> = TEXTS.iter().copied().chain(more).collect();
        let mut equal = 0;
        for &x in &texts {
            for &y in &texts {
                let Ok(a) = parse(x, 64) else { continue };
                let tree = parse(y, 64).ok();
                let want = tree
                    .as_ref()
                    .is_some_and(|b| exact_eq(&a, b, KeyOrder::Any));
                let got = reads_as(y, &a, 64);
                assert!(!got || want, "{x} {y}");
                equal += usize::from(got);
            }
            if let Ok(a) = parse(x, 64) {
                let own = crate::to_python_json(&a);
                assert!(reads_as(&own, &a, 64), "{x} {own}");
            }
        }
        assert!(equal >= 15, "{equal}");
        // Depth: a limit the value's nesting reaches is not sure.
        let deep: Value = parse("[[[1]]]", 64).unwrap();
        assert!(reads_as("[[[1]]]", &deep, 3));
        assert!(!reads_as("[[[1]]]", &deep, 2));
    }

    /// Random values read as their own text; any one byte of that text
    /// changed, "equal" is answered only where the tree compares equal.
    #[test]
    fn random_texts() {
        let mut next = crate::test_rng::xorshift32(0x51ab_77c3);
        let leaves = [
            "null",
            "true",
            "false",
            "0",
            "-0",
            "1",
            "-7",
            "2.5",
            "-0.0",
            "1e300",
            "NaN",
            "Infinity",
            "18446744073709551616",
            "\"\"",
            "\"a\"",
            "\"\\u00e9\\n\"",
            "{\"$float\": \"nan\"}",
            "{\"$float\": 1}",
        ];
        let mut checked = 0;
        for _ in 0..1000 {
            // A random nesting of lists and objects around leaves.
            let mut text = alloc::string::String::new();
            let mut open: alloc::vec::Vec<u8> = alloc::vec::Vec::new();
            let mut first = true;
            for _ in 0..(next() % 24) {
                if !first {
                    text.push_str(", ");
                }
                first = false;
                if open.last() == Some(&b'}') {
                    text.push_str(&alloc::format!("\"k{}\": ", next() % 5));
                }
                match next() % 5 {
                    0 if open.len() < 6 => {
                        text.push('[');
                        open.push(b']');
                        first = true;
                    }
                    1 if open.len() < 6 => {
                        text.push('{');
                        open.push(b'}');
                        first = true;
                    }
                    2 if !open.is_empty() => {
                        text.push_str(leaves[next() as usize % leaves.len()]);
                        text.push(char::from(open.pop().unwrap_or(b']')));
                        first = false;
                    }
                    _ => text.push_str(leaves[next() as usize % leaves.len()]),
                }
            }
            if first && !open.is_empty() {
                text.push('0');
            }
            while let Some(c) = open.pop() {
                text.push(char::from(c));
            }
            let Ok(value) = parse(&text, 64) else {
                continue;
            };
            let own = crate::to_python_json(&value);
            assert!(reads_as(&own, &value, 64), "{text} {own}");
            for _ in 0..8 {
                let mut bytes = own.clone().into_bytes();
                let at = next() as usize % bytes.len().max(1);
                if let Some(b) = bytes.get_mut(at) {
                    *b = b"0123456789,:[]{}\" -aeE."[next() as usize % 20];
                }
                let Ok(changed) = alloc::string::String::from_utf8(bytes) else {
                    continue;
                };
                let tree = parse(&changed, 64).ok();
                let equal = tree.is_some_and(|t| exact_eq(&value, &t, KeyOrder::Any));
                assert!(!reads_as(&changed, &value, 64) || equal, "{own} {changed}");
                checked += 1;
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
