//! The structural scanner under `Lines`, `Fields` and `csv::Reader`: it
//! turns each 64-byte block of the input into a bitmask of the positions
//! holding one of up to three needle bytes, then hands out positions by
//! clearing bits. One compare pass per block, however many matches it holds,
//! is what makes short lines and short fields cheap (a `memchr` call per
//! match pays its setup for every field).
//!
//! On x86_64 the mask comes from SSE2 (part of the x86_64 baseline, so no
//! runtime detection and no `std`); elsewhere from a SWAR loop over `u64`
//! words. Both give the same mask, checked by the tests below.

/// Bytes per block: one bit per byte in a `u64` mask.
const BLOCK: usize = 64;

/// Blocks per window for long scans (whole inputs): masks are computed a
/// window at a time, in a tight loop the CPU can pipeline, then consumed bit
/// by bit. Short scans (one line's fields) use a window of one block, which
/// is cheaper to set up.
pub(crate) const LONG: usize = 8;

/// Positions of up to three needle bytes in a byte slice, in increasing
/// order, found a window of blocks at a time.
#[derive(Clone, Debug)]
pub(crate) struct Scanner<'a, const WINDOW: usize = LONG> {
    input: &'a [u8],
    /// Positions at or after `end` are never reported (and blocks starting
    /// there never scanned), so a scanner can cover one line of a larger
    /// buffer while reading whole blocks of it.
    end: usize,
    needles: [u8; 3],
    count: usize,
    /// Offset of the window `masks` describes (a multiple of
    /// `BLOCK * WINDOW`), or `usize::MAX` before the first one is loaded.
    base: usize,
    /// Needle positions of the window's blocks.
    masks: [u64; WINDOW],
}

impl<'a, const WINDOW: usize> Scanner<'a, WINDOW> {
    /// A scanner for the needles (one to three bytes; extra are ignored, an
    /// empty list never matches).
    pub(crate) fn new(input: &'a [u8], needles: &[u8]) -> Self {
        Scanner::until(input, input.len(), needles)
    }

    /// A scanner over `input` that reports positions before `end` only.
    pub(crate) fn until(input: &'a [u8], end: usize, needles: &[u8]) -> Self {
        let mut set = [0u8; 3];
        let count = needles.len().min(3);
        for (slot, &b) in set.iter_mut().zip(needles) {
            *slot = b;
        }
        // Unused slots repeat the first needle, so they never add matches.
        if let Some(&first) = needles.first() {
            for slot in set.iter_mut().skip(count) {
                *slot = first;
            }
        }
        Scanner {
            input,
            end: end.min(input.len()),
            needles: set,
            count,
            base: usize::MAX,
            masks: [0; WINDOW],
        }
    }

    /// The first needle position at or after `from`.
    ///
    /// Every user scans forward, so `from` is usually inside the window
    /// already loaded and costs a shift and a `trailing_zeros`; any other
    /// `from` (even backwards) is answered by loading its window.
    #[inline]
    pub(crate) fn next_from(&mut self, from: usize) -> Option<usize> {
        let span = BLOCK * WINDOW;
        let mut base = from - from % span;
        if base != self.base {
            if from >= self.end {
                return None;
            }
            self.load(base);
        }
        let mut block = (from - base) / BLOCK;
        let mut mask = self.masks.get(block).copied().unwrap_or(0) & (u64::MAX << (from % BLOCK));
        loop {
            if mask != 0 {
                return Some(base + block * BLOCK + mask.trailing_zeros() as usize);
            }
            block += 1;
            if block == WINDOW {
                base += span;
                if base >= self.end {
                    return None;
                }
                self.load(base);
                block = 0;
            }
            mask = self.masks.get(block).copied().unwrap_or(0);
        }
    }

    /// The needle mask of the block at `base` (a multiple of the block
    /// size; bit `i` = byte `base + i`), `0` at or past `end`. For callers
    /// that walk the bits themselves, one block after another.
    #[inline]
    pub(crate) fn block_at(&mut self, base: usize) -> u64 {
        if base >= self.end {
            return 0;
        }
        let span = BLOCK * WINDOW;
        let window = base - base % span;
        if window != self.base {
            self.load(window);
        }
        self.masks
            .get((base - window) / BLOCK)
            .copied()
            .unwrap_or(0)
    }

