//! The strict validator: RFC 8259 in well-formed UTF-8, no unpaired
//! surrogate escape, duplicate keys found. Iterative, no output, the input
//! only borrowed: this is the fast path of spec §2.3.

use alloc::vec::Vec;

use crate::keys::{KeyIndex, Keys};

/// What the validator found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Check {
    /// Strict JSON; the duplicate keys as (offset of the key, key span
    /// without quotes).
    Valid(Vec<(usize, usize, usize)>),
    /// The first deviation is at this offset.
    Invalid(usize),
    /// Nesting deeper than the limit at this offset.
    TooDeep(usize),
}

struct Frame {
    object: bool,
    key_base: usize,
    index: KeyIndex,
    /// The object's keys so far are, byte for byte, the first `matched`
    /// keys of the shape remembered at its depth (so they are distinct and
    /// were not indexed).
    follow: bool,
    matched: usize,
    /// A duplicate key was found in this object.
    dup: bool,
}

/// Offset of the first byte in `bytes` that is `"`, `\\`, a control
/// character or (unless the input is known UTF-8) non-ASCII; eight bytes at
/// a time.
pub(crate) fn find_string_stop(bytes: &[u8], stop_high: bool) -> Option<usize> {
    string_stop_at(bytes, 0, stop_high)
}

/// [`find_string_stop`] from offset `at` of `src`, as an offset of `src`:
/// eight-byte words read in place (no chunk iterator to set up, which is
/// most of the cost for the short strings of a document).
#[inline(always)]
fn string_stop_at(src: &[u8], mut at: usize, stop_high: bool) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let high_mask = if stop_high { HIGH } else { 0 };
    while let Some(word) = src.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        let w = u64::from_le_bytes(*word);
        let quote = w ^ (ONES * u64::from(b'"'));
        let slash = w ^ (ONES * u64::from(b'\\'));
        let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
        let ctrl = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
        let hit = zero(quote) | zero(slash) | ctrl | (w & high_mask);
        if hit != 0 {
            return Some(at + (hit.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    src.get(at..)?
        .iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20 || (stop_high && b >= 0x80))
        .map(|p| at + p)
}

/// Validates `src` as strict JSON with at most `max_depth` nesting levels;
/// `utf8_known` skips the UTF-8 check (the input came as `&str`).
pub(crate) fn check(src: &[u8], max_depth: usize, utf8_known: bool) -> Check {
    let mut v = Validator {
        escaped: false,
        utf8_known,
        src,
        pos: 0,
        stack: Vec::new(),
        keys: Keys::default(),
        dups: Vec::new(),
        shapes: Vec::new(),
    };
    match v.run(max_depth) {
        Ok(()) => Check::Valid(v.dups),
        Err(Stop::Invalid) => Check::Invalid(v.pos),
        Err(Stop::Deep) => Check::TooDeep(v.pos),
    }
}

enum Stop {
    Invalid,
    Deep,
}

struct Validator<'a> {
    /// The last string read had an escape.
    escaped: bool,
    utf8_known: bool,
    src: &'a [u8],
    pos: usize,
    stack: Vec<Frame>,
    keys: Keys,
    dups: Vec<(usize, usize, usize)>,
    /// Per depth, the key spans of the last object closed there with no
    /// duplicate key: records in an array usually repeat their keys, and a
    /// key equal byte for byte to the shape's next one needs no index.
    shapes: Vec<Vec<(usize, usize)>>,
}

/// Whether the raw key spans `a` and `b` of `src` hold the same bytes (one
/// masked eight-byte compare for short keys).
#[inline(always)]
fn same_key(src: &[u8], a: (usize, usize), b: (usize, usize)) -> bool {
    let n = a.1.wrapping_sub(a.0);
    if n != b.1.wrapping_sub(b.0) {
        return false;
    }
    if n < 8 {
        if let (Some(x), Some(y)) = (
            src.get(a.0..).and_then(<[u8]>::first_chunk::<8>),
            src.get(b.0..).and_then(<[u8]>::first_chunk::<8>),
        ) {
            let mask = (1u64 << (8 * n)) - 1;
            return (u64::from_le_bytes(*x) ^ u64::from_le_bytes(*y)) & mask == 0;
        }
    }
    src.get(a.0..a.1) == src.get(b.0..b.1)
}

