//! Character classes of the pre-tokenizer (§3.1): L, N, White_Space and
//! the rest, from tables pinned to one Unicode version (see
//! [`tables::UNICODE_VERSION`]; regenerate with `cargo xtask
//! unicode-tables`).

mod tables;

pub(crate) use tables::UNICODE_VERSION;

/// The class of a code point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// General category L.
    Letter,
    /// General category N.
    Number,
    /// The White_Space property.
    Space,
    /// Anything else.
    Other,
}

/// White_Space: U+0009–U+000D, U+0020, U+0085, U+00A0, U+1680,
/// U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000.
pub(crate) fn is_space(c: char) -> bool {
    matches!(
        c,
        '\u{9}'..='\u{d}'
            | ' '
            | '\u{85}'
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
    )
}

fn in_ranges(ranges: &[(u32, u32)], cp: u32) -> bool {
    ranges
        .binary_search_by(|&(lo, hi)| {
            if hi < cp {
                core::cmp::Ordering::Less
            } else if lo > cp {
                core::cmp::Ordering::Greater
            } else {
                core::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// The class of `c`.
#[inline]
pub(crate) fn class(c: char) -> Class {
    if c.is_ascii() {
        return if c.is_ascii_alphabetic() {
            Class::Letter
        } else if c.is_ascii_digit() {
            Class::Number
        } else if is_space(c) {
            Class::Space
        } else {
            Class::Other
        };
    }
    let cp = u32::from(c);
    if in_ranges(tables::LETTER, cp) {
        Class::Letter
    } else if in_ranges(tables::NUMBER, cp) {
        Class::Number
    } else if is_space(c) {
        Class::Space
    } else {
        Class::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_examples() {
        for c in ['²', '½', '⅓', 'Ⅷ', '٣', '３'] {
            assert_eq!(class(c), Class::Number, "{c}");
        }
        assert_eq!(class('é'), Class::Letter);
        assert_eq!(class('\u{301}'), Class::Other); // combining acute: Mn
        for c in ['\u{1c}', '\u{200b}', '\u{feff}', '\u{180e}'] {
            assert_eq!(class(c), Class::Other, "{c:?}");
        }
        for c in ['\u{85}', '\u{a0}', '\u{3000}', '\t'] {
            assert_eq!(class(c), Class::Space, "{c:?}");
        }
    }

    #[test]
    fn agrees_with_std_where_std_has_the_same_unicode_version() {
        let ours = tables::UNICODE_VERSION;
        if char::UNICODE_VERSION != ours {
            return;
        }
        for cp in 0..=0x10FFFFu32 {
            let Some(c) = char::from_u32(cp) else {
                continue;
            };
            assert_eq!(class(c) == Class::Number, c.is_numeric(), "{cp:X}");
            assert_eq!(is_space(c), c.is_whitespace(), "{cp:X}");
        }
    }
}
