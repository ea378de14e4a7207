//! Round trip of both field syntaxes on arbitrary cells, and no panic on
//! arbitrary bytes. The property lives with wire-lex's tests so that
//! `cargo test` replays the same code on `fuzz/regressions/`.
#![no_main]

#[path = "../../wire-lex/tests/props/fields.rs"]
mod fields;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fields::check(data));
