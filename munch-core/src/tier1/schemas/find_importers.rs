//! fi2 — find_importers.

use crate::tier1::schema::{META_JSON_DEFAULT, Schema, Table, Transform, b, s};

pub(crate) const SCHEMA: Schema = Schema {
    id: "fi2",
    legacy: &[],
    tool: "find_importers",
    tables: &[Table {
        key: "importers",
        tag: "i",
        cols: &[s("file"), s("specifier"), b("has_importers")],
        intern: &["file", "specifier"],
    }],
    scalars: &["repo", "file_path", "importer_count", "note"],
    nested: &[],
    meta: &[
        "timing_ms",
        "truncated",
        "tokens_saved",
        "total_tokens_saved",
    ],
    meta_json: META_JSON_DEFAULT,
    blobs: &[
        "results",
        "dynamic_import_boundary",
        "dynamic_imports_unfollowed",
    ],
    scalar_types: &[],
    transform: Transform::None,
};