    /// Computes and remembers the masks of the window at `base`. Out of
    /// line: it runs once per window, and keeping it out keeps the
    /// per-match path small enough to inline into every caller.
    #[inline(never)]
    fn load(&mut self, base: usize) {
        match self.count {
            0 => self.masks = [0; WINDOW],
            1 => self.fill::<1>(base),
            2 => self.fill::<2>(base),
            _ => self.fill::<3>(base),
        }
        self.base = base;
    }

    #[inline]
    fn fill<const N: usize>(&mut self, base: usize) {
        self.masks = [0; WINDOW];
        let region = self.input.get(base..self.end).unwrap_or_default();
        let region = region.get(..BLOCK * WINDOW).unwrap_or(region);
        let mut chunks = region.chunks_exact(BLOCK);
        full_block_masks::<N>(&mut chunks, &self.needles, &mut self.masks);
        let left = chunks.remainder().len();
        if left > 0 {
            let i = region.len() / BLOCK;
            if let Some(mask) = self.masks.get_mut(i) {
                *mask = block_mask::<N>(self.input, base + i * BLOCK, &self.needles)
                    & ((1u64 << left) - 1);
            }
        }
    }
}

/// The mask of the first `N` needles in the block starting at `base`
/// (bit `i` = byte `base + i`); bytes past the end of the input never
/// match.
#[inline]
fn block_mask<const N: usize>(input: &[u8], base: usize, needles: &[u8; 3]) -> u64 {
    let rest = input.get(base..).unwrap_or_default();
    match rest.first_chunk::<BLOCK>() {
        Some(block) => full_block_mask::<N>(block, needles),
        None => partial_block_mask::<N>(rest, needles),
    }
}

/// The last, partial block of the input: pad a copy, then drop the
/// padding's bits.
#[inline(never)]
fn partial_block_mask<const N: usize>(rest: &[u8], needles: &[u8; 3]) -> u64 {
    let mut padded = [0u8; BLOCK];
    if let Some(dst) = padded.get_mut(..rest.len()) {
        dst.copy_from_slice(rest);
    }
    let valid = if rest.len() >= BLOCK {
        u64::MAX
    } else {
        (1u64 << rest.len()) - 1
    };
    full_block_mask::<N>(&padded, needles) & valid
}

/// The masks of consecutive whole blocks, one per `masks` slot.
#[inline]
fn full_block_masks<const N: usize>(
    chunks: &mut core::slice::ChunksExact<'_, u8>,
    needles: &[u8; 3],
    masks: &mut [u64],
) {
    for (mask, chunk) in masks.iter_mut().zip(chunks) {
        if let Ok(block) = <&[u8; BLOCK]>::try_from(chunk) {
            *mask = full_block_mask::<N>(block, needles);
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn full_block_mask<const N: usize>(block: &[u8; BLOCK], needles: &[u8; 3]) -> u64 {
    sse2::mask::<N>(block, needles)
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
pub(crate) fn full_block_mask<const N: usize>(block: &[u8; BLOCK], needles: &[u8; 3]) -> u64 {
    swar::mask::<N>(block, needles)
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod sse2 {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };

    /// SSE2 is part of the x86_64 baseline, so these intrinsics are always
    /// available; only the unaligned load touches memory.
    #[inline]
    #[allow(
        unused_unsafe,
        reason = "the intrinsics are unsafe fns before Rust 1.87"
    )]
    pub(super) fn mask<const N: usize>(block: &[u8; super::BLOCK], needles: &[u8; 3]) -> u64 {
        let mut mask = 0u64;
        // SAFETY: SSE2 is enabled on every x86_64 target; each load reads
        // 16 bytes at offset 0, 16, 32 or 48 of a 64-byte array.
        unsafe {
            let a = _mm_set1_epi8(needles[0] as i8);
            let b = _mm_set1_epi8(needles[1] as i8);
            let c = _mm_set1_epi8(needles[2] as i8);
            for (lane, chunk) in block.chunks_exact(16).enumerate() {
                let v = _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>());
                let mut hit = _mm_cmpeq_epi8(v, a);
                if N > 1 {
                    hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, b));
                }
                if N > 2 {
                    hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, c));
                }
                let bits = _mm_movemask_epi8(hit) as u32 as u64;
                mask |= bits << (16 * lane);
            }
        }
        mask
    }
}