impl Validator<'_> {
    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn run(&mut self, max_depth: usize) -> Result<(), Stop> {
        self.ws();
        loop {
            // A value is expected here.
            match self.peek() {
                Some(b'{') => {
                    self.open(true, max_depth)?;
                    self.ws();
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                        self.close();
                    } else {
                        self.key()?;
                        continue;
                    }
                }
                Some(b'[') => {
                    self.open(false, max_depth)?;
                    self.ws();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        self.close();
                    } else {
                        continue;
                    }
                }
                Some(b'"') => self.string()?,
                Some(b't') => self.word(b"true")?,
                Some(b'f') => self.word(b"false")?,
                Some(b'n') => self.word(b"null")?,
                Some(b'-' | b'0'..=b'9') => self.number()?,
                _ => return Err(Stop::Invalid),
            }
            // After a value: separators and closers.
            loop {
                self.ws();
                let Some(top) = self.stack.last() else {
                    return if self.pos == self.src.len() {
                        Ok(())
                    } else {
                        Err(Stop::Invalid)
                    };
                };
                let object = top.object;
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        self.ws();
                        if object {
                            self.key()?;
                        }
                        break;
                    }
                    Some(b'}') if object => {
                        self.pos += 1;
                        self.close();
                    }
                    Some(b']') if !object => {
                        self.pos += 1;
                        self.close();
                    }
                    _ => return Err(Stop::Invalid),
                }
            }
        }
    }

    fn open(&mut self, object: bool, max_depth: usize) -> Result<(), Stop> {
        if self.stack.len() >= max_depth {
            return Err(Stop::Deep);
        }
        self.pos += 1;
        let depth = self.stack.len();
        let follow = object && self.shapes.get(depth).is_some_and(|t| !t.is_empty());
        self.stack.push(Frame {
            object,
            key_base: self.keys.base(),
            index: KeyIndex::default(),
            follow,
            matched: 0,
            dup: false,
        });
        Ok(())
    }

    fn close(&mut self) {
        if let Some(f) = self.stack.pop() {
            if f.object {
                if !f.follow && !f.dup {
                    // Its keys, distinct, are the shape for the next object
                    // at this depth.
                    let depth = self.stack.len();
                    if self.shapes.len() <= depth {
                        self.shapes.resize_with(depth + 1, Vec::new);
                    }
                    if let Some(shape) = self.shapes.get_mut(depth) {
                        shape.clear();
                        shape.extend(self.keys.spans_from(f.key_base));
                    }
                }
                self.keys.truncate(f.key_base);
            }
        }
    }

    /// The object at the top stops following its shape: its first keys
    /// (the shape's, byte for byte) go into its index.
    #[cold]
    #[inline(never)]
    fn leave_shape(&mut self) {
        let depth = self.stack.len().saturating_sub(1);
        let Some(top) = self.stack.last_mut() else {
            return;
        };
        top.follow = false;
        let shape = self.shapes.get(depth).map_or(&[][..], Vec::as_slice);
        for &span in shape.get(..top.matched).unwrap_or_default() {
            let raw = self.src.get(span.0..span.1).unwrap_or_default();
            let escaped = raw.contains(&b'\\');
            // Distinct keys: no duplicate can show up here.
            self.keys
                .insert(self.src, top.key_base, &mut top.index, span, escaped);
        }
    }

    /// A key, its colon and the whitespace after it.
    #[inline(always)]
    fn key(&mut self) -> Result<(), Stop> {
        if self.peek() != Some(b'"') {
            return Err(Stop::Invalid);
        }
        let start = self.pos;
        let depth = self.stack.len().wrapping_sub(1);
        if self.shape_key(start, depth) {
            return self.colon();
        }
        self.string()?;
        let span = (start + 1, self.pos - 1);
        // Not the shape's next key (`shape_key` said so): the object stops
        // following it, and this key goes into the index.
        if self.stack.last().is_some_and(|t| t.follow) {
            self.leave_shape();
        }
        if let Some(top) = self.stack.last_mut() {
            let base = top.key_base;
            if self
                .keys
                .insert(self.src, base, &mut top.index, span, self.escaped)
            {
                top.dup = true;
                self.dups.push((start, span.0, span.1));
            }
        }
        self.colon()
    }

    /// Whether the key at `start` is, byte for byte, the next key of the
    /// shape the top object (at `depth`) follows, closing quote included
    /// (then it is read: the shape's key is a valid string body whose last
    /// quote is not escaped, so the same bytes are too).
    #[inline(always)]
    fn shape_key(&mut self, start: usize, depth: usize) -> bool {
        let Some(top) = self.stack.last_mut().filter(|t| t.follow) else {
            return false;
        };
        let shape = self.shapes.get(depth).map_or(&[][..], Vec::as_slice);
        let Some(&(s, e)) = shape.get(top.matched) else {
            return false;
        };
        let end = start + 1 + (e - s);
        if self.src.get(end) != Some(&b'"') || !same_key(self.src, (s, e), (start + 1, end)) {
            return false;
        }
        top.matched += 1;
        self.pos = end + 1;
        true
    }

    /// The colon after a key, with the whitespace around it.
    #[inline(always)]
    fn colon(&mut self) -> Result<(), Stop> {
        self.ws();
        if self.peek() != Some(b':') {
            return Err(Stop::Invalid);
        }
        self.pos += 1;
        self.ws();
        Ok(())
    }

    fn word(&mut self, w: &[u8]) -> Result<(), Stop> {
        // The whole literal in one compare; the byte loop only to place a
        // mismatch.
        if self.src.get(self.pos..self.pos + w.len()) == Some(w) {
            self.pos += w.len();
            return Ok(());
        }
        for &b in w {
            if self.peek() != Some(b) {
                return Err(Stop::Invalid);
            }
            self.pos += 1;
        }
        Ok(())
    }

    fn number(&mut self) -> Result<(), Stop> {
        let rest = self.src.get(self.pos..).unwrap_or_default();
        let len = crate::json::number_len(rest).ok_or(Stop::Invalid)?;
        self.pos += len;
        Ok(())
    }

    /// A string from its opening quote through its closing quote. Inlined
    /// into its two callers: most strings are short, and a call's register
    /// saves cost as much as the scan.
    #[inline(always)]
    fn string(&mut self) -> Result<(), Stop> {
        self.pos += 1;
        self.escaped = false;
        let mut span_start = self.pos;
        let mut non_ascii = false;
        loop {
            let Some(stop) = string_stop_at(self.src, self.pos, !self.utf8_known) else {
                self.pos = self.src.len();
                return Err(Stop::Invalid);
            };
            self.pos = stop;
            match self.peek() {
                Some(b'"') => {
                    if non_ascii {
                        self.utf8(span_start)?;
                    }
                    self.pos += 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    if non_ascii {
                        self.utf8(span_start)?;
                        non_ascii = false;
                    }
                    self.escape()?;
                    self.escaped = true;
                    span_start = self.pos;
                }
                Some(b) if b >= 0x80 => {
                    non_ascii = true;
                    self.pos += 1;
                }
                _ => return Err(Stop::Invalid),
            }
        }
    }

    /// Checks `src[from..pos]` is UTF-8; on failure `pos` is the bad byte.
    fn utf8(&mut self, from: usize) -> Result<(), Stop> {
        let span = self.src.get(from..self.pos).unwrap_or_default();
        match core::str::from_utf8(span) {
            Ok(_) => Ok(()),
            Err(e) => {
                self.pos = from + e.valid_up_to();
                Err(Stop::Invalid)
            }
        }
    }

    fn hex4(&self, at: usize) -> Option<u32> {
        crate::json::hex4(self.src, at)
    }

    fn escape(&mut self) -> Result<(), Stop> {
        match self.src.get(self.pos + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                self.pos += 2;
                Ok(())
            }
            Some(b'u') => {
                let Some(unit) = self.hex4(self.pos + 2) else {
                    return Err(Stop::Invalid);
                };
                if (0xDC00..0xE000).contains(&unit) {
                    return Err(Stop::Invalid);
                }
                if (0xD800..0xDC00).contains(&unit) {
                    let next = self.pos + 6;
                    let low = (self.src.get(next) == Some(&b'\\')
                        && self.src.get(next + 1) == Some(&b'u'))
                    .then(|| self.hex4(next + 2))
                    .flatten();
                    match low {
                        Some(lo) if (0xDC00..0xE000).contains(&lo) => self.pos += 12,
                        _ => return Err(Stop::Invalid),
                    }
                } else {
                    self.pos += 6;
                }
                Ok(())
            }
            _ => Err(Stop::Invalid),
        }
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, reason = "test")]
mod shape_tests {
    use super::*;
    use alloc::string::String;

