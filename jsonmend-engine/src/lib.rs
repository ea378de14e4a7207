#![doc = include_str!("../README.md")]
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]

extern crate alloc;

mod analyze;
mod coerce;
mod compact;
mod engine;
mod error;
mod finish;
mod gate;
mod hint;
mod json;
mod keys;
mod llm;
mod options;
mod position;
mod protocol;
mod readiness;
mod report;
mod rules;
mod schema;
mod schema_json;
mod serialize;
mod server;
mod strict;
mod validate;
mod value;
mod value_parse;
mod verdict;
mod watch;

pub use analyze::{Decision, RepairPlan, analyze};
pub use error::{Error, ErrorCode};
#[cfg(feature = "work-counter")]
pub use finish::engine_work;
pub use finish::{repair_bytes_unchecked, repair_unchecked};
pub use gate::{repair, repair_bytes, repair_text};
pub use hint::RetryHint;
pub use llm::{LlmStream, Provider, llm_run};
pub use options::{Options, Profile};
pub use position::line_column;
pub use protocol::{call, envelope};
pub use readiness::{Readiness, readiness};
pub use report::{Completeness, Exactness, Repair, Repaired};
pub use rules::{Class, Rule, Severity};
pub use schema::Schema;
pub use server::{MAX_LINE, Reply, Session};
pub use validate::{Validation, validate};
pub use value::{Number, ParseError, Value};
pub use verdict::{Mismatch, SchemaVerdict};
#[cfg(feature = "watch-floor")]
#[doc(hidden)]
pub use watch::floor as watch_floor;
pub use watch::{Delta, DeltaOp, DeltaRef, Deltas, Event, EventKind, Progress, Watch, WatchFinal};
