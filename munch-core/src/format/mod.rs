//! The MUNCH/1 text layer shared by gen1 and tier-1: the envelope
//! (header, blocks, classification), the scalar line, CSV tables and the
//! `@N` legend.

pub(crate) mod counts;
pub(crate) mod csv;
pub(crate) mod envelope;
pub(crate) mod legend;
pub(crate) mod legend_build;
mod legend_tree;
pub(crate) mod scalars;
