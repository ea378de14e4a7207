//! Watch streams (spec §12): chunk invariance over the corpus and mutated
//! inputs, the spec's example, and the final result equal to `repair`.

#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

#[path = "props/watch.rs"]
#[allow(dead_code, reason = "the fuzz helper is for the replay test")]
mod watch;

#[path = "../benches/support/docs.rs"]
#[allow(dead_code)]
mod docs;

#[path = "props/mutate.rs"]
#[allow(dead_code)]
mod mutate;

use jsonmend_engine::{Options, Schema, Watch};

#[path = "props/corpus.rs"]
mod corpus;

use corpus::{assert_none, inputs};

fn every_byte(n: usize) -> Vec<usize> {
    (1..n).collect()
}

fn random_cuts(rng: &mut docs::Rng, n: usize) -> Vec<usize> {
    let mut cuts = Vec::new();
    let mut at = 0;
    while at < n {
        at += 1 + rng.below(9) as usize;
        cuts.push(at.min(n));
    }
    cuts
}

/// Every input fed byte by byte and in random chunks gives the stream of
/// one feed (failures listed).
fn split_anywhere(inputs: Vec<String>, seed: u64) {
    let opts = Options::default();
    let mut rng = docs::Rng(seed);
    let mut failures = Vec::new();
    for input in inputs {
        let b = input.as_bytes();
        for cuts in [every_byte(b.len()), random_cuts(&mut rng, b.len())] {
            if let Err(e) = watch::check_split(b, &cuts, &opts) {
                failures.push(format!("{input:?}: {e}"));
                break;
            }
        }
    }
    assert_none(&failures);
}

/// Every input fed byte by byte, in random chunks, and (short ones) in two
/// and three pieces cut anywhere: each feed reports the same deltas and events whether a
/// batch's first step that starved runs again alone or, having taken no
/// batch's path, waits at once.
fn same_feeds_without_reruns(inputs: &[String], seed: u64) {
    let mut rng = docs::Rng(seed);
    let mut failures = Vec::new();
    for input in inputs {
        let b = input.as_bytes();
        let mut splits = vec![every_byte(b.len()), random_cuts(&mut rng, b.len())];
        if b.len() < 200 {
            splits.extend((1..b.len()).map(|k| vec![k]));
        }
        if b.len() < 64 {
            for i in 1..b.len() {
                splits.extend((i + 1..b.len()).map(|j| vec![i, j]));
            }
        }
        for cuts in splits {
            let mut a = Watch::new(Options::default());
            let mut r = Watch::new(Options::default()).always_rerunning_alone();
            let mut from = 0;
            for &cut in cuts.iter().chain([&b.len()]) {
                let piece = &b[from..cut.max(from)];
                from = cut.max(from);
                let (pa, pr) = (a.feed_bytes(piece), r.feed_bytes(piece));
                if pa != pr {
                    failures.push(format!("{input:?} fed to {cut}: {pa:?} != {pr:?}"));
                    break;
                }
            }
        }
    }
    assert_none(&failures);
}

#[test]
fn feeds_are_the_same_without_reruns_of_steps_that_took_no_batch_path() {
    let (valid, defects) = docs::documents(20);
    let mut all = inputs();
    all.extend(corpus::case_texts());
    all.extend([valid, defects]);
    // Strings read whole, then blanks or a key's repair up to a feed's end.
    all.extend(
        [
            r#"["abc"   , "d"  ]"#,
            r#"{"k": "value"   , "n": 'x'  , m: "y" }"#,
            r#"{'k': "v", "a": ["x" "y"  ,  "z"]}"#,
        ]
        .map(String::from),
    );
    same_feeds_without_reruns(&all, 5);
}

#[test]
fn corpus_inputs_split_anywhere_give_the_same_stream() {
    split_anywhere(inputs(), 7);
}

#[test]
fn conformance_texts_split_anywhere_give_the_same_stream() {
    let texts = corpus::case_texts();
    assert!(texts.len() > 200, "{} texts", texts.len());
    split_anywhere(texts, 11);
}

