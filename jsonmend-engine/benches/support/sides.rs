//! The two sides the watch benches time against each other: a watch
//! stream of a document and one-shot repair of it.

use jsonmend_engine::{Options, Watch};

/// Feeds `doc` in `chunk`-byte pieces and finishes; the result's length
/// plus the number of deltas.
pub(crate) fn watch(doc: &str, chunk: usize) -> usize {
    let mut w = Watch::new(Options::default());
    let mut deltas = 0;
    for piece in doc.as_bytes().chunks(chunk) {
        deltas += w.feed_bytes(piece).map_or(0, |p| p.deltas.len());
    }
    w.finish().map_or(0, |f| f.result.text.len()) + deltas
}

/// One-shot repair of `doc`; the result's length.
pub(crate) fn one_shot(doc: &str) -> usize {
    jsonmend_engine::repair_text(doc).map_or(0, |r| r.text.len())
}
