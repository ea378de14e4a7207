//! ro1 — get_repo_outline: no tables; the structured fields ride as JSON.

use crate::tier1::schema::{META_JSON_DEFAULT, Schema, Transform};

pub(crate) const SCHEMA: Schema = Schema {
    id: "ro1",
    legacy: &[],
    tool: "get_repo_outline",
    tables: &[],
    scalars: &[
        "repo",
        "indexed_at",
        "file_count",
        "symbol_count",
        "staleness_warning",
    ],
    nested: &[],
    meta: &[
        "timing_ms",
        "tokens_saved",
        "total_tokens_saved",
        "is_stale",
    ],
    meta_json: META_JSON_DEFAULT,
    blobs: &[
        "languages",
        "directories",
        "symbol_kinds",
        "most_imported_files",
        "most_central_symbols",
    ],
    scalar_types: &[],
    transform: Transform::None,
};
