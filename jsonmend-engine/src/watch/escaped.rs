//! The source a watch stream's engine reads: the input as received, or —
//! for a document escaped one level (R010) — its unescaped form, built as
//! the input arrives. Which one is decided by the first bytes, exactly as
//! one-shot repair decides it on the whole input.

use alloc::string::String;
use alloc::vec::Vec;

#[derive(Default)]
enum Kind {
    /// Not enough input yet to tell.
    #[default]
    Undecided,
    Plain,
    /// Unescaped from `shift` on; `done` input bytes consumed.
    Escaped {
        shift: usize,
        src: Vec<u8>,
        done: usize,
    },
}

/// The received bytes and the engine's view of them.
#[derive(Default)]
pub(crate) struct Source {
    input: Vec<u8>,
    kind: Kind,
    /// The input limit: the engine reads what the first `limit` input
    /// bytes give.
    limit: usize,
    /// For an escaped document: the source length the first `limit` input
    /// bytes gave.
    cut: Option<usize>,
    /// The input's prefix known to be whole UTF-8 characters (checked once,
    /// as it arrives), and whether an invalid sequence came after it.
    utf8_upto: usize,
    utf8_bad: bool,
    /// `input[..utf8_upto]` as text: the engine writes pieces of it
    /// without checking them again (a copy, since the crate has no
    /// `unsafe` to view the bytes as text without a check).
    text: String,
}

fn skip_ws(input: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = input.get(i) {
        i += 1;
    }
    i
}

/// `escaped_document` on a prefix: `None` while more input could change
/// the answer.
fn escaped_prefix(input: &[u8]) -> Option<Option<usize>> {
    let at = skip_ws(input, 0);
    let quote_at = |i: usize| match (input.get(i), input.get(i + 1)) {
        (None, _) | (Some(b'\\'), None) => None,
        (Some(b'\\'), Some(b'"')) => Some(true),
        _ => Some(false),
    };
    match input.get(at)? {
        b'\\' => Some(quote_at(at)?.then_some(at)),
        b'{' | b'[' => Some(quote_at(skip_ws(input, at + 1))?.then_some(at)),
        _ => Some(None),
    }
}

/// One unescaped byte for `\X`.
fn unescaped(x: u8) -> Option<u8> {
    Some(match x {
        b'"' => b'"',
        b'\\' => b'\\',
        b'/' => b'/',
        b'n' => b'\n',
        b't' => b'\t',
        b'r' => b'\r',
        _ => return None,
    })
}

impl Source {
    pub(crate) fn new(limit: usize) -> Source {
        Source {
            limit,
            ..Source::default()
        }
    }

    pub(crate) fn input(&self) -> &[u8] {
        &self.input
    }

    pub(crate) fn push(&mut self, chunk: &[u8]) {
        self.input.extend_from_slice(chunk);
        if !self.utf8_bad {
            let rest = self.input.get(self.utf8_upto..).unwrap_or_default();
            match core::str::from_utf8(rest) {
                Ok(t) => {
                    self.text.push_str(t);
                    self.utf8_upto = self.input.len();
                }
                Err(e) => {
                    let valid = rest.get(..e.valid_up_to()).unwrap_or_default();
                    self.text
                        .push_str(core::str::from_utf8(valid).unwrap_or_default());
                    self.utf8_upto += e.valid_up_to();
                    // A sequence cut by the end of the chunk may still
                    // complete.
                    self.utf8_bad = e.error_len().is_some();
                }
            }
        }
        if let Kind::Undecided = self.kind {
            self.kind = match escaped_prefix(&self.input) {
                None => Kind::Undecided,
                Some(None) => Kind::Plain,
                Some(Some(shift)) => Kind::Escaped {
                    shift,
                    src: Vec::new(),
                    done: shift,
                },
            };
        }
        self.unescape(false);
    }

    /// Unescapes what arrived (a final backslash waits for its partner
    /// unless the input is complete).
    fn unescape(&mut self, last: bool) {
        let Kind::Escaped { src, done, .. } = &mut self.kind else {
            return;
        };
        let limit = self.limit;
        let cut = &mut self.cut;
        let mut mark = |done: usize, len: usize| {
            if done >= limit && cut.is_none() {
                *cut = Some(len);
            }
        };
        while let Some(&b) = self.input.get(*done) {
            mark(*done, src.len());
            if b != b'\\' {
                src.push(b);
                *done += 1;
                continue;
            }
            match self.input.get(*done + 1) {
                Some(&x) => {
                    match unescaped(x) {
                        Some(u) => src.push(u),
                        None => src.extend_from_slice(&[b'\\', x]),
                    }
                    *done += 2;
                }
                None if last => {
                    src.push(b'\\');
                    *done += 1;
                }
                None => break,
            }
        }
        mark(*done, src.len());
    }

    /// The input is complete.
    pub(crate) fn finish(&mut self) {
        if let Kind::Undecided = self.kind {
            self.kind = match crate::finish::escaped_document(&self.input) {
                None => Kind::Plain,
                Some(shift) => Kind::Escaped {
                    shift,
                    src: Vec::new(),
                    done: shift,
                },
            };
        }
        self.unescape(true);
    }

    /// Whether the engine's source is whole UTF-8 characters (plain input
    /// only, none cut by the end of what arrived or by the input limit):
    /// its string scans may then copy non-ASCII runs without decoding them.
    pub(crate) fn utf8_known(&self) -> bool {
        if self.utf8_bad || !matches!(self.kind, Kind::Plain) {
            return false;
        }
        let len = self.input.len().min(self.limit);
        let cut_by_limit = self.input.get(len).is_some_and(|&b| b & 0xC0 == 0x80);
        self.utf8_upto >= len && !cut_by_limit
    }

    /// The engine's source as text, as far as it is known to be text
    /// (empty for an escaped document, whose source is built apart).
    pub(crate) fn engine_text(&self) -> &str {
        match self.kind {
            Kind::Plain => {
                let upto = self.text.len().min(self.limit);
                self.text.get(..upto).unwrap_or_default()
            }
            _ => "",
        }
    }

    /// What the engine reads, once decided.
    pub(crate) fn engine_src(&self) -> Option<&[u8]> {
        match &self.kind {
            Kind::Undecided => None,
            Kind::Plain => self.input.get(..self.limit).or(Some(&self.input)),
            Kind::Escaped { src, .. } => src.get(..self.cut.unwrap_or(src.len())),
        }
    }

    /// Where the escaped document starts (offsets of the engine's source
    /// are placed in the input by adding it), 0 otherwise.
    pub(crate) fn shift(&self) -> usize {
        match self.kind {
            Kind::Escaped { shift, .. } => shift,
            _ => 0,
        }
    }

    pub(crate) fn escaped(&self) -> bool {
        matches!(self.kind, Kind::Escaped { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::Source;

    /// Whole characters so far: a chunk that cuts one waits for the rest,
    /// an invalid sequence ends it for good, and the input limit must not
    /// cut one either.
    #[test]
    fn utf8_known_follows_whole_characters() {
        let mut s = Source::new(usize::MAX);
        s.push(b"[\"ab\xC3");
        assert!(!s.utf8_known());
        s.push(b"\xA9\"");
        assert!(s.utf8_known());
        s.push(b", \"\xFF\"");
        assert!(!s.utf8_known());
        s.push(b"]");
        assert!(!s.utf8_known());
        let mut cut = Source::new(4);
        cut.push(b"[\"a\xC3\xA9\"]");
        assert!(!cut.utf8_known());
        let mut whole = Source::new(5);
        whole.push(b"[\"a\xC3\xA9\"]");
        assert!(whole.utf8_known());
    }
}
