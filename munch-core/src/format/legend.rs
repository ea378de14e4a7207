//! The `@N` legend (spec §5) read back from a payload: its entries, and
//! tokens decoded with it. Building, writing and prefix-encoding a legend
//! is in `legend_build.rs`.

use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use crate::py::number::int_text;
use crate::unicode::{is_digit, split_lines};

/// Handles up to this value live in a vector; larger ones in a map, so a
/// huge `N` allocates nothing (spec D1.2).
const DENSE_MAX: usize = 1 << 16;

/// A legend read from a payload.
#[derive(Debug, Default)]
pub(crate) struct Legend<'a> {
    dense: Vec<&'a str>,
    /// Entries above `DENSE_MAX`, keyed by (digit count, canonical digits).
    sparse: BTreeMap<(usize, String), &'a str>,
    /// A line's handle fell off Python's list: the reference's read raises
    /// there (this one skips the line).
    pub(crate) raises: bool,
}

impl<'a> Legend<'a> {
    /// Reads `@N=literal` lines (split at B); a line whose handle is not
    /// an int is skipped; later lines overwrite. A handle of 0 or below
    /// indexes from the end as Python's list does (`@0` is the highest
    /// handle so far, `@-1` the one before); where Python's index falls
    /// off the list (the reference raises) the line is skipped.
    pub(crate) fn read(block: &'a str) -> Legend<'a> {
        let mut legend = Legend::default();
        for line in split_lines(block) {
            let Some(rest) = line.strip_prefix('@') else {
                continue;
            };
            let (handle, literal) = rest.split_once('=').unwrap_or((rest, ""));
            // Fast path: a short handle of ASCII digits (what encoders
            // write) goes straight to the dense table.
            if let Some(i) = short_handle(handle).filter(|&i| i > 0 && i <= DENSE_MAX) {
                if legend.dense.len() < i {
                    legend.dense.resize(i, "");
                }
                if let Some(slot) = legend.dense.get_mut(i - 1) {
                    *slot = literal;
                }
                continue;
            }
            let Some(mut n) = int_text(handle) else {
                continue;
            };
            if n.starts_with('-') || n == "0" {
                match legend.handle_from_end(&n) {
                    Some(h) => n = h,
                    None => {
                        legend.raises = true;
                        continue;
                    }
                }
            }
            match n.parse::<usize>() {
                Ok(i) if i <= DENSE_MAX => {
                    if legend.dense.len() < i {
                        legend.dense.resize(i, "");
                    }
                    if let Some(slot) = legend.dense.get_mut(i - 1) {
                        *slot = literal;
                    }
                }
                _ => {
                    legend.sparse.insert((n.len(), n), literal);
                }
            }
        }
        legend
    }

    /// The handle (canonical digits) that Python's `order[idx - 1]` sets
    /// for `idx` ≤ 0 (canonical digits of 0 or a negative int): the
    /// highest handle so far plus `idx`, if that is at least 1.
    fn handle_from_end(&self, idx: &str) -> Option<String> {
        let back: u128 = idx.strip_prefix('-').unwrap_or(idx).parse().ok()?;
        let top: u128 = match self.sparse.keys().next_back() {
            Some((_, digits)) => digits.parse().ok()?,
            None => u128::try_from(self.dense.len()).ok()?,
        };
        let h = top.checked_sub(back).filter(|&h| h >= 1)?;
        let mut text = String::new();
        let _ = write!(text, "{h}");
        Some(text)
    }

    /// The literal of handle `n` (canonical positive digits), if
    /// `1 ≤ n ≤` the highest handle (gaps read as empty literals).
    fn literal(&self, n: &str) -> Option<&'a str> {
        if let Ok(i) = n.parse::<usize>() {
            if i <= DENSE_MAX {
                if let Some(&lit) = self.dense.get(i.wrapping_sub(1)) {
                    return Some(lit);
                }
                // Below the highest sparse handle: a gap.
                return self.sparse.keys().next().map(|_| "");
            }
        }
        let key = (n.len(), String::from(n));
        if let Some(&lit) = self.sparse.get(&key) {
            return Some(lit);
        }
        match self.sparse.keys().next_back() {
            Some(top) if *top > key => Some(""),
            _ => None,
        }
    }

    /// Whether the legend has no entries.
    pub(crate) fn is_empty(&self) -> bool {
        self.dense.is_empty() && self.sparse.is_empty()
    }

    /// Decodes one token: `@@x` → `@x`; `@N…` → literal N + rest when N is
    /// a handle; anything else unchanged. `None` means unchanged.
    pub(crate) fn decode(&self, token: &str) -> Option<String> {
        let (head, tail) = self.decode_split(token)?;
        let mut s = String::with_capacity(head.len() + tail.len());
        s.push_str(head);
        s.push_str(tail);
        Some(s)
    }

