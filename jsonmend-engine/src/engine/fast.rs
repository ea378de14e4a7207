//! The fast lane: one strict token (a plain `"` string, a JSON number or
//! literal, a comma, a colon, a matching closer) handled without the
//! general machinery. It changes the state exactly as the general path
//! would for the same token and declines anything else, so output and
//! repairs are identical either way (the property tests check it).

use super::bare::is_json_number;
use super::string::PLAIN_SET;
use super::{Ctx, Engine, Kind, Sep, State, TokKind, Track};

/// Bytes that may follow a bare scalar the lane takes (after blanks).
fn scalar_end(b: Option<u8>) -> bool {
    matches!(b, Some(b',' | b'}' | b']' | b')' | b'\n' | b'\r'))
}

/// Bytes that end the word of a lane scalar: blanks and delimiters.
#[allow(
    clippy::indexing_slicing,
    reason = "const evaluation: an index out of range fails the build"
)]
const WORD_STOP: [bool; 256] = {
    let mut t = [false; 256];
    let stops = b" \t,}])\n\r";
    let mut i = 0;
    while i < stops.len() {
        t[stops[i] as usize] = true;
        i += 1;
    }
    t
};

/// Whether `w` is a JSON number: one to fifteen digits without a leading
/// zero (the usual integer, decided here) or whatever the grammar says.
#[inline]
fn json_number(w: &[u8]) -> bool {
    match w {
        [b'1'..=b'9', rest @ ..] if rest.len() < 15 && rest.iter().all(u8::is_ascii_digit) => true,
        [b'0'] => true,
        _ => is_json_number(w),
    }
}

