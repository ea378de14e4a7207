//! Arbitrary text → ids → decode == the text, for the qwen2 and r50k maps
//! and every special-token policy; no panic. The property lives with
//! leaf-meta's tests so `cargo test` replays `fuzz/regressions/leaf_encode/`.
#![no_main]

#[path = "../../leaf-meta/tests/props/encode.rs"]
mod encode;

libfuzzer_sys::fuzz_target!(|data: &[u8]| encode::check(data));