#[test]
fn mutated_inputs_split_anywhere_give_the_same_stream() {
    let opts = Options::default();
    let mut rng = docs::Rng(0x5EED_0F3A_7C00);
    let mut failures = Vec::new();
    let inputs = inputs();
    // `WATCH_ROUNDS=200 cargo test --release` for a longer run.
    let rounds = std::env::var("WATCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(12);
    for _ in 0..rounds {
        for input in &inputs {
            let m = mutate::mutate(&mut rng, input);
            let cuts = if m.len() < 120 {
                every_byte(m.len())
            } else {
                random_cuts(&mut rng, m.len())
            };
            if let Err(e) = watch::check_split(&m, &cuts, &opts) {
                failures.push(format!("{:?}: {e}", String::from_utf8_lossy(&m)));
            }
        }
    }
    assert_none(&failures);
}

#[path = "../benches/support/adversarial.rs"]
mod adversarial;

/// Long inputs, where tokens far from the end of what arrived run in
/// batches: the same stream as byte-by-byte feeds.
#[test]
fn long_documents_give_the_same_stream_in_any_chunks() {
    let (valid, defects) = docs::documents(60);
    let mut docs = vec![valid, defects];
    for family in adversarial::FAMILIES {
        docs.push(adversarial::family(family, 6_000));
    }
    let opts = Options::default();
    let mut failures = Vec::new();
    for doc in &docs {
        let b = doc.as_bytes();
        for step in [1usize, 777, 4096] {
            let cuts: Vec<usize> = (step..b.len()).step_by(step).collect();
            if let Err(e) = watch::check_split(b, &cuts, &opts) {
                failures.push(format!(
                    "{}…: {}",
                    &doc[..40.min(doc.len())],
                    &e[..e.len().min(400)]
                ));
                break;
            }
        }
    }
    assert_none(&failures);
}

/// A list of repairs longer than twice `max_repairs` is trimmed as it
/// grows (a batch commits when its list is due): the stream keeps the same
/// repairs, events and result as one-shot repair in any chunks, with few
/// kept repairs (many trims) and with the default.
#[test]
fn long_repair_lists_are_trimmed_alike_in_any_chunks() {
    let item = |i: usize| format!("{{'k{i}': 'v{i}', n: {i},}}");
    let doc = format!("[{}]", (0..1_200).map(item).collect::<Vec<_>>().join(" "));
    let b = doc.as_bytes();
    let mut failures = Vec::new();
    for max_repairs in [3usize, 1000] {
        let opts = Options {
            max_repairs,
            ..Options::default()
        };
        for step in [1usize, 97, 4096] {
            let cuts: Vec<usize> = (step..b.len()).step_by(step).collect();
            if let Err(e) = watch::check_split(b, &cuts, &opts) {
                failures.push(format!(
                    "max_repairs {max_repairs}, {step}-byte feeds: {}",
                    &e[..e.len().min(400)]
                ));
            }
        }
    }
    assert_none(&failures);
}

/// Declarations, profiles and limits: events with `settled_permille`,
/// refusals at `finish`, `E040` while feeding.
#[test]
fn options_give_the_same_stream_for_every_split() {
    let schema = |s: &str| Some(Schema::parse(s).unwrap());
    let variants = [
        Options {
            schema: schema("{!name:string,!n:integer,tags:[string],meta:{!ok:boolean}}"),
            ..Options::default()
        },
        Options {
            schema: schema("{!name:string,!n:integer}"),
            profile: jsonmend_engine::Profile::Lenient,
            ..Options::default()
        },
        Options::with_profile(jsonmend_engine::Profile::Strict),
        Options::with_profile(jsonmend_engine::Profile::Execution),
        Options {
            max_depth: 3,
            ..Options::default()
        },
        Options {
            max_repairs: 2,
            ..Options::default()
        },
        Options {
            skip_prose: false,
            ..Options::default()
        },
        Options {
            max_input: 24,
            ..Options::default()
        },
    ];
    let docs = [
        r#"{"name": "x", "n": 3, "tags": ["a", "b"], "meta": {"ok": true}}"#,
        r#"{name: 'x', n: "3", tags: [a, b,], meta: {ok: True}}"#,
        r#"{"n": 1.5, "name": 7, "meta": {"ok": "yes"}"#,
        "Sure! ```json\n{\"name\": \"x\" \"n\": 2}\n``` done",
        r#"[[[[1]]]]"#,
        r#"{"a": {"b": {"c": {"d": 1}}}}"#,
        r#"{"name": "x", "n": 1} {"name": "y", "n": 2}"#,
        r#""name": "x", "n": 4"#,
        r#"{"name": "x"}, "n": 5}"#,
        // R010: a document escaped one level, split inside its escapes.
        r#"{\"name\": \"x\\\"y\", \"n\": 1}"#,
        r#"  \"just a string\""#,
        "\u{FEFF}{\"n\": 1}",
        "<think>{\"no\": 1}</think> {\"name\": \"x\"}",
        "data: {\"n\": 1}\n\ndata: [DONE]\n",
    ];
    let mut rng = docs::Rng(11);
    let mut failures = Vec::new();
    for (i, opts) in variants.iter().enumerate() {
        for doc in docs {
            let b = doc.as_bytes();
            for cuts in [every_byte(b.len()), random_cuts(&mut rng, b.len())] {
                if let Err(e) = watch::check_split(b, &cuts, opts) {
                    failures.push(format!("options {i}: {doc:?}: {e}"));
                    break;
                }
            }
        }
    }
    assert_none(&failures);
}

#[test]
fn schema_events_follow_the_fields() {
    let opts = Options {
        schema: Some(Schema::parse("{!query:string,!limit:integer,mode:string}").unwrap()),
        ..Options::default()
    };
    let mut w = Watch::new(opts);
    let mut events = Vec::new();
    for chunk in ["{\"query\": \"rust\", ", "\"mode\": 3, \"limit\": 1", "0}"] {
        for e in w.feed(chunk).unwrap().events {
            events.push(format!("{} {} {}", e.kind.name(), e.path, e.permille));
        }
    }
    assert_eq!(
        events,
        [
            "field /query 500",
            "required /query 500",
            "field /mode 500",
            "mismatch /mode 500",
            "field /limit 1000",
            "required /limit 1000",
            "ready  1000",
            "complete  1000"
        ]
    );
    // `mode` has the wrong type: the profile refuses the result.
    let e = w.finish().unwrap_err();
    assert_eq!(e.code, jsonmend_engine::ErrorCode::E021);
}

#[test]
fn spec_example() {
    let opts = Options {
        schema: Some(Schema::parse("{!a:string}").unwrap()),
        ..Options::default()
    };
    let mut w = Watch::new(opts);
    let p = w.feed("{\"a\":\"x\"}").unwrap();
    let deltas: Vec<_> = p
        .deltas
        .iter()
        .map(|d| format!("{} {:?} {} {}", d.op.as_str(), d.path, d.text, d.at))
        .collect();
    assert_eq!(
        deltas,
        [
            "add \"\" {} 1",
            "add \"/a\" \"\" 6",
            "append \"/a\" \"x\" 7",
            "close \"/a\"  9",
            "close \"\"  9"
        ]
    );
    let events: Vec<_> = p
        .events
        .iter()
        .map(|e| format!("{} {} {}", e.kind.name(), e.at, e.permille))
        .collect();
    assert_eq!(
        events,
        [
            "field 9 1000",
            "required 9 1000",
            "ready 9 1000",
            "complete 9 1000"
        ]
    );
}

/// String values a watch batch reads in one step (far from the end of what
/// arrived) next to their one-step-per-piece reading in byte-by-byte feeds:
/// every content class the whole-string step takes or declines, in double
/// and single quotes, in object members, array items and after keys with
/// and without repairs, gives the same deltas and events.
#[test]
fn strings_read_whole_give_the_same_stream_as_byte_feeds() {
    let contents = [
        "plain",
        "two words",
        "a, b",
        "a,b",
        "a ,  b",
        "a,\\nb",
        "end,",
        "a, \\\"q\\\"",
        "x: y",
        "12:30",
        "trail ",
        "closer}",
        "closer]",
        "paren)",
        "tab\\t",
        "nl\\n",
        "cr\\r",
        "esc\\\"",
        "q\\\" ",
        "slash\\/",
        "u\\u00e9",
        "u\\u2028",
        "sur\\ud83d\\ude00",
        "it's",
        "back`tick",
        "caf\u{e9}",
        "\u{201c}typo\u{201d}",
        "\u{a9}",
        "bad\\x",
        "ctl\u{1}",
        "a \" b",
        "\"\"",
        "",
    ];
    let mut doc = String::from("[\n");
    let mut rng = docs::Rng(7);
    for round in 0..12 {
        // Single-quoted values (R011) in every other round.
        let q = if round % 2 == 0 { '"' } else { '\'' };
        for (i, c) in contents.iter().enumerate() {
            if round + i > 0 {
                doc.push_str(",\n");
            }
            match rng.below(5) {
                0 => doc.push_str(&format!(" {{\"k{i}\": {q}{c}{q}, \"n\": 1}}")),
                1 => doc.push_str(&format!(" {{k{i}: {q}{c}{q}}}")),
                2 => doc.push_str(&format!(" [{q}{c}{q}, {q}{c}{q}]")),
                3 => doc.push_str(&format!(" [{q}{c}{q} {q}{c}{q}]")),
                _ => doc.push_str(&format!(" {q}{c}{q}")),
            }
        }
    }
    doc.push_str("\n]\n");
    // Far from the end: a long tail the batches never reach.
    let tail = " ".repeat(1200);
    let doc = doc.replacen("\n]\n", &format!("\n]{tail}\n"), 1);
    // The same with an invalid byte in a late string: the stream's source
    // stops being whole UTF-8 characters there.
    let mut bad = doc.clone().into_bytes();
    let late = doc.rfind("caf").unwrap();
    bad.insert(late, 0xFF);
    let mut failures = Vec::new();
    for b in [doc.as_bytes(), &bad[..]] {
        for cuts in [every_byte(b.len()), (777..b.len()).step_by(777).collect()] {
            if let Err(e) = watch::check_split(b, &cuts, &Options::default()) {
                let from = e.char_indices().rev().nth(600).map_or(0, |(i, _)| i);
                failures.push(e[from..].to_string());
            }
        }
    }
    assert_none(&failures);
}

/// A string value whose close, or a byte its close decision examines,
/// lies at or near the end of a feed: a step reads it whole only when
/// what arrived decides its close (in a batch far from the end or in the
/// steps near it), and the stream is the one of byte-by-byte feeds.
#[test]
fn strings_closing_near_a_feed_end_give_the_same_stream() {
    let long = "word ".repeat(40);
    let contents = [
        "plain", "a, b", "end,", "x: y", "closer}", "esc\\\"", "it's", "", &long,
    ];
    let pad = (0..60)
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let mut failures = Vec::new();
    for q in ['"', '\''] {
        for c in contents {
            let forms = [
                format!("{{\"k\": {q}{c}{q}, \"n\": 1}}"),
                format!("{q}{c}{q}"),
                format!("{{k: {q}{c}{q}}}"),
                format!("[{q}{c}{q} {q}{c}{q}]"),
            ];
            for form in forms {
                let doc = format!("[{pad}, {form} , 1]");
                let b = doc.as_bytes();
                let start = pad.len() + 3;
                for cut in start..(start + form.len() + 4).min(b.len()) {
                    if let Err(e) = watch::check_split(b, &[cut], &Options::default()) {
                        failures.push(format!("{doc:?} cut at {cut}: {}", &e[..e.len().min(300)]));
                        break;
                    }
                }
            }
        }
    }
    assert_none(&failures);
}

/// Member paths are JSON Pointers: `~` and `/` in a key are escaped,
/// whether the key is written plainly, escaped or repaired.
#[test]
fn member_paths_escape_pointer_characters() {
    let text = r#"{"a~b": 1, "c/d": {"e\/f": [true]}, 'g~/': null, h\u002f: 2}"#;
    for chunk in [1, 3, text.len()] {
        let mut w = Watch::new(Options::default());
        let mut paths = Vec::new();
        for piece in text.as_bytes().chunks(chunk) {
            let p = w.feed_bytes(piece).unwrap();
            paths.extend(p.deltas.iter().map(|d| d.path.to_string()));
        }
        paths.dedup();
        assert_eq!(
            paths,
            [
                "",
                "/a~0b",
                "/c~1d",
                "/c~1d/e~1f",
                "/c~1d/e~1f/0",
                "/c~1d/e~1f",
                "/c~1d",
                "/g~0~1",
                "/h\\u002f",
                ""
            ],
            "chunks of {chunk}"
        );
    }
}

/// A batch taken back (R055 rewrote earlier output) brings back an object
/// that was following the shape of its depth, but a later object at that
/// depth had replaced the shape before the undo. Its second `(T` repeats
/// its first: the stream must still flag it (R062) as one-shot repair
/// does, whole or in any chunks (found by the `jsonmend_watch` fuzz
/// target).
#[test]
fn a_frame_brought_back_by_an_undo_keeps_counting_against_its_own_shape() {
    let mut input = String::from("{(T}{(T[][](T]]{[]\u{1}](T]]");
    input.push_str(&" ".repeat(1100));
    let opts = Options::default();
    let one_shot = jsonmend_engine::repair_text(&input).unwrap();
    assert!(
        one_shot.repairs.iter().any(|r| r.rule.code() == "R062"),
        "{:?}",
        one_shot.repairs
    );
    let mut w = Watch::new(opts.clone());
    w.feed(&input).unwrap();
    assert_eq!(w.finish().unwrap().result.to_json(), one_shot.to_json());
    for cuts in [every_byte(40), vec![9, 20, 30]] {
        watch::check_split(input.as_bytes(), &cuts, &opts).unwrap();
    }
}

/// Steps the fast lane logs next to those it cannot (`engine/tok_log.rs`),
/// far from the end of what arrived: members of a root object (their
/// values report events), keys that need escaping or decoding, calls and
/// tuples (their output waits), R053's implicit objects, R054/R055's
/// reopened containers, comments, trailing commas, Python literals,
/// empty containers and records whose keys are predicted (some of them
/// escaped as JSON Pointer tokens). Every split gives the stream of one
/// feed and of the text reader alone (`watch::check_split` compares
/// both).
#[test]
fn logged_steps_read_as_the_text_reader_reads_them() {
    let items = [
        r#"{"a": 1, "b": [true, null], "c": {"d": "e"}}"#,
        r#"{"a~b": 1, "c/d": 2, "e\"f": 3, "g\u00e9": 4, "h\/i": 5}"#,
        r#"{k: 'v', n: None, t: True, f: False}"#,
        r#"[1, 2.5, -3e4, "x", [], {}, [[]], [{}]]"#,
        r#"f(1, "two")"#,
        r#"(1, 2, 3)"#,
        r#"["key": "value", "k2": 2]"#,
        r#"{"a": [1, 2}, "b": 3}"#,
        r#"{"a": {"b": 1}}, "c": 2}"#,
        r#"{"a": 1, // note
 "b": /* block */ 2,}"#,
        r#"[1, 2, ]"#,
        r#"{"s": "line\nbreak", "t": "tab\there", "u": "\u2028"}"#,
        r#"{"deep": {"deeper": {"deepest": [1, {"x": [true]}]}}}"#,
        // Records whose keys the engine predicts from the first one's
        // (their shape): escaped as pointer tokens or not as they need.
        r#"[{"a~b": 1, "c/d": 2, "e": 3}, {"a~b": 4, "c/d": 5, "e": 6}, {"a~b": 7, "c/d": 8, "e": 9}]"#,
        r#"[{a: 1, b_2: "x"}, {a: 2, b_2: "y"}, {'x/y': 1, 'z': 2}, {'x/y': 3, 'z': 4}]"#,
        // Strings ending in what R076 could move out of a cut one (or
        // in a backslash before a letter, which it could not).
        r#"["a}", "b] ", "c)", "d\n", "e\\n", "f\\\n", "g\t", "h\\\\r", "i\r"]"#,
    ];
    let mut rng = docs::Rng(29);
    let mut docs = Vec::new();
    // A root object, whose members settle with events, and a root array.
    for (open, close) in [("{\n", "\n}"), ("[\n", "\n]")] {
        let mut doc = String::from(open);
        for round in 0..8 {
            for (i, item) in items.iter().enumerate() {
                if round + i > 0 {
                    doc.push_str(",\n");
                }
                if open.starts_with('{') {
                    doc.push_str(&format!(" \"m{round}_{i}\": "));
                }
                doc.push_str(item);
                if rng.below(3) == 0 {
                    doc.push_str(&" ".repeat(rng.below(200) as usize));
                }
            }
        }
        doc.push_str(close);
        doc.push_str(&" ".repeat(1200));
        docs.push(doc);
    }
    let mut failures = Vec::new();
    for doc in &docs {
        let b = doc.as_bytes();
        for step in [1usize, 7, 300, 4096] {
            let cuts: Vec<usize> = (step..b.len()).step_by(step).collect();
            if let Err(e) = watch::check_split(b, &cuts, &Options::default()) {
                let from = e.char_indices().rev().nth(600).map_or(0, |(i, _)| i);
                failures.push(format!("step {step}: {}", &e[from..]));
            }
        }
    }
    assert_none(&failures);
}
