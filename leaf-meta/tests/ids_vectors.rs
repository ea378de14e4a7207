//! §9.2.1: ids equal every line of `tests/vectors/ids.jsonl`, for each
//! map it names, and decode(encode(text)) == text.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    reason = "test"
)]

use std::collections::HashMap;
use std::path::Path;

use leaf_meta::{LeafMap, MapId};

fn maps() -> HashMap<String, LeafMap> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/maps");
    let mut out = HashMap::new();
    for file in [
        "qwen2.62c2f94fcbdb.json",
        "qwen2.887311099cdc.json",
        "r50k_base.json",
    ] {
        let bytes = std::fs::read(dir.join(file)).unwrap();
        let pin = MapId::of_bytes(&bytes);
        let map = LeafMap::from_bytes(&bytes, &pin).unwrap_or_else(|e| panic!("{file}: {e}"));
        out.insert(pin.as_str().to_string(), map);
    }
    out
}

#[test]
fn every_vector_line() {
    let maps = maps();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/ids.jsonl"),
    )
    .unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let map = &maps[v["map_id"].as_str().unwrap()];
        let input = v["text"].as_str().unwrap();
        let want: Vec<u32> = v["ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i.as_u64().unwrap() as u32)
            .collect();
        let got = map.encode(input);
        if got != want {
            failures.push(format!("{input:?}\n  want {want:?}\n  got  {got:?}"));
        }
        assert_eq!(map.decode(&got), input.as_bytes());
        checked += 1;
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(checked, 116);
}

/// §10.2 check 2: with NFC, the two lines HF disagrees on give HF's ids and
/// the lines HF agrees with are unchanged.
#[cfg(feature = "nfc")]
#[test]
fn nfc_matches_hugging_face() {
    let maps = maps();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/ids.jsonl"),
    )
    .unwrap();
    let opts = leaf_meta::EncodeOptions {
        nfc: true,
        ..Default::default()
    };
    let (mut hf, mut same) = (0, 0);
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let map = &maps[v["map_id"].as_str().unwrap()];
        let ids = |k: &str| -> Vec<u32> {
            v[k].as_array()
                .unwrap()
                .iter()
                .map(|i| i.as_u64().unwrap() as u32)
                .collect()
        };
        let got = map.encode_with(v["text"].as_str().unwrap(), opts).unwrap();
        if v.get("hf_ids").is_some() {
            assert_eq!(got, ids("hf_ids"), "{}", v["text"]);
            hf += 1;
        } else if v["agree_hf"] == true {
            assert_eq!(got, ids("ids"), "{}", v["text"]);
            same += 1;
        }
    }
    assert_eq!((hf, same), (2, 46));
}
