//! Standard base64 decoding for the vectors' `gcx_b64` fields.
#![allow(dead_code, unreachable_pub, clippy::indexing_slicing)]

pub fn decode(text: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(val).collect();
    let mut out = Vec::new();
    for chunk in digits.chunks(4) {
        let mut acc = 0u32;
        for (i, &d) in chunk.iter().enumerate() {
            acc |= u32::from(d) << (18 - 6 * i);
        }
        out.extend_from_slice(&acc.to_be_bytes()[1..chunk.len()]);
    }
    out
}