impl<T: Track> Engine<'_, T> {
    /// Handles one token at `pos` (which the step examined already) if it
    /// is a strict one; returns whether it did.
    pub(crate) fn fast_token(&mut self) -> bool {
        let Some(top) = self.stack.last() else {
            return false;
        };
        let (kind, state, absorbed) = (top.kind, top.state, top.absorbed);
        let Some(b) = self.peek_seen() else {
            return false;
        };
        match state {
            // The frame's own closer where an item could start (an empty
            // container, or after a trailing comma, which closing reports).
            State::Key | State::Elem
                if (b == b'}' || b == b']')
                    && kind.closer() == b
                    && !(kind == Kind::Object && absorbed > 0) =>
            {
                self.pos += 1;
                self.close_top();
                self.log_close(kind);
                true
            }
            State::Key if kind.is_object() => self.fast_member_key(b),
            State::Colon if b == b':' && self.byte(self.pos + 1) != Some(b':') => {
                self.colon();
                self.colon_value();
                true
            }
            State::Value => self.fast_value(kind, Ctx::ObjValue, b),
            State::Elem => self.fast_value(kind, Ctx::Elem, b),
            State::After => match b {
                b',' => {
                    self.comma(kind);
                    true
                }
                b'}' | b']' if kind.closer() == b && !(kind == Kind::Object && absorbed > 0) => {
                    self.pos += 1;
                    self.close_top();
                    self.log_close(kind);
                    true
                }
                // Another item without a comma (R042, reported as it
                // begins): the general path's step only moves the frame on
                // (examining the item's first character, deciding nothing)
                // and the next one reads the item; a run does both here
                // when the item is a fast-lane one.
                _ => self.item_after_item(kind, b),
            },
            _ => false,
        }
    }

    /// A lane key at `pos` (its first byte `b`: a quote, or a letter or `_`
    /// of a bare key) and the colon right behind it.
    fn fast_member_key(&mut self, b: u8) -> bool {
        let before = self.repairs.len();
        let read = match b {
            b'"' => self.fast_key(),
            b'\'' => self.fast_single_key(),
            b if b.is_ascii_alphabetic() || b == b'_' => self.fast_bare_key(),
            _ => false,
        };
        if read {
            self.then_colon(before);
        }
        read
    }

    /// A scalar or string value at `pos` (its first byte `b`) in a frame of
    /// `kind`, and a comma right behind it.
    fn fast_value(&mut self, kind: Kind, ctx: Ctx, b: u8) -> bool {
        let done = match b {
            // Watch streams read string values a run at a time (their
            // characters stream as deltas).
            b'"' if !T::TRACKS => self.fast_string_value(ctx),
            b'"' => self.whole_string_value(ctx),
            b'\'' if !T::TRACKS => self.fast_single_value(ctx),
            b'\'' => self.whole_single_value(ctx),
            b'0'..=b'9' | b'-' => self.fast_scalar(ctx, false),
            b't' | b'f' | b'n' | b'T' | b'F' | b'N' => self.fast_scalar(ctx, true),
            // An opener the depth limit allows (else the general path
            // reports E040): what the general path does with it.
            b'{' | b'[' if self.stack.len() < self.max_depth => {
                if ctx == Ctx::Elem {
                    self.begin_item();
                }
                let (kind, state) = if b == b'{' {
                    (Kind::Object, State::Key)
                } else {
                    (Kind::Array, State::Elem)
                };
                // Within the limit, so this cannot fail.
                let _ = self.push(kind, state, &[b]);
                self.log_last_byte(TokKind::Open(b == b'{'));
                self.pos += 1;
                return true;
            }
            _ => false,
        };
        done && self.then_comma(kind)
    }

    /// An item right after another (no comma between): read in the lane
    /// if it is a lane key or value, the frame left as it was otherwise.
    fn item_after_item(&mut self, kind: Kind, b: u8) -> bool {
        let read = if kind.is_object() {
            self.set_state(State::Key);
            self.fast_member_key(b)
        } else if kind == Kind::Array {
            self.set_state(State::Elem);
            self.fast_value(kind, Ctx::Elem, b)
        } else {
            return false;
        };
        if !read {
            self.set_state(State::After);
        }
        read
    }

    /// The key's colon, read where the key left the frame.
    fn colon(&mut self) {
        self.out.push(b':');
        self.pos += 1;
        self.set_state(State::Value);
    }

    /// A separating comma, read where a member or element left the frame.
    fn comma(&mut self, kind: Kind) {
        self.sep = Sep::Comma(self.pos);
        self.held.push(b',');
        self.pos += 1;
        if let Some(f) = self.stack.top_mut::<T>() {
            f.had_comma = true;
            f.state = if kind.is_object() {
                State::Key
            } else {
                State::Elem
            };
        }
    }

    /// After a key, a one-shot run takes a colon right behind it in the
    /// same step: the next step would (no blank to keep, no terminator can
    /// start with `:`).
    ///
    /// A single space after the colon and a value follow in the same step
    /// too ([`Self::colon_value`]).
    ///
    /// A watch step does the same when the key recorded no repair (`before`
    /// is the repair count before it): such a key decides no delta or
    /// event, and what follows it in the step is decided by bytes at or
    /// past those the key examined, so every `at` is the one of separate
    /// steps. A watch batch step also goes on past a key that recorded a
    /// repair, once per step: [`Engine::cut`] keeps where its repairs were
    /// decided.
    fn then_colon(&mut self, before: usize) {
        if T::TRACKS && self.repairs.len() != before {
            self.cut_then_colon();
            return;
        }
        if self.byte(self.pos) != Some(b':') || self.byte(self.pos + 1) == Some(b':') {
            return;
        }
        self.colon();
        self.colon_value();
    }

    /// A watch batch step goes on past a key that recorded a repair (once
    /// per step), keeping where that was decided; otherwise the key ends
    /// the step, having examined nothing more.
    fn cut_then_colon(&mut self) {
        let horizon = self.track.horizon();
        let colon = self.byte(self.pos) == Some(b':') && self.byte(self.pos + 1) != Some(b':');
        // The key's repairs are decided by what the key examined.
        self.track.reset(horizon);
        if colon && self.cut_here() {
            self.colon();
            self.colon_value();
        }
    }

    /// A watch batch step goes on past what it decided so far (once per
    /// step): [`Engine::cut`] keeps where, and what follows counts as a
    /// step of its own that recorded no repair yet. False when it cannot.
    pub(crate) fn cut_here(&mut self) -> bool {
        if self.whole_strings.is_none() || self.cut.is_some() {
            return false;
        }
        self.cut = Some((
            self.repairs.len(),
            self.track.horizon(),
            self.pending_synthesis(),
        ));
        self.whole_strings = Some(self.totals.count);
        true
    }

    /// Right after a colon: a single space and a value that cannot end a
    /// fenced or tagged document, read in the colon's step (the space is
    /// written, as the next step's blank run would be). A colon decides no
    /// delta or event and examines nothing past the space, so a watch step
    /// that read a colon alone (its key recorded a repair, which ended the
    /// key's step) takes the value too.
    fn colon_value(&mut self) {
        if self.byte(self.pos) == Some(b' ') {
            if let Some(
                b @ (b'"'
                | b'\''
                | b'0'..=b'9'
                | b'-'
                | b't'
                | b'f'
                | b'n'
                | b'T'
                | b'F'
                | b'N'
                | b'{'
                | b'['),
            ) = self.byte(self.pos + 1)
            {
                self.out.push(b' ');
                self.pos += 1;
                let kind = self.stack.last().map_or(Kind::Object, |f| f.kind);
                self.fast_value(kind, Ctx::ObjValue, b);
            }
        }
    }

    /// After a value, a run takes a comma right behind it in the same step,
    /// as the next step would (in a watch step too: the value examined the
    /// comma to end, and a comma decides no delta or event). Always true.
    #[inline(always)]
    fn then_comma(&mut self, kind: Kind) -> bool {
        if self.byte(self.pos) == Some(b',') {
            self.comma(kind);
        }
        true
    }

    /// After a watch step closed a string value: the comma right behind it
    /// in the same step when the close decision already examined it (it
    /// looks past the quote), so the step's `at` is unchanged and the
    /// comma, which decides nothing, needs no step of its own.
    pub(crate) fn comma_examined(&mut self) {
        if self.track.horizon() < self.pos {
            return;
        }
        if let Some(f) = self.stack.last() {
            if f.state == State::After {
                let kind = f.kind;
                self.then_comma(kind);
            }
        }
    }

    /// The closing quote of a plain `"` string opening at `pos`: content of
    /// plain bytes and valid JSON escapes only (and whether it holds one).
    fn plain_string_end(&self, ctx: Ctx) -> Option<(usize, bool)> {
        self.plain_end::<false>(b'"', true, ctx)
    }

    /// The closing `quote` of a string opening at `pos` whose content is
    /// plain bytes (and, if `escapes`, valid JSON escapes).
    ///
    /// The second value says whether the content holds an escape, or for
    /// `SINGLE` (single-quoted strings, where a `"` is content too) an
    /// escape or a `"`: its JSON form then needs a look.
    fn plain_end<const SINGLE: bool>(
        &self,
        quote: u8,
        escapes: bool,
        ctx: Ctx,
    ) -> Option<(usize, bool)> {
        let mut at = self.pos + 1;
        let mut special = false;
        let mask = self.plain_mask();
        loop {
            // The run of plain bytes in one scan, then the byte after it.
            let rest = self.src.get(at..).unwrap_or_default();
            let run = rest
                .iter()
                .position(|&b| PLAIN_SET.get(usize::from(b)).is_none_or(|&f| f & mask == 0))
                .unwrap_or(rest.len());
            self.work.add(run);
            at += run;
            let b = self.byte(at)?;
            match b {
                b if b == quote => return Some((at, special)),
                // Another quote character is content (the general path
                // closes only at the opening kind); a `"` in a
                // single-quoted string is written escaped.
                b'\'' | b'`' => at += 1,
                b'"' if SINGLE => {
                    special = true;
                    at += 1;
                }
                b'"' => return None,
                // Content unless the general path's probe would end the
                // string there (R024 at a comma of a value, R025 at a
                // colon of a key): then that path reports it.
                b',' => {
                    if matches!(ctx, Ctx::ObjValue | Ctx::Elem) && self.early_close_at(ctx, at) {
                        return None;
                    }
                    at += 1;
                }
                b':' => {
                    if ctx == Ctx::Key && self.key_split_at(at) {
                        return None;
                    }
                    at += 1;
                }
                b'\\' if escapes => match self.byte(at + 1)? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {
                        special = true;
                        at += 2;
                    }
                    b'u' => {
                        // Surrogates (and the rest of Dxxx) take the general path.
                        self.saw(at + 5);
                        let unit = crate::json::hex4(self.src, at + 2)?;
                        if (0xD000..=0xDFFF).contains(&unit) {
                            return None;
                        }
                        special = true;
                        at += 6;
                    }
                    _ => return None,
                },
                _ => return None,
            }
        }
    }

    /// A plain string at `pos` that the general path would close at its
    /// first quote; returns the closing quote's offset and whether the
    /// content holds an escape.
    fn fast_string(&self, ctx: Ctx) -> Option<(usize, bool)> {
        let (q, escaped) = self.plain_string_end(ctx)?;
        if q == self.pos + 1 {
            // `""`: the general path checks for doubled quotes first.
            let next = self.byte(q + 1);
            if !matches!(
                next,
                None | Some(b',' | b':' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t')
            ) {
                return None;
            }
        }
        self.closed_alone(ctx, q)?;
        Some((q, escaped))
    }

    /// `q`, if the general path would close the string at the quote `q` and
    /// no `+` joins another string to it (that is its business).
    pub(crate) fn closed_alone(&self, ctx: Ctx, q: usize) -> Option<usize> {
        if !self.closes(ctx, q + 1) {
            return None;
        }
        let next = self.skip_space(q + 1);
        (self.byte(next) != Some(b'+')).then_some(q)
    }

    /// Copies the string `pos..=q` and records it as the last string read.
    fn copy_string(&mut self, q: usize) {
        let start = self.pos;
        if q > start + 1 {
            self.content = true;
        }
        self.slice(start, q + 1);
        self.put_range(start, q + 1);
        self.last_string = (start + 1, q);
        self.pos = q + 1;
    }

    /// The closing quote of a key in `quote`s at `pos`, whether its
    /// content needs a look (`scan`'s second value), and whether it was
    /// predicted: a key that is its shape's next one, written here, is
    /// read without a scan (the scan would stop right after it). `None`
    /// where the lane declines the key.
    #[inline(always)]
    fn quoted_key_end(
        &self,
        quote: u8,
        scan: fn(&Self, Ctx) -> Option<(usize, bool)>,
    ) -> Option<(usize, bool, Option<bool>)> {
        let predicted = self
            .predicted_key(self.pos + 1, false)
            .map(|(n, pointer)| (self.pos + 1 + n, pointer))
            .filter(|&(q, _)| self.byte(q) == Some(quote));
        match predicted {
            Some((q, pointer)) => self
                .closed_alone(Ctx::Key, q)
                .map(|q| (q, false, Some(pointer))),
            None => scan(self, Ctx::Key).map(|(q, x)| (q, x, None)),
        }
    }

    fn fast_key(&mut self) -> bool {
        let Some((q, escaped, predicted)) = self.quoted_key_end(b'"', Self::fast_string) else {
            return false;
        };
        let at = self.pos;
        self.begin_item();
        let key_out = self.out.len();
        self.copy_string(q);
        // (A predicted key's content is plain: no escape to decode.)
        self.log_tok(TokKind::Key(predicted == Some(true)), key_out);
        let key_in = self.last_string;
        if predicted.is_some() {
            self.take_shape_key((key_out + 1, self.out.len() - 1), key_in);
        } else {
            self.key_verbatim(key_out, at, key_in, escaped);
        }
        self.set_state(State::Colon);
        true
    }

    fn fast_string_value(&mut self, ctx: Ctx) -> bool {
        let Some((q, _)) = self.fast_string(ctx) else {
            return false;
        };
        if ctx == Ctx::Elem {
            self.begin_item();
        }
        self.copy_string(q);
        self.value_done(None, true);
        true
    }

    /// A JSON number or literal followed (after blanks) by a delimiter.
    fn fast_scalar(&mut self, ctx: Ctx, literal: bool) -> bool {
        let start = self.pos;
        // The word runs to the first blank or delimiter (examined too).
        let rest = self.src.get(start..).unwrap_or_default();
        let len = rest
            .iter()
            .position(|&b| WORD_STOP.get(usize::from(b)).copied().unwrap_or(false))
            .unwrap_or(rest.len());
        self.work.add(len + 1);
        let end = start + len;
        self.saw(end);
        let word = self.slice(start, end);
        // A JSON literal as written, or a Python spelling (R-rule noted,
        // JSON text written) as the general path's word classifier says.
        let (ok, spelled) = if !literal {
            (json_number(word), None)
        } else if matches!(word, b"true" | b"false" | b"null") {
            (true, None)
        } else {
            match super::bare::classify(word, false) {
                super::bare::Word::Spelled(t, crate::rules::Rule::PythonLiteral) => (true, Some(t)),
                _ => (false, None),
            }
        };
        let stop = self.skip_blank(end);
        if !ok || !scalar_end(self.byte(stop)) {
            return false;
        }
        if spelled.is_some() {
            self.note_with(crate::rules::Rule::PythonLiteral, start, word);
        }
        self.content = true;
        if ctx == Ctx::Elem {
            self.begin_item();
        }
        let out = self.out.len();
        match spelled {
            Some(t) => self.out.push_str(t),
            None => self.put_range(start, end),
        }
        self.log_tok(TokKind::Scalar, out);
        self.pos = stop;
        self.value_done(None, false);
        true
    }
}

