//! Deterministic mutations of corpus inputs (deletions, truncations,
//! insertions of the characters repairs care about), shared by the
//! invariant and watch property tests.

use super::docs::Rng;

pub(crate) const PIECES: &[&str] = &[
    "\"",
    "'",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    ",",
    ":",
    " ",
    "\n",
    "\\",
    "/*",
    "*/",
    "//",
    "#",
    "```",
    "`",
    "+",
    "-",
    ".",
    "e",
    "0",
    "1",
    "True",
    "nul",
    "...",
    "\u{201c}",
    "\u{201d}",
    "\u{a0}",
    "\u{ff1a}",
    "\\u",
    "\\ud800",
    "<tool_call>",
    "</tool_call>",
    "data: ",
    "\r",
    "\u{2212}",
    "_",
    "a",
    "é",
    "\u{0}",
    "NaN",
    ";",
    "=",
];

/// `rng.below` for lengths.
pub(crate) fn below(rng: &mut Rng, n: usize) -> usize {
    rng.below(n as u64) as usize
}

pub(crate) fn mutate(rng: &mut Rng, s: &str) -> Vec<u8> {
    let mut b = s.as_bytes().to_vec();
    for _ in 0..=below(rng, 3) {
        let at = below(rng, b.len() + 1);
        match below(rng, 4) {
            0 if !b.is_empty() => {
                let at = at.min(b.len() - 1);
                b.remove(at);
            }
            1 => b.truncate(at),
            _ => {
                let piece = PIECES[below(rng, PIECES.len())].as_bytes();
                b.splice(at..at, piece.iter().copied());
            }
        }
    }
    b
}
