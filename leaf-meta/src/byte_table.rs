//! The GPT-2 bytes-to-unicode table (§3.6): every byte has a printable
//! code point, so byte-level tokens can be written as JSON strings.

/// The code point of byte `b`: 0x21–0x7E, 0xA1–0xAC, 0xAE–0xFF map to
/// themselves; the other 68 bytes, ascending, to U+0100…U+0143.
pub(crate) const fn byte_char(b: u8) -> char {
    let identity = matches!(b, 0x21..=0x7E | 0xA1..=0xAC | 0xAE..=0xFF);
    if identity {
        return b as char;
    }
    // The rank of `b` among the remapped bytes.
    let mut rank = 0u32;
    let mut x = 0u8;
    while x < b {
        if !matches!(x, 0x21..=0x7E | 0xA1..=0xAC | 0xAE..=0xFF) {
            rank += 1;
        }
        x += 1;
    }
    match char::from_u32(0x100 + rank) {
        Some(c) => c,
        None => '\u{FFFD}',
    }
}

/// The 68 remapped bytes, ascending: `REMAPPED[k]` is shown as U+0100 + k.
#[allow(
    clippy::indexing_slicing,
    reason = "n < 68 is checked before each store"
)]
const REMAPPED: [u8; 68] = {
    let mut out = [0u8; 68];
    let mut n = 0;
    let mut x = 0u16;
    while x < 256 {
        let b = x as u8;
        if !matches!(b, 0x21..=0x7E | 0xA1..=0xAC | 0xAE..=0xFF) && n < 68 {
            out[n] = b;
            n += 1;
        }
        x += 1;
    }
    out
};

/// The byte a code point of the table stands for.
pub(crate) fn char_byte(c: char) -> Option<u8> {
    let cp = u32::from(c);
    match cp {
        0x21..=0x7E | 0xA1..=0xAC | 0xAE..=0xFF => u8::try_from(cp).ok(),
        0x100..=0x143 => REMAPPED.get((cp - 0x100) as usize).copied(),
        _ => None,
    }
}

/// The id a one-byte token must have: its position in table order (the 188
/// identity bytes ascending, then the 68 remapped bytes).
pub(crate) fn byte_id(b: u8) -> u32 {
    let c = u32::from(byte_char(b));
    if c < 0x100 {
        // Identity bytes before this one.
        (0x21u32..c)
            .filter(|&x| matches!(x, 0x21..=0x7E | 0xA1..=0xAC | 0xAE..=0xFF))
            .count() as u32
    } else {
        188 + (c - 0x100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_examples() {
        assert_eq!(byte_char(0x20), 'Ġ');
        assert_eq!(byte_char(0x0A), 'Ċ');
        assert_eq!(byte_char(0xAD), '\u{143}');
        assert_eq!(byte_id(b'!'), 0);
        assert_eq!(byte_id(b'"'), 1);
        assert_eq!(byte_id(b'0'), 15);
        assert_eq!(byte_id(b'\n'), 198);
        assert_eq!(byte_id(b' '), 220);
    }

    #[test]
    fn table_is_a_bijection() {
        let mut ids: Vec<u32> = (0..=255u8).map(byte_id).collect();
        for b in 0..=255u8 {
            assert_eq!(char_byte(byte_char(b)), Some(b));
        }
        ids.sort_unstable();
        assert_eq!(ids, (0..256).collect::<Vec<u32>>());
    }
}