impl<T: Track> Engine<'_, T> {
    /// A single-quoted string of plain bytes the general path would close at
    /// its first `'`: written with `"` (R011).
    /// Also says whether the content holds a `"` or an escape.
    fn fast_single(&self, ctx: Ctx) -> Option<(usize, bool)> {
        let (q, special) = self.plain_end::<true>(b'\'', true, ctx)?;
        if q == self.pos + 1 {
            return None;
        }
        self.closed_alone(ctx, q)?;
        Some((q, special))
    }

    /// Writes the single-quoted string `pos..=q` as a JSON string.
    /// (`special`: the content holds a `"`, written escaped, or an escape,
    /// passed as it is.)
    fn copy_single(&mut self, q: usize, special: bool) {
        let start = self.pos;
        self.note(crate::rules::Rule::SingleQuotes, start);
        self.content = true;
        self.out.push(b'"');
        let content = self.slice(start + 1, q);
        if special {
            self.put_single_content(content);
        } else {
            self.put_range(start + 1, q);
        }
        self.out.push(b'"');
        self.last_string = (start + 1, q);
        self.pos = q + 1;
    }

    /// Writes the content of a single-quoted string: escapes as they are,
    /// a `"` escaped.
    pub(crate) fn put_single_content(&mut self, content: &[u8]) {
        let (mut from, mut i) = (0, 0);
        while let Some(&b) = content.get(i) {
            match b {
                b'\\' => i += 2,
                b'"' => {
                    self.put(content.get(from..i).unwrap_or_default());
                    self.out.push_str("\\\"");
                    i += 1;
                    from = i;
                }
                _ => i += 1,
            }
        }
        self.put(content.get(from..).unwrap_or_default());
    }

    fn fast_single_key(&mut self) -> bool {
        let Some((q, special, predicted)) = self.quoted_key_end(b'\'', Self::fast_single) else {
            return false;
        };
        let at = self.pos;
        self.begin_item();
        let key_out = self.out.len();
        self.copy_single(q, special);
        self.log_tok(TokKind::Key(predicted == Some(true)), key_out);
        let key_in = self.last_string;
        // The written key has a backslash where the content had an escape
        // or a `"`.
        if predicted.is_some() {
            self.take_shape_key((key_out + 1, self.out.len() - 1), key_in);
        } else if special {
            self.key_written(key_out, at, key_in);
        } else {
            self.key_verbatim(key_out, at, key_in, false);
        }
        self.set_state(State::Colon);
        true
    }

    fn fast_single_value(&mut self, ctx: Ctx) -> bool {
        let Some((q, special)) = self.fast_single(ctx) else {
            return false;
        };
        if ctx == Ctx::Elem {
            self.begin_item();
        }
        self.copy_single(q, special);
        self.value_done(None, true);
        true
    }

    /// An identifier key directly followed (after blanks) by `:` (R013).
    fn fast_bare_key(&mut self) -> bool {
        let at = self.pos;
        // The shape's next key, when it is written here: the scan for the
        // identifier's end would stop right after it.
        let predicted = self
            .predicted_key(at, true)
            .map(|(n, _)| at + n)
            .filter(|&e| {
                !self
                    .byte(e)
                    .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
            });
        let mut end = at;
        match predicted {
            Some(e) => end = e,
            None => {
                while self
                    .byte(end)
                    .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
                {
                    end += 1;
                }
            }
        }
        let colon = self.skip_blank(end);
        if self.byte(colon) != Some(b':') {
            return false;
        }
        let text = self.slice(at, end);
        self.begin_item();
        self.note_with(crate::rules::Rule::UnquotedKey, at, text);
        self.content = true;
        let key_out = self.out.len();
        self.out.push(b'"');
        self.put_range(at, end);
        self.out.push(b'"');
        // (An identifier is its own JSON Pointer token.)
        self.log_tok(TokKind::Key(true), key_out);
        self.pos = colon;
        if predicted.is_some() {
            self.take_shape_key((key_out + 1, self.out.len() - 1), (at, end));
        } else {
            self.key_verbatim(key_out, at, (at, end), false);
        }
        self.set_state(State::Colon);
        true
    }
}
