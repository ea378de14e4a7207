//! ip1 — get_impact_preview.

use crate::tier1::schema::{META_JSON_DEFAULT, Schema, Table, Transform, i, s};

pub(crate) const SCHEMA: Schema = Schema {
    id: "ip1",
    legacy: &[],
    tool: "get_impact_preview",
    tables: &[Table {
        key: "affected_symbols",
        tag: "s",
        cols: &[
            s("id"),
            s("name"),
            s("kind"),
            s("file"),
            i("line"),
            i("depth"),
        ],
        intern: &["file", "id"],
    }],
    scalars: &["repo", "affected_files", "affected_symbol_count"],
    nested: &[("symbol", &["id", "name", "kind", "file", "line"])],
    meta: &["timing_ms"],
    meta_json: META_JSON_DEFAULT,
    blobs: &["affected_by_file", "call_chains"],
    scalar_types: &[],
    transform: Transform::None,
};
