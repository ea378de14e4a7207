//! The toolwire scorecard: every case of a corpus in minified JSON, MUNCH,
//! GCX1 and TOON, measured in bytes and in cl100k, o200k and qwen2 tokens,
//! with whether each payload decodes back to its input. `cargo xtask
//! scorecard` runs it; see the README for the corpus and the conventions.
//!
//! ```no_run
//! use scorecard::{corpus, score::Scorecard, tokens::Counter};
//! let root = corpus::root();
//! let cases = corpus::bundled(&root)?;
//! let card = Scorecard::measure(&cases, &Counter::load(&root)?, |_, _| {})?;
//! print!("{}", scorecard::render::report(&card, None, false));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod corpus;
pub mod formats;
pub mod gcx_check;
pub mod render;
pub mod score;
pub mod tokens;
