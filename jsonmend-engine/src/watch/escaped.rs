//! The source a watch stream's engine reads: the input as received, or —
//! for a document escaped one level (R010) — its unescaped form, built as
//! the input arrives. Which one is decided by the first bytes, exactly as
//! one-shot repair decides it on the whole input.

use alloc::string::String;
use alloc::vec::Vec;

#[derive(Clone, Default)]
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
///
/// While the input is UTF-8 it is kept as text, so the engine writes its
/// pieces without checking them again; the bytes of a character cut by
/// the end of a chunk wait apart until it completes (the engine reads
/// whole characters, as if the chunk had ended before it). An invalid
/// sequence, or the end of the input inside a character, turns the text
/// into bytes, once.
#[derive(Clone, Default)]
pub(crate) struct Source {
    /// The input as text, while it is.
    text: String,
    /// The start of a character the last chunk cut (at most 3 bytes).
    tail: Vec<u8>,
    /// The whole input, once it is not text.
    bytes: Option<Vec<u8>>,
    kind: Kind,
    /// The input limit: the engine reads what the first `limit` input
    /// bytes give.
    limit: usize,
    /// For an escaped document: the source length the first `limit` input
    /// bytes gave.
    cut: Option<usize>,
}

/// The bytes the engine may read: the text, or the bytes once it is not.
fn visible<'s>(text: &'s str, bytes: &'s Option<Vec<u8>>) -> &'s [u8] {
    match bytes {
        Some(b) => b,
        None => text.as_bytes(),
    }
}

