//! Trimming Unicode White_Space from both ends of a byte string, stopping
//! at invalid UTF-8 (Go `strings.TrimSpace` on the header rest, §10.2).

/// Decodes the first scalar value of `bytes` and its length, if valid.
fn first_char(bytes: &[u8]) -> Option<(char, usize)> {
    let len = match *bytes.first()? {
        b if b < 0x80 => 1,
        b if b >= 0xF0 => 4,
        b if b >= 0xE0 => 3,
        b if b >= 0xC0 => 2,
        _ => return None,
    };
    let s = core::str::from_utf8(bytes.get(..len)?).ok()?;
    s.chars().next().map(|c| (c, len))
}

/// Decodes the last scalar value of `bytes` and its length, if valid.
fn last_char(bytes: &[u8]) -> Option<(char, usize)> {
    for len in 1..=4.min(bytes.len()) {
        let tail = bytes.get(bytes.len() - len..)?;
        if let Ok(s) = core::str::from_utf8(tail) {
            return s.chars().next_back().map(|c| (c, len));
        }
    }
    None
}

/// `bytes` without leading and trailing `char::is_whitespace` characters.
pub(crate) fn trim(mut bytes: &[u8]) -> &[u8] {
    while let Some((c, len)) = first_char(bytes) {
        if !c.is_whitespace() {
            break;
        }
        bytes = bytes.get(len..).unwrap_or_default();
    }
    while let Some((c, len)) = last_char(bytes) {
        if !c.is_whitespace() {
            break;
        }
        bytes = bytes.get(..bytes.len() - len).unwrap_or_default();
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::trim;

    #[test]
    fn unicode_space_and_invalid_bytes() {
        assert_eq!(trim(b"  a b \t\x0b"), b"a b");
        assert_eq!(trim("\u{3000}x\u{85}".as_bytes()), b"x");
        assert_eq!(trim(b"\xFF "), b"\xFF");
        assert_eq!(trim(" \u{FEFF}".as_bytes()), "\u{FEFF}".as_bytes());
        assert_eq!(trim(b"   "), b"");
    }
}
