//! Tests of `dispatch`.

use super::*;
use serde_json::json;

/// Under a token measure the JSON text the count was taken of is the
/// text sent when JSON is: the same as a fresh write, whatever sent it
/// (the gate, the `error` key, no verified encoding).
#[test]
fn token_measured_json_is_the_counted_text() {
    let words = |s: &str| s.split([' ', ',', '"']).filter(|w| !w.is_empty()).count();
    let responses = [
        json!({"a": 1, "note": "x\u{e9}y"}),
        json!({"error": "boom", "rows": [{"f": "a.py"}, {"f": "b.py"}]}),
        json!({"rows": [{"f": "src/a.py", "n": 1.5}, {"f": "src/b.py", "n": 2}]}),
    ];
    let mut sent_json = 0;
    for response in responses {
        for format in [Format::Auto, Format::Compact] {
            let opts = Options {
                format,
                measure: Measure::Tokens(&words),
                ..Options::default()
            };
            let out = encode("some_tool", &response, &opts);
            if out.meta.encoding == "json" {
                sent_json += 1;
                assert_eq!(out.text, crate::to_python_json(&response), "{response}");
                assert_eq!(out.meta.json_bytes, Some(words(&out.text)), "{response}");
            }
        }
    }
    // The small reply under `auto` and the `error` reply in both.
    assert!(sent_json >= 3, "{sent_json}");
}

