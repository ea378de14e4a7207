//! How much of a decode is the allocator: one call's allocations and frees
//! are recorded, then replayed — the same sizes, in the same order, with
//! nothing else — in alternation with the call itself.
//!
//! ```text
//! cargo run --release -p munch-bench --example alloc_floor -- target/munch-bench/search_symbols_5000.json
//! ```
//!
//! Prints, per group (`decode_tier1`, `decode_gen1`, `decode_tier1_typed`,
//! and `serde_json_parse` for comparison): `<group>_allocs` (blocks
//! allocated by one call, its result's drop included), `<group>_call` and
//! `<group>_replay` (median ns of fifteen alternations), and
//! `<group>_bytes` (the text it reads). The replay's time bounds the call
//! from below under this allocator: no decoder that returns the same value
//! can be faster than allocating and freeing its parts, so payload bytes ÷
//! replay time is the ceiling of its throughput.
//!
//! The recording allocator is `unsafe` code (a `GlobalAlloc`); it forwards
//! every call to [`System`] and lives in this bench-only example, not in a
//! library.
// (Block numbers index the replay's slots by construction.)
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    unsafe_code
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::HashMap;
use std::hint::black_box;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use munch_core::{decode, decode_into};

#[path = "../benches/support/document.rs"]
mod document;
#[path = "../benches/support/typed.rs"]
mod typed;

/// One allocator call of the recorded run; blocks are numbered in the
/// order they were made.
#[derive(Clone, Copy)]
enum Event {
    Alloc {
        id: usize,
        layout: Layout,
    },
    Free {
        id: usize,
        layout: Layout,
    },
    Realloc {
        from: usize,
        id: usize,
        layout: Layout,
        size: usize,
    },
}

/// What the recording keeps: the events and the live blocks' numbers.
struct Log {
    events: Vec<Event>,
    live: HashMap<usize, usize>,
    next: usize,
}

/// Whether calls are recorded now (off while the log itself allocates).
static RECORDING: AtomicBool = AtomicBool::new(false);
static LOG: Mutex<Option<Log>> = Mutex::new(None);

/// Runs `f` on the log when recording, with recording off meanwhile.
fn note(f: impl FnOnce(&mut Log)) {
    // A plain load first: outside the recording, a call costs one read.
    if !RECORDING.load(Ordering::Relaxed) || !RECORDING.swap(false, Ordering::Relaxed) {
        return;
    }
    if let Ok(mut log) = LOG.lock() {
        if let Some(log) = log.as_mut() {
            f(log);
        }
    }
    RECORDING.store(true, Ordering::Relaxed);
}

struct Recorder;

unsafe impl GlobalAlloc for Recorder {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged.
        let p = unsafe { System.alloc(layout) };
        note(|log| {
            let id = log.next;
            log.next += 1;
            log.live.insert(p as usize, id);
            log.events.push(Event::Alloc { id, layout });
        });
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        note(|log| {
            if let Some(id) = log.live.remove(&(p as usize)) {
                log.events.push(Event::Free { id, layout });
            }
        });
        // SAFETY: forwarded unchanged.
        unsafe { System.dealloc(p, layout) }
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        // SAFETY: forwarded unchanged.
        let q = unsafe { System.realloc(p, layout, size) };
        note(|log| {
            if let Some(from) = log.live.remove(&(p as usize)) {
                let id = log.next;
                log.next += 1;
                log.live.insert(q as usize, id);
                log.events.push(Event::Realloc {
                    from,
                    id,
                    layout,
                    size,
                });
            }
        });
        q
    }
}

#[global_allocator]
static RECORDER: Recorder = Recorder;

/// The allocator calls of one run of `f` (blocks alive before it and
/// freed by it are not in the log; `f` drops what it makes).
fn record(f: &mut impl FnMut()) -> (Vec<Event>, usize) {
    *LOG.lock().unwrap() = Some(Log {
        events: Vec::with_capacity(1 << 20),
        live: HashMap::with_capacity(1 << 20),
        next: 0,
    });
    RECORDING.store(true, Ordering::Relaxed);
    f();
    RECORDING.store(false, Ordering::Relaxed);
    let log = LOG.lock().unwrap().take().unwrap();
    (log.events, log.next)
}

/// Makes and frees the blocks of `events` again, through [`System`].
fn replay(events: &[Event], blocks: &mut [*mut u8]) {
    for e in events {
        // SAFETY: every block is made before it is freed or grown (the
        // log's order), with the layout it was made with, and a block the
        // allocator could not make stops the process before it is used.
        unsafe {
            let (id, made, layout) = match *e {
                Event::Alloc { id, layout } => (id, System.alloc(layout), layout),
                Event::Free { id, layout } => {
                    System.dealloc(blocks[id], layout);
                    continue;
                }
                Event::Realloc {
                    from,
                    id,
                    layout,
                    size,
                } => (
                    id,
                    System.realloc(blocks[from], layout, size),
                    Layout::from_size_align_unchecked(size, layout.align()),
                ),
            };
            if made.is_null() {
                std::alloc::handle_alloc_error(layout);
            }
            blocks[id] = made;
        }
    }
}

/// The median of `times`.
fn middle(mut times: Vec<u128>) -> u128 {
    times.sort_unstable();
    times.get(times.len() / 2).copied().unwrap_or(0)
}

/// Records `call`, then times it and the replay of its allocations in
/// alternation (fifteen of each after 0.2 s of warming up both); prints
/// the group's lines.
fn measure(group: &str, bytes: usize, mut call: impl FnMut()) {
    call();
    let (events, blocks) = record(&mut call);
    let allocs = events
        .iter()
        .filter(|e| matches!(e, Event::Alloc { .. }))
        .count();
    let mut slots = vec![std::ptr::null_mut(); blocks];
    let warm = Instant::now();
    while warm.elapsed().as_millis() < 200 {
        call();
        replay(&events, &mut slots);
    }
    let (mut calls, mut replays) = (Vec::new(), Vec::new());
    for _ in 0..15 {
        let start = Instant::now();
        call();
        calls.push(start.elapsed().as_nanos());
        let start = Instant::now();
        replay(&events, &mut slots);
        replays.push(start.elapsed().as_nanos());
    }
    println!("{group}_allocs {allocs}");
    println!("{group}_bytes {bytes}");
    println!("{group}_call {}", middle(calls));
    println!("{group}_replay {}", middle(replays));
}

fn main() {
    let document::Document {
        text, tier1, gen1, ..
    } = document::from_args("usage: alloc_floor <document.json>");
    measure("decode_tier1", tier1.len(), || {
        black_box(decode(black_box(&tier1)).unwrap());
    });
    measure("decode_gen1", gen1.len(), || {
        black_box(decode(black_box(&gen1)).unwrap());
    });
    measure("decode_tier1_typed", tier1.len(), || {
        black_box(decode_into::<typed::Response>(black_box(&tier1)).unwrap());
    });
    measure("serde_json_parse", text.len(), || {
        black_box(serde_json::from_str::<serde_json::Value>(black_box(&text)).unwrap());
    });
}
