//! Arbitrary bytes fed to a jsonmend watch stream in chunks (the first byte
//! picks the chunk size, and whether blanks pad the input so a single feed
//! reads it in batches): never a panic, `finish` equals one-shot repair,
//! and deltas and events equal those of a single feed. The property lives
//! with jsonmend-engine's tests so `cargo test` replays
//! `fuzz/regressions/jsonmend_watch/`.
#![no_main]

#[path = "../../jsonmend-engine/tests/props/watch.rs"]
mod watch;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((cuts, input)) = watch::cuts_from(data) else {
        return;
    };
    if let Err(e) = watch::check_split(&input, &cuts, &jsonmend_engine::Options::default()) {
        panic!("{e}");
    }
});