/// Nesting depth, recursively (the shapes below are shallow).
fn depth(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(depth).max().unwrap_or(0),
        Value::Object(m) => 1 + m.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

#[test]
fn the_size_walk_finds_the_nesting_depth() {
    let shapes = [
        json!(1),
        json!([]),
        json!({}),
        json!([1, [2, [3]], {"a": {"b": []}}]),
        json!({"a": [1, 2, {"b": [[], [[{}]]]}], "c": "d"}),
        json!([[[[[]]]], 1, {"x": [[]]}]),
        json!([{"__float__": "nan"}]),
    ];
    for v in &shapes {
        assert_eq!(python_json_len(v, true).1, depth(v), "{v}");
        assert_eq!(python_json_len(v, false).1, depth(v), "{v}");
        assert_eq!(to_python_json_depth(v).1, depth(v), "{v}");
    }
}

/// Every vector's tool and input, as it is and with its longest list
/// of objects grown to 60 items ([`grow`]).
fn grown_vectors() -> Vec<(String, Value)> {
    let vectors = include_str!("../../tests/vectors/jcodemunch-1.108.399.jsonl");
    let mut out = Vec::new();
    for line in vectors.lines() {
        let Ok(vector) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let tool = vector["tool"].as_str().unwrap_or_default();
        for n in [0, 60] {
            let mut input = vector["input"].clone();
            grow(&mut input, n);
            out.push((tool.to_string(), input));
        }
    }
    out
}

/// The longest list of objects in `v`, grown to `n` items by repeating
/// its own.
fn grow(v: &mut Value, n: usize) {
    fn longest(v: &mut Value) -> Option<&mut Vec<Value>> {
        match v {
            Value::Array(items) if !items.is_empty() && items.iter().all(Value::is_object) => {
                Some(items)
            }
            Value::Object(m) => m.values_mut().filter_map(longest).max_by_key(|i| i.len()),
            _ => None,
        }
    }
    if let Some(items) = longest(v) {
        let base = items.clone();
        while items.len() < n {
            items.push(base[items.len() % base.len()].clone());
        }
    }
}

/// `auto`'s last rung is left unwritten only when the payload it
/// would write cannot pass the gate: over every reference vector's
/// input, as it is and grown, each `Unchecked` last rung is written
/// out here and measured; the length reported is at most its size,
/// and that size fails the gate.
#[test]
fn unwritten_last_rungs_could_not_pass() {
    let (mut unchecked, mut unwritten) = (0, 0);
    for (tool, input) in grown_vectors() {
        let tool = tool.as_str();
        let Value::Object(map) = &input else {
            continue;
        };
        for measure in [Measure::PythonCodePoints, Measure::Utf8Bytes] {
            let opts = Options {
                format: Format::Auto,
                measure,
                ..Options::default()
            };
            let out = encode(tool, &input, &opts);
            if out.meta.attempts.last().map(|a| &a.outcome) != Some(&Outcome::Unchecked) {
                continue;
            }
            unchecked += 1;
            let written =
                gen1::encode(tool, map, true, 0, None, false, Default::default()).unwrap();
            let sizes = Sizes::new(&input, map, &opts, &[]);
            let size = sizes.of(&written.text);
            let reported = out.meta.encoded_bytes.unwrap();
            assert!(reported <= size, "{tool} {reported} {size}");
            assert!(sizes.ratio(size) < opts.threshold, "{tool}");
            unwritten += usize::from(reported < size);
        }
    }
    assert!(
        unchecked >= 20 && unwritten >= 10,
        "{unchecked} {unwritten}"
    );
}

/// `auto` sends what the whole ladder, every rung decoded, and then
/// the gate would send (`compact`'s choice, gated), text and choice,
/// though it leaves payloads under the gate undecoded: in code points,
/// in bytes and in tokens.
#[test]
fn auto_is_the_gated_ladder() {
    let (mut json, mut unchecked) = (0, 0);
    for (tool, input) in grown_vectors() {
        let Value::Object(map) = &input else {
            continue;
        };
        // (A token counter: a token per run of letters or digits, and
        // per other character.)
        let words = |t: &str| {
            let mut n = 0;
            let mut in_word = false;
            for c in t.chars() {
                let word = c.is_alphanumeric();
                n += usize::from(!word || !in_word);
                in_word = word;
            }
            n
        };
        for measure in [
            Measure::PythonCodePoints,
            Measure::Utf8Bytes,
            Measure::Tokens(&words),
        ] {
            for threshold in [0.0, 0.15, 0.3, 0.6] {
                let opts = |format| Options {
                    format,
                    measure,
                    threshold,
                    ..Options::default()
                };
                let auto = encode(&tool, &input, &opts(Format::Auto));
                unchecked += usize::from(
                    auto.meta
                        .attempts
                        .iter()
                        .any(|a| a.rung == Rung::Gen1Reference && a.outcome == Outcome::Unchecked),
                );
                let compact = encode(&tool, &input, &opts(Format::Compact));
                let sizes = Sizes::new(&input, map, &opts(Format::Auto), &[]);
                let passes =
                    compact.is_munch() && sizes.ratio(sizes.of(&compact.text)) >= threshold;
                let want = if passes {
                    compact.text
                } else {
                    json += 1;
                    crate::py::json_write::to_python_json(&input)
                };
                assert_eq!(auto.text, want, "{tool} {threshold}");
            }
        }
    }
    assert!(json >= 100 && unchecked >= 20, "{json} {unchecked}");
}

/// A gen1 reference payload under the gate followed by a last rung
/// that could pass it: the reference payload is decoded first; it
/// would be sent as JSON if it decoded exactly, and as it does not,
/// the last rung's payload is decoded and sent. (A token counter that
/// says so: the JSON text 100 tokens, the reference payload 100, what
/// comes after 1.)
#[test]
fn a_deferred_reference_rung_is_decoded_when_the_last_could_pass() {
    // `module_1` is a legend entry followed by a digit in `module_12`:
    // the reference form reads back `@12`.
    let input = json!({"rows": [{"m": "module_1"}, {"m": "module_1"}, {"m": "module_1"}, {"m": "module_12"}]});
    let calls = core::cell::Cell::new(0);
    let count = |_: &str| {
        calls.set(calls.get() + 1);
        if calls.get() <= 2 { 100 } else { 1 }
    };
    let opts = Options {
        measure: Measure::Tokens(&count),
        ..Options::default()
    };
    let out = encode("t", &input, &opts);
    let outcomes: Vec<_> = out
        .meta
        .attempts
        .iter()
        .map(|a| (a.rung, a.outcome.clone()))
        .collect();
    assert!(out.is_munch(), "{outcomes:?}");
    assert!(
        matches!(outcomes[0], (Rung::Gen1Reference, Outcome::Mismatch(_))),
        "{outcomes:?}"
    );
    assert_eq!(outcomes[1], (Rung::Gen1Hardened, Outcome::Accepted));
    let compact = Options {
        format: Format::Compact,
        ..Options::default()
    };
    assert_eq!(out.text, encode("t", &input, &compact).text);
    // The same counter with the last rung as long as the reference's:
    // JSON whatever either decodes to, neither decoded.
    let count = |_: &str| 100;
    let opts = Options {
        measure: Measure::Tokens(&count),
        ..Options::default()
    };
    let out = encode("t", &input, &opts);
    assert!(!out.is_munch());
    let unchecked = out
        .meta
        .attempts
        .iter()
        .all(|a| a.outcome == Outcome::Unchecked);
    assert!(
        unchecked && out.meta.attempts.len() == 2,
        "{:?}",
        out.meta.attempts
    );
}

/// A first rung refused before it is written (a cell or row every
/// form loses) still hands the size walk the lengths its gather
/// counted, number cells included: each is the walk's own.
#[test]
fn refused_first_rungs_measure_their_tables() {
    let mut members = 0;
    for (tool, input) in grown_vectors() {
        let tool = tool.as_str();
        let Value::Object(map) = &input else {
            continue;
        };
        for (measure, ascii) in [
            (Measure::PythonCodePoints, true),
            (Measure::Utf8Bytes, false),
        ] {
            let opts = Options {
                measure,
                ..Options::default()
            };
            let mut kept = gen1::Kept::default();
            let first = first_rung(tool, schemas::by_tool(tool), map, &opts, &mut kept);
            let Some(Ok(p)) = first else {
                continue;
            };
            if p.loss.is_none() {
                continue;
            }
            for &(key, len, depth) in &p.measured {
                let walked = crate::py::json_write::value_json_len(&map[key], ascii);
                assert_eq!((len, depth), walked, "{tool} {key} {ascii}");
                members += 1;
            }
        }
    }
    assert!(members >= 20, "{members}");
}
