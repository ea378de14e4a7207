//! rc1 — get_ranked_context.

use crate::tier1::schema::{META_JSON_DEFAULT, Schema, Table, Transform, f, i, s};

pub(crate) const SCHEMA: Schema = Schema {
    id: "rc1",
    legacy: &[],
    tool: "get_ranked_context",
    tables: &[Table {
        key: "context_items",
        tag: "i",
        cols: &[
            s("id"),
            s("name"),
            s("kind"),
            s("file"),
            i("line"),
            f("score"),
            i("token_cost"),
            s("summary"),
        ],
        intern: &["file", "id"],
    }],
    scalars: &[
        "total_tokens",
        "budget_tokens",
        "items_included",
        "items_considered",
        "query",
        "repo",
    ],
    nested: &[],
    meta: &["timing_ms", "tokens_saved", "total_tokens_saved", "fusion"],
    meta_json: META_JSON_DEFAULT,
    blobs: &["channels"],
    scalar_types: &[],
    transform: Transform::None,
};