/// The length of the UTF-8 sequence a lead byte starts.
fn sequence_len(lead: u8) -> usize {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
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

    /// The received bytes the engine may read (all of them after
    /// [`Source::finish`]).
    pub(crate) fn input(&self) -> &[u8] {
        visible(&self.text, &self.bytes)
    }

    /// How many bytes arrived.
    pub(crate) fn len(&self) -> usize {
        match &self.bytes {
            Some(b) => b.len(),
            None => self.text.len() + self.tail.len(),
        }
    }

    /// The text and the cut character become bytes (`chunk` follows them).
    fn become_bytes(&mut self, chunk: &[u8]) {
        let mut b = core::mem::take(&mut self.text).into_bytes();
        b.extend_from_slice(&self.tail);
        b.extend_from_slice(chunk);
        self.tail.clear();
        self.bytes = Some(b);
    }

    /// Appends `chunk` to the text (a cut character's start waits in
    /// `tail`). At an invalid sequence the text, the cut character and
    /// the rest of the chunk become bytes: the text, `tail` and what is
    /// left of the chunk are always the input, in order.
    fn push_text(&mut self, chunk: &[u8]) {
        let mut rest = chunk;
        if let Some(&lead) = self.tail.first() {
            let take = sequence_len(lead)
                .saturating_sub(self.tail.len())
                .min(rest.len());
            let (head, after) = rest.split_at(take);
            self.tail.extend_from_slice(head);
            rest = after;
            match core::str::from_utf8(&self.tail) {
                Ok(c) => self.text.push_str(c),
                Err(e) if e.error_len().is_none() => return,
                Err(_) => return self.become_bytes(rest),
            }
            self.tail.clear();
        }
        match core::str::from_utf8(rest) {
            Ok(t) => self.text.push_str(t),
            Err(e) => {
                let (valid, cut) = rest.split_at(e.valid_up_to());
                self.text
                    .push_str(core::str::from_utf8(valid).unwrap_or_default());
                if e.error_len().is_some() {
                    self.become_bytes(cut);
                } else {
                    self.tail.extend_from_slice(cut);
                }
            }
        }
    }

    pub(crate) fn push(&mut self, chunk: &[u8]) {
        match &mut self.bytes {
            Some(b) => b.extend_from_slice(chunk),
            None => self.push_text(chunk),
        }
        self.pushed();
    }

    /// [`Source::push`] of text: with no character waiting to complete,
    /// it is appended as it is, without checking it again.
    pub(crate) fn push_str(&mut self, chunk: &str) {
        if self.bytes.is_none() && self.tail.is_empty() {
            self.text.push_str(chunk);
            self.pushed();
        } else {
            self.push(chunk.as_bytes());
        }
    }

    /// What follows every push: the input's kind once it shows, and the
    /// unescaping of what arrived.
    fn pushed(&mut self) {
        if let Kind::Undecided = self.kind {
            self.kind = match escaped_prefix(self.input()) {
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
        let input = visible(&self.text, &self.bytes);
        let mut mark = |done: usize, len: usize| {
            if done >= limit && cut.is_none() {
                *cut = Some(len);
            }
        };
        while let Some(&b) = input.get(*done) {
            mark(*done, src.len());
            if b != b'\\' {
                src.push(b);
                *done += 1;
                continue;
            }
            match input.get(*done + 1) {
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
        if !self.tail.is_empty() && self.bytes.is_none() {
            self.become_bytes(&[]);
        }
        if let Kind::Undecided = self.kind {
            self.kind = match crate::finish::escaped_document(self.input()) {
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

    /// Whether [`Source::finish`] would change nothing: plain input (not
    /// an escaped document, and known not to be one) with no character
    /// waiting for its last bytes.
    pub(crate) fn is_final(&self) -> bool {
        matches!(self.kind, Kind::Plain) && self.tail.is_empty()
    }

    /// Whether the engine's source is whole UTF-8 characters (plain text
    /// input, not cut inside a character by the input limit): its string
    /// scans may then copy non-ASCII runs without decoding them.
    pub(crate) fn utf8_known(&self) -> bool {
        matches!(self.kind, Kind::Plain)
            && self.bytes.is_none()
            && self.text.is_char_boundary(self.text.len().min(self.limit))
    }

    /// The engine's source as text when it is text (plain input not cut
    /// inside a character by the input limit), else empty.
    pub(crate) fn engine_text(&self) -> &str {
        match (&self.kind, &self.bytes) {
            (Kind::Plain, None) => self
                .text
                .get(..self.text.len().min(self.limit))
                .unwrap_or_default(),
            _ => "",
        }
    }

    /// What the engine reads, once decided.
    pub(crate) fn engine_src(&self) -> Option<&[u8]> {
        let input = self.input();
        match &self.kind {
            Kind::Undecided => None,
            Kind::Plain => input.get(..self.limit).or(Some(input)),
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

    /// Text pushed as `str` is the input that pushing its bytes makes,
    /// whole or after a cut character (which text cannot complete), and
    /// for escaped input too.
    #[test]
    fn text_pushed_as_str_is_its_bytes() {
        let cases: [&[&[u8]]; 4] = [
            &[b"[\"ab", b"\xC3\xA9\"", b", 1]"],
            &[b"[\"ab\xC3", b"x\"]"],
            &[b"[\"\xFF", b"\"]"],
            &[b"\"{\\\"a\\\": ", b"1}\""],
        ];
        for chunks in cases {
            let (mut by_bytes, mut by_str) = (Source::new(usize::MAX), Source::new(usize::MAX));
            for c in chunks {
                by_bytes.push(c);
                match core::str::from_utf8(c) {
                    Ok(t) => by_str.push_str(t),
                    Err(_) => by_str.push(c),
                }
                assert_eq!(by_str.input(), by_bytes.input(), "{chunks:?}");
                assert_eq!(by_str.len(), by_bytes.len());
                assert_eq!(by_str.utf8_known(), by_bytes.utf8_known());
                assert_eq!(by_str.engine_text(), by_bytes.engine_text());
                assert_eq!(by_str.engine_src(), by_bytes.engine_src());
            }
        }
    }

    /// Wherever the chunks cut a byte string — whole characters, cut ones,
    /// invalid lead bytes, stray continuations — the source ends the same:
    /// one byte at a time, whole, or in two pieces.
    #[test]
    fn any_split_gives_the_same_source() {
        let alphabet: [&[u8]; 9] = [
            b"a",
            b"\"",
            b"\xC3\xA9",
            b"\xE2\x82\xAC",
            b"\xF0\x9F\x98\x80",
            b"\xC3",
            b"\x80",
            b"\xFF",
            b"\xF8\x80",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2_000 {
            let mut text = alloc::vec::Vec::new();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut pick = seed;
            for _ in 0..(pick % 7) + 1 {
                pick /= 7;
                let piece = alphabet.get((pick % 9) as usize).copied().unwrap_or(b"a");
                pick /= 9;
                text.extend_from_slice(piece);
            }
            let end = |chunks: &[&[u8]]| {
                let mut s = Source::new(usize::MAX);
                let mut seen = alloc::vec::Vec::new();
                for c in chunks {
                    s.push(c);
                }
                seen.push((s.input().to_vec(), s.len(), s.utf8_known()));
                s.finish();
                seen.push((s.input().to_vec(), s.len(), s.utf8_known()));
                seen
            };
            let whole = end(&[&text]);
            let bytes: alloc::vec::Vec<&[u8]> = text.chunks(1).collect();
            assert_eq!(end(&bytes), whole, "{text:x?} byte by byte");
            for at in 0..=text.len() {
                let (a, b) = text.split_at(at);
                assert_eq!(end(&[a, b]), whole, "{text:x?} cut at {at}");
            }
        }
    }

    /// The engine reads whole characters: a chunk that cuts one holds its
    /// bytes back until the rest arrives, an invalid sequence turns the
    /// input into bytes for good, and the input limit must not cut a
    /// character of text either.
    #[test]
    fn the_engine_reads_whole_characters() {
        let mut s = Source::new(usize::MAX);
        s.push(b"[\"ab\xC3");
        assert!(s.utf8_known());
        assert_eq!((s.input(), s.len()), (&b"[\"ab"[..], 5));
        assert_eq!(s.engine_text(), "[\"ab");
        s.push(b"\xA9");
        assert_eq!(s.engine_text(), "[\"ab\u{e9}");
        // A character cut twice.
        s.push(b"\xE2\x82");
        assert_eq!((s.input().len(), s.len()), (6, 8));
        s.push(b"\xAC\"");
        assert_eq!(s.engine_text(), "[\"ab\u{e9}\u{20ac}\"");
        s.push(b", \"\xFF\"");
        assert!(!s.utf8_known());
        assert_eq!(s.engine_text(), "");
        assert_eq!(s.input(), b"[\"ab\xC3\xA9\xE2\x82\xAC\", \"\xFF\"");
        s.push(b"]");
        assert!(!s.utf8_known());
        assert_eq!(s.len(), 16);
        // A bad continuation completing a cut character.
        let mut bad = Source::new(usize::MAX);
        bad.push(b"[\"\xC3");
        bad.push(b"x\"]");
        assert!(!bad.utf8_known());
        assert_eq!(bad.input(), b"[\"\xC3x\"]");
        // The input ends inside a character: all of it is read at the end.
        let mut end = Source::new(usize::MAX);
        end.push(b"[\"\xF0\x9F");
        assert_eq!(end.input(), b"[\"");
        end.finish();
        assert_eq!(end.input(), b"[\"\xF0\x9F");
        assert!(!end.utf8_known());
        let mut cut = Source::new(4);
        cut.push(b"[\"a\xC3\xA9\"]");
        assert!(!cut.utf8_known());
        let mut whole = Source::new(5);
        whole.push(b"[\"a\xC3\xA9\"]");
        assert!(whole.utf8_known());
    }
}
