//! br2 — get_blast_radius.

use crate::tier1::schema::{META_JSON_DEFAULT, Schema, Table, Transform, b, i, s};

pub(crate) const SCHEMA: Schema = Schema {
    id: "br2",
    legacy: &[],
    tool: "get_blast_radius",
    tables: &[
        Table {
            key: "confirmed",
            tag: "c",
            cols: &[s("file"), i("references"), b("has_test_reach")],
            intern: &["file"],
        },
        Table {
            key: "potential",
            tag: "p",
            cols: &[s("file"), s("reason")],
            intern: &["file"],
        },
    ],
    scalars: &[
        "repo",
        "depth",
        "importer_count",
        "confirmed_count",
        "potential_count",
        "direct_dependents_count",
        "overall_risk_score",
    ],
    nested: &[("symbol", &["id", "name", "kind", "file", "line"])],
    meta: &["timing_ms"],
    meta_json: META_JSON_DEFAULT,
    blobs: &["impact_by_depth", "callers", "cross_repo_confirmed"],
    scalar_types: &[],
    transform: Transform::None,
};
