//! The two sides the watch benches time against each other: a watch
//! stream of a document and one-shot repair of it.

use jsonmend_engine::{Options, Watch};

/// Feeds `doc` in `chunk`-byte pieces and finishes; the result's length
/// plus the number of deltas. The pieces are bytes, cut anywhere (a
/// character may be split), so every feed checks its UTF-8.
pub(crate) fn watch(doc: &str, chunk: usize) -> usize {
    let mut w = Watch::new(Options::default());
    let mut deltas = 0;
    for piece in doc.as_bytes().chunks(chunk) {
        deltas += w.feed_bytes(piece).map_or(0, |p| p.deltas.len());
    }
    w.finish().map_or(0, |f| f.result.text.len()) + deltas
}

/// [`watch`] with text pieces of at most `chunk` bytes cut between
/// characters ([`text_pieces`]), fed as text: what `jsonmend serve` feeds
/// (a `watch.feed` chunk is a JSON string), checked for UTF-8 by nobody
/// again — as one-shot repair's input is not. (`watch_floor.rs` includes
/// this file without it.)
#[allow(dead_code)]
pub(crate) fn watch_text(doc: &str, chunk: usize) -> usize {
    let mut w = Watch::new(Options::default());
    let mut deltas = 0;
    for piece in text_pieces(doc, chunk) {
        deltas += w.feed(piece).map_or(0, |p| p.deltas.len());
    }
    w.finish().map_or(0, |f| f.result.text.len()) + deltas
}

/// `doc` in pieces of at most `chunk` bytes, cut between characters.
#[allow(dead_code)]
pub(crate) fn text_pieces(doc: &str, chunk: usize) -> impl Iterator<Item = &str> {
    let mut rest = doc;
    core::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut cut = chunk.max(4).min(rest.len());
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        let (piece, tail) = rest.split_at(cut);
        rest = tail;
        Some(piece)
    })
}

/// One-shot repair of `doc`; the result's length.
pub(crate) fn one_shot(doc: &str) -> usize {
    jsonmend_engine::repair_text(doc).map_or(0, |r| r.text.len())
}

/// One-shot repair of `doc` given as bytes (`repair_bytes`: the input is
/// not known to be UTF-8, as a byte-fed stream's is not); the result's
/// length. The baseline for byte pieces fed to a stream.
#[allow(dead_code)]
pub(crate) fn one_shot_bytes(doc: &str) -> usize {
    jsonmend_engine::repair_bytes(doc.as_bytes(), &jsonmend_engine::Options::default())
        .map_or(0, |r| r.text.len())
}
