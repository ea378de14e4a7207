//! st4 (legacy st1–st3) — search_text: rows flattened from
//! `results[].matches[]`, plus the `more_files` table.

use crate::tier1::schema::{Schema, Table, Transform, Ty, i, s};

/// The private table key of the flattened rows.
pub(crate) const ROWS_KEY: &str = "__rows__";

pub(crate) const SCHEMA: Schema = Schema {
    id: "st4",
    legacy: &["st1", "st2", "st3"],
    tool: "search_text",
    tables: &[
        Table {
            key: ROWS_KEY,
            tag: "t",
            cols: &[
                s("file"),
                i("line"),
                s("text"),
                s("before"),
                s("after"),
                s("in_id"),
                i("in_line"),
                i("in_end"),
            ],
            intern: &["file", "in_id"],
        },
        Table {
            key: "more_files",
            tag: "mf",
            cols: &[s("file"), i("matches")],
            intern: &["file"],
        },
    ],
    scalars: &[
        "result_count",
        "truncated",
        "timed_out",
        "note",
        "query",
        "repo",
        "more_files_total",
        "more_files_truncated",
        "more_files_complete",
    ],
    nested: &[],
    meta: &[
        "timing_ms",
        "files_searched",
        "truncated",
        "tokens_saved",
        "total_tokens_saved",
    ],
    meta_json: crate::tier1::schema::META_JSON_DEFAULT,
    blobs: &[],
    scalar_types: &[
        ("result_count", Ty::Int),
        ("truncated", Ty::Bool),
        ("timed_out", Ty::Bool),
        ("more_files_total", Ty::Int),
        ("more_files_truncated", Ty::Bool),
        ("more_files_complete", Ty::Bool),
        ("_meta.timing_ms", Ty::Float),
        ("_meta.files_searched", Ty::Int),
        ("_meta.truncated", Ty::Bool),
        ("_meta.tokens_saved", Ty::Int),
        ("_meta.total_tokens_saved", Ty::Int),
    ],
    transform: Transform::SearchText,
};
