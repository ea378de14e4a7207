//! What a watch stream cannot go below on this engine (feature
//! `watch-floor`, for `benches/watch_floor.rs`): the work every stream
//! does whatever its design, with everything else taken as free.
//!
//! A stream keeps its own copy of the input, runs the engine in partial
//! mode (a token per step, offsets tracked, the watch's string lanes: what
//! the `at` of spec §12.2 needs), stores its deltas and assembles the
//! one-shot result at the end. [`stream`] does exactly that and nothing
//! more: its deltas come from a list made beforehand ([`Prepared`]), its
//! steps never run within `BATCH_MARGIN` bytes of the end of what arrived
//! (so none starves and no journal is needed), and it reports no events.

use alloc::string::String;
use alloc::vec::Vec;

use super::escaped::Source;
use super::run::BATCH_MARGIN;
use super::{DeltaOp, Deltas, Watch, stream_engine};
use crate::engine::{Engine, Horizon, Phase};
use crate::options::Options;

/// The deltas a real stream of a document gave, in order, owned.
///
/// ```
/// let p = jsonmend_engine::watch_floor::Prepared::new(b"[1, 2]", 4);
/// assert_eq!(p.len(), 4);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Prepared(Vec<Stored>);

/// One delta of [`Prepared`]: its op, `at`, path and text, and how an
/// engine writing deltas as it writes tokens would have its path: the
/// previous delta's path again, or the length of its container's path
/// (a prefix of the previous delta's) and one token added.
#[derive(Clone, Debug)]
struct Stored {
    op: DeltaOp,
    at: usize,
    path: String,
    text: String,
    same_path: bool,
    parent: usize,
}

impl Prepared {
    /// Streams `input` in `feed`-byte chunks and keeps every delta.
    pub fn new(input: &[u8], feed: usize) -> Prepared {
        let mut w = Watch::new(Options::default());
        let mut list: Vec<Stored> = Vec::new();
        for chunk in input.chunks(feed.max(1)) {
            if let Ok(p) = w.feed_bytes(chunk) {
                for d in p.deltas.iter() {
                    let same_path = list.last().is_some_and(|l| l.path == d.path);
                    let parent = d.path.rfind('/').unwrap_or(0);
                    list.push(Stored {
                        op: d.op,
                        at: d.at,
                        path: d.path.into(),
                        text: d.text.into(),
                        same_path,
                        parent,
                    });
                }
            }
        }
        Prepared(list)
    }

    /// The ops of the deltas, in order.
    ///
    /// ```
    /// use jsonmend_engine::DeltaOp;
    /// let p = jsonmend_engine::watch_floor::Prepared::new(b"[1]", 4);
    /// assert_eq!(p.ops().collect::<Vec<_>>(), [DeltaOp::Add, DeltaOp::Add, DeltaOp::Close]);
    /// ```
    pub fn ops(&self) -> impl Iterator<Item = DeltaOp> + '_ {
        self.0.iter().map(|d| d.op)
    }

    /// How many deltas.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The engine alone, stepped over the whole of `input` as a stream's
/// batches far from the end of what arrived step it (the last
/// `BATCH_MARGIN` bytes are left, as a stream leaves them for the next
/// feed); the output's length plus the steps taken.
///
/// ```
/// use jsonmend_engine::watch_floor::engine_steps;
/// let doc = format!("[{}1]", "1, ".repeat(100));
/// assert!(engine_steps(&doc) > 0);
/// // Nothing is that far from the end of a short input.
/// assert_eq!(engine_steps("{a: 1}"), 0);
/// ```
pub fn engine_steps(input: &str) -> usize {
    let mut e = stream_engine(input.as_bytes(), &Options::default());
    e.src_str = input;
    e.utf8_runs = true;
    let steps = step_far(&mut e);
    e.out.len() + steps
}

