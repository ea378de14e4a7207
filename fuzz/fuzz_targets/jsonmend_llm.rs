//! Arbitrary provider events through one jsonmend LLM stream: never a
//! panic, every result a `{calls:[…]}` object. Replayed by `cargo test -p
//! jsonmend-engine` (`tests/fuzz_replay.rs`).
#![no_main]

#[path = "../../jsonmend-engine/tests/props/llm.rs"]
mod llm;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(e) = llm::check(data) {
        panic!("{e}");
    }
});
