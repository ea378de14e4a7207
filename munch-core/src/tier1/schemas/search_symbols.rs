//! ss1 — search_symbols.

use crate::tier1::schema::{Schema, Table, Transform, f, i, s};

pub(crate) const SCHEMA: Schema = Schema {
    id: "ss1",
    legacy: &[],
    tool: "search_symbols",
    tables: &[Table {
        key: "results",
        tag: "s",
        cols: &[
            s("id"),
            s("name"),
            s("kind"),
            s("file"),
            i("line"),
            f("score"),
            s("signature"),
            s("summary"),
        ],
        intern: &["file", "id"],
    }],
    scalars: &["result_count", "query", "repo"],
    nested: &[],
    meta: &[
        "timing_ms",
        "truncated",
        "total_symbols",
        "tokens_saved",
        "total_tokens_saved",
        "fusion",
        "channels",
    ],
    meta_json: &[
        "receipts",
        "absence_evidence",
        "exact_match",
        "ignored_arguments",
        "verdict",
    ],
    blobs: &[
        "semantic_topup",
        "semantic_channel_error",
        "semantic_store_mismatch",
    ],
    scalar_types: &[],
    transform: Transform::None,
};
