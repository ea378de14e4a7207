//! Characters, whitespace, comments and the probes every part shares.

use super::{Engine, L, State, Track};
use crate::rules::Rule;

/// A decoded character: its scalar (U+FFFD for a bad byte), its length and
/// whether the bytes were valid UTF-8.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ch {
    pub(crate) c: char,
    pub(crate) len: usize,
    pub(crate) valid: bool,
}

/// Decodes the character at `at` (`None` at the end), validating UTF-8 by
/// hand (no overlongs, no surrogates, nothing past U+10FFFF).
#[inline]
pub(crate) fn decode(src: &[u8], at: usize) -> Option<Ch> {
    let b = *src.get(at)?;
    if b < 0x80 {
        return Some(Ch {
            c: char::from(b),
            len: 1,
            valid: true,
        });
    }
    let bad = Ch {
        c: '\u{FFFD}',
        len: 1,
        valid: false,
    };
    let cont = |i: usize| {
        src.get(at + i)
            .copied()
            .filter(|c| c & 0xC0 == 0x80)
            .map(|c| u32::from(c & 0x3F))
    };
    let (cp, len) = match b {
        0xC2..=0xDF => match cont(1) {
            Some(c1) => ((u32::from(b & 0x1F) << 6) | c1, 2),
            None => return Some(bad),
        },
        0xE0..=0xEF => match (cont(1), cont(2)) {
            (Some(c1), Some(c2)) => ((u32::from(b & 0x0F) << 12) | (c1 << 6) | c2, 3),
            _ => return Some(bad),
        },
        0xF0..=0xF4 => match (cont(1), cont(2), cont(3)) {
            (Some(c1), Some(c2), Some(c3)) => {
                ((u32::from(b & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3, 4)
            }
            _ => return Some(bad),
        },
        _ => return Some(bad),
    };
    let min = match len {
        2 => 0x80,
        3 => 0x800,
        _ => 0x10000,
    };
    match char::from_u32(cp) {
        Some(c) if cp >= min => Some(Ch {
            c,
            len,
            valid: true,
        }),
        _ => Some(bad),
    }
}

/// The quote characters of spec §0.
pub(crate) fn is_quote(c: char) -> bool {
    matches!(
        c,
        '"' | '\'' | '\u{201C}' | '\u{201D}' | '\u{2018}' | '\u{2019}' | '`' | '\u{B4}'
    )
}

/// Non-ASCII whitespace replaced between tokens (R002).
pub(crate) fn is_special_ws(c: char) -> bool {
    matches!(
        c,
        '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200B}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{2060}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

pub(crate) fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$'
}

pub(crate) fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// Where whitespace read at the current position goes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sink {
    Out,
    Held,
    Drop,
}

impl<T: Track> Engine<'_, T> {
    #[inline]
    pub(crate) fn ch(&self, at: usize) -> Option<Ch> {
        self.work.add(1);
        let ch = decode(self.src, at);
        if self.is_partial() {
            // A sequence is examined to its last byte (all of what is
            // there, when it is cut short).
            let lead = self.src.get(at).copied().unwrap_or(0);
            let need = match lead {
                0xC2..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xF4 => 4,
                _ => 1,
            };
            self.saw(at + need - 1);
        }
        ch
    }

    /// Whether the character at `at` is cut by the end of a partial input.
    #[inline]
    pub(crate) fn cut_at(&self, at: usize) -> bool {
        if !self.is_partial() {
            return false;
        }
        let need = match self.src.get(at) {
            None => return true,
            Some(0xC2..=0xDF) => 2,
            Some(0xE0..=0xEF) => 3,
            Some(0xF0..=0xF4) => 4,
            Some(_) => 1,
        };
        at + need > self.src.len()
    }

    /// The first offset at or after `at` that is not a space or tab.
    pub(crate) fn skip_blank(&self, mut at: usize) -> usize {
        while let Some(b' ' | b'\t') = self.byte(at) {
            at += 1;
        }
        at
    }

    /// The first offset at or after `at` that is not whitespace (LF too).
    pub(crate) fn skip_space(&self, mut at: usize) -> usize {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.byte(at) {
            at += 1;
        }
        at
    }

    /// Whether a comment starts at `at` (`//`, `/*`).
    pub(crate) fn comment_at(&self, at: usize) -> bool {
        self.byte(at) == Some(b'/') && matches!(self.byte(at + 1), Some(b'/' | b'*'))
    }

    /// Where whitespace goes at the current position.
    pub(crate) fn sink(&self) -> Sink {
        match self.stack.last() {
            None => Sink::Drop,
            Some(f) => match f.state {
                State::After => Sink::Held,
                State::Key | State::Elem if f.items > 0 => Sink::Held,
                _ => Sink::Out,
            },
        }
    }

    /// Whether the current position expects a value (`#` is content there).
    pub(crate) fn value_position(&self) -> bool {
        match self.stack.last() {
            None => !self.top_done,
            Some(f) => matches!(f.state, State::Value | State::Elem),
        }
    }

    /// Writes a space where whitespace goes (special whitespace becomes
    /// one).
    fn put_space(&mut self, sink: Sink) {
        match sink {
            Sink::Out => self.out.push(b' '),
            Sink::Held => self.held.push(b' '),
            Sink::Drop => {}
        }
    }

    /// Skips whitespace (R002 for non-ASCII) and comments (R003/R004);
    /// stops at a fence close or a closing tag (sets `stop`).
    #[inline(always)]
    pub(crate) fn trivia(&mut self) {
        // Most tokens follow no whitespace or comment at all.
        match self.peek() {
            Some(b' ' | b'\t' | b'\n' | b'\r' | b'/' | b'#' | 0x80..=0xFF) | None => {}
            Some(_) => {
                if (self.fence.is_some() || !self.tags.is_empty()) && self.terminator_here() {
                    self.stop = true;
                }
                return;
            }
        }
        let sink = self.sink();
        loop {
            let start = self.pos;
            // The blank run in one scan, counted and tracked as looking at
            // each blank and the byte after the run one at a time would.
            let rest = self.src.get(start..).unwrap_or_default();
            let run = rest
                .iter()
                .position(|&b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
                .unwrap_or(rest.len());
            self.work.add(run + 1);
            self.saw(start + run);
            self.pos = start + run;
            // (The run and the byte after it are examined: seen above.)
            if self.pos > start {
                self.work.add(run);
                match sink {
                    Sink::Out => self.put_range(start, self.pos),
                    Sink::Held => self.hold_range(start, self.pos),
                    Sink::Drop => {}
                }
            }
            let Some(b) = self.peek_seen() else { return };
            if b == b'/' && self.byte(self.pos + 1) == Some(b'/') {
                self.line_comment();
            } else if b == b'/' && self.byte(self.pos + 1) == Some(b'*') {
                self.block_comment();
            } else if b == b'#' && !self.value_position() {
                self.line_comment();
            } else if b >= 0x80 {
                match self.ch(self.pos) {
                    Some(ch) if is_special_ws(ch.c) => {
                        let code = super::Detail::Code(ch.c as u32);
                        self.note_weighted(Rule::SpecialWhitespace, self.pos, code, 1);
                        self.put_space(sink);
                        self.pos += ch.len;
                    }
                    _ => return,
                }
            } else {
                if (self.fence.is_some() || !self.tags.is_empty()) && self.terminator_here() {
                    self.stop = true;
                }
                return;
            }
        }
    }

    /// A closing fence with no fence open: a run of three or more backticks
    /// or tildes with nothing but spaces and tabs after it on its line,
    /// where the top container awaits a key or has just read an item (a
    /// fence where a value is awaited may open a code block written as the
    /// value). The document ends there as at the closing fence of an open
    /// one (what follows is read between documents: the fence is R005).
    /// Only the first byte of a run is looked at, and at most [`L`] blanks
    /// after it, so no byte is scanned again by the next token.
    pub(crate) fn stray_fence_here(&self) -> bool {
        if self.fence.is_some()
            || !self
                .stack
                .last()
                .is_some_and(|f| matches!(f.state, State::After | State::Key))
        {
            return false;
        }
        let Some(c) = self.byte(self.pos) else {
            return false;
        };
        if self.pos > 0 && self.src.get(self.pos - 1) == Some(&c) {
            return false;
        }
        let run = self.run_of(self.pos, c);
        if !(3..=L).contains(&run) {
            return false;
        }
        let mut at = self.pos + run;
        while matches!(self.byte(at), Some(b' ' | b'\t')) {
            if at > self.pos + run + L {
                return false;
            }
            at += 1;
        }
        matches!(self.byte(at), None | Some(b'\n' | b'\r'))
    }

    pub(crate) fn line_comment(&mut self) {
        self.note(Rule::LineComment, self.pos);
        let start = self.pos;
        let from = self
            .memo_resume(super::MEMO_LINE, start)
            .map_or(start, |m| m.0);
        let rest = self.src.get(from..).unwrap_or_default();
        let len = rest
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .unwrap_or(rest.len());
        self.work.add(len + 1);
        self.pos = from + len;
        self.saw(self.pos);
        self.memo_keep(super::MEMO_LINE, start, (self.pos, 0), 0);
    }

    pub(crate) fn block_comment(&mut self) {
        self.note(Rule::BlockComment, self.pos);
        let start = self.pos;
        // A `*` at the end of an earlier attempt may start the `*/`.
        let from = self
            .memo_resume(super::MEMO_BLOCK, start)
            .map_or(start + 2, |m| m.0.saturating_sub(1).max(start + 2));
        let rest = self.src.get(from..).unwrap_or_default();
        let close = rest.windows(2).position(|w| w == b"*/");
        let len = close.map_or(rest.len(), |p| p + 2);
        self.work.add(len + 2);
        self.pos = from + len;
        if close.is_none() {
            self.memo_keep(super::MEMO_BLOCK, start, (self.pos, 0), 0);
        }
        // The whole close, or the end when there is none.
        self.saw(if self.pos >= self.src.len() {
            self.src.len()
        } else {
            self.pos - 1
        });
    }

    /// A fence close (the open fence's character, at least as long) or a
    /// closing tag of a remembered name starts at `pos`.
    pub(crate) fn terminator_here(&self) -> bool {
        self.fence_close_len(self.pos).is_some() || self.closing_tag_len(self.pos).is_some()
    }

    /// Length of a closing fence at `at`, if one is there.
    pub(crate) fn fence_close_len(&self, at: usize) -> Option<usize> {
        let (c, n) = self.fence?;
        let run = self.run_of(at, c);
        // A shorter run of two still closes: models cut the fence short.
        (run >= n.min(2)).then_some(run)
    }

    /// Length of a run of `c` at `at`.
    pub(crate) fn run_of(&self, at: usize, c: u8) -> usize {
        let n = self
            .src
            .get(at..)
            .unwrap_or_default()
            .iter()
            .take_while(|&&b| b == c)
            .count();
        self.work.add(n + 1);
        self.saw(at + n);
        n
    }

    /// Length of `</NAME>` at `at` for a remembered NAME.
    pub(crate) fn closing_tag_len(&self, at: usize) -> Option<usize> {
        if self.tags.is_empty() || self.byte(at) != Some(b'<') || self.byte(at + 1) != Some(b'/') {
            return None;
        }
        let rest = self.src.get(at + 2..).unwrap_or_default();
        self.work
            .add(self.tags.iter().map(|t| t.len() + 1).sum::<usize>());
        // Every name is compared with its `>` (over-approximated).
        let longest = self.tags.iter().map(|t| t.len()).max().unwrap_or(0);
        self.saw(at + 2 + longest);
        self.tags.iter().find_map(|name| {
            let tail = rest.strip_prefix(name.as_slice())?;
            (tail.first() == Some(&b'>')).then_some(name.len() + 3)
        })
    }

    /// Probe: optional whitespace, a key (quoted within `L` on one line, or a
    /// bare identifier, with or without the closing quote of a key missing
    /// its opening one) and `:` from `at`.
    pub(crate) fn key_colon_at(&self, at: usize, bare_ok: bool) -> bool {
        let at = self.skip_space(at);
        let Some(ch) = self.ch(at) else { return false };
        let end = if is_quote(ch.c) {
            match self.find_on_line(at + ch.len, is_quote) {
                Some(close) => close + self.ch(close).map_or(1, |c| c.len),
                None => return false,
            }
        } else if bare_ok
            && self
                .byte(at)
                .is_some_and(|b| is_ident_start(b) || b.is_ascii_digit())
        {
            let mut e = at;
            while self
                .byte(e)
                .is_some_and(|b| is_ident(b) || b == b'-' || b == b'.')
            {
                e += 1;
            }
            // A key missing its opening quote (R017) ends with its closing
            // one.
            match self.ch(e) {
                Some(c) if is_quote(c.c) => e + c.len,
                _ => e,
            }
        } else {
            return false;
        };
        let next = self.skip_blank(end);
        self.byte(next) == Some(b':') || self.ch(next).is_some_and(|c| c.c == '\u{FF1A}')
    }

    /// The first char on the line from `from` (within `L`) that satisfies
    /// `pred`.
    pub(crate) fn find_on_line(&self, from: usize, pred: impl Fn(char) -> bool) -> Option<usize> {
        let mut at = from;
        let limit = from + L;
        while at < limit {
            let ch = self.ch(at)?;
            if ch.c == '\n' || ch.c == '\r' {
                return None;
            }
            if pred(ch.c) {
                return Some(at);
            }
            at += ch.len;
        }
        None
    }
}
