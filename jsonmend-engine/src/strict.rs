//! The strict validator: RFC 8259 in well-formed UTF-8, no unpaired
//! surrogate escape, duplicate keys found. Iterative, no output, the input
//! only borrowed: this is the fast path of spec §2.3.

use alloc::vec::Vec;

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

/// What an open object knows of its keys beyond their list: a 64-bit
/// signature (one bit per fingerprint) that clears most new keys without a
/// look at the list, and a set once the object is large.
#[derive(Debug, Default)]
pub(crate) struct KeyIndex {
    sig: u64,
    set: Option<FingerprintSet>,
}

/// What a key insertion changed in a [`KeyIndex`], to take it back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct KeyIndexMark {
    sig: u64,
    set_len: Option<usize>,
}

impl KeyIndex {
    /// The state to come back to with [`KeyIndex::undo`].
    pub(crate) fn mark(&self) -> KeyIndexMark {
        KeyIndexMark {
            sig: self.sig,
            set_len: self.set.as_ref().map(|s| s.len),
        }
    }

    /// Takes back the one insertion of `h` made since `mark`.
    pub(crate) fn undo(&mut self, mark: KeyIndexMark, h: u64) {
        self.sig = mark.sig;
        match (mark.set_len, self.set.as_mut()) {
            (None, _) => self.set = None,
            (Some(n), Some(set)) if set.len > n => set.remove_last(h),
            _ => {}
        }
    }
}

/// A set of key fingerprints for large objects: open addressing with linear
/// probing, kept at most half full (constant time per key, linear memory).
#[derive(Debug, Default)]
pub(crate) struct FingerprintSet {
    slots: Vec<u64>,
    len: usize,
}

impl FingerprintSet {
    /// Inserts `h`; returns whether it was already there.
    pub(crate) fn insert(&mut self, h: u64) -> bool {
        // 0 marks an empty slot; map a zero fingerprint elsewhere.
        let h = if h == 0 { 0x9E37_79B9_7F4A_7C15 } else { h };
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = (h as usize) & mask;
        loop {
            match self.slots.get(i).copied() {
                Some(0) => {
                    if let Some(slot) = self.slots.get_mut(i) {
                        *slot = h;
                    }
                    self.len += 1;
                    return false;
                }
                Some(x) if x == h => return true,
                Some(_) => i = (i + 1) & mask,
                None => return false,
            }
        }
    }

    /// Takes back `h`, the most recent insertion (a watch step undone).
    /// Every earlier key's probe run stopped before this slot when it was
    /// inserted, so emptying the slot breaks no run.
    pub(crate) fn remove_last(&mut self, h: u64) {
        let h = if h == 0 { 0x9E37_79B9_7F4A_7C15 } else { h };
        let mask = self.slots.len().wrapping_sub(1);
        let mut i = (h as usize) & mask;
        for _ in 0..self.slots.len() {
            match self.slots.get_mut(i) {
                Some(slot) if *slot == h => {
                    *slot = 0;
                    self.len -= 1;
                    return;
                }
                Some(0) | None => return,
                Some(_) => i = (i + 1) & mask,
            }
        }
    }

    fn grow(&mut self) {
        let old = core::mem::take(&mut self.slots);
        self.slots = alloc::vec![0; (old.len() * 2).max(64)];
        self.len = 0;
        for h in old.into_iter().filter(|&h| h != 0) {
            self.insert(h);
        }
    }
}

/// Duplicate-key detection shared by the validator and the repair engine:
/// keys of the open objects in one stack-ordered list.
#[derive(Default)]
pub(crate) struct Keys {
    /// Fingerprints of the open objects' keys, scanned contiguously.
    /// Each key's fingerprint and span, one push per key.
    entries: Vec<(u64, usize, usize)>,
}

const SMALL: usize = 24;

/// A cheap fingerprint of a key: its length and first and last eight
/// bytes, mixed. Equal fingerprints are compared byte for byte.
#[inline]
pub(crate) fn fingerprint(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    let word = |at: usize| {
        let mut w = [0u8; 8];
        if let Some(src) = bytes.get(at..at + 8) {
            w.copy_from_slice(src);
        }
        u64::from_le_bytes(w)
    };
    let h = if n >= 8 {
        word(0) ^ word(n - 8).rotate_left(29)
    } else {
        // The bytes little-endian, zero-padded (what `fingerprint_in`
        // reads with one masked load), without a loop: two overlapping
        // four-byte loads, or for three bytes or fewer the first, middle
        // and last byte (which together are all of them).
        short_word(bytes)
    };
    mix(h, n)
}

