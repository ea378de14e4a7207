//! Streaming == one-shot: shared by `tests/stream_vectors.rs` and the
//! `gcx_decode` fuzz target.
#![allow(dead_code, unreachable_pub, clippy::unwrap_used, clippy::panic)]

use gcx_wire::{DecodeError, DecodeOptions, Event, Reader, StreamDecoder};

pub type Outcome = (Vec<Event<'static>>, Option<DecodeError>);

/// The one-shot decoder's events and error.
pub fn one_shot(input: &[u8], options: DecodeOptions) -> Outcome {
    let mut events = Vec::new();
    for event in Reader::new(input, options) {
        match event {
            Ok(e) => events.push(e.into_owned()),
            Err(e) => return (events, Some(e)),
        }
    }
    (events, None)
}

/// The streaming decoder's events and error for `input` cut at `cuts`.
pub fn streamed(input: &[u8], options: DecodeOptions, cuts: &[usize]) -> Outcome {
    let mut dec = StreamDecoder::new(options);
    let mut events = Vec::new();
    let mut start = 0;
    for &cut in cuts.iter().chain(core::iter::once(&input.len())) {
        let cut = cut.clamp(start, input.len());
        if let Err(e) = dec.push(&input[start..cut], &mut events) {
            return (events, Some(e));
        }
        start = cut;
    }
    match dec.finish(&mut events) {
        Ok(()) => (events, None),
        Err(e) => (events, Some(e)),
    }
}

/// Cut points every `size` bytes.
pub fn every(len: usize, size: usize) -> Vec<usize> {
    (1..).map(|i| i * size).take_while(|&c| c < len).collect()
}

/// Fuzz entry: the first byte picks options and a chunk size, the rest is
/// the payload; streaming must equal one-shot.
pub fn check(data: &[u8]) {
    let Some((&mode, input)) = data.split_first() else {
        return;
    };
    let options = DecodeOptions {
        max_line_bytes: if mode & 1 == 0 {
            4 << 20
        } else {
            1 + usize::from(mode >> 4) * 3
        },
        go_compat: mode & 2 != 0,
    };
    let want = one_shot(input, options);
    let size = 1 + usize::from((mode >> 2) & 3) * 5;
    assert_eq!(
        streamed(input, options, &every(input.len(), size)),
        want,
        "size {size}"
    );
    let _ = gcx_wire::decode_partial(input, &options);
}
