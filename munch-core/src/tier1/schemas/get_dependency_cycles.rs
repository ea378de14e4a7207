//! dc2 — get_dependency_cycles: each cycle is `{length, files}`, the
//! files joined by U+001F.

use crate::tier1::schema::{META_JSON_DEFAULT, Schema, Table, Transform, i, s};

/// The separator of the files of one cycle.
pub(crate) const CYCLE_SEP: char = '\u{1f}';

pub(crate) const SCHEMA: Schema = Schema {
    id: "dc2",
    legacy: &[],
    tool: "get_dependency_cycles",
    tables: &[Table {
        key: "cycles",
        tag: "y",
        cols: &[i("length"), s("files")],
        intern: &[],
    }],
    scalars: &["repo", "cycle_count"],
    nested: &[],
    meta: &["timing_ms"],
    meta_json: META_JSON_DEFAULT,
    blobs: &[],
    scalar_types: &[],
    transform: Transform::DependencyCycles,
};