/// `bytes` (fewer than eight) as a little-endian word, zero-padded.
#[inline]
fn short_word(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    if n >= 4 {
        let quad = |at: usize| {
            bytes
                .get(at..at + 4)
                .and_then(|b| <[u8; 4]>::try_from(b).ok())
                .map_or(0, |b| u64::from(u32::from_le_bytes(b)))
        };
        quad(0) | (quad(n - 4) << (8 * (n - 4)))
    } else if n > 0 {
        let at = |i: usize| bytes.get(i).map_or(0, |&b| u64::from(b));
        at(0) | (at(n / 2) << (8 * (n / 2))) | (at(n - 1) << (8 * (n - 1)))
    } else {
        0
    }
}

#[inline]
fn mix(h: u64, n: usize) -> u64 {
    let h = h ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h ^ (h >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

/// [`fingerprint`] of `src[s..e]`, with one masked eight-byte load for a
/// short key when `src` has eight bytes from `s` (a key is followed by at
/// least its closing quote and colon, so it usually has).
#[inline]
pub(crate) fn fingerprint_in(src: &[u8], s: usize, e: usize) -> u64 {
    let n = e.saturating_sub(s);
    if n < 8 {
        if let Some(&[a, b, c, d, f, g, h, i]) = src.get(s..s + 8) {
            let w = u64::from_le_bytes([a, b, c, d, f, g, h, i]);
            return mix(w & ((1u64 << (8 * n)) - 1), n);
        }
    }
    fingerprint(src.get(s..e).unwrap_or_default())
}

/// The fingerprint of the key whose raw (JSON-escaped when `escaped`)
/// text is `src[span]`.
#[inline(always)]
pub(crate) fn key_fingerprint(src: &[u8], span: (usize, usize), escaped: bool) -> u64 {
    if escaped {
        fingerprint(&key_text(src.get(span.0..span.1).unwrap_or_default()))
    } else {
        fingerprint_in(src, span.0, span.1)
    }
}

/// The key's text with JSON escapes decoded (borrowed when it has none).
pub(crate) fn key_text(raw: &[u8]) -> alloc::borrow::Cow<'_, [u8]> {
    if !raw.contains(&b'\\') {
        return alloc::borrow::Cow::Borrowed(raw);
    }
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while let Some(&b) = raw.get(i) {
        if b != b'\\' {
            out.push(b);
            i += 1;
            continue;
        }
        let e = raw.get(i + 1).copied().unwrap_or(b'\\');
        i += 2;
        let c = match e {
            b'n' => '\n',
            b't' => '\t',
            b'r' => '\r',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'u' => {
                let hex = |j: usize| crate::json::hex4(raw, j);
                let hi = hex(i).unwrap_or(0xFFFD);
                i += 4;
                if (0xD800..0xDC00).contains(&hi)
                    && raw.get(i) == Some(&b'\\')
                    && raw.get(i + 1) == Some(&b'u')
                {
                    let lo = hex(i + 2).unwrap_or(0);
                    if (0xDC00..0xE000).contains(&lo) {
                        i += 6;
                        char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                            .unwrap_or('\u{FFFD}')
                    } else {
                        '\u{FFFD}'
                    }
                } else {
                    char::from_u32(hi).unwrap_or('\u{FFFD}')
                }
            }
            other => char::from(other),
        };
        let mut buf = [0u8; 4];
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }
    alloc::borrow::Cow::Owned(out)
}

impl Keys {
    /// Where the keys of a newly opened object start.
    #[inline]
    pub(crate) fn base(&self) -> usize {
        self.entries.len()
    }

    /// Forgets the keys of a closed object.
    #[inline]
    pub(crate) fn truncate(&mut self, base: usize) {
        self.entries.truncate(base);
    }

    /// The keys from `base` on (a watch step keeps them before it forgets
    /// them, in case it has to put them back).
    pub(crate) fn from(&self, base: usize) -> &[(u64, usize, usize)] {
        self.entries.get(base..).unwrap_or_default()
    }

    /// Puts back keys kept from [`Keys::from`] (at `len`).
    pub(crate) fn restore(&mut self, len: usize, tail: &[(u64, usize, usize)]) {
        self.entries.truncate(len);
        self.entries.extend_from_slice(tail);
    }

    /// The spans of the keys from `base` on.
    pub(crate) fn spans_from(&self, base: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.entries
            .get(base..)
            .unwrap_or_default()
            .iter()
            .map(|e| (e.1, e.2))
    }

    /// The fingerprint of the last key added.
    pub(crate) fn last_hash(&self) -> u64 {
        self.entries.last().map_or(0, |e| e.0)
    }

    /// Adds a key (its raw span in `src`) to the object whose keys start at
    /// `base`; returns whether it repeats an earlier key.
    #[inline(always)]
    pub(crate) fn insert(
        &mut self,
        src: &[u8],
        base: usize,
        index: &mut KeyIndex,
        span: (usize, usize),
        escaped: bool,
    ) -> bool {
        let h = key_fingerprint(src, span, escaped);
        self.insert_hashed(src, base, index, span, h)
    }

    /// Adds a key known to differ from every key of its object, without
    /// its fingerprint (the object follows a shape, see `engine/shape.rs`;
    /// [`Keys::adopt`] fingerprints it if the object leaves the shape).
    #[inline(always)]
    pub(crate) fn push_distinct(&mut self, span: (usize, usize)) {
        self.entries.push((0, span.0, span.1));
    }

    /// Fingerprints the keys from `base` on (pushed by
    /// [`Keys::push_distinct`], distinct) and puts them in `index`, as
    /// [`Keys::insert`] would have one by one.
    pub(crate) fn adopt(&mut self, src: &[u8], base: usize, index: &mut KeyIndex) {
        let Some(current) = self.entries.get_mut(base..) else {
            return;
        };
        for e in current.iter_mut() {
            let escaped = src.get(e.1..e.2).is_some_and(|k| k.contains(&b'\\'));
            e.0 = key_fingerprint(src, (e.1, e.2), escaped);
            index.sig |= 1u64 << (e.0 >> 58);
        }
        if current.len() > SMALL {
            let mut set = FingerprintSet::default();
            for e in current.iter() {
                set.insert(e.0);
            }
            index.set = Some(set);
        }
    }

    /// [`Keys::insert`] with the key's fingerprint already taken (from
    /// any copy of the same bytes).
    #[inline(always)]
    pub(crate) fn insert_hashed(
        &mut self,
        src: &[u8],
        base: usize,
        index: &mut KeyIndex,
        span: (usize, usize),
        h: u64,
    ) -> bool {
        let raw = src.get(span.0..span.1).unwrap_or_default();
        let current = self.entries.get(base..).unwrap_or_default();
        let seen = match &mut index.set {
            Some(set) => set.insert(h),
            None => {
                let bit = 1u64 << (h >> 58);
                let maybe = index.sig & bit != 0;
                index.sig |= bit;
                let seen = maybe && current.iter().any(|e| e.0 == h);
                if current.len() >= SMALL {
                    let mut set = FingerprintSet::default();
                    for k in current.iter().map(|e| e.0).chain([h]) {
                        set.insert(k);
                    }
                    index.set = Some(set);
                }
                seen
            }
        };
        // Equal fingerprints are compared byte for byte (rare).
        let dup = seen && {
            let text = key_text(raw);
            current.iter().any(|&(hash, s, e)| {
                hash == h && *key_text(src.get(s..e).unwrap_or_default()) == *text
            })
        };
        self.entries.push((h, span.0, span.1));
        dup
    }
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
mod fingerprint_tests {
    use super::*;

    #[test]
    fn short_keys_load_as_the_byte_fold_does() {
        let src = b"\x01\x82\x03\xF4\x05\x06\x87\x08";
        for s in 0..src.len() {
            for e in s..(s + 8).min(src.len() + 1) {
                let bytes = &src[s..e];
                let fold = bytes
                    .iter()
                    .rev()
                    .fold(0u64, |h, &b| (h << 8) | u64::from(b));
                assert_eq!(short_word(bytes), fold, "{bytes:?}");
            }
        }
    }

    #[test]
    fn the_masked_load_gives_the_same_fingerprint() {
        let src = b"{\"\":1,\"a\":2,\"abcdefg\":3,\"abcdefgh\":4,\"x\"";
        for s in 0..src.len() {
            for e in s..=src.len() {
                let bytes = &src[s..e];
                assert_eq!(fingerprint_in(src, s, e), fingerprint(bytes), "{s}..{e}");
            }
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
