//! Line iteration with an explicit CR policy and a line-length cap.

use crate::Error;

/// What to do with a CR before a line's end.
///
/// ```
/// use wire_lex::{CrPolicy, LineConfig, Lines};
///
/// let lines = |cr| {
///     Lines::new(b"a\r\nb\r", LineConfig::default().cr(cr))
///         .map(|l| l.unwrap().bytes)
///         .collect::<Vec<_>>()
/// };
/// assert_eq!(lines(CrPolicy::StripOne), [&b"a"[..], b"b"]);
/// assert_eq!(lines(CrPolicy::Keep), [&b"a\r"[..], b"b\r"]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CrPolicy {
    /// Remove one CR if it is the last byte of the line (before the LF, or
    /// at the end of an unterminated final line). The default.
    #[default]
    StripOne,
    /// Keep every byte; only LF ends a line.
    Keep,
}

/// How [`Lines`] splits its input.
///
/// ```
/// use wire_lex::{CrPolicy, LineConfig};
///
/// let cfg = LineConfig::default().cr(CrPolicy::Keep).max_line_len(Some(4 << 20));
/// assert_eq!(cfg.max_line_len, Some(4_194_304));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LineConfig {
    /// CR handling (default: strip one).
    pub cr: CrPolicy,
    /// The longest accepted line in bytes, counted without the LF and with
    /// any CR; `None` (the default) for no limit.
    pub max_line_len: Option<usize>,
}

impl LineConfig {
    /// Sets the CR policy.
    ///
    /// ```
    /// let cfg = wire_lex::LineConfig::default().cr(wire_lex::CrPolicy::Keep);
    /// assert_eq!(cfg.cr, wire_lex::CrPolicy::Keep);
    /// ```
    #[must_use]
    pub const fn cr(mut self, cr: CrPolicy) -> Self {
        self.cr = cr;
        self
    }

    /// Sets the line-length cap.
    ///
    /// ```
    /// let cfg = wire_lex::LineConfig::default().max_line_len(Some(80));
    /// assert_eq!(cfg.max_line_len, Some(80));
    /// ```
    #[must_use]
    pub const fn max_line_len(mut self, max: Option<usize>) -> Self {
        self.max_line_len = max;
        self
    }
}

/// One line of the input.
///
/// ```
/// use wire_lex::{LineConfig, Lines};
///
/// let line = Lines::new(b"ab\r\ncd", LineConfig::default()).next().unwrap()?;
/// assert_eq!(line.bytes, b"ab");
/// assert_eq!((line.offset, line.end, line.terminated), (0, 4, true));
/// # Ok::<(), wire_lex::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// The line's content, after the CR policy, without the LF.
    pub bytes: &'a [u8],
    /// Offset of the line's first byte.
    pub offset: usize,
    /// Offset just past the line's LF (where the next line starts).
    pub end: usize,
    /// Whether an LF ended the line (only the final line can lack one).
    pub terminated: bool,
}

/// An iterator over the lines of a byte slice.
///
/// Lines end at LF. An input ending in LF has no extra empty final line; an
/// empty input has no lines. After an error the iterator is finished.
///
/// ```
/// use wire_lex::{LineConfig, Lines};
///
/// let n = Lines::new(b"a\n\nb", LineConfig::default()).count();
/// assert_eq!(n, 3);
/// ```
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    input: &'a [u8],
    pos: usize,
    config: LineConfig,
    done: bool,
}

impl<'a> Lines<'a> {
    /// Lines of `input` under `config`.
    ///
    /// ```
    /// let mut it = wire_lex::Lines::new(b"x", Default::default());
    /// assert_eq!(it.next().unwrap().unwrap().bytes, b"x");
    /// ```
    #[must_use]
    pub const fn new(input: &'a [u8], config: LineConfig) -> Self {
        Lines {
            input,
            pos: 0,
            config,
            done: false,
        }
    }

    /// Offset of the next line's first byte.
    ///
    /// ```
    /// let mut it = wire_lex::Lines::new(b"ab\ncd", Default::default());
    /// it.next();
    /// assert_eq!(it.offset(), 3);
    /// ```
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.pos
    }

    /// The input not yet split.
    ///
    /// ```
    /// let mut it = wire_lex::Lines::new(b"ab\ncd", Default::default());
    /// it.next();
    /// assert_eq!(it.rest(), b"cd");
    /// ```
    #[must_use]
    pub fn rest(&self) -> &'a [u8] {
        self.input.get(self.pos..).unwrap_or_default()
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Result<Line<'a>, Error>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let rest = self.rest();
        if rest.is_empty() {
            self.done = true;
            return None;
        }
        let offset = self.pos;
        let (raw, terminated) = match memchr::memchr(b'\n', rest) {
            Some(i) => (rest.get(..i).unwrap_or_default(), true),
            None => (rest, false),
        };
        if let Some(max) = self.config.max_line_len {
            if raw.len() > max {
                self.done = true;
                return Some(Err(Error::LineTooLong {
                    offset,
                    len: raw.len(),
                    max,
                }));
            }
        }
        let end = offset + raw.len() + usize::from(terminated);
        self.pos = end;
        let bytes = match self.config.cr {
            CrPolicy::StripOne => raw.strip_suffix(b"\r").unwrap_or(raw),
            CrPolicy::Keep => raw,
        };
        Some(Ok(Line {
            bytes,
            offset,
            end,
            terminated,
        }))
    }
}

impl core::iter::FusedIterator for Lines<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    fn contents(input: &[u8], config: LineConfig) -> Vec<Result<&[u8], Error>> {
        Lines::new(input, config)
            .map(|r| r.map(|l| l.bytes))
            .collect()
    }

    #[test]
    fn final_lf_adds_no_line_and_empty_input_has_none() {
        assert!(contents(b"", LineConfig::default()).is_empty());
        assert_eq!(contents(b"\n", LineConfig::default()), [Ok(&b""[..])]);
        assert_eq!(
            contents(b"a\n\n", LineConfig::default()),
            [Ok(&b"a"[..]), Ok(b"")]
        );
    }

    #[test]
    fn only_one_cr_is_stripped() {
        assert_eq!(
            contents(b"a\r\r\nb", LineConfig::default()),
            [Ok(&b"a\r"[..]), Ok(b"b")]
        );
        assert_eq!(contents(b"\r", LineConfig::default()), [Ok(&b""[..])]);
    }

    #[test]
    fn the_cap_counts_cr_but_not_lf() {
        let cfg = LineConfig::default().max_line_len(Some(3));
        assert_eq!(contents(b"abc\n", cfg), [Ok(&b"abc"[..])]);
        assert_eq!(
            contents(b"abc\r\n", cfg),
            [Err(Error::LineTooLong {
                offset: 0,
                len: 4,
                max: 3
            })]
        );
        assert_eq!(
            contents(b"x\nabcd", cfg),
            [
                Ok(&b"x"[..]),
                Err(Error::LineTooLong {
                    offset: 2,
                    len: 4,
                    max: 3
                })
            ]
        );
    }

    #[test]
    fn offsets_and_ends_tile_the_input() {
        let input = b"ab\r\n\ncd";
        let lines: Vec<Line<'_>> = Lines::new(input, LineConfig::default())
            .map(Result::unwrap)
            .collect();
        assert_eq!(
            lines.iter().map(|l| (l.offset, l.end)).collect::<Vec<_>>(),
            [(0, 4), (4, 5), (5, 7)]
        );
        assert!(!lines[2].terminated);
    }
}
