//! Needle positions of a whole window, written into a buffer with no branch
//! per position.
//!
//! Walking a block's bitmask bit by bit costs a mispredicted branch each
//! time the number of matches in a block changes, which on short lines is
//! most blocks. Here each 64-byte block writes two positions
//! unconditionally (extra slots are overwritten by the next block), and only
//! a block with three or more matches loops; the caller then walks the
//! positions with one predictable loop per window. On x86_64 with `std`,
//! AVX2, BMI1 and POPCNT are detected at run time (once per caller) and used
//! when present; otherwise the block masks come from `scan` (SSE2 or SWAR).

use crate::scan::full_block_mask;

/// Bytes per window.
pub(crate) const SPAN: usize = 512;

/// Slots in a position buffer: at least `SPAN + 2` (two unconditional
/// writes past the last match), a power of two so an index is masked
/// instead of bounds-checked.
const CAP: usize = 1024;

/// Positions of one window, relative to its start, in increasing order.
pub(crate) struct Positions {
    at: [u16; CAP],
    len: usize,
}

impl Positions {
    pub(crate) const fn new() -> Self {
        Positions {
            at: [0; CAP],
            len: 0,
        }
    }

    /// The positions found by the last [`Flattener::run`].
    #[inline]
    pub(crate) fn as_slice(&self) -> &[u16] {
        self.at.get(..self.len).unwrap_or_default()
    }
}

/// The flattening routine chosen for this machine.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Flattener {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    avx2: bool,
}

impl Flattener {
    /// Picks the fastest routine the CPU supports.
    #[inline]
    pub(crate) fn detect() -> Self {
        Flattener {
            #[cfg(all(target_arch = "x86_64", feature = "std"))]
            avx2: std::is_x86_feature_detected!("avx2")
                && std::is_x86_feature_detected!("bmi1")
                && std::is_x86_feature_detected!("popcnt"),
        }
    }

    /// Fills `out` with the positions of `needle` in `window`.
    #[inline]
    pub(crate) fn run(self, window: &[u8; SPAN], needle: u8, out: &mut Positions) {
        #[cfg(all(target_arch = "x86_64", feature = "std"))]
        if self.avx2 {
            // SAFETY: `detect` found AVX2, BMI1 and POPCNT on this CPU.
            #[allow(unsafe_code)]
            unsafe {
                avx2::flatten(window, needle, out);
            }
            return;
        }
        portable(window, needle, out);
    }
}

/// Writes the set bits of `bits` (the block at `base` in the window) from
/// slot `len` on; returns the new length.
#[inline(always)]
fn push_bits(at: &mut [u16; CAP], len: usize, base: u16, mut bits: u64) -> usize {
    let count = bits.count_ones() as usize;
    // Two slots unconditionally: most blocks of line-sized data hold zero,
    // one or two matches, and writing a slot too many is cheaper than
    // deciding how many to write.
    for k in 0..2 {
        if let Some(slot) = at.get_mut((len + k) & (CAP - 1)) {
            *slot = base + bits.trailing_zeros() as u16;
        }
        bits &= bits.wrapping_sub(1);
    }
    if count > 2 {
        let mut k = len + 2;
        while bits != 0 {
            if let Some(slot) = at.get_mut(k & (CAP - 1)) {
                *slot = base + bits.trailing_zeros() as u16;
            }
            bits &= bits - 1;
            k += 1;
        }
    }
    len + count
}

fn portable(window: &[u8; SPAN], needle: u8, out: &mut Positions) {
    let needles = [needle; 3];
    let mut len = 0;
    for (i, chunk) in window.chunks_exact(64).enumerate() {
        if let Ok(block) = <&[u8; 64]>::try_from(chunk) {
            let bits = full_block_mask::<1>(block, &needles);
            len = push_bits(&mut out.at, len, (i * 64) as u16, bits);
        }
    }
    out.len = len;
}

#[cfg(all(target_arch = "x86_64", feature = "std"))]
#[allow(unsafe_code)]
mod avx2 {
    use super::{Positions, SPAN, push_bits};
    use core::arch::x86_64::{
        __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_set1_epi8,
    };

    /// # Safety
    /// The CPU must support AVX2, BMI1 and POPCNT.
    #[target_feature(enable = "avx2,bmi1,popcnt")]
    pub(super) unsafe fn flatten(window: &[u8; SPAN], needle: u8, out: &mut Positions) {
        let n = _mm256_set1_epi8(needle as i8);
        let mut len = 0;
        for (i, chunk) in window.chunks_exact(64).enumerate() {
            // SAFETY: each load reads 32 bytes at offset 0 or 32 of a
            // 64-byte chunk.
            let (lo, hi) = unsafe {
                (
                    _mm256_loadu_si256(chunk.as_ptr().cast::<__m256i>()),
                    _mm256_loadu_si256(chunk.as_ptr().add(32).cast::<__m256i>()),
                )
            };
            let lo = _mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, n)) as u32 as u64;
            let hi = _mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, n)) as u32 as u64;
            len = push_bits(&mut out.at, len, (i * 64) as u16, lo | (hi << 32));
        }
        out.len = len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(seed: u64, density: u64) -> [u8; SPAN] {
        let mut x = seed | 1;
        let mut w = [0u8; SPAN];
        for b in &mut w {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *b = if x % density == 0 { b'\n' } else { b'a' };
        }
        w
    }

    #[test]
    fn every_routine_finds_every_position() {
        for density in [1, 2, 3, 7, 40, 600] {
            for seed in 1..40 {
                let w = sample(seed, density);
                let want: Vec<u16> = (0..SPAN as u16)
                    .filter(|&i| w[usize::from(i)] == b'\n')
                    .collect();
                let mut out = Positions::new();
                portable(&w, b'\n', &mut out);
                assert_eq!(out.as_slice(), want);
                let mut out = Positions::new();
                Flattener::detect().run(&w, b'\n', &mut out);
                assert_eq!(out.as_slice(), want);
            }
        }
    }
}
