//! The scorecard reproduces the Gortex benchmark (gcx1 spec §14) exactly,
//! and every MUNCH and GCX1 payload of the bundled corpus decodes back to
//! its input.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, reason = "test")]

use scorecard::corpus::{self, Group};
use scorecard::formats::Format;
use scorecard::score::{Scorecard, format_delta};
use scorecard::tokens::{Counter, Metric};

/// Spec §14: case, bytes json, bytes gcx, tokens json, tokens gcx.
const GORTEX: [(&str, usize, usize, usize, usize); 20] = [
    ("01_search_symbols_small", 720, 522, 181, 125),
    ("02_search_symbols_large", 4201, 2924, 1068, 742),
    ("03_get_symbol_source_small", 731, 731, 257, 255),
    ("04_get_symbol_source_large", 1691, 1663, 534, 532),
    ("05_batch_symbols", 1077, 702, 335, 241),
    ("06_find_usages_small", 1287, 989, 335, 255),
    ("07_find_usages_large", 1783, 920, 569, 351),
    ("08_get_file_summary", 2172, 1599, 567, 431),
    ("09_analyze_hotspots", 1731, 1037, 506, 318),
    ("10_analyze_dead_code", 1132, 825, 288, 198),
    ("11_contracts_list", 2296, 1562, 580, 463),
    ("12_get_callers_medium", 3021, 2204, 750, 532),
    ("13_smart_context", 1816, 1178, 471, 299),
    ("14_get_dependents_small", 1269, 929, 329, 239),
    ("15_get_test_targets", 1256, 997, 311, 262),
    ("16_find_implementations", 936, 690, 224, 157),
    ("17_find_cycles", 224, 192, 87, 90),
    ("18_graph_stats", 494, 512, 162, 174),
    ("19_get_editing_context", 927, 708, 233, 171),
    ("20_get_repo_outline", 784, 690, 237, 224),
];

fn card() -> Scorecard {
    let root = corpus::root();
    let cases = corpus::bundled(&root).unwrap();
    Scorecard::measure(&cases, &Counter::load(&root).unwrap(), |_, _| {}).unwrap()
}

#[test]
fn gortex_figures_are_reproduced_and_every_payload_round_trips() {
    let card = card();
    for (case, json_bytes, gcx_bytes, json_tokens, gcx_tokens) in GORTEX {
        let json = card.row(case, Format::Json).unwrap();
        let gcx = card.row(case, Format::Gcx1).unwrap();
        assert_eq!(json.group, Group::Gortex);
        assert_eq!(
            (
                json.counts.bytes,
                gcx.counts.bytes,
                json.counts.cl100k,
                gcx.counts.cl100k
            ),
            (json_bytes, gcx_bytes, json_tokens, gcx_tokens),
            "{case}"
        );
    }
    let gortex = Some(Group::Gortex);
    let median = |metric| format_delta(card.median(Format::Gcx1, metric, gortex).unwrap());
    assert_eq!(median(Metric::Cl100k), "\u{2212}27.4%");
    assert_eq!(median(Metric::Bytes), "\u{2212}26.8%");

    // Every bundled case is there, and every MUNCH and GCX1 payload that
    // was written decodes back to its input.
    assert_eq!(card.cases().len(), 20 + 15 + 7);
    for row in &card.rows {
        if matches!(row.format, Format::Munch | Format::Gcx1) && row.produced {
            assert_eq!(row.roundtrip, Some(true), "{} {}", row.case, row.format);
        }
    }
    // The JSON report has one row per case and format.
    let json = scorecard::render::json(&card);
    assert_eq!(json["cases"].as_array().unwrap().len(), 42 * 5);
    assert_eq!(json["group_medians"]["gortex"]["gcx1"]["cl100k"], -27.4);
}
