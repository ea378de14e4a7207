//! sc2 — get_signal_chains: the meta keys written depend on the response.

use alloc::string::String;
use serde_json::{Map, Value};

use crate::tier1::schema::{Schema, Table, Transform, i, s};

const DISCOVERY_META: &[&str] = &[
    "timing_ms",
    "max_depth",
    "include_tests",
    "symbols_on_chains",
    "total_functions_methods",
    "callee_resolutions",
];
const LOOKUP_META: &[&str] = &["timing_ms", "total_gateways", "callee_resolutions"];
const NO_GATEWAY_META: &[&str] = &["timing_ms"];

pub(crate) const SCHEMA: Schema = Schema {
    id: "sc2",
    legacy: &[],
    tool: "get_signal_chains",
    tables: &[Table {
        key: "chains",
        tag: "c",
        cols: &[
            s("gateway"),
            s("gateway_name"),
            s("kind"),
            s("label"),
            i("depth"),
            i("reach"),
            i("file_count"),
            i("chain_reach"),
            i("depth_from_gateway"),
        ],
        intern: &["gateway"],
    }],
    scalars: &[
        "repo",
        "gateway_count",
        "chain_count",
        "orphan_symbols",
        "orphan_symbol_pct",
        "symbol",
        "symbol_id",
        "on_no_chain",
        "gateway_warning",
    ],
    nested: &[],
    // The decode list: discovery, then lookup, then no-gateway keys, each
    // name once.
    meta: &[
        "timing_ms",
        "max_depth",
        "include_tests",
        "symbols_on_chains",
        "total_functions_methods",
        "callee_resolutions",
        "total_gateways",
    ],
    meta_json: &[
        "receipts",
        "absence_evidence",
        "flow_edges",
        "ignored_arguments",
        "verdict",
    ],
    blobs: &["kind_summary"],
    scalar_types: &[],
    transform: Transform::None,
};

/// The meta keys the encoder writes for this response.
pub(crate) fn encode_meta_keys(response: &Map<String, Value>) -> &'static [&'static str] {
    if response.contains_key("gateway_warning") {
        NO_GATEWAY_META
    } else if response.contains_key("symbol") || response.contains_key("symbol_id") {
        LOOKUP_META
    } else {
        DISCOVERY_META
    }
}
