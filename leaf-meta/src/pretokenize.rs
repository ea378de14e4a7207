//! The pre-tokenizer: program v1 (§3.4) and the three known patterns
//! translated to it (§3.5). One cursor, ops tried in order, the first that
//! matches at least one code point emits a piece; every step is linear in
//! the piece it emits (plus one look at the next code point), so a whole
//! segment is split in linear time.

use alloc::string::String;
use alloc::vec::Vec;

use crate::unicode::{Class, class, is_space};

/// What may precede the letters of a `letters` op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lead {
    /// No lead.
    None,
    /// One code point that is not CR, LF, L or N.
    Other,
    /// One U+0020.
    Space,
}

/// One op of a v1 program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    /// The longest pattern the text starts with; `ci`: ASCII-only case
    /// folding.
    Literals { patterns: Vec<String>, ci: bool },
    /// An optional lead, then one or more L.
    Letters { lead: Lead },
    /// An optional U+0020 (with `lead_space`), then 1..=`max_run` N.
    Numbers {
        max_run: Option<usize>,
        lead_space: bool,
    },
    /// An optional U+0020, one or more Other, then (with
    /// `trailing_newlines`) any run of CR/LF.
    PunctRun {
        lead_space: bool,
        trailing_newlines: bool,
    },
    /// A WS run containing CR/LF, up to and including its last CR/LF.
    NewlineBlock,
    /// A WS run reaching the end; otherwise the run minus its last code
    /// point, if that leaves one.
    TrailingWs,
    /// A WS run.
    WsRun,
}

/// A v1 program: ops in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Program {
    pub(crate) ops: Vec<Op>,
}

const CONTRACTIONS: [&str; 7] = ["'s", "'t", "'re", "'ve", "'m", "'ll", "'d"];

/// The qwen2 pattern (§3.5), and its `\p{N}{1,3}` variant.
pub(crate) const QWEN2_PATTERN: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";
pub(crate) const QWEN2_PATTERN_N3: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";
/// The GPT-2 pattern (r50k).
pub(crate) const GPT2_PATTERN: &str =
    r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+";

impl Program {
    fn contractions() -> Vec<String> {
        CONTRACTIONS.iter().map(|s| String::from(*s)).collect()
    }

    /// The qwen2 program (`max_run` 1, or 3 for the `{1,3}` variant).
    pub(crate) fn qwen2(max_run: usize) -> Program {
        Program {
            ops: alloc::vec![
                Op::Literals {
                    patterns: Program::contractions(),
                    ci: true
                },
                Op::Letters { lead: Lead::Other },
                Op::Numbers {
                    max_run: Some(max_run),
                    lead_space: false
                },
                Op::PunctRun {
                    lead_space: true,
                    trailing_newlines: true
                },
                Op::NewlineBlock,
                Op::TrailingWs,
                Op::WsRun,
            ],
        }
    }

    /// The GPT-2 (r50k) program.
    pub(crate) fn gpt2() -> Program {
        Program {
            ops: alloc::vec![
                Op::Literals {
                    patterns: Program::contractions(),
                    ci: false
                },
                Op::Letters { lead: Lead::Space },
                Op::Numbers {
                    max_run: None,
                    lead_space: true
                },
                Op::PunctRun {
                    lead_space: true,
                    trailing_newlines: false
                },
                Op::TrailingWs,
                Op::WsRun,
            ],
        }
    }

    /// The program equal to a known pattern (exact string equality).
    pub(crate) fn from_pattern(pattern: &str) -> Option<Program> {
        match pattern {
            QWEN2_PATTERN => Some(Program::qwen2(1)),
            QWEN2_PATTERN_N3 => Some(Program::qwen2(3)),
            GPT2_PATTERN => Some(Program::gpt2()),
            _ => None,
        }
    }

    /// Splits `segment` into pieces, in order; the pieces tile it.
    pub(crate) fn split<'s>(&self, segment: &'s str, mut piece: impl FnMut(&'s str)) {
        let mut i = 0;
        while i < segment.len() {
            let end = self
                .ops
                .iter()
                .find_map(|op| op.match_at(segment, i))
                // No op matched (the loader refuses such programs): one
                // code point, so the scan always advances.
                .unwrap_or_else(|| next_char(segment, i).map_or(segment.len(), |(_, e)| e));
            piece(segment.get(i..end).unwrap_or_default());
            i = end;
        }
    }
}

/// The code point at byte `i` and the byte index after it.
#[inline]
fn next_char(s: &str, i: usize) -> Option<(char, usize)> {
    let c = s.get(i..)?.chars().next()?;
    Some((c, i + c.len_utf8()))
}

/// The end of the run of code points from `i` satisfying `pred`, at most
/// `max` of them.
#[inline]
fn run_end(s: &str, mut i: usize, max: usize, pred: impl Fn(char) -> bool) -> usize {
    let mut n = 0;
    while n < max {
        match next_char(s, i) {
            Some((c, e)) if pred(c) => {
                i = e;
                n += 1;
            }
            _ => break,
        }
    }
    i
}

fn is_letter(c: char) -> bool {
    class(c) == Class::Letter
}

