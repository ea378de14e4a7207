//! Every payload munch-core emits decodes to exactly its input: generated
//! responses → verified encode (compact and auto, both key-order
//! policies) → decode. JSON fallbacks must read back exactly too. Shared
//! by `tests/props_replay.rs` and the `munch_roundtrip` fuzz target.
#![allow(
    dead_code,
    unreachable_pub,
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use munch_core::{
    Format, KeyOrder, Measure, Mode, Options, decode, encode, first_mismatch, to_python_json,
};

use super::responses::Gen;

/// Runs the property on one input; panics with the details on a failure.
pub fn check(data: &[u8]) {
    let mut g = Gen::new(data);
    let tool = g.tool();
    let response = if g.byte() % 2 == 0 {
        g.shaped(tool)
    } else {
        g.object(0)
    };
    for format in [Format::Compact, Format::Auto] {
        for key_order in [KeyOrder::Any, KeyOrder::Exact] {
            let opts = Options {
                format,
                mode: Mode::Verified,
                key_order,
                threshold: 0.0,
                ..Options::default()
            };
            let out = encode(tool, &response, &opts);
            // The size the gate and `_meta` use, however it was counted.
            if let Some(n) = out.meta.json_bytes {
                assert_eq!(n, to_python_json(&response).len(), "{response}");
            }
            let back = decode(&out.text).unwrap_or_else(|e| panic!("{e}: {:?}", out.text));
            if let Some(m) = first_mismatch(&response, &back, key_order) {
                panic!(
                    "tool {tool} {format:?} {key_order:?}: {m:?}\ninput {response}\npayload {:?}\nback {back}\nmeta {:?}",
                    out.text, out.meta
                );
            }
            let borrowed = munch_core::decode_borrowed(&out.text)
                .unwrap_or_else(|e| panic!("{e}: {:?}", out.text))
                .into_value();
            if let Some(m) = first_mismatch(&back, &borrowed, KeyOrder::Exact) {
                panic!("borrowed decode differs: {m:?}\npayload {:?}", out.text);
            }
            // Typed decoding (from a tier-1 table's cells where it can)
            // gives what the decoded value gives.
            let typed: serde_json::Value = munch_core::decode_into(&out.text)
                .unwrap_or_else(|e| panic!("{e}: {:?}", out.text));
            let via_value: serde_json::Value = munch_core::from_value(back).unwrap();
            assert_eq!(typed.to_string(), via_value.to_string(), "{:?}", out.text);
        }
    }
    // Sizes in UTF-8 bytes (checked against the size walk in debug builds).
    let utf8 = Options {
        format: Format::Auto,
        measure: Measure::Utf8Bytes,
        threshold: 0.0,
        ..Options::default()
    };
    let out = encode(tool, &response, &utf8);
    let back = decode(&out.text).unwrap_or_else(|e| panic!("{e}: {:?}", out.text));
    assert!(first_mismatch(&response, &back, KeyOrder::Any).is_none());
    // The reference layer never panics either.
    let _ = encode(
        tool,
        &response,
        &Options {
            format: Format::Compact,
            mode: Mode::Reference,
            ..Options::default()
        },
    );
}
