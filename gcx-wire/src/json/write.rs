//! Go `encoding/json.Marshal` compact output (§7.3): no whitespace, keys
//! sorted bytewise, HTML escaping, U+2028/U+2029 escaped, literal numbers.

use alloc::vec::Vec;

use super::Value;

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Appends `s` as a Go-escaped JSON string.
///
/// ```
/// let mut out = Vec::new();
/// gcx_wire::json::write_go_string("<a>&\u{2028}\u{1}", &mut out);
/// assert_eq!(out, br#""\u003ca\u003e\u0026\u2028\u0001""#);
/// ```
pub fn write_go_string(s: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let esc: Option<&[u8]> = match c {
            '"' => Some(b"\\\""),
            '\\' => Some(b"\\\\"),
            '\n' => Some(b"\\n"),
            '\r' => Some(b"\\r"),
            '\t' => Some(b"\\t"),
            '\u{8}' => Some(b"\\b"),
            '\u{c}' => Some(b"\\f"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => Some(b""),
            c if u32::from(c) < 0x20 => Some(b""),
            _ => None,
        };
        let Some(esc) = esc else { continue };
        out.extend_from_slice(bytes.get(start..i).unwrap_or_default());
        if esc.is_empty() {
            let code = u32::from(c);
            out.extend_from_slice(b"\\u");
            for shift in [12, 8, 4, 0] {
                out.push(
                    HEX.get(((code >> shift) & 0xF) as usize)
                        .copied()
                        .unwrap_or(b'0'),
                );
            }
        } else {
            out.extend_from_slice(esc);
        }
        start = i + c.len_utf8();
    }
    out.extend_from_slice(bytes.get(start..).unwrap_or_default());
    out.push(b'"');
}

/// What is left to write of an open container.
enum Frame<'v, 'a> {
    Array(core::slice::Iter<'v, Value<'a>>, bool),
    Object(
        core::slice::Iter<'v, (alloc::borrow::Cow<'a, str>, Value<'a>)>,
        bool,
    ),
}

/// Appends `value` as Go's `json.Marshal` writes it. Iterative: any depth.
///
/// ```
/// let v = gcx_wire::json::parse(br#"{"z": [1.0, "x"], "a": {"<": null}}"#)?;
/// let mut out = Vec::new();
/// gcx_wire::json::write_go_json(&v, &mut out);
/// assert_eq!(out, br#"{"a":{"\u003c":null},"z":[1.0,"x"]}"#);
/// # Ok::<(), gcx_wire::json::JsonError>(())
/// ```
pub fn write_go_json(value: &Value<'_>, out: &mut Vec<u8>) {
    let mut stack: Vec<Frame<'_, '_>> = Vec::new();
    let mut next = Some(value);
    loop {
        if let Some(v) = next.take() {
            match v {
                Value::Null => out.extend_from_slice(b"null"),
                Value::Bool(true) => out.extend_from_slice(b"true"),
                Value::Bool(false) => out.extend_from_slice(b"false"),
                Value::Number(n) => out.extend_from_slice(n.as_bytes()),
                Value::String(s) => write_go_string(s, out),
                Value::Array(items) => {
                    out.push(b'[');
                    stack.push(Frame::Array(items.iter(), true));
                }
                Value::Object(pairs) => {
                    out.push(b'{');
                    stack.push(Frame::Object(pairs.iter(), true));
                }
            }
        }
        let Some(top) = stack.last_mut() else {
            return;
        };
        match top {
            Frame::Array(items, first) => match items.next() {
                Some(item) => {
                    if !*first {
                        out.push(b',');
                    }
                    *first = false;
                    next = Some(item);
                }
                None => {
                    out.push(b']');
                    stack.pop();
                }
            },
            Frame::Object(pairs, first) => match pairs.next() {
                Some((k, v)) => {
                    if !*first {
                        out.push(b',');
                    }
                    *first = false;
                    write_go_string(k, out);
                    out.push(b':');
                    next = Some(v);
                }
                None => {
                    out.push(b'}');
                    stack.pop();
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_and_del() {
        let mut out = Vec::new();
        write_go_string("\u{8}\u{c}\u{1}\u{1f}\u{7f}\t\n\r", &mut out);
        assert_eq!(out, b"\"\\b\\f\\u0001\\u001f\x7f\\t\\n\\r\"");
    }

    #[test]
    fn deep_nesting_writes_without_recursion() {
        let mut v = Value::Null;
        for _ in 0..100_000 {
            v = Value::Array(alloc::vec![v]);
        }
        let mut out = Vec::new();
        write_go_json(&v, &mut out);
        assert_eq!(out.len(), 200_004);
        // Dropping a deep value recurses in the standard library's Drop;
        // take it apart iteratively.
        while let Value::Array(mut items) = v {
            v = items.pop().unwrap_or(Value::Null);
        }
    }
}
