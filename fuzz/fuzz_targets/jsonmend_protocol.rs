//! Arbitrary request lines through one jsonmend protocol session: never a
//! panic, every answer a protocol response. Replayed by `cargo test -p
//! jsonmend-engine` (`tests/fuzz_replay.rs`).
#![no_main]

#[path = "../../jsonmend-engine/tests/props/protocol.rs"]
mod protocol;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(e) = protocol::check(data) {
        panic!("{e}");
    }
});
