//! What a watch stream cannot go below on this engine, against one-shot
//! repair in the same run (`cargo bench -p jsonmend-engine --features
//! watch-floor --bench watch_floor`; `cargo xtask bench jsonmend` runs
//! it). The 150 KB bench document with defects in 4 KiB feeds, each line
//! the median of 41 interleaved pairs (`support/paired.rs`):
//!
//! - the engine stepped over the whole document as a stream's batches
//!   step it (a token per step, offsets tracked, the watch's string
//!   lanes), nothing else;
//! - a stream doing only what every stream must (`watch_floor::stream`:
//!   its copy of the input, those steps, its deltas stored from a list
//!   made beforehand, the one-shot result assembled at the end);
//! - the same with each delta's path built as an engine that writes the
//!   deltas where it writes the tokens would build it (one buffer cut back
//!   to the container's path and one token added), the least such a
//!   design adds to the floor;
//! - the real stream (`Watch`), for comparison;
//! - the least any reader that parses the repaired text does to make
//!   those deltas (`support/text_deltas.rs`: one pass over the one-shot
//!   text, every `add`, `append` and `close` with its path stored, no
//!   `at`, repairs or events), which a stream pays on top of its inherent
//!   work unless the engine hands it the deltas as it writes.
//!
//! Each is timed twice: in the fresh process, then after a 10 MB stream
//! and repair have raised glibc's trimming and `mmap` thresholds (as the
//! groups before the pairs of `benches/watch.rs` do). A 150 KB stream's
//! buffers outgrow the fresh thresholds, so glibc gives them back to the
//! system when the stream ends and the next stream faults them in again.

#![allow(missing_docs, clippy::unwrap_used, clippy::indexing_slicing)]

#[path = "support/docs.rs"]
mod docs;
#[path = "support/paired.rs"]
mod paired;
#[path = "support/sides.rs"]
mod sides;
#[path = "support/text_deltas.rs"]
mod text_deltas;

use jsonmend_engine::watch_floor::{Prepared, engine_steps, stream, stream_building_paths};
use sides::{one_shot, watch};
use std::hint::black_box;

const FEED: usize = 4096;
const ROUNDS: usize = 41;

fn main() {
    let (_, doc) = docs::documents_of(150_000);
    let doc = doc.as_str();
    let prepared = Prepared::new(doc.as_bytes(), FEED);
    // The floor stream stores the real stream's deltas and ends with the
    // one-shot text.
    let expected = prepared.len() + jsonmend_engine::repair_text(doc).unwrap().text.len();
    assert_eq!(stream(doc.as_bytes(), &prepared, FEED), expected);
    assert_eq!(
        stream_building_paths(doc.as_bytes(), &prepared, FEED),
        expected
    );
    // Deltas read off the one-shot text: the same values as the stream's,
    // one `add` each and a `close` per string and container (appends
    // differ: a stream splits a string a feed cuts).
    let repaired = jsonmend_engine::repair_text(doc).unwrap().text.into_owned();
    let mut whole = text_deltas::Sink::default();
    let read = text_deltas::read(&repaired, usize::MAX, &mut whole);
    let mut ops = [0; 3];
    for op in prepared.ops() {
        let k = match op {
            jsonmend_engine::DeltaOp::Add => 0,
            jsonmend_engine::DeltaOp::Append => 1,
            _ => 2,
        };
        ops[k] += 1;
    }
    let counts = whole.counts();
    assert_eq!((counts[0], counts[2]), (ops[0], ops[2]));
    let sides: [(&str, &dyn Fn() -> usize); 5] = [
        ("engine stepped as a stream steps it", &|| {
            engine_steps(black_box(doc))
        }),
        ("stream with only its inherent work", &|| {
            stream(black_box(doc.as_bytes()), &prepared, FEED)
        }),
        (
            "the same, paths built as an engine writing deltas would",
            &|| stream_building_paths(black_box(doc.as_bytes()), &prepared, FEED),
        ),
        ("watch stream", &|| watch(black_box(doc), FEED)),
        ("deltas read off the repaired text", &|| {
            let mut sink = text_deltas::Sink::default();
            text_deltas::read(black_box(&repaired), FEED, &mut sink)
        }),
    ];
    eprintln!(
        "floor: 150 KB with defects ({} bytes, {} deltas; read off the text: {read}, \
         {} bytes of paths and texts), 4 KiB feeds",
        doc.len(),
        prepared.len(),
        whole.bytes()
    );
    for state in ["fresh process", "after a 10 MB stream"] {
        if state != "fresh process" {
            let (_, big) = docs::documents_of(10_000_000);
            black_box(watch(&big, FEED));
            black_box(one_shot(&big));
        }
        for (name, side) in &sides {
            let p = paired::interleaved(ROUNDS, &|| one_shot(black_box(doc)), side);
            eprintln!(
                "floor/{state}/{name}: ÷ one-shot repair, median of {ROUNDS} interleaved \
                 pairs: {:.2}× (medians {:.3} ms and {:.3} ms)",
                p.ratio,
                p.b * 1e3,
                p.a * 1e3
            );
        }
    }
}
