//! encode then decode gives the input bytes back, under every special-token
//! policy: shared by `tests/encode_roundtrip.rs` and the `leaf_encode` fuzz
//! target.
#![allow(dead_code, unreachable_pub, clippy::unwrap_used, clippy::panic)]

use std::path::Path;
use std::sync::OnceLock;

use leaf_meta::{EncodeOptions, LeafMap, MapId, SpecialTokens};

fn load(file: &str) -> LeafMap {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../leaf-meta/tests/maps")
        .join(file);
    let bytes = std::fs::read(&path).unwrap();
    LeafMap::from_bytes(&bytes, &MapId::of_bytes(&bytes)).unwrap()
}

/// The current qwen2 map and r50k, loaded once.
pub fn maps() -> &'static [LeafMap; 2] {
    static MAPS: OnceLock<[LeafMap; 2]> = OnceLock::new();
    MAPS.get_or_init(|| [load("qwen2.62c2f94fcbdb.json"), load("r50k_base.json")])
}

pub fn check(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for map in maps() {
        for special in [SpecialTokens::Parse, SpecialTokens::AsText] {
            let ids = map.encode_with(&text, EncodeOptions { special }).unwrap();
            assert_eq!(map.decode(&ids), text.as_bytes(), "{special:?} {text:?}");
            assert!(ids.iter().all(|&id| (id as usize) < map.vocab_size()));
        }
        let rejected = map.encode_with(
            &text,
            EncodeOptions {
                special: SpecialTokens::Reject,
            },
        );
        if let Err(e) = rejected {
            assert!(e.offset < text.len());
        }
    }
}
