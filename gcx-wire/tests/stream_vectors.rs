//! C14: for every reference vector and many chunkings, the streaming
//! decoder yields the one-shot decoder's events and error.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, reason = "test")]

mod props {
    pub(crate) mod stream;
}

mod support {
    pub(crate) mod base64;
    pub(crate) mod vectors;
}

use gcx_wire::DecodeOptions;
use props::stream::{every, one_shot, streamed};

fn inputs() -> Vec<(String, Vec<u8>)> {
    support::vectors::load()
        .into_iter()
        .map(|v| (v.case, v.gcx))
        .collect()
}

#[test]
fn every_vector_every_chunking() {
    let mut seed = 0x5EED_u64;
    for (case, input) in inputs() {
        for options in [
            DecodeOptions::default(),
            DecodeOptions {
                go_compat: true,
                ..Default::default()
            },
        ] {
            let want = one_shot(&input, options);
            let big = input.len() > 100_000;
            let sizes: &[usize] = if big {
                &[4096, 65_536]
            } else {
                &[1, 2, 3, 7, 64, 4096]
            };
            for &size in sizes {
                assert_eq!(
                    streamed(&input, options, &every(input.len(), size)),
                    want,
                    "{case} size {size}"
                );
            }
            assert_eq!(streamed(&input, options, &[]), want, "{case} whole");
            let mut cuts = Vec::new();
            let mut at = 0;
            while at < input.len() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                at += 1 + (seed % if big { 100_000 } else { 17 }) as usize;
                cuts.push(at);
            }
            assert_eq!(streamed(&input, options, &cuts), want, "{case} random");
        }
    }
}

#[test]
fn one_byte_chunks_on_a_multi_mebibyte_line() {
    // The line-cap vector, byte by byte: the error comes at the same line
    // and offset, after buffering at most the cap.
    let (_, input) = inputs()
        .into_iter()
        .find(|(c, _)| c == "enc/long-row-over-4MiB")
        .unwrap();
    let options = DecodeOptions::default();
    assert_eq!(
        streamed(&input, options, &every(input.len(), 1)),
        one_shot(&input, options)
    );
}

#[test]
fn seeded_sample_of_hostile_inputs() {
    let alphabet = b"GCX1 tool=fields,\t\n\r#\\ab\xff\x00";
    let mut x = 0xC0FFEEu64;
    for n in 0..3000usize {
        let mut data = vec![(n % 256) as u8];
        data.extend_from_slice(b"GCX1 tool=t fields=a,b\n");
        for _ in 0..n % 61 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            data.push(alphabet[(x % alphabet.len() as u64) as usize]);
        }
        props::stream::check(&data);
    }
}

#[test]
fn committed_fuzz_regressions() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions/gcx_decode");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "md") {
            props::stream::check(&std::fs::read(&path).unwrap());
        }
    }
}
