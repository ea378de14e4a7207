//! Arbitrary bytes through jsonmend's repair: never a panic, the output is
//! strict JSON or a fatal E-code, exact iff unchanged, and repairing the
//! output changes nothing. The property lives with jsonmend-engine's tests
//! so `cargo test` replays `fuzz/regressions/jsonmend_repair/`.
#![no_main]

#[path = "../../jsonmend-engine/tests/props/invariants.rs"]
mod invariants;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(e) = invariants::check(data) {
        panic!("{e}");
    }
});
