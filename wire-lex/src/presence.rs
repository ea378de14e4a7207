//! [`Presence`]: which of a few byte classes occur in a short slice, found
//! in one pass of sixteen bytes at a time.

/// Which byte classes occur in a slice: bytes outside printable ASCII's
/// lower bound (below 0x20, or 0x80 and above), and each of four needle
/// bytes.
///
/// One pass answers all five questions, so a writer that must know
/// whether a string needs escaping in one format and quoting in another
/// reads it once. On x86_64 the pass compares sixteen bytes at a time
/// (SSE2, part of the baseline); elsewhere eight, in a `u64`. Slices
/// shorter than a block are read as overlapping loads of their own bytes,
/// so no padding byte can be taken for a match, and only the number of
/// blocks decides the branches.
///
/// # Example
///
/// ```
/// use wire_lex::Presence;
///
/// // JSON escapes (`"` `\` DEL) and the CSV delimiter.
/// let p = Presence::of(b"a, b", [b'"', b'\\', 0x7f, b',']);
/// assert!(!p.outside());
/// assert_eq!(p.needles(), [false, false, false, true]);
///
/// let p = Presence::of("tab\there é".as_bytes(), [b'"', b'\\', 0x7f, b',']);
/// assert!(p.outside());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Presence {
    /// Bit 0: a byte below 0x20 or from 0x80; bit `1 + k`: needle `k`.
    bits: u8,
}

impl Presence {
    /// The classes that occur in `bytes`, with `needles` as the four
    /// chosen bytes (repeat one to ask about fewer).
    ///
    /// ```
    /// use wire_lex::Presence;
    ///
    /// // Only `,` is asked about: the other three slots repeat it.
    /// let p = Presence::of(b"x,y", [b','; 4]);
    /// assert_eq!(p.needles(), [true; 4]);
    /// ```
    #[must_use]
    #[inline]
    pub fn of(bytes: &[u8], needles: [u8; 4]) -> Presence {
        Presence {
            bits: classes(bytes, needles),
        }
    }

    /// Whether a byte below 0x20 or from 0x80 occurs (a control
    /// character, or part of a non-ASCII character).
    ///
    /// ```
    /// use wire_lex::Presence;
    ///
    /// assert!(Presence::of(b"a\nb", [b'x'; 4]).outside());
    /// assert!(!Presence::of(b"a~b", [b'x'; 4]).outside());
    /// ```
    #[must_use]
    #[inline]
    pub fn outside(self) -> bool {
        self.bits & 1 != 0
    }

    /// Whether each needle occurs, in the order given.
    ///
    /// ```
    /// use wire_lex::Presence;
    ///
    /// let p = Presence::of(b"key=value;", [b'=', b';', b'&', b'=']);
    /// assert_eq!(p.needles(), [true, true, false, true]);
    /// ```
    #[must_use]
    #[inline]
    pub fn needles(self) -> [bool; 4] {
        [1, 2, 3, 4].map(|k| self.bits >> k & 1 != 0)
    }

    /// Whether nothing of any class occurs.
    ///
    /// ```
    /// use wire_lex::Presence;
    ///
    /// assert!(Presence::of(b"plain", [b'"', b'\\', 0x7f, b',']).is_none());
    /// assert!(!Presence::of(b"\"quoted\"", [b'"', b'\\', 0x7f, b',']).is_none());
    /// ```
    #[must_use]
    #[inline]
    pub fn is_none(self) -> bool {
        self.bits == 0
    }
}

/// The bytes of a slice of 16 bytes or more as overlapping `N`-byte
/// loads: `f` gets every load; the last overlaps the one before it.
#[inline(always)]
fn each_load<const N: usize>(bytes: &[u8], mut f: impl FnMut(&[u8; N])) {
    let n = bytes.len();
    let mut at = 0;
    while let Some(chunk) = bytes.get(at..at + N) {
        if let Ok(load) = <&[u8; N]>::try_from(chunk) {
            f(load);
        }
        at += N;
    }
    if at < n {
        if let Some(Ok(load)) = bytes.get(n.saturating_sub(N)..).map(<&[u8; N]>::try_from) {
            f(load);
        }
    }
}

/// The bytes of a slice under 16 bytes as two words that cover them all,
/// built in registers from overlapping loads of its own bytes (two of
/// eight bytes, two of four, or the first, middle and last byte), so no
/// byte outside the slice is read and no padding can match. `None` for
/// an empty slice.
#[inline(always)]
fn short_words(bytes: &[u8]) -> Option<(u64, u64)> {
    let n = bytes.len();
    let word = |at: usize| {
        bytes
            .get(at..at + 8)
            .and_then(|w| <[u8; 8]>::try_from(w).ok())
            .map_or(0, u64::from_le_bytes)
    };
    let half = |at: usize| {
        bytes
            .get(at..at + 4)
            .and_then(|w| <[u8; 4]>::try_from(w).ok())
            .map_or(0, |w| u64::from(u32::from_le_bytes(w)))
    };
    if n >= 8 {
        return Some((word(0), word(n - 8)));
    }
    let w = if n >= 4 {
        half(0) | half(n - 4) << 32
    } else {
        let &first = bytes.first()?;
        let at = |k: usize| bytes.get(k).copied().unwrap_or(first);
        let w = u64::from(u32::from_le_bytes([first, at(n / 2), at(n - 1), first]));
        w | w << 32
    };
    Some((w, w))
}