    struct Gen {
        x: u64,
        text: String,
        dups: Vec<usize>,
    }

    impl Gen {
        fn below(&mut self, n: u64) -> u64 {
            self.x ^= self.x << 13;
            self.x ^= self.x >> 7;
            self.x ^= self.x << 17;
            self.x % n
        }

        /// An object with keys from a small set (so records repeat, share
        /// prefixes, diverge, and sometimes repeat a key), some escaped.
        fn object(&mut self, depth: u32) {
            const KEYS: &[&str] = &[
                "a",
                "b",
                "id",
                "name",
                "a_long_key_name",
                "\\u0061",
                "b\\n",
                "zz",
            ];
            self.text.push('{');
            let n = self.below(6);
            let mut seen: Vec<String> = Vec::new();
            for i in 0..n {
                if i > 0 {
                    self.text.push(',');
                }
                // Mostly the same sequence record after record.
                let k = if self.below(4) == 0 {
                    self.below(KEYS.len() as u64) as usize
                } else {
                    i as usize % KEYS.len()
                };
                let raw = KEYS[k];
                let decoded = raw.replace("\\u0061", "a").replace("\\n", "\n");
                if seen.contains(&decoded) {
                    self.dups.push(self.text.len());
                }
                seen.push(decoded);
                self.text.push('"');
                self.text.push_str(raw);
                self.text.push_str("\":");
                self.value(depth + 1);
            }
            self.text.push('}');
        }

