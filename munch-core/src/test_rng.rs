//! The xorshift generator of the crate's randomized tests: the same
//! sequence on every run, so a failure is replayed by running the test
//! again.

/// 32-bit xorshift from `seed` (not zero).
pub(crate) fn xorshift32(mut x: u32) -> impl FnMut() -> u32 {
    move || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    }
}