/// The class bits of `bytes` (see `Presence::bits`).
#[cfg(target_arch = "x86_64")]
#[inline]
fn classes(bytes: &[u8], needles: [u8; 4]) -> u8 {
    sse2::classes(bytes, needles)
}

/// The class bits of `bytes` (see `Presence::bits`).
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn classes(bytes: &[u8], needles: [u8; 4]) -> u8 {
    swar::classes(bytes, needles)
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod sse2 {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
        _mm_set_epi64x, _mm_set1_epi8, _mm_setzero_si128,
    };

    /// The class bits of `bytes` (see `Presence::bits`).
    #[inline]
    #[allow(
        unused_unsafe,
        reason = "the intrinsics are unsafe fns before Rust 1.87"
    )]
    pub(super) fn classes(bytes: &[u8], needles: [u8; 4]) -> u8 {
        // SAFETY: SSE2 is enabled on every x86_64 target; each load reads
        // the sixteen bytes of a `[u8; 16]`.
        unsafe {
            let space = _mm_set1_epi8(0x20);
            let [a, b, c, d] = needles.map(|n| _mm_set1_epi8(n as i8));
            let mut acc = [_mm_setzero_si128(); 5];
            let mut add = |v: __m128i| {
                // Signed: 0x80 and above are negative, so below 0x20 too.
                acc[0] = _mm_or_si128(acc[0], _mm_cmplt_epi8(v, space));
                acc[1] = _mm_or_si128(acc[1], _mm_cmpeq_epi8(v, a));
                acc[2] = _mm_or_si128(acc[2], _mm_cmpeq_epi8(v, b));
                acc[3] = _mm_or_si128(acc[3], _mm_cmpeq_epi8(v, c));
                acc[4] = _mm_or_si128(acc[4], _mm_cmpeq_epi8(v, d));
            };
            if bytes.len() >= 16 {
                super::each_load::<16>(bytes, |load| {
                    add(_mm_loadu_si128(load.as_ptr().cast::<__m128i>()));
                });
            } else if let Some((lo, hi)) = super::short_words(bytes) {
                // In registers: a vector stored in pieces and loaded whole
                // would wait for the pieces (no store forwarding).
                add(_mm_set_epi64x(hi as i64, lo as i64));
            }
            let mut bits = 0u8;
            for (k, v) in acc.into_iter().enumerate() {
                bits |= u8::from(_mm_movemask_epi8(v) != 0) << k;
            }
            bits
        }
    }
}

#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
mod swar {
    use crate::byteset::byte_eq_mask;

    /// The class bits of `bytes` (see `Presence::bits`).
    #[inline]
    pub(super) fn classes(bytes: &[u8], needles: [u8; 4]) -> u8 {
        const LO: u64 = 0x0101_0101_0101_0101;
        const HI: u64 = 0x8080_8080_8080_8080;
        let mut acc = [0u64; 5];
        let mut add = |w: u64| {
            // Below 0x20 (a borrow only from such a byte), or the top bit.
            acc[0] |= (w.wrapping_sub(LO * 0x20) & !w & HI) | (w & HI);
            for (slot, &n) in acc.iter_mut().skip(1).zip(&needles) {
                *slot |= byte_eq_mask(w, n);
            }
        };
        if bytes.len() >= 16 {
            super::each_load::<8>(bytes, |load| add(u64::from_le_bytes(*load)));
        } else if let Some((lo, hi)) = super::short_words(bytes) {
            add(lo);
            add(hi);
        }
        let mut bits = 0u8;
        for (k, m) in acc.into_iter().enumerate() {
            bits |= u8::from(m != 0) << k;
        }
        bits
    }
}

#[cfg(test)]
mod tests {
    use super::Presence;

    fn naive(bytes: &[u8], needles: [u8; 4]) -> (bool, [bool; 4]) {
        (
            bytes.iter().any(|&b| !(0x20..0x80).contains(&b)),
            needles.map(|n| bytes.contains(&n)),
        )
    }

    /// Every class at every position of every length up to 70, alone and
    /// among plain bytes, answers as a byte-by-byte search.
    #[test]
    fn every_class_at_every_position() {
        let needles = [b'"', b'\\', 0x7f, b','];
        let probes = [
            0x00u8, 0x1f, 0x20, b'"', b'\\', 0x7f, 0x80, 0xff, b',', b'a',
        ];
        for len in 0..70usize {
            let plain: [u8; 70] = core::array::from_fn(|i| b'a' + (i % 26) as u8);
            let base = &plain[..len];
            let p = Presence::of(base, needles);
            assert_eq!((p.outside(), p.needles()), naive(base, needles), "{len}");
            for at in 0..len {
                for probe in probes {
                    let mut bytes = plain;
                    bytes[at] = probe;
                    let bytes = &bytes[..len];
                    let p = Presence::of(bytes, needles);
                    assert_eq!(
                        (p.outside(), p.needles()),
                        naive(bytes, needles),
                        "{len} {at} {probe}"
                    );
                    assert_eq!(super::swar::classes(bytes, needles), p.bits);
                    assert_eq!(p.is_none(), naive(bytes, needles) == (false, [false; 4]));
                }
            }
        }
    }
}