/// Runs `e` a token per step, as a batch does, up to `BATCH_MARGIN` bytes
/// before the end of its source; the steps taken.
fn step_far(e: &mut Engine<'_, Horizon>) -> usize {
    let mut steps = 0;
    while e.phase != Phase::Done && e.pos + BATCH_MARGIN < e.src.len() {
        e.begin_token();
        e.whole_strings = Some(e.totals.count);
        if e.advance().is_err() {
            break;
        }
        steps += 1;
    }
    steps
}

/// A stream of `input` in `feed`-byte chunks doing only what every stream
/// must (module docs), its deltas taken from `prepared`; the number of
/// deltas stored plus the length of the repaired text.
///
/// ```
/// use jsonmend_engine::watch_floor::{Prepared, stream};
/// let doc = b"[1, 2]";
/// assert_eq!(stream(doc, &Prepared::new(doc, 4), 4), 4 + 6);
/// ```
pub fn stream(input: &[u8], prepared: &Prepared, feed: usize) -> usize {
    stream_with(input, prepared, feed, false)
}

/// [`stream`], each delta's path built as an engine writing deltas where
/// it writes tokens would build it (one buffer: cut back to the
/// container's path, one token added; the previous delta's path reused)
/// instead of taken ready-made.
///
/// ```
/// use jsonmend_engine::watch_floor::{Prepared, stream_building_paths};
/// let doc = b"{\"a\": [1, {\"b\": 2}]}";
/// let p = Prepared::new(doc, 4);
/// assert_eq!(stream_building_paths(doc, &p, 4), p.len() + doc.len());
/// ```
pub fn stream_building_paths(input: &[u8], prepared: &Prepared, feed: usize) -> usize {
    stream_with(input, prepared, feed, true)
}

fn stream_with(input: &[u8], prepared: &Prepared, feed: usize, build: bool) -> usize {
    let opts = Options::default();
    let mut path = String::new();
    let mut source = Source::new(opts.max_input);
    let mut engine: Option<Engine<'static, Horizon>> = None;
    let mut next = prepared.0.iter().peekable();
    let mut stored = 0;
    for chunk in input.chunks(feed.max(1)) {
        source.push(chunk);
        let Some(src) = source.engine_src() else {
            continue;
        };
        let mut e = match engine.take() {
            Some(e) => e.rebind(src),
            None => stream_engine(src, &opts),
        };
        e.src_str = source.engine_text();
        e.utf8_runs = source.utf8_known();
        step_far(&mut e);
        let mut deltas = Deltas::for_input(chunk.len());
        while let Some(d) = next.next_if(|d| d.at <= source.len()) {
            let p = if !build {
                d.path.as_str()
            } else {
                if !d.same_path {
                    // (A container's path is a prefix of the previous
                    // delta's in document order; anything else is built
                    // whole.)
                    if path.is_char_boundary(d.parent) {
                        path.truncate(d.parent);
                        path.push_str(d.path.get(d.parent..).unwrap_or_default());
                    } else {
                        path.clear();
                        path.push_str(&d.path);
                    }
                }
                path.as_str()
            };
            match d.op {
                DeltaOp::Append => deltas.push_append_text(d.at, p, &d.text),
                _ => deltas.push(d.op, d.at, p, &d.text),
            }
        }
        stored += deltas.len();
        engine = Some(e.rebind(&[]));
    }
    source.finish();
    let input = source.input();
    let src = source.engine_src().unwrap_or(input);
    let ended = engine
        .map(|e| {
            let mut e = e.rebind(src);
            e.src_str = source.engine_text();
            e.utf8_runs = source.utf8_known();
            e.partial = false;
            e.run().map(|()| e)
        })
        .unwrap_or_else(|| Ok(Engine::new(src, opts.max_depth, opts.skip_prose)));
    let text = crate::finish::finish_stream(input, ended, source.shift(), source.escaped(), &opts)
        .map_or(0, |r| r.text.len());
    stored + text
}
