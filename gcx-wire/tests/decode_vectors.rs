//! Decoder conformance on the 105 Go reference vectors
//! (`tests/vectors/gcx-go-0.1.0.jsonl`), checks C1–C4, C10, C11 of the
//! spec.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test helpers fail by panicking"
)]

mod support {
    pub(crate) mod base64;
    pub(crate) mod go_view;
    pub(crate) mod vectors;
}

use gcx_wire::{DecodeErrorKind, DecodeOptions, decode_partial};
use serde_json::Value;
use support::go_view::decoded_json;

use support::vectors::load as vectors;

#[test]
fn go_compat_mode_matches_every_vector() {
    let opts = DecodeOptions {
        go_compat: true,
        ..Default::default()
    };
    let all = vectors();
    assert_eq!(all.len(), 105);
    let mismatches: Vec<&str> = all
        .iter()
        .filter(|v| decoded_json(&v.gcx, &opts) != v.decoded)
        .map(|v| v.case.as_str())
        .collect();
    assert!(mismatches.is_empty(), "differ from Go: {mismatches:?}");
}

#[test]
fn default_mode_differs_only_where_the_spec_decides() {
    // C1: sections and acceptance are compared; error texts differ where
    // the version check is deliberately stricter (R2).
    let opts = DecodeOptions::default();
    let mut differ = Vec::new();
    let mut same_text = 0;
    for v in vectors() {
        let ours = decoded_json(&v.gcx, &opts);
        if ours == v.decoded {
            same_text += 1;
        }
        let accepted = |d: &Value| d.get("error").is_none();
        if ours["sections"] != v.decoded["sections"] || accepted(&ours) != accepted(&v.decoded) {
            differ.push((v.case.clone(), ours));
        }
    }
    let cases: Vec<&str> = differ.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(cases, ["dec/gcx1-no-space", "dec/empty-payload"]);
    assert_eq!(differ[0].1["sections"], serde_json::json!([]));
    assert!(
        differ[0].1["error"]
            .as_str()
            .unwrap()
            .contains("unsupported version")
    );
    assert_eq!(differ[1].1, serde_json::json!({"sections": []}));
    // Identical JSON, error text included, everywhere but those two and
    // the two other version rejections (`dec/gcx2`, `dec/gcx10`).
    assert_eq!(same_text, 101);
}

#[test]
fn rejections_and_their_kinds() {
    let opts = DecodeOptions::default();
    let mut rejected = Vec::new();
    for v in vectors() {
        let (_, err) = decode_partial(&v.gcx, &opts);
        if let Some(err) = err {
            rejected.push((v.case, err.kind));
        }
    }
    assert_eq!(rejected.len(), 15, "{rejected:?}");
    let kind = |case: &str| {
        rejected
            .iter()
            .find(|(c, _)| c == case)
            .map(|(_, k)| k.clone())
    };
    for case in ["dec/gcx2", "dec/gcx10", "dec/gcx1-no-space"] {
        assert!(
            matches!(kind(case), Some(DecodeErrorKind::UnsupportedVersion { .. })),
            "{case}: {:?}",
            kind(case)
        );
    }
    assert!(matches!(
        kind("dec/leading-comment"),
        Some(DecodeErrorKind::NotGcx { .. })
    ));
    assert!(kind("dec/empty-payload").is_none());
}

#[test]
fn partial_sections_are_kept_as_go_keeps_them() {
    let opts = DecodeOptions::default();
    let mut partial: Vec<String> = vectors()
        .into_iter()
        .filter(|v| {
            let (payload, err) = decode_partial(&v.gcx, &opts);
            err.is_some() && !payload.sections.is_empty()
        })
        .map(|v| v.case)
        .collect();
    partial.sort();
    assert_eq!(
        partial,
        [
            "any/first-cell-gcx1",
            "dec/bad-second-header",
            "dec/overlong-row",
            "enc/long-row-over-4MiB",
            "enc/meta-key-tool-fields"
        ]
    );
}

