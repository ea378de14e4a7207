//! fo1 — get_file_outline: a single file's symbols, or a batch
//! (`results` array) flattened into a file-tagged symbols table and a
//! per-file results table.

use crate::tier1::schema::{Col, META_JSON_DEFAULT, Schema, Table, Transform, i, s};

const SYMBOL_COLS: &[Col] = &[
    s("id"),
    s("name"),
    s("kind"),
    s("signature"),
    i("line"),
    i("end_line"),
    s("parent"),
    s("summary"),
];

const BATCH_SYMBOL_COLS: &[Col] = &[
    s("id"),
    s("name"),
    s("kind"),
    s("signature"),
    i("line"),
    i("end_line"),
    s("parent"),
    s("summary"),
    s("file"),
];

/// The tables of the batch shape.
pub(crate) const BATCH_TABLES: &[Table] = &[
    Table {
        key: "symbols",
        tag: "s",
        cols: BATCH_SYMBOL_COLS,
        intern: &["id", "parent", "file"],
    },
    Table {
        key: "results",
        tag: "b",
        cols: &[
            s("file"),
            s("language"),
            s("file_summary"),
            i("symbol_count"),
        ],
        intern: &["file", "language"],
    },
];

pub(crate) const SCHEMA: Schema = Schema {
    id: "fo1",
    legacy: &[],
    tool: "get_file_outline",
    tables: &[Table {
        key: "symbols",
        tag: "s",
        cols: SYMBOL_COLS,
        intern: &["id", "parent"],
    }],
    scalars: &["repo", "file", "symbol_count", "language"],
    nested: &[],
    meta: &["timing_ms", "tokens_saved", "total_tokens_saved"],
    meta_json: META_JSON_DEFAULT,
    blobs: &[],
    scalar_types: &[],
    transform: Transform::FileOutline,
};