fn is_number(c: char) -> bool {
    class(c) == Class::Number
}

fn is_other(c: char) -> bool {
    class(c) == Class::Other
}

fn is_newline(c: char) -> bool {
    c == '\r' || c == '\n'
}

impl Op {
    /// The end of this op's match at `i`, if it matches at least one code
    /// point.
    fn match_at(&self, s: &str, i: usize) -> Option<usize> {
        let (c, after) = next_char(s, i)?;
        let end = match self {
            Op::Literals { patterns, ci } => {
                let rest = s.get(i..)?.as_bytes();
                patterns
                    .iter()
                    .map(String::as_bytes)
                    .filter(|p| {
                        rest.get(..p.len()).is_some_and(|head| {
                            if *ci {
                                head.eq_ignore_ascii_case(p)
                            } else {
                                head == *p
                            }
                        })
                    })
                    .map(<[u8]>::len)
                    .max()
                    .map(|len| i + len)?
            }
            Op::Letters { lead } => {
                if is_letter(c) {
                    run_end(s, i, usize::MAX, is_letter)
                } else {
                    let lead_ok = match lead {
                        Lead::None => false,
                        Lead::Space => c == ' ',
                        Lead::Other => !is_newline(c) && !is_number(c),
                    };
                    let (next, _) = next_char(s, after)?;
                    if !lead_ok || !is_letter(next) {
                        return None;
                    }
                    run_end(s, after, usize::MAX, is_letter)
                }
            }
            Op::Numbers {
                max_run,
                lead_space,
            } => {
                let max = max_run.unwrap_or(usize::MAX);
                let start = if *lead_space
                    && c == ' '
                    && next_char(s, after).is_some_and(|(n, _)| is_number(n))
                {
                    after
                } else {
                    i
                };
                run_end(s, start, max, is_number)
            }
            Op::PunctRun {
                lead_space,
                trailing_newlines,
            } => {
                let start = if *lead_space
                    && c == ' '
                    && next_char(s, after).is_some_and(|(n, _)| is_other(n))
                {
                    after
                } else {
                    i
                };
                let end = run_end(s, start, usize::MAX, is_other);
                if end == start {
                    return None;
                }
                if *trailing_newlines {
                    run_end(s, end, usize::MAX, is_newline)
                } else {
                    end
                }
            }
            Op::NewlineBlock => {
                let run = run_end(s, i, usize::MAX, is_space);
                let last_nl = s.get(i..run)?.rfind(['\r', '\n'])?;
                i + last_nl + 1
            }
            Op::TrailingWs => {
                let run = run_end(s, i, usize::MAX, is_space);
                if run == i {
                    return None;
                }
                if run == s.len() {
                    run
                } else {
                    // Minus the last code point, if one is left.
                    let last = s.get(i..run)?.chars().next_back()?.len_utf8();
                    run - last
                }
            }
            Op::WsRun => run_end(s, i, usize::MAX, is_space),
        };
        (end > i).then_some(end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces<'s>(p: &Program, s: &'s str) -> Vec<&'s str> {
        let mut out = Vec::new();
        p.split(s, |piece| out.push(piece));
        out
    }

    #[test]
    fn qwen2_examples() {
        let q = Program::qwen2(1);
        assert_eq!(pieces(&q, "Hello, world!"), ["Hello", ",", " world", "!"]);
        assert_eq!(pieces(&q, "   three"), ["  ", " three"]);
        assert_eq!(pieces(&q, "word \n next"), ["word", " \n", " next"]);
        assert_eq!(
            pieces(&q, "trailing three   "),
            ["trailing", " three", "   "]
        );
        assert_eq!(pieces(&q, "2024"), ["2", "0", "2", "4"]);
        assert_eq!(pieces(&q, "I'M here"), ["I", "'M", " here"]);
        assert_eq!(pieces(&q, "a\u{2019}s"), ["a", "\u{2019}s"]);
        assert_eq!(pieces(&q, "x.\n\ny"), ["x", ".\n\n", "y"]);
    }

    #[test]
    fn gpt2_examples() {
        let g = Program::gpt2();
        assert_eq!(pieces(&g, "Hello, world!"), ["Hello", ",", " world", "!"]);
        assert_eq!(pieces(&g, "year 2024 ok"), ["year", " 2024", " ok"]);
        assert_eq!(pieces(&g, "a  b"), ["a", " ", " b"]);
        assert_eq!(pieces(&g, "I'M"), ["I", "'", "M"]);
    }

    #[test]
    fn pieces_tile_any_text() {
        let text = "mixé\u{301}d ²½ \t\r\n\u{3000}日本語 😀!! x\u{85}";
        for p in [Program::qwen2(1), Program::qwen2(3), Program::gpt2()] {
            assert_eq!(pieces(&p, text).concat(), text);
        }
    }

    #[test]
    fn patterns_are_recognised_exactly() {
        assert_eq!(
            Program::from_pattern(QWEN2_PATTERN),
            Some(Program::qwen2(1))
        );
        assert_eq!(Program::from_pattern(GPT2_PATTERN), Some(Program::gpt2()));
        assert_eq!(Program::from_pattern("\\s+"), None);
    }
}
