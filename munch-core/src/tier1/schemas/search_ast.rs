//! sa2 (legacy sa1) — search_ast: eleven common columns, the rest of a
//! match packed into a JSON `details` cell.

use crate::tier1::schema::{Schema, Table, Transform, Ty, i, s};

/// The columns every detector emits.
pub(crate) const COMMON_COLS: &[&str] = &[
    "file",
    "line",
    "end_line",
    "column",
    "language",
    "pattern",
    "severity",
    "snippet",
    "enclosing_symbol",
    "symbol_kind",
    "symbol_complexity",
];

/// The packed column.
pub(crate) const DETAILS_COL: &str = "details";

pub(crate) const SCHEMA: Schema = Schema {
    id: "sa2",
    legacy: &["sa1"],
    tool: "search_ast",
    tables: &[Table {
        key: "matches",
        tag: "a",
        cols: &[
            s("file"),
            i("line"),
            i("end_line"),
            i("column"),
            s("language"),
            s("pattern"),
            s("severity"),
            s("snippet"),
            s("enclosing_symbol"),
            s("symbol_kind"),
            i("symbol_complexity"),
            s(DETAILS_COL),
        ],
        intern: &[
            "file",
            "enclosing_symbol",
            "pattern",
            "language",
            "severity",
            "symbol_kind",
        ],
    }],
    scalars: &[
        "total_matches",
        "repo",
        "category",
        "pattern",
        "description",
        "truncated",
    ],
    nested: &[],
    meta: &[
        "elapsed_ms",
        "files_scanned",
        "files_with_matches",
        "languages_scanned",
        "timing_ms",
        "tokens_saved",
        "total_tokens_saved",
    ],
    meta_json: &[
        "receipts",
        "absence_evidence",
        "languages_scanned",
        "ignored_arguments",
        "verdict",
    ],
    blobs: &["severity_counts", "patterns_run"],
    scalar_types: &[
        ("total_matches", Ty::Int),
        ("truncated", Ty::Bool),
        ("_meta.elapsed_ms", Ty::Int),
        ("_meta.files_scanned", Ty::Int),
        ("_meta.files_with_matches", Ty::Int),
        ("_meta.timing_ms", Ty::Float),
        ("_meta.tokens_saved", Ty::Int),
        ("_meta.total_tokens_saved", Ty::Int),
    ],
    transform: Transform::SearchAst,
};