#[test]
fn line_cap_is_exclusive() {
    let all = vectors();
    let get = |case: &str| &all.iter().find(|v| v.case == case).unwrap().gcx;
    let over = get("enc/long-row-over-4MiB");
    let (_, err) = decode_partial(over, &DecodeOptions::default());
    assert!(matches!(
        err.unwrap().kind,
        DecodeErrorKind::LineTooLong { .. }
    ));
    let opts = |max| DecodeOptions {
        max_line_bytes: max,
        ..Default::default()
    };
    let (p, err) = decode_partial(over, &opts(4_194_306));
    assert!(err.is_none());
    assert_eq!(p.sections[0].row_count(), 1);
    let one = get("enc/long-row-1MiB");
    assert!(decode_partial(one, &opts(1_048_581)).1.is_none());
    let (_, err) = decode_partial(one, &opts(1_048_580));
    assert!(matches!(
        err.unwrap().kind,
        DecodeErrorKind::LineTooLong { .. }
    ));
}

#[test]
fn comments_are_exposed() {
    let mut found = Vec::new();
    for v in vectors() {
        let (payload, err) = decode_partial(&v.gcx, &DecodeOptions::default());
        if err.is_some() {
            continue;
        }
        for s in &payload.sections {
            for c in &s.comments {
                found.push((v.case.clone(), String::from_utf8_lossy(c.text).into_owned()));
            }
        }
    }
    let want: Vec<(String, String)> = [
        ("enc/zero-rows", "0 result(s)"),
        ("enc/search-symbols-layout", "2 result(s)"),
        ("dec/comment-only-section", "c1"),
        ("dec/comment-only-section", "c2"),
        ("dec/blank-lines-between-sections", "between"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    let mut found_sorted = found.clone();
    found_sorted.sort();
    let mut want_sorted = want.clone();
    want_sorted.sort();
    assert_eq!(found_sorted, want_sorted);
}

/// Row `i` of the first section, as byte slices.
fn first_row(p: &gcx_wire::Payload<'_>, i: usize) -> Vec<Vec<u8>> {
    p.sections[0]
        .row(i)
        .unwrap()
        .iter()
        .map(|c| c.to_vec())
        .collect()
}

#[test]
fn ordered_cells_keep_duplicates() {
    let all = vectors();
    let get = |case: &str| &all.iter().find(|v| v.case == case).unwrap().gcx;
    let p = gcx_wire::from_slice(get("enc/duplicate-fields")).unwrap();
    assert_eq!(first_row(&p, 0), [b"1", b"2", b"3"]);
    let p = gcx_wire::from_slice(get("dec/header-empty-field-names")).unwrap();
    assert_eq!(p.sections[0].header.fields, [&b"a"[..], b"", b"b"]);
    assert_eq!(first_row(&p, 0), [b"1", b"2", b"3"]);
}

#[test]
fn c13_cells_borrow_unless_escaped() {
    let (mut borrowed, mut owned) = (0, 0);
    for v in vectors().iter().filter(|v| v.kind.starts_with("fixture")) {
        let payload = gcx_wire::from_slice(&v.gcx).unwrap();
        for cell in payload.sections.iter().flat_map(|s| s.cells.iter()) {
            match cell {
                std::borrow::Cow::Borrowed(_) => borrowed += 1,
                std::borrow::Cow::Owned(_) => owned += 1,
            }
        }
    }
    assert_eq!((borrowed, owned), (1533, 8));
}

#[test]
fn c12_reencode_after_decode() {
    use gcx_wire::encode::{Encoder, Mode};
    let mut identical = Vec::new();
    let all = vectors();
    let go_identical = all.iter().filter(|v| v.reencode_identical).count();
    for v in &all {
        let opts = DecodeOptions {
            go_compat: true,
            ..Default::default()
        };
        let (payload, _) = decode_partial(&v.gcx, &opts);
        let mut enc = Encoder::with_mode(Mode::GoCompat);
        if enc.payload(&payload).is_ok() && enc.finish() == v.gcx {
            identical.push(v.case.clone());
        }
    }
    assert_eq!(go_identical, 72);
    assert!(identical.len() >= 76, "{}", identical.len());
    for case in [
        "enc/duplicate-fields",
        "enc/zero-rows",
        "enc/search-symbols-layout",
        "dec/escaped-hash-first-cell",
    ] {
        assert!(identical.iter().any(|c| c == case), "{case}");
    }
    eprintln!(
        "re-encoded byte-identical: {}/105 (Go: 72)",
        identical.len()
    );
}
