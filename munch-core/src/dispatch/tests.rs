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

/// The units `auto`'s gate counts in: code points of Python's
/// `ensure_ascii` text (`ascii`), and UTF-8 bytes.
const UNITS: [(Measure<'static>, bool); 2] = [
    (Measure::PythonCodePoints, true),
    (Measure::Utf8Bytes, false),
];

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

/// The length a gen1 rung refused unwritten reports (its blobs and table
/// cells) is at most what it would write: over every reference vector's
/// input, as it is and grown, in both forms, in code points and bytes,
/// each rung is encoded once under a gate no payload passes, once with
/// none, and the two compared. A first rung's gate asks for the JSON
/// length once, with the tables it measured; a later rung's knows it.
#[test]
fn unwritten_rungs_report_at_most_their_size() {
    let (mut tables, mut blobs) = (0, 0);
    let asked = core::cell::Cell::new(0);
    let json = |_: &[(&str, usize, usize)]| {
        asked.set(asked.get() + 1);
        1
    };
    for (tool, input) in grown_vectors() {
        let tool = tool.as_str();
        let Value::Object(map) = &input else {
            continue;
        };
        for (measure, ascii) in UNITS {
            let opts = Options {
                measure,
                ..Options::default()
            };
            let sizes = Sizes::new(&input, map, &opts, &[]);
            for hardened in [false, true] {
                let Ok(written) = gen1::encode(
                    tool,
                    map,
                    hardened,
                    0,
                    Some(ascii),
                    false,
                    Default::default(),
                ) else {
                    continue;
                };
                let size = sizes.of(&written.text);
                for measured in [None, Some(&sizes.members[..])] {
                    let gate = gen1::Gate {
                        threshold: 2.0,
                        json: &json,
                        measured,
                        ascii,
                    };
                    let shared = gen1::Shared {
                        gate: Some(&gate),
                        kept: None,
                    };
                    asked.set(0);
                    let refused = gen1::encode(tool, map, hardened, 0, Some(ascii), false, shared);
                    let least = refused.ok().and_then(|p| p.unwritten);
                    let least = least.unwrap_or_else(|| panic!("{tool} not refused"));
                    assert!(least <= size, "{tool} {hardened} {ascii}: {least} > {size}");
                    assert!(measured.is_some() || asked.get() <= 1, "{tool}");
                    if measured.is_none() {
                        tables += usize::from(least * 2 > size);
                    } else {
                        blobs += 1;
                    }
                }
            }
        }
    }
    assert!(tables >= 40 && blobs >= 100, "{tables} {blobs}");
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
/// form loses, or `auto`'s gate) still hands the size walk the lengths
/// its gather counted, number cells included: each is the walk's own.
#[test]
fn refused_first_rungs_measure_their_tables() {
    let mut members = 0;
    let mut unwritten = 0;
    // A gate no payload passes.
    let json = |_: &[(&str, usize, usize)]| 1;
    for (tool, input) in grown_vectors() {
        let tool = tool.as_str();
        let Value::Object(map) = &input else {
            continue;
        };
        for (measure, ascii) in UNITS {
            let opts = Options {
                measure,
                ..Options::default()
            };
            let gate = gen1::Gate {
                threshold: 2.0,
                json: &json,
                measured: None,
                ascii,
            };
            for gate in [None, Some(&gate)] {
                let mut kept = gen1::Kept::default();
                let first = first_rung(tool, schemas::by_tool(tool), map, &opts, &mut kept, gate);
                let Some(Ok(p)) = first else {
                    continue;
                };
                if p.loss.is_none() && p.unwritten.is_none() {
                    continue;
                }
                unwritten += usize::from(p.unwritten.is_some());
                for &(key, len, depth) in &p.measured {
                    let walked = crate::py::json_write::value_json_len(&map[key], ascii);
                    assert_eq!((len, depth), walked, "{tool} {key} {ascii}");
                    members += 1;
                }
            }
        }
    }
    assert!(members >= 20 && unwritten >= 20, "{members} {unwritten}");
}

/// A gen1 reference rung `auto`'s gate refused unwritten is written and
/// decoded after all when the last rung could pass: then the ladder goes
/// on as if it had been written. Forced here (no vector's hardened
/// payload is shorter than its reference one): each gen1 vector whose
/// reference payload `auto` sends is run again with its first rung
/// replaced by one refused unwritten, and gives the same text, attempts
/// and size.
#[test]
fn an_unwritten_reference_rung_is_written_when_the_last_could_pass() {
    let mut forced = 0;
    for (tool, input) in grown_vectors() {
        let Value::Object(map) = &input else {
            continue;
        };
        if schemas::by_tool(&tool).is_some() {
            continue;
        }
        let opts = Options {
            format: Format::Auto,
            ..Options::default()
        };
        let normal = encode(&tool, &input, &opts);
        let reference = Attempt {
            rung: Rung::Gen1Reference,
            outcome: Outcome::Accepted,
        };
        if normal.meta.attempts != [reference] {
            continue;
        }
        let sizes = Sizes::new(&input, map, &opts, &[]);
        // (Only where the last rung could pass the gate.)
        let Ok(hardened) = gen1::encode(&tool, map, true, 0, None, false, Default::default())
        else {
            continue;
        };
        if sizes.ratio(sizes.of(&hardened.text)) < opts.threshold {
            continue;
        }
        let first = Some(Ok(Payload::unwritten(sizes.json)));
        let chosen = verified(
            &tool,
            None,
            map,
            &input,
            &opts,
            &sizes,
            (first, Default::default()),
        );
        let Ok((payload, _, attempts, encoded)) = chosen else {
            panic!("{tool}: no payload");
        };
        assert!(payload.text == normal.text, "{tool} {attempts:?}");
        assert_eq!(attempts, normal.meta.attempts, "{tool}");
        let encoded = encoded.unwrap_or_else(|| sizes.of(&payload.text));
        assert_eq!(Some(encoded), normal.meta.encoded_bytes, "{tool}");
        forced += 1;
    }
    assert!(forced >= 10, "{forced}");
}

/// A gen1 hardened rung is reported the same as its reference, unwritten,
/// only when it is: over every reference vector's input, as it is and
/// grown, under `compact` and with key order compared (which refuses
/// gen1 payloads that met no hazard), each such rung's two forms are
/// written out here and compared.
#[test]
fn a_hardened_gen1_rung_called_the_same_is_the_same() {
    let mut same = 0;
    for (tool, input) in grown_vectors() {
        let Value::Object(map) = &input else {
            continue;
        };
        for key_order in [KeyOrder::Any, KeyOrder::Exact] {
            let opts = Options {
                format: Format::Compact,
                key_order,
                ..Options::default()
            };
            let out = encode(&tool, &input, &opts);
            let called = out
                .meta
                .attempts
                .iter()
                .any(|a| a.rung == Rung::Gen1Hardened && a.outcome == Outcome::SameAsReference);
            if !called {
                continue;
            }
            same += 1;
            let form = |hardened| {
                gen1::encode(&tool, map, hardened, 0, None, false, Default::default())
                    .map(|p| p.text)
                    .ok()
            };
            assert_eq!(form(true), form(false), "{tool}");
        }
    }
    assert!(same >= 10, "{same}");
}
