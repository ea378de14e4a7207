//! fr2 — find_references: rows flattened from `references[].matches[]`.

use crate::tier1::schema::{META_JSON_DEFAULT, Schema, Table, Transform, s};

/// The private table key of the flattened rows.
pub(crate) const ROWS_KEY: &str = "__rows__";
/// The blob of files without matches.
pub(crate) const EMPTY_GROUPS_KEY: &str = "__empty_groups__";

pub(crate) const SCHEMA: Schema = Schema {
    id: "fr2",
    legacy: &[],
    tool: "find_references",
    tables: &[Table {
        key: ROWS_KEY,
        tag: "r",
        cols: &[s("file"), s("specifier"), s("match_type")],
        intern: &["file", "specifier"],
    }],
    scalars: &["repo", "identifier", "reference_count", "note"],
    nested: &[],
    meta: &[
        "timing_ms",
        "truncated",
        "tokens_saved",
        "total_tokens_saved",
    ],
    meta_json: META_JSON_DEFAULT,
    blobs: &["results", EMPTY_GROUPS_KEY],
    scalar_types: &[],
    transform: Transform::FindReferences,
};
