//! A strict document built from the fuzz bytes, cut at every char
//! boundary: each prefix repairs to strict JSON whose value completes a
//! prefix of the document. Replayed by `cargo test -p jsonmend-engine`.
#![no_main]

#[path = "../../jsonmend-engine/tests/props/prefix.rs"]
mod prefix;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let doc = prefix::document_from(data);
    for n in (1..=doc.len()).filter(|&n| doc.is_char_boundary(n)) {
        if let Err(e) = prefix::check_prefix(&doc, n) {
            panic!("{e}");
        }
    }
});
