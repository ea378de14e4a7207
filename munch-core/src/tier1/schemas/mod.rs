//! The 15 tier-1 schemas (spec §8), one file per tool.

mod find_importers;
pub(crate) mod find_references;
mod get_blast_radius;
mod get_call_hierarchy;
pub(crate) mod get_dependency_cycles;
mod get_dependency_graph;
mod get_file_outline;
mod get_impact_preview;
mod get_ranked_context;
mod get_repo_outline;
mod get_signal_chains;
mod get_tectonic_map;
pub(crate) mod search_ast;
mod search_symbols;
pub(crate) mod search_text;

pub(crate) use get_file_outline::BATCH_TABLES as FILE_OUTLINE_BATCH_TABLES;
#[allow(unused_imports)]
pub(crate) use get_signal_chains::encode_meta_keys as signal_chains_meta_keys;

use super::schema::Schema;

/// Every schema, in registry order.
pub(crate) const ALL: &[&Schema] = &[
    &find_references::SCHEMA,
    &find_importers::SCHEMA,
    &get_call_hierarchy::SCHEMA,
    &get_dependency_graph::SCHEMA,
    &get_blast_radius::SCHEMA,
    &get_impact_preview::SCHEMA,
    &get_signal_chains::SCHEMA,
    &get_dependency_cycles::SCHEMA,
    &get_tectonic_map::SCHEMA,
    &search_symbols::SCHEMA,
    &search_text::SCHEMA,
    &search_ast::SCHEMA,
    &get_file_outline::SCHEMA,
    &get_repo_outline::SCHEMA,
    &get_ranked_context::SCHEMA,
];

/// The schema registered for an encoding id (legacy ids included).
pub(crate) fn by_id(id: &str) -> Option<&'static Schema> {
    ALL.iter()
        .copied()
        .find(|s| s.id == id || s.legacy.contains(&id))
}

/// The schema of a tool.
pub(crate) fn by_tool(tool: &str) -> Option<&'static Schema> {
    ALL.iter().copied().find(|s| s.tool == tool)
}

pub(crate) use find_references as fr2;
pub(crate) use get_dependency_cycles as dc2;
pub(crate) use search_ast as sa2;
pub(crate) use search_text as st4;
