//! §10.3: the wrap and reader examples (`tests/vectors/wrap-examples.json`)
//! against the current qwen2 map.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    reason = "test"
)]

use std::path::Path;

use leaf_meta::{IdCheck, LeafMap, MapId, ReadError, ReadOptions, Source, WrapOptions};
use serde_json::{Value, json};

fn examples() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/wrap-examples.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn qwen2(pin: &str) -> LeafMap {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/maps/qwen2.62c2f94fcbdb.json");
    LeafMap::from_file(path, &MapId::parse(pin).unwrap()).unwrap()
}

#[test]
fn wrap_cases_and_idempotence() {
    let ex = examples();
    let map = qwen2(ex["map_hash"].as_str().unwrap());
    let cases = ex["wrap"].as_array().unwrap();
    assert_eq!(cases.len(), 6);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let opts = WrapOptions {
            min_text_length: case["options"]["minTextLength"].as_u64().unwrap_or(0) as usize,
            ..Default::default()
        };
        let out = leaf_meta::wrap(&case["input"], &map, &opts).unwrap();
        assert_eq!(out, case["output"], "{name}");
        assert_eq!(
            leaf_meta::wrap(&out, &map, &opts).unwrap(),
            out,
            "{name} twice"
        );
    }
}

#[test]
fn reader_cases() {
    let ex = examples();
    let r = &ex["reader"];
    let input = &r["input"];
    let map = qwen2(ex["map_hash"].as_str().unwrap());
    assert_eq!(
        leaf_meta::has_leaf_meta(input),
        r["hasCodecMeta"].as_bool().unwrap()
    );
    let entries = leaf_meta::read_leaf_meta(input, &ReadOptions::default()).unwrap();
    let want = r["readCodecMeta"].as_array().unwrap();
    assert_eq!(entries.len(), want.len());
    for (e, w) in entries.iter().zip(want) {
        assert_eq!(e.content_index as u64, w["textIndex"].as_u64().unwrap());
        assert_eq!(e.text, w["text"].as_str().unwrap());
        assert_eq!(json!(e.ids), w["ids"]);
        assert_eq!(json!(e.map_id), w["mapId"]);
        let source = match e.source {
            Some(Source::Meta) => json!("meta"),
            Some(Source::Sibling) => json!("sibling"),
            None => Value::Null,
        };
        assert_eq!(source, w["source"]);
    }
    let ids = leaf_meta::take_ids(input, &ReadOptions::default()).unwrap();
    assert_eq!(json!(ids), r["takeIds"]);

    // Expected = the current pin: the sibling at content[3] mismatches.
    let expected = MapId::parse(ex["map_hash"].as_str().unwrap()).unwrap();
    let opts = ReadOptions {
        expected: Some(expected.clone()),
        ..Default::default()
    };
    let err = leaf_meta::take_ids(input, &opts).unwrap_err();
    assert_eq!(
        err.to_string(),
        r["takeIds_expected_HEAD"]["message"].as_str().unwrap()
    );
    assert!(matches!(
        err,
        ReadError::MapMismatch {
            content_index: 3,
            ..
        }
    ));

    // Bare hex, first three blocks only.
    let bare = MapId::parse(&ex["map_hash"].as_str().unwrap()[7..]).unwrap();
    let first3 = json!({"content": input["content"].as_array().unwrap()[..3]});
    let opts = ReadOptions {
        expected: Some(bare),
        ..Default::default()
    };
    assert_eq!(
        json!(leaf_meta::take_ids(&first3, &opts).unwrap()),
        r["takeIds_expected_bare_hex_HEAD"]
    );

    assert!(!leaf_meta::has_leaf_meta(
        &json!({"content": [{"type": "text", "text": "hi"}]})
    ));

    // Strip.
    let stripped = leaf_meta::stripped(input);
    assert_eq!(*stripped, r["stripCodecMeta"]);
    let noop = json!({"content": [{"type": "text", "text": "x", "_meta": {}}]});
    assert!(matches!(
        leaf_meta::stripped(&noop),
        std::borrow::Cow::Borrowed(_)
    ));
    let mut same = noop.clone();
    assert!(!leaf_meta::strip_leaf_meta(&mut same));
    assert_eq!(same, noop);

    // Bad pins.
    assert!(MapId::parse("not-a-hash").is_err());
    assert!(MapId::parse("sha256:xyz").is_err());

    // Id range: the vocabulary check passes on the input; 151665 fails.
    let opts = ReadOptions {
        check: IdCheck::Vocab(&map),
        ..Default::default()
    };
    assert!(leaf_meta::read_leaf_meta(input, &opts).is_ok());
    // Re-encoding: the wrapped examples hold the true ids; the bogus
    // `[1, 2, 3]` payload of wrap case 4 does not.
    let reencode = ReadOptions {
        check: IdCheck::Reencode(&map, Default::default()),
        ..Default::default()
    };
    for case in ex["wrap"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["name"] != "4-existing-payloads-idempotence")
    {
        assert!(
            leaf_meta::read_leaf_meta(&case["output"], &reencode).is_ok(),
            "{}",
            case["name"]
        );
    }
    let bogus = &ex["wrap"][4]["output"];
    assert!(matches!(
        leaf_meta::read_leaf_meta(bogus, &reencode),
        Err(ReadError::IdsDiffer { content_index: 0 })
    ));
    let bad = json!({"content": [{"type": "text", "text": "x", "_meta": {"ai.codec/leaf-tokenization": {"map_id": expected.as_str(), "ids": [1, 151665]}}}]});
    assert!(matches!(
        leaf_meta::read_leaf_meta(&bad, &opts),
        Err(ReadError::IdOutOfRange {
            content_index: 0,
            position: 1,
            id: 151665
        })
    ));
}

#[test]
fn typed_structs_follow_the_same_contract() {
    let ex = examples();
    let map = qwen2(ex["map_hash"].as_str().unwrap());
    for case in ex["wrap"].as_array().unwrap() {
        let opts = WrapOptions {
            min_text_length: case["options"]["minTextLength"].as_u64().unwrap_or(0) as usize,
            ..Default::default()
        };
        let typed: leaf_meta::ToolResult = serde_json::from_value(case["input"].clone()).unwrap();
        let wrapped = leaf_meta::wrap_typed(&typed, &map, &opts).unwrap();
        assert_eq!(
            serde_json::to_value(&wrapped).unwrap(),
            case["output"],
            "{}",
            case["name"]
        );
    }
    let r = &ex["reader"];
    let typed: leaf_meta::ToolResult = serde_json::from_value(r["input"].clone()).unwrap();
    assert_eq!(
        json!(leaf_meta::take_ids_typed(&typed, &ReadOptions::default()).unwrap()),
        r["takeIds"]
    );
    let stripped = leaf_meta::strip_typed(&typed).unwrap();
    assert_eq!(
        serde_json::to_value(&stripped).unwrap(),
        r["stripCodecMeta"]
    );
}
