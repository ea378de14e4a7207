//! §10.1 pins, §10.2 checks 3–5 (AsText, Reject, README example) and §10.4
//! refusals on synthetic maps edited from r50k.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    reason = "test"
)]
#![allow(
    clippy::needless_update,
    reason = "EncodeOptions has fields behind the nfc feature"
)]

use std::path::Path;

use leaf_meta::{EncodeOptions, LeafMap, LoadError, MapId, SpecialTokens};

fn bytes(file: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/maps")
            .join(file),
    )
    .unwrap()
}

fn load(file: &str) -> LeafMap {
    let b = bytes(file);
    LeafMap::from_bytes(&b, &MapId::of_bytes(&b)).unwrap()
}

#[test]
fn pins_uppercase_bare_hex_and_mismatches() {
    let r50k = bytes("r50k_base.json");
    let upper = MapId::of_bytes(&r50k).as_str()[7..].to_uppercase();
    let map = LeafMap::from_bytes(&r50k, &MapId::parse(&upper).unwrap()).unwrap();
    assert_eq!(
        map.id().as_str(),
        "sha256:bbbb06e4f44c0317b3282ec98fb07991694ba3d4e82b88d7e77fb44b9209ff32"
    );
    let other =
        MapId::parse("62c2f94fcbdb9b49d51632314e64aa65894496bc39751cb90866049657a262ad").unwrap();
    assert!(matches!(
        LeafMap::from_bytes(&r50k, &other),
        Err(LoadError::HashMismatch { .. })
    ));
    let mut appended = r50k.clone();
    appended.push(b'\n');
    assert!(matches!(
        LeafMap::from_bytes(&appended, &MapId::of_bytes(&r50k)),
        Err(LoadError::HashMismatch { .. })
    ));
}

#[test]
fn special_token_policies_and_the_readme_example() {
    let qwen = load("qwen2.62c2f94fcbdb.json");
    let old = load("qwen2.887311099cdc.json");
    let r50k = load("r50k_base.json");
    let as_text = EncodeOptions {
        special: SpecialTokens::AsText,
        ..Default::default()
    };
    assert_eq!(
        qwen.encode_with("<|im_end|>", as_text).unwrap(),
        [27, 91, 318, 6213, 91, 29]
    );
    assert_eq!(
        qwen.encode_with("<|endoftext|>", as_text).unwrap(),
        [27, 91, 8691, 723, 427, 91, 29]
    );
    assert_eq!(
        qwen.encode_with("before<|endoftext|>after", as_text)
            .unwrap(),
        [14801, 27, 91, 8691, 723, 427, 91, 29, 10694]
    );
    assert_eq!(
        r50k.encode_with("<|endoftext|>", as_text).unwrap(),
        [27, 91, 437, 1659, 5239, 91, 29]
    );
    let reject = EncodeOptions {
        special: SpecialTokens::Reject,
        ..Default::default()
    };
    assert_eq!(
        qwen.encode_with("before<|endoftext|>after", reject)
            .unwrap_err()
            .offset,
        6
    );
    let readme = "It is currently 14:30 UTC.";
    for map in [&qwen, &old] {
        assert_eq!(
            map.encode(readme),
            [2132, 374, 5023, 220, 16, 19, 25, 18, 15, 27403, 13]
        );
    }
    assert_eq!(
        r50k.encode(readme),
        [1026, 318, 3058, 1478, 25, 1270, 18119, 13]
    );
    // Special ids decode to their text; everything round-trips.
    for text in ["<|im_start|>system\nhi<|im_end|>", "", "é\u{301} 😀"] {
        assert_eq!(qwen.decode(&qwen.encode(text)), text.as_bytes());
    }
}

/// r50k with one textual edit, pinned by its own hash.
fn edited(from: &str, to: &str) -> Result<LeafMap, LoadError> {
    let text = String::from_utf8(bytes("r50k_base.json")).unwrap();
    assert!(text.contains(from), "{from}");
    let edited = text.replacen(from, to, 1).into_bytes();
    LeafMap::from_bytes(&edited, &MapId::of_bytes(&edited))
}

#[test]
fn refusals() {
    assert!(matches!(
        edited("\"encoder\": \"byte_level\"", "\"encoder\": \"metaspace\""),
        Err(LoadError::UnsupportedEncoder(_))
    ));
    assert!(matches!(
        edited(
            "\"pre_tokenizer_program\": {\n    \"version\": 1",
            "\"pre_tokenizer_program\": {\n    \"version\": 2"
        ),
        Err(LoadError::UnsupportedProgramVersion(2))
    ));
    assert!(matches!(
        edited("\"op\": \"ws_run\"", "\"op\": \"regex\""),
        Err(LoadError::UnknownOp(_))
    ));
    // Program removed and pattern altered.
    let text = String::from_utf8(bytes("r50k_base.json")).unwrap();
    let edited_text = text
        .replacen("\"pre_tokenizer_program\"", "\"unused_program\"", 1)
        .replacen("'s|'t|", "'s|'x|", 1)
        .into_bytes();
    assert!(matches!(
        LeafMap::from_bytes(&edited_text, &MapId::of_bytes(&edited_text)),
        Err(LoadError::UnsupportedPattern)
    ));
    // Two merges swapped: the rank = id order breaks.
    let merges_at = text.find("\"merges\": [").unwrap();
    let first = text[merges_at..].find("\"Ġ t\"").unwrap() + merges_at;
    let swapped = format!(
        "{}\"Ġ a\"{}",
        &text[..first],
        &text[first + "\"Ġ t\"".len()..]
    );
    let second = swapped[first + 6..].find("\"Ġ a\"").unwrap() + first + 6;
    let swapped = format!(
        "{}\"Ġ t\"{}",
        &swapped[..second],
        &swapped[second + "\"Ġ a\"".len()..]
    );
    let swapped = swapped.into_bytes();
    assert!(matches!(
        LeafMap::from_bytes(&swapped, &MapId::of_bytes(&swapped)),
        Err(LoadError::MergeRankInconsistent { .. })
    ));
}
