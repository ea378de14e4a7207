//! Line iteration with an explicit CR policy and a line-length cap.

use crate::flatten::{Flattener, Positions, SPAN};
use crate::scan::Scanner;

/// The scanner's block size (one mask bit per byte).
const BLOCK: usize = 64;
use crate::{Error, Fields};

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
    /// The whole input, so [`Line::fields`] can scan whole blocks.
    input: &'a [u8],
}

impl<'a> Line<'a> {
    /// The line's fields split on `delimiter`, with offsets in the whole
    /// input. Same result as [`Fields::new`]`(line.bytes, line.offset, d)`,
    /// faster: it scans the input in whole blocks instead of treating every
    /// line as a short buffer of its own.
    ///
    /// ```
    /// use wire_lex::{LineConfig, Lines};
    ///
    /// let line = Lines::new(b"x\ny\tz\n", LineConfig::default()).nth(1).unwrap()?;
    /// let cells: Vec<&[u8]> = line.fields(b'\t').map(|f| f.bytes).collect();
    /// assert_eq!(cells, [&b"y"[..], b"z"]);
    /// assert_eq!(line.fields(b'\t').nth(1).unwrap().offset, 4);
    /// # Ok::<(), wire_lex::Error>(())
    /// ```
    #[must_use]
    pub fn fields(&self, delimiter: u8) -> Fields<'a> {
        Fields::within(
            self.input,
            self.offset,
            self.offset + self.bytes.len(),
            delimiter,
        )
    }
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
    scan: Scanner<'a>,
    /// The LF positions not yet handed out in the block at `block`, as
    /// bits; walking them keeps the next LF off the previous line's
    /// dependency chain.
    bits: u64,
    /// Offset of the block `bits` describes (before the first call, one
    /// block before offset 0, wrapping).
    block: usize,
    /// Offset of the next line; `usize::MAX` once finished by an error.
    pos: usize,
    config: LineConfig,
    /// `config.max_line_len`, or `usize::MAX` for no cap.
    max: usize,
}

