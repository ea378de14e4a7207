//! tm2 — get_tectonic_map.

use crate::tier1::schema::{META_JSON_DEFAULT, Schema, Table, Transform, b, f, i, s};

pub(crate) const SCHEMA: Schema = Schema {
    id: "tm2",
    legacy: &[],
    tool: "get_tectonic_map",
    tables: &[
        Table {
            key: "plates",
            tag: "p",
            cols: &[
                i("plate_id"),
                s("anchor"),
                i("file_count"),
                f("cohesion"),
                s("majority_directory"),
                i("drifter_count"),
                b("nexus_alert"),
            ],
            intern: &["anchor"],
        },
        Table {
            key: "drifter_summary",
            tag: "z",
            cols: &[
                s("file"),
                s("current_directory"),
                s("belongs_with"),
                s("plate_anchor"),
            ],
            intern: &["file"],
        },
    ],
    scalars: &["repo", "plate_count", "file_count"],
    nested: &[],
    meta: &["timing_ms", "methodology"],
    meta_json: META_JSON_DEFAULT,
    blobs: &["signals_used", "signals_withheld", "isolated_files"],
    scalar_types: &[],
    transform: Transform::TectonicMap,
};