        fn value(&mut self, depth: u32) {
            match self.below(if depth > 3 { 2 } else { 4 }) {
                0 => self.text.push('1'),
                1 => self.text.push_str("\"s\""),
                2 => self.object(depth),
                _ => {
                    self.text.push('[');
                    for i in 0..self.below(5) {
                        if i > 0 {
                            self.text.push(',');
                        }
                        self.object(depth + 1);
                    }
                    self.text.push(']');
                }
            }
        }
    }

    #[test]
    fn duplicates_are_found_whether_records_repeat_their_keys_or_not() {
        for seed in 1..3000u64 {
            let mut g = Gen {
                x: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
                text: String::new(),
                dups: Vec::new(),
            };
            g.text.push('[');
            for i in 0..g.below(8) {
                if i > 0 {
                    g.text.push(',');
                }
                g.object(0);
            }
            g.text.push(']');
            match check(g.text.as_bytes(), 64, true) {
                Check::Valid(found) => {
                    let at: Vec<usize> = found.iter().map(|d| d.0).collect();
                    assert_eq!(at, g.dups, "{}", g.text);
                }
                other => panic!("{other:?}: {}", g.text),
            }
            // One byte changed (inside keys too, where a shape is
            // followed): strict exactly when serde_json says so.
            let mut bytes = g.text.clone().into_bytes();
            if !bytes.is_empty() {
                let at = g.below(bytes.len() as u64) as usize;
                bytes[at] = b"\"\\:,{}[]ab 1"[g.below(12) as usize];
                let ours = matches!(check(&bytes, 64, false), Check::Valid(_));
                let serde = serde_json::from_slice::<serde::de::IgnoredAny>(&bytes).is_ok();
                assert_eq!(ours, serde, "{}", String::from_utf8_lossy(&bytes));
            }
        }
    }
}
