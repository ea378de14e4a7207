//! Encoding GCX1: the low-level [`Encoder`], the generic JSON mapping
//! ([`encode_any`]), cell values and Go's float text.

mod any;
mod bench;
mod cell;
mod error;
mod float;
mod section;
mod writer;

pub use any::{encode_any, json_cell};
pub use bench::encode_bench;
pub use cell::Cell;
pub use error::{EncodeError, HeaderPart, HeaderProblem};
pub use float::{go_g32, go_g64, go_json_float, go_json_float32};
pub use writer::{Encoder, Mode};
