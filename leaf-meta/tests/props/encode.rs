//! encode then decode gives the input bytes back, under every special-token
//! policy: shared by `tests/encode_roundtrip.rs` and the `leaf_encode` fuzz
//! target.
#![allow(dead_code, unreachable_pub, clippy::unwrap_used, clippy::panic)]
#![allow(
    clippy::needless_update,
    reason = "EncodeOptions has fields behind the nfc feature"
)]

use std::path::Path;
use std::sync::OnceLock;

use leaf_meta::{EncodeOptions, EncodeState, LeafMap, MapId, SpecialTokens};

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
    // Caches shared by both maps and kept across inputs: ids must not
    // depend on them (off, capacity 1, a bigger one, warm).
    std::thread_local! {
        static STATES: std::cell::RefCell<[EncodeState; 3]> = std::cell::RefCell::new([
            EncodeState::new(0),
            EncodeState::new(1),
            EncodeState::new(4096),
        ]);
    }
    for map in maps() {
        let plain = map.encode(&text);
        STATES.with(|states| {
            for state in states.borrow_mut().iter_mut() {
                for _ in 0..2 {
                    let mut ids = Vec::new();
                    map.encode_cached(&text, EncodeOptions::default(), state, &mut ids)
                        .unwrap();
                    assert_eq!(ids, plain, "cache {} {text:?}", state.capacity());
                }
            }
        });
        for special in [SpecialTokens::Parse, SpecialTokens::AsText] {
            let ids = map
                .encode_with(
                    &text,
                    EncodeOptions {
                        special,
                        ..Default::default()
                    },
                )
                .unwrap();
            assert_eq!(map.decode(&ids), text.as_bytes(), "{special:?} {text:?}");
            assert!(ids.iter().all(|&id| (id as usize) < map.vocab_size()));
        }
        let rejected = map.encode_with(
            &text,
            EncodeOptions {
                special: SpecialTokens::Reject,
                ..Default::default()
            },
        );
        if let Err(e) = rejected {
            assert!(e.offset < text.len());
        }
    }
}
