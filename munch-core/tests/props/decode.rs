//! The decoder never panics: arbitrary text, raw and behind a MUNCH
//! header of every encoding id. Shared by `tests/props_replay.rs` and the
//! `munch_decode` fuzz target.
#![allow(dead_code, unreachable_pub, clippy::indexing_slicing)]

const IDS: [&str; 24] = [
    "gen1", "fr2", "fi2", "ch2", "ch1", "dg1", "br2", "ip1", "sc2", "dc2", "tm2", "ss1", "st4",
    "st1", "st2", "st3", "sa2", "sa1", "fo1", "ro1", "rc1", "fr1", "xx9", "",
];

/// Decodes `data` in every framing; only a panic fails, or the borrowed
/// decoder giving other than the owned one.
pub fn check(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = same_as_borrowed(&text);
    let id = IDS[usize::from(data.first().copied().unwrap_or(0)) % IDS.len()];
    let framed = format!(
        "#MUNCH/1 tool=t enc={id}\n\n{}",
        text.get(1..).unwrap_or("")
    );
    // MUNCH input never fails, except past the expansion allowance.
    if let Err(e) = same_as_borrowed(&framed) {
        assert_eq!(e.kind, munch_core::DecodeErrorKind::ExpansionLimit, "{e}");
    }
}

/// `decode(text)`, checked against `decode_borrowed(text)`: the same
/// value (types, numbers and key order exact) or the same error.
pub fn same_as_borrowed(text: &str) -> Result<serde_json::Value, munch_core::DecodeError> {
    let owned = munch_core::decode(text);
    let borrowed = munch_core::decode_borrowed(text);
    match (&owned, borrowed) {
        (Ok(o), Ok(b)) => {
            let b = b.into_value();
            let m = munch_core::first_mismatch(o, &b, munch_core::KeyOrder::Exact);
            assert!(m.is_none(), "borrowed decode differs: {m:?} on {text:?}");
            // The typed path (through the borrowed tree) agrees with the
            // owned value through `from_value`.
            let typed: serde_json::Value = munch_core::decode_into(text).unwrap_or_default();
            let via_owned: serde_json::Value =
                munch_core::from_value(o.clone()).unwrap_or_default();
            assert_eq!(typed.to_string(), via_owned.to_string(), "{text:?}");
        }
        (Err(o), Err(b)) => {
            assert_eq!((o.kind, o.offset), (b.kind, b.offset), "{text:?}");
            // So does the typed path.
            match munch_core::decode_into::<serde_json::Value>(text) {
                Err(munch_core::TypedError::Decode(t)) => {
                    assert_eq!((o.kind, o.offset), (t.kind, t.offset), "{text:?}");
                }
                other => panic!("decode {o:?} but decode_into {other:?} on {text:?}"),
            }
        }
        (o, b) => panic!("decode {o:?} but decode_borrowed {b:?} on {text:?}"),
    }
    owned
}
