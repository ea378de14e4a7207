//! Encoding GCX1: the low-level [`Encoder`], cell values and Go's float
//! text.

mod cell;
mod error;
mod float;
mod writer;

pub use cell::Cell;
pub use error::{EncodeError, HeaderPart, HeaderProblem};
pub use float::{go_g32, go_g64};
pub use writer::{Encoder, Mode};