#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
mod swar {
    const LO: u64 = 0x0101_0101_0101_0101;
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;

    /// 0x80 in every byte of `v` that is zero, exactly (no false positives
    /// from borrows).
    #[inline]
    fn zero_bytes(v: u64) -> u64 {
        !(((v & LOW7).wrapping_add(LOW7)) | v | LOW7)
    }

    /// Packs the 0x80 bits of the eight bytes into eight bits.
    #[inline]
    fn pack(high_bits: u64) -> u64 {
        ((high_bits >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
    }

    pub(super) fn mask<const N: usize>(block: &[u8; super::BLOCK], needles: &[u8; 3]) -> u64 {
        // Unused needle slots repeat the first one (see `Scanner::new`), so
        // comparing all three is correct for every `N`.
        let [a, b, c] = needles.map(|n| LO * u64::from(n));
        let mut mask = 0u64;
        for (i, word) in block.chunks_exact(8).enumerate() {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(word);
            let v = u64::from_le_bytes(bytes);
            let hits = zero_bytes(v ^ a) | zero_bytes(v ^ b) | zero_bytes(v ^ c);
            mask |= pack(hits) << (8 * i);
        }
        mask
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(input: &[u8], needles: &[u8]) -> Vec<usize> {
        (0..input.len())
            .filter(|&i| needles.contains(&input[i]))
            .collect()
    }

    fn scanned<const W: usize>(input: &[u8], end: usize, needles: &[u8]) -> Vec<usize> {
        let mut s = Scanner::<W>::until(input, end, needles);
        let mut out = Vec::new();
        let mut from = 0;
        while let Some(i) = s.next_from(from) {
            out.push(i);
            from = i + 1;
        }
        out
    }

    fn sample(len: usize, seed: u64) -> Vec<u8> {
        let mut x = seed | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                [b'\t', b'\n', b'"', 0, 0xFF, b'a', b'b', 0x80][(x % 8) as usize]
            })
            .collect()
    }

    #[test]
    fn agrees_with_a_naive_scan() {
        for len in [0, 1, 63, 64, 65, 127, 128, 200, 1000] {
            let input = sample(len, len as u64 + 7);
            for needles in [&b""[..], b"\n", b"\t\n", b"\t\n\"", b"\0", b"\xFF\x80"] {
                let want = naive(&input, needles);
                assert_eq!(
                    scanned::<1>(&input, len, needles),
                    want,
                    "{len} {needles:?}"
                );
                assert_eq!(
                    scanned::<LONG>(&input, len, needles),
                    want,
                    "{len} {needles:?}"
                );
                for end in [0, len / 3, len.saturating_sub(1)] {
                    let want: Vec<usize> = want.iter().copied().filter(|&i| i < end).collect();
                    assert_eq!(scanned::<1>(&input, end, needles), want);
                    assert_eq!(scanned::<LONG>(&input, end, needles), want);
                }
            }
        }
    }

    #[test]
    fn swar_and_simd_masks_agree() {
        for seed in 1..200u64 {
            let input = sample(64, seed);
            let block: &[u8; 64] = input.as_slice().try_into().unwrap();
            for needles in [[b'\t', b'\n', b'"'], [0, 0, 0], [0xFF, 0x80, b'a']] {
                assert_eq!(
                    swar::mask::<3>(block, &needles),
                    full_block_mask::<3>(block, &needles)
                );
                let one = [needles[0]; 3];
                assert_eq!(
                    swar::mask::<1>(block, &one),
                    full_block_mask::<1>(block, &one)
                );
            }
        }
    }

    #[test]
    fn backward_and_far_jumps_are_answered() {
        let input = sample(500, 3);
        let mut s = Scanner::<LONG>::new(&input, b"\n");
        let want = naive(&input, b"\n");
        assert_eq!(s.next_from(300), want.iter().copied().find(|&i| i >= 300));
        assert_eq!(s.next_from(0), want.first().copied());
        assert_eq!(s.next_from(499), want.iter().copied().find(|&i| i >= 499));
        assert_eq!(s.next_from(10_000), None);
    }
}
