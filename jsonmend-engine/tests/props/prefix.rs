//! The truncation property (spec §19, issue bar): a prefix of a valid
//! document repairs to strict JSON whose value is a prefix-completion of
//! the original. Shared by the sweep test and the `jsonmend_truncate` fuzz
//! target.

use jsonmend_engine::{Options, repair_unchecked};
use serde_json::Value;

/// Whether `rep` can be what a prefix of `orig` completes to: every part
/// equal except along the cut, where strings are prefixes, numbers any
/// number, and a missing value is `null`.
pub(crate) fn is_prefix_completion(rep: &Value, orig: &Value) -> bool {
    match (rep, orig) {
        (Value::Null, _) => true,
        (Value::String(r), Value::String(o)) => o.starts_with(r.as_str()),
        (Value::Number(_), Value::Number(_)) => true,
        (Value::Bool(r), Value::Bool(o)) => r == o,
        (Value::Array(r), Value::Array(o)) => {
            r.len() <= o.len()
                && r.iter().zip(o).enumerate().all(|(i, (a, b))| {
                    if i + 1 == r.len() {
                        is_prefix_completion(a, b)
                    } else {
                        a == b
                    }
                })
        }
        (Value::Object(r), Value::Object(o)) => {
            r.len() <= o.len()
                && r.iter()
                    .zip(o)
                    .enumerate()
                    .all(|(i, ((rk, rv), (ok, ov)))| {
                        if i + 1 == r.len() {
                            ok.starts_with(rk.as_str())
                                && (if rk == ok {
                                    is_prefix_completion(rv, ov)
                                } else {
                                    rv.is_null()
                                })
                        } else {
                            rk == ok && rv == ov
                        }
                    })
        }
        _ => false,
    }
}

fn parse(text: &str) -> Option<Value> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let v = serde::Deserialize::deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some(v)
}

/// Checks the prefix of `doc` of length `n` (a char boundary).
pub(crate) fn check_prefix(doc: &str, n: usize) -> Result<(), String> {
    let Some(prefix) = doc.get(..n) else {
        return Ok(());
    };
    if prefix.trim().is_empty() {
        return Ok(());
    }
    let orig = parse(doc).ok_or("the document is not valid JSON")?;
    let r = repair_unchecked(prefix, &Options::default())
        .map_err(|e| format!("prefix {prefix:?} failed: {e}"))?;
    let rep =
        parse(&r.text).ok_or_else(|| format!("prefix {prefix:?}: not strict: {:?}", r.text))?;
    if !is_prefix_completion(&rep, &orig) {
        return Err(format!(
            "prefix {prefix:?}: {} is not a prefix-completion",
            r.text
        ));
    }
    Ok(())
}

/// A strict JSON document built from fuzz bytes: each byte picks the next
/// piece (containers, keys, scalars, escapes, non-ASCII text, whitespace).
#[allow(dead_code)] // used by the fuzz target and its replay
pub(crate) fn document_from(bytes: &[u8]) -> String {
    const SCALARS: &[&str] = &[
        "true",
        "false",
        "null",
        "0",
        "-12",
        "3.25",
        "1e-7",
        "-0.5E+3",
        "123456789012345678901",
        "\"\"",
        "\"x\"",
        "\"a b\"",
        "\"\\\"q\\\"\"",
        "\"\\\\\"",
        "\"\\u00e9\"",
        "\"\\ud83d\\ude00\"",
        "\"caf\u{e9} \u{5317}\u{4eac}\"",
        "\"a,b:c\"",
        "\"{[\"",
        "\"line\\nnext\"",
        "\"http://x/y\"",
    ];
    let mut out = String::new();
    let mut stack: Vec<(bool, usize)> = Vec::new();
    let mut need_value = true;
    for &b in bytes {
        if out.len() > 1500 {
            break;
        }
        if need_value {
            // The root is always a container, so documents have structure.
            let pick = if out.is_empty() { b % 2 } else { b % 8 };
            match pick {
                0 if stack.len() < 12 => {
                    out.push('{');
                    stack.push((true, 0));
                    if b & 0x80 != 0 {
                        out.push('}');
                        stack.pop();
                        need_value = false;
                    } else {
                        out.push_str(&format!("\"f{}\":", b >> 3));
                    }
                }
                1 if stack.len() < 12 => {
                    out.push('[');
                    stack.push((false, 0));
                    if b & 0x80 != 0 {
                        out.push(']');
                        stack.pop();
                        need_value = false;
                    }
                }
                _ => {
                    out.push_str(
                        SCALARS
                            .get(usize::from(b >> 3) % SCALARS.len())
                            .copied()
                            .unwrap_or("0"),
                    );
                    need_value = false;
                }
            }
            if b & 0x40 != 0 {
                out.push(' ');
            }
            continue;
        }
        let Some(&(object, n)) = stack.last() else {
            break;
        };
        if b % 3 == 0 {
            out.push(if object { '}' } else { ']' });
            stack.pop();
        } else {
            out.push(',');
            if b & 0x20 != 0 {
                out.push('\n');
            }
            if object {
                out.push_str(&format!("\"k{n}_{}\": ", b >> 4));
            }
            if let Some(top) = stack.last_mut() {
                top.1 += 1;
            }
            need_value = true;
        }
    }
    if need_value {
        out.push_str("null");
    }
    while let Some((object, _)) = stack.pop() {
        out.push(if object { '}' } else { ']' });
    }
    out
}
