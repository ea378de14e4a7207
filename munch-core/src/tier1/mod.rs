//! The tier-1 mechanism (spec §7–8): schemas, the tool transforms and the
//! schema-driven encoder.

pub(crate) mod known_loss;
pub(crate) mod schema;
pub(crate) mod schemas;
pub(crate) mod transforms;