impl<'a> Lines<'a> {
    /// Lines of `input` under `config`.
    ///
    /// ```
    /// let mut it = wire_lex::Lines::new(b"x", Default::default());
    /// assert_eq!(it.next().unwrap().unwrap().bytes, b"x");
    /// ```
    #[must_use]
    pub fn new(input: &'a [u8], config: LineConfig) -> Self {
        Lines {
            input,
            scan: Scanner::new(input, b"\n"),
            bits: 0,
            // One block before 0: the first step lands on block 0.
            block: 0usize.wrapping_sub(BLOCK),
            pos: 0,
            config,
            max: match config.max_line_len {
                Some(max) => max,
                None => usize::MAX,
            },
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
    pub fn offset(&self) -> usize {
        self.pos.min(self.input.len())
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

impl<'a> Lines<'a> {
    /// The final line, which no LF ends (out of line: once per input).
    #[cold]
    #[inline(never)]
    fn last_line(&mut self, offset: usize) -> Option<Result<Line<'a>, Error>> {
        let raw = self.input.get(offset..)?;
        self.line(offset, raw, self.input.len(), false)
    }

    /// The line `raw` at `offset`: the cap, then the CR policy.
    #[inline(always)]
    fn line(
        &mut self,
        offset: usize,
        raw: &'a [u8],
        end: usize,
        terminated: bool,
    ) -> Option<Result<Line<'a>, Error>> {
        if raw.len() > self.max {
            return Some(Err(self.too_long(offset, raw.len())));
        }
        self.pos = end;
        let bytes = match (self.config.cr, raw.split_last()) {
            (CrPolicy::StripOne, Some((b'\r', head))) => head,
            _ => raw,
        };
        Some(Ok(Line {
            bytes,
            offset,
            end,
            terminated,
            input: self.input,
        }))
    }

    /// The cap's error; the iterator is finished after it.
    #[cold]
    #[inline(never)]
    fn too_long(&mut self, offset: usize, len: usize) -> Error {
        self.pos = usize::MAX;
        Error::LineTooLong {
            offset,
            len,
            max: self.max,
        }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Result<Line<'a>, Error>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let offset = self.pos;
        if offset >= self.input.len() {
            return None;
        }
        // Lines are handed out in order, so the next LF is the lowest bit
        // left in the current block, or in the next block that has one.
        while self.bits == 0 {
            self.block = self.block.wrapping_add(BLOCK);
            if self.block >= self.input.len() {
                return self.last_line(offset);
            }
            self.bits = self.scan.block_at(self.block);
        }
        let lf = self.block + self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        let raw = self.input.get(offset..lf)?;
        self.line(offset, raw, lf + 1, true)
    }

    /// `sum`, `count`, `for_each` and friends: the same items as `next`,
    /// from a loop that keeps the cursor in registers (through `next` it
    /// lives in the iterator, in memory, between two lines). Whole 512-byte
    /// windows are flattened into a list of LF positions first (see
    /// `flatten`), so the loop over lines has no branch that depends on how
    /// many LFs a block holds.
    #[inline]
    fn fold<B, F>(mut self, init: B, mut f: F) -> B
    where
        F: FnMut(B, Self::Item) -> B,
    {
        let mut acc = init;
        let input = self.input;
        let strip = self.config.cr == CrPolicy::StripOne;
        let max = self.max;
        let (mut pos, mut bits, mut block) = (self.pos, self.bits, self.block);
        let flattener = Flattener::detect();
        let mut lfs = Positions::new();
        // One line ending at the LF at `lf`: the cap, then the CR policy.
        // `pos <= lf < input.len()` on every call, so `line` never answers
        // `None`.
        let line = |pos: usize, lf: usize| -> Option<Result<Line<'a>, Error>> {
            let raw = input.get(pos..lf)?;
            if raw.len() > max {
                return Some(Err(Error::LineTooLong {
                    offset: pos,
                    len: raw.len(),
                    max,
                }));
            }
            // Branch-free: whether a line ends in CR is a coin toss in CSV
            // with quoted line breaks.
            let cr = usize::from(strip & (raw.last() == Some(&b'\r')));
            Some(Ok(Line {
                bytes: raw.get(..raw.len() - cr)?,
                offset: pos,
                end: lf + 1,
                terminated: true,
                input,
            }))
        };
        // Hands out the line ending at the LF at `lf` (an error ends the
        // fold).
        macro_rules! emit {
            ($lf:expr) => {{
                let lf = $lf;
                let Some(item) = line(pos, lf) else {
                    return acc;
                };
                if item.is_err() {
                    return f(acc, item);
                }
                pos = lf + 1;
                acc = f(acc, item);
            }};
        }
        while pos < input.len() {
            if bits == 0 {
                let next = block.wrapping_add(BLOCK);
                let window = input.get(next..).and_then(<[u8]>::first_chunk::<SPAN>);
                if let Some(window) = window {
                    flattener.run(window, b'\n', &mut lfs);
                    for &at in lfs.as_slice() {
                        emit!(next + usize::from(at));
                    }
                    block = next + SPAN - BLOCK;
                    continue;
                }
            }
            while bits == 0 {
                block = block.wrapping_add(BLOCK);
                if block >= input.len() {
                    self.pos = pos;
                    return match self.last_line(pos) {
                        Some(item) => f(acc, item),
                        None => acc,
                    };
                }
                bits = self.scan.block_at(block);
            }
            let lf = block + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            emit!(lf);
        }
        acc
    }
}

impl core::iter::FusedIterator for Lines<'_> {}

#[cfg(test)]
mod tests {

    /// `fold` (behind `sum`, `count`, `for_each`) gives exactly the items
    /// of `next`, errors and the final line included.
    #[test]
    fn fold_and_next_agree() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..3000 {
            // Short inputs, and every third one long enough for whole
            // 512-byte windows (the flattened path), with LFs from dense to
            // rarer than one per window.
            let len = round % 300 + if round % 3 == 0 { round * 7 % 2600 } else { 0 };
            let spread = [7, 3, 60, 700][round % 4];
            let input: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    match x % spread {
                        0 => b'\n',
                        1 => b'\r',
                        _ => b'a' + (x >> 8) as u8 % 26,
                    }
                })
                .collect();
            for cr in [CrPolicy::StripOne, CrPolicy::Keep] {
                for cap in [None, Some(0), Some(3), Some(40), Some(900)] {
                    let cfg = LineConfig::default().cr(cr).max_line_len(cap);
                    let by_next: Vec<_> = core::iter::from_fn({
                        let mut it = Lines::new(&input, cfg);
                        move || it.next()
                    })
                    .collect();
                    let by_fold = Lines::new(&input, cfg).fold(Vec::new(), |mut v, item| {
                        v.push(item);
                        v
                    });
                    assert_eq!(by_next, by_fold, "{input:?} {cfg:?}");
                    // After some lines through `next`, `fold` continues.
                    let mut it = Lines::new(&input, cfg);
                    let head: Vec<_> = it.by_ref().take(2).collect();
                    let tail = it.fold(Vec::new(), |mut v, item| {
                        v.push(item);
                        v
                    });
                    let joined: Vec<_> = head.into_iter().chain(tail).collect();
                    assert_eq!(by_next, joined, "{input:?} {cfg:?} split");
                }
            }
        }
    }

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
