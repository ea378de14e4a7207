//! leaf-meta against codec-rs 0.5 (the Codec reference Rust encoder) on the
//! same ~1 MB mixed corpus and the current qwen2 map, in one run: map load
//! and warm encode, medians of repeated runs.

use std::time::{Duration, Instant};

#[path = "../../../leaf-meta/benches/support/corpus.rs"]
mod corpus;

const MAP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../leaf-meta/tests/maps/qwen2.62c2f94fcbdb.json");

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

fn time<T>(n: usize, mut f: impl FnMut() -> T) -> Duration {
    median(
        (0..n)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(f());
                t.elapsed()
            })
            .collect(),
    )
}

fn main() {
    let bytes = std::fs::read(MAP).expect("map");
    let text = corpus::corpus();
    let mb = text.len() as f64 / 1e6;
    let pin = leaf_meta::MapId::of_bytes(&bytes);

    let ours_load = time(7, || leaf_meta::LeafMap::from_bytes(&bytes, &pin).expect("load"));
    let theirs_load = time(7, || {
        let map = codec_rs::TokenizerMap::from_json(&bytes).expect("codec map");
        codec_rs::BPETokenizer::new(&map).expect("codec tokenizer")
    });
    let ours = leaf_meta::LeafMap::from_bytes(&bytes, &pin).expect("load");
    let map = codec_rs::TokenizerMap::from_json(&bytes).expect("codec map");
    let theirs = codec_rs::BPETokenizer::new(&map).expect("codec tokenizer");
    assert_eq!(ours.encode(&text), codec_rs::ITokenizer::encode(&theirs, &text), "ids differ");
    // Warm: both keep a piece cache; one untimed pass first.
    let ours_enc = time(15, || ours.encode(&text).len());
    let theirs_enc = time(15, || codec_rs::ITokenizer::encode(&theirs, &text).len());
    println!("{:<28} {:>12} {:>12} {:>10}", "qwen2, same run", "leaf-meta", "codec-rs", "ratio");
    println!(
        "{:<28} {:>10.1}ms {:>10.1}ms {:>9.2}×",
        "map load (parse+verify)",
        ours_load.as_secs_f64() * 1e3,
        theirs_load.as_secs_f64() * 1e3,
        theirs_load.as_secs_f64() / ours_load.as_secs_f64()
    );
    println!(
        "{:<28} {:>8.1}MB/s {:>8.1}MB/s {:>9.2}×",
        format!("encode {mb:.2} MB (warm)"),
        mb / ours_enc.as_secs_f64(),
        mb / theirs_enc.as_secs_f64(),
        theirs_enc.as_secs_f64() / ours_enc.as_secs_f64()
    );
}
