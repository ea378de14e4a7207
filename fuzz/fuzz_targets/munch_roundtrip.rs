//! Generated tool responses → verified encode (compact and auto, both
//! key-order policies) → decode == input. The property lives with
//! munch-core's tests so `cargo test` replays
//! `fuzz/regressions/munch_roundtrip/`.
#![no_main]

#[path = "../../munch-core/tests/props/responses.rs"]
mod responses;
#[path = "../../munch-core/tests/props/roundtrip.rs"]
mod roundtrip;

libfuzzer_sys::fuzz_target!(|data: &[u8]| roundtrip::check(data));
