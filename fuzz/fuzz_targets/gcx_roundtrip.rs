//! Arbitrary typed sections → strict encode → decode == input. The property
//! lives with gcx-wire's tests so `cargo test` replays it on
//! `fuzz/regressions/gcx_roundtrip/`.
#![no_main]

#[path = "../../gcx-wire/tests/props/roundtrip.rs"]
mod roundtrip;

libfuzzer_sys::fuzz_target!(|data: &[u8]| roundtrip::check(data));
