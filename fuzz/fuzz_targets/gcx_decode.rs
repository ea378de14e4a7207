//! GCX1 decoding on arbitrary bytes: no panic, and the streaming decoder
//! (fixed-size chunks) yields exactly the one-shot events and error. The
//! property lives with gcx-wire's tests so `cargo test` replays it on
//! `fuzz/regressions/gcx_decode/`.
#![no_main]

#[path = "../../gcx-wire/tests/props/stream.rs"]
mod stream;

libfuzzer_sys::fuzz_target!(|data: &[u8]| stream::check(data));
