//! Arbitrary bytes through munch-core's decoder, raw and behind a MUNCH
//! header of every encoding id: never a panic. The property lives with
//! munch-core's tests so `cargo test` replays `fuzz/regressions/munch_decode/`.
#![no_main]

#[path = "../../munch-core/tests/props/decode.rs"]
mod decode;

libfuzzer_sys::fuzz_target!(|data: &[u8]| decode::check(data));
