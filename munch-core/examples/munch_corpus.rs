//! Writes generated tool responses with munch-core's verified payloads,
//! one JSON line each (`{"tool", "input", "compact", "auto"}`), for
//! checking them with the Python reference decoder from outside
//! (`cargo xtask munch-pycheck`). The responses come from the same
//! generator as the round-trip property and fuzz target.
//!
//! ```sh
//! cargo run -p munch-core --example munch_corpus -- 5000 [SEED] > corpus.jsonl
//! ```
#![allow(missing_docs, clippy::unwrap_used, clippy::indexing_slicing)]

use std::io::Write;

use munch_core::{Format, Options, encode};

#[path = "../tests/props/responses.rs"]
mod responses;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2000);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    // An optional second argument varies the responses.
    let seed: u64 = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(0);
    let mut x: u64 = 0x2545_F491_4F6C_DD1D ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for _ in 0..n {
        let data: Vec<u8> = (0..200)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        let mut g = responses::Gen::new(&data);
        let tool = g.tool();
        let input = if g.byte() % 2 == 0 {
            g.shaped(tool)
        } else {
            g.object(0)
        };
        let compact = encode(
            tool,
            &input,
            &Options {
                format: Format::Compact,
                ..Options::default()
            },
        );
        let auto = encode(
            tool,
            &input,
            &Options {
                format: Format::Auto,
                threshold: 0.0,
                ..Options::default()
            },
        );
        let line = serde_json::json!({"tool": tool, "input": input, "compact": compact.text, "auto": auto.text});
        writeln!(out, "{line}").unwrap();
    }
}
