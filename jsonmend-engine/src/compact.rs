//! The compact JSON text of a strict JSON text, written in one pass:
//! what parsing it into a [`Value`](crate::Value) and writing that value
//! gives ([`Value::write_json`](crate::Value::write_json)), without
//! building the value. The watch's `final` and every `llm` call object
//! carry a repaired text's value this way.

use alloc::string::String;

use crate::json::{scan_content, write_str};
use crate::keys::key_text;

/// Appends the compact form of `text`, a strict JSON text (spec I1: a
/// repaired text always is): whitespace between tokens dropped, a string
/// whose escapes are already the ones [`write_str`] writes copied as it
/// is, any other decoded and written again. Returns false, with `out` as
/// it was, where the pass cannot vouch for the result: no value, an
/// unterminated string, a `\u` escape or an unknown one, two tokens with
/// only whitespace between them that would run together. The caller then
/// goes through the value.
pub(crate) fn write_compact(out: &mut String, text: &str) -> bool {
    let start = out.len();
    let ok = compact_into(out, text) && out.len() > start;
    if !ok {
        out.truncate(start);
    }
    ok
}

fn compact_into(out: &mut String, text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    // Where the bytes still to copy as they are begin.
    let mut run = 0;
    // The last byte kept ends a number or a literal.
    let mut word = false;
    while let Some(&c) = b.get(i) {
        match c {
            b' ' | b'\t' | b'\n' | b'\r' => {
                out.push_str(text.get(run..i).unwrap_or_default());
                while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
                    i += 1;
                }
                run = i;
                if word && b.get(i).is_some_and(|&n| is_word(n)) {
                    return false;
                }
            }
            b'"' => {
                let Some((end, rewritten)) = string_end(b, i) else {
                    return false;
                };
                match rewritten {
                    Some(false) => {}
                    Some(true) => {
                        out.push_str(text.get(run..i).unwrap_or_default());
                        let raw = b.get(i + 1..end - 1).unwrap_or_default();
                        let decoded = key_text(raw);
                        let Ok(decoded) = core::str::from_utf8(&decoded) else {
                            return false;
                        };
                        write_str(out, decoded);
                        run = end;
                    }
                    None => return false,
                }
                i = end;
                word = false;
            }
            _ => {
                word = is_word(c);
                i += 1;
            }
        }
    }
    out.push_str(text.get(run..).unwrap_or_default());
    true
}

/// A byte of a number or a literal.
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.')
}

/// The end (past the closing quote) of the string opening at `open`, and
/// whether its content is rewritten: `Some(false)` as it is (its escapes
/// are the written ones), `Some(true)` decoded and written again (a `\/`,
/// a raw U+2028 or U+2029), `None` left to the parser (a `\u` escape,
/// for its surrogates, or an unknown one).
fn string_end(b: &[u8], open: usize) -> Option<(usize, Option<bool>)> {
    let rest = b.get(open + 1..)?;
    let (close, compact) = scan_content(rest);
    let close = close?;
    let end = open + close + 2;
    if compact {
        return Some((end, Some(false)));
    }
    let raw = rest.get(..close)?;
    let simple = raw.split(|&c| c == b'\\').skip(1).all(|after| {
        matches!(
            after.first(),
            Some(b'"' | b'\\' | b'/' | b'n' | b'r' | b't' | b'b' | b'f') | None
        )
    });
    Some((end, simple.then_some(true)))
}

#[cfg(test)]
mod tests {
    use super::write_compact;
    use crate::Value;
    use alloc::string::String;

    /// The pass writes what parsing and writing the value writes, or
    /// declines; and it declines only where it says it does.
    #[test]
    fn equals_the_value_written() {
        let texts = [
            "{\"a\": [1, 2.50, -0, 1e+3], \"b\" :{ } ,\"c\":[ ]}",
            " [true,false , null]\n",
            "\"x\\u2028y\"",
            "[\"a\\/b\", \"q\\\"\\\\\\n\\t\\r\\b\\f\", \"\u{2028}\u{2029}\", \"é\"]",
            "{\"k\":1,\"k\":2}",
            "[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]",
            "\"\\u00e9\\ud83d\\ude00\"",
            "123",
            "\"\"",
        ];
        for t in texts {
            let want = Value::parse(t).unwrap().to_json();
            let mut got = String::from("<");
            if write_compact(&mut got, t) {
                assert_eq!(got.get(1..), Some(want.as_str()), "{t:?}");
            } else {
                assert_eq!(got, "<", "{t:?}");
                assert!(t.contains("\\u"), "declined {t:?}");
            }
        }
        for bad in ["", "  ", "[1 2]", "\"open", "\"\\x\""] {
            let mut out = String::from("<");
            assert!(!write_compact(&mut out, bad), "{bad:?}");
            assert_eq!(out, "<");
        }
    }
}

#[cfg(test)]
mod corpus {
    use super::write_compact;
    use crate::Value;
    use alloc::string::String;
    use alloc::vec::Vec;

    /// Every repaired text of the conformance corpus, and of its texts cut
    /// and spliced, gives the same compact text as its value.
    #[test]
    fn repaired_texts_compact_as_their_values() {
        let cases = include_str!("../tests/conformance/cases.jsonl");
        let texts: Vec<String> = cases
            .lines()
            .filter_map(|l| Value::parse(l).ok())
            .filter_map(|c| Some(c.get("params")?.get("text")?.as_str()?.into()))
            .collect();
        let mut checked = 0;
        for t in &texts {
            let cuts = t.char_indices().map(|(i, _)| i).step_by(2);
            let variants = cuts.flat_map(|i| {
                let (a, b) = t.split_at(i);
                [
                    String::from(a),
                    alloc::format!("{a}\"\\n\u{2028}{b}"),
                    alloc::format!("{b}{a}"),
                ]
            });
            for v in core::iter::once(t.clone()).chain(variants) {
                let Ok(r) = crate::repair_text(&v) else {
                    continue;
                };
                let mut got = String::new();
                if write_compact(&mut got, &r.text) {
                    assert_eq!(got, r.value().to_json(), "{v:?}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 5_000, "{checked}");
    }
}