    /// [`Legend::decode`] of a cell, borrowing wherever the decoded text
    /// is one piece of a borrowed cell or of the legend: a whole literal
    /// (`@N`), a cell's tail behind an empty literal, or an escaped `@@x`.
    /// Only a literal followed by more text is built.
    pub(crate) fn expand<'t>(&self, cell: &Cow<'t, str>) -> Option<Cow<'t, str>>
    where
        'a: 't,
    {
        let Cow::Borrowed(token) = *cell else {
            return self.decode(cell).map(Cow::Owned);
        };
        let (head, tail) = self.decode_split(token)?;
        if tail.is_empty() {
            return Some(Cow::Borrowed(head));
        }
        if head.is_empty() {
            return Some(Cow::Borrowed(tail));
        }
        if token.starts_with("@@") {
            return token.get(1..).map(Cow::Borrowed);
        }
        let mut s = String::with_capacity(head.len() + tail.len());
        s.push_str(head);
        s.push_str(tail);
        Some(Cow::Owned(s))
    }

    /// [`Legend::decode`] without building the text: the decoded token is
    /// `head` followed by `tail`.
    #[inline]
    pub(crate) fn decode_split<'t>(&self, token: &'t str) -> Option<(&'a str, &'t str)>
    where
        'a: 't,
    {
        let rest = token.strip_prefix('@')?;
        if let Some(escaped) = rest.strip_prefix('@') {
            return Some(("@", escaped));
        }
        if self.is_empty() {
            return None;
        }
        // Fast path: one to five ASCII digits, counted and valued in one
        // loop, into the dense table (not before a non-ASCII character,
        // which may be a digit of another script).
        let bytes = rest.as_bytes();
        let (mut ascii, mut value) = (0usize, 0usize);
        while let Some(&b) = bytes.get(ascii) {
            if !b.is_ascii_digit() {
                break;
            }
            value = value.wrapping_mul(10).wrapping_add(usize::from(b - b'0'));
            ascii += 1;
        }
        if (1..=5).contains(&ascii) && bytes.get(ascii).is_none_or(u8::is_ascii) {
            if value == 0 {
                return None;
            }
            if let Some(&literal) = value.checked_sub(1).and_then(|i| self.dense.get(i)) {
                return Some((literal, rest.get(ascii..)?));
            }
        }
        // The handle's digits: ASCII ones byte by byte; a non-ASCII
        // character after them may be a digit of another script, read as
        // characters then.
        let ascii = rest.bytes().take_while(u8::is_ascii_digit).count();
        let run = match rest.as_bytes().get(ascii) {
            Some(&b) if !b.is_ascii() => rest.find(|c: char| !is_digit(c)).unwrap_or(rest.len()),
            _ => ascii,
        };
        if run == 0 {
            return None;
        }
        let digits = rest.get(..run)?;
        // Fast path: a short handle of ASCII digits into the dense table.
        if let Some(v) = short_handle(digits) {
            if v == 0 {
                return None;
            }
            if v <= self.dense.len() {
                let literal = *self.dense.get(v - 1)?;
                return Some((literal, rest.get(run..)?));
            }
        }
        let n = {
            let n = int_text(digits)?;
            if n == "0" {
                return None;
            }
            n
        };
        let literal = self.literal(&n)?;
        Some((literal, rest.get(run..)?))
    }
}

/// The value of a handle of one to five ASCII digits; `None` for any
/// other text (which may still be a handle, read the slow way).
#[inline]
fn short_handle(digits: &str) -> Option<usize> {
    if digits.is_empty() || digits.len() > 5 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(
        digits
            .bytes()
            .fold(0, |v, b| v * 10 + usize::from(b - b'0')),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_of_zero_and_below_index_from_the_end() {
        // Python: `order[idx - 1] = value`, the list padded to the highest
        // handle so far.
        let l = Legend::read("@1=a\n@2=b\n@3=c\n@0=z\n@-1=y\n@-2=x\n@-3=off");
        let got: Vec<_> = ["@1", "@2", "@3"]
            .iter()
            .map(|t| l.decode(t).unwrap_or_default())
            .collect();
        assert_eq!(got, ["x", "y", "z"]);
        // Nothing to index yet: Python raises, the line is skipped.
        let l = Legend::read("@0=z");
        assert!(l.is_empty() && l.raises);
        assert!(Legend::read("@1=a\n@-3=off").raises);
        assert!(!Legend::read("@1=a\n@0=z\n@x=y").raises);
        // From a sparse top handle.
        let l = Legend::read("@70000=a\n@0=b\n@-1=c");
        assert_eq!(l.decode("@70000").as_deref(), Some("b"));
        assert_eq!(l.decode("@69999").as_deref(), Some("c"));
    }

    #[test]
    fn read_and_decode() {
        let l = Legend::read(
            "@1=src/\n@3=x\n@0=zero\n@-1=neg\n@²=sq\n@ 2 =two\nnot\n@99999999999999999999=big",
        );
        assert_eq!(l.decode("@1a.py").as_deref(), Some("src/a.py"));
        assert_eq!(l.decode("@2").as_deref(), Some("two"));
        // `@0` set the highest handle then (3), as Python's `order[-1]`.
        assert_eq!(l.decode("@3").as_deref(), Some("zero"));
        assert_eq!(l.decode("@@1").as_deref(), Some("@1"));
        assert_eq!(l.decode("@0x"), None);
        assert_eq!(l.decode("@²"), None);
        assert_eq!(l.decode("@x"), None);
        assert_eq!(l.decode("@10001.py").as_deref(), Some(".py"));
        assert_eq!(l.decode("@99999999999999999999!").as_deref(), Some("big!"));
        assert_eq!(l.decode("@100000000000000000000"), None);
        // Digits of other scripts belong to the handle, after ASCII ones
        // too (U+0661, ARABIC-INDIC DIGIT ONE).
        assert_eq!(l.decode("@\u{661}a").as_deref(), Some("src/a"));
        assert_eq!(l.decode("@\u{661}\u{661}"), l.decode("@11"));
        assert_eq!(l.decode("@0\u{661}x").as_deref(), Some("src/x"));
        assert_eq!(l.decode("@1\u{e9}").as_deref(), Some("src/\u{e9}"));
    }
}
