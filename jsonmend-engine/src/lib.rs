//! `jsonmend-engine`: JSON repair for LLM output — it mends almost-JSON
//! (unquoted keys, trailing commas, prose and code fences around it, Python
//! literals, truncation) and says exactly what it changed and how much it
//! guessed.
//!
//! ```
//! use jsonmend_engine::{repair_text, Exactness};
//!
//! let r = repair_text("```json\n{name: 'Ada', langs: ['en',],}\n```").unwrap();
//! assert_eq!(r.text, r#"{"name": "Ada", "langs": ["en"]}"#);
//! assert_eq!(r.exactness, Exactness::Cosmetic);
//!
//! // Valid JSON comes back unchanged, borrowed.
//! let r = repair_text("{\"a\": 1}").unwrap();
//! assert_eq!(r.exactness, Exactness::Exact);
//! ```
//!
//! The specification is `shared/specs/jsonmend.md` of the toolwire project.
//! The crate is `no_std` with `alloc`; `std` is a default feature.
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]

extern crate alloc;

mod analyze;
mod coerce;
mod engine;
mod error;
mod finish;
mod gate;
mod hint;
mod json;
mod options;
mod position;
mod protocol;
mod report;
mod rules;
mod schema;
mod schema_json;
mod serialize;
mod strict;
mod validate;
mod value;
mod value_parse;
mod verdict;

pub use analyze::{Decision, RepairPlan, analyze};
pub use error::{Error, ErrorCode};
pub use finish::{repair_bytes_unchecked, repair_unchecked};
pub use gate::{repair, repair_bytes, repair_text};
pub use hint::RetryHint;
pub use options::{Options, Profile};
pub use position::line_column;
pub use protocol::{call, envelope};
pub use report::{Completeness, Exactness, Repair, Repaired};
pub use rules::{Class, Rule, Severity};
pub use schema::Schema;
pub use validate::{Validation, validate};
pub use value::{Number, ParseError, Value};
pub use verdict::{Mismatch, SchemaVerdict};
