//! dg1 — get_dependency_graph: adjacency lists as rows.

use crate::tier1::schema::{META_JSON_DEFAULT, Schema, Table, Transform, i, s};

pub(crate) const SCHEMA: Schema = Schema {
    id: "dg1",
    legacy: &[],
    tool: "get_dependency_graph",
    tables: &[
        Table {
            key: "edges",
            tag: "e",
            cols: &[s("from"), s("to"), i("depth")],
            intern: &["from", "to"],
        },
        Table {
            key: "cross_repo_edges",
            tag: "x",
            cols: &[s("from_file"), s("to_repo"), s("specifier"), i("depth")],
            intern: &["from_file", "specifier"],
        },
    ],
    scalars: &[
        "repo",
        "file",
        "direction",
        "depth",
        "depth_reached",
        "node_count",
        "edge_count",
    ],
    nested: &[],
    meta: &[
        "timing_ms",
        "truncated",
        "cross_repo",
        "tokens_saved",
        "total_tokens_saved",
    ],
    meta_json: META_JSON_DEFAULT,
    blobs: &["nodes", "neighbors"],
    scalar_types: &[],
    transform: Transform::None,
};
