//! ch2 (legacy ch1) — get_call_hierarchy.

use crate::tier1::schema::{Col, META_JSON_DEFAULT, Schema, Table, Transform, i, s};

const COLS: &[Col] = &[
    s("id"),
    s("name"),
    s("kind"),
    s("file"),
    i("line"),
    i("depth"),
    s("resolution"),
    s("via"),
];

const DISPATCH_COLS: &[Col] = &[
    s("id"),
    s("name"),
    s("kind"),
    s("file"),
    i("line"),
    i("depth"),
    s("resolution"),
];

pub(crate) const SCHEMA: Schema = Schema {
    id: "ch2",
    legacy: &["ch1"],
    tool: "get_call_hierarchy",
    tables: &[
        Table {
            key: "callers",
            tag: "c",
            cols: COLS,
            intern: &["file", "id", "via"],
        },
        Table {
            key: "callees",
            tag: "e",
            cols: COLS,
            intern: &["file", "id", "via"],
        },
        Table {
            key: "dispatches",
            tag: "d",
            cols: DISPATCH_COLS,
            intern: &["file", "id"],
        },
    ],
    scalars: &[
        "repo",
        "direction",
        "depth",
        "depth_reached",
        "caller_count",
        "callee_count",
        "direct_caller_count",
        "direct_callee_count",
    ],
    nested: &[("symbol", &["id", "name", "kind", "file", "line"])],
    meta: &[
        "timing_ms",
        "methodology",
        "confidence_level",
        "source",
        "tip",
    ],
    meta_json: META_JSON_DEFAULT,
    blobs: &["resolution_tiers", "callers_by_depth", "callees_by_depth"],
    scalar_types: &[],
    transform: Transform::None,
};
