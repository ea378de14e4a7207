//! Whole strings in watch steps: when what arrived decides its close, a
//! watch batch step reads a plain `"` string value in one step — opening,
//! content and close — where the general path takes a step for the
//! opening and its first plain run, one per special character or later
//! run, and one for the close. The deltas are the same: the step records where the opening
//! alone would have been decided ([`Engine::open_at`]) and marks the
//! content's last character as decided by itself (it is, when it is a
//! plain byte, an escape or a quote of another kind: those steps examine
//! nothing past the character), and the close is decided where the close's
//! own step would decide it, since the content examined nothing past the
//! closing quote. Appends to one path in a row are one delta, so the
//! intermediate pieces need no `at` of their own.
//!
//! A `'` string value is read whole the same way, its R011 kept where its
//! own step would decide it (with the step's [`Engine::cut`]).
//!
//! The lane declines, with nothing changed, a string whose close is not
//! there yet or whose close decision examines the end of what arrived: its
//! step would starve, and a starved step takes its whole batch back.

use super::string::PLAIN_SET;
use super::{Ctx, Engine, Sep, Track};
use crate::rules::Rule;

impl<T: Track> Engine<'_, T> {
    /// Reads the `"` string value at `pos` whole when the watch allows it
    /// and the general path would read it without a repair, examining
    /// nothing past its closing quote but the close decision: its first
    /// content byte plain, then plain bytes, valid escapes (no surrogate),
    /// `'`, `` ` ``, `:` and commas followed by a plain character, up to a
    /// quote that closes it alone. Declines (false,
    /// nothing changed, the step's horizon as it was) otherwise.
    ///
    /// After a key whose step recorded a repair that ended no step of its
    /// own (R042 before a quoted key), the string is still read whole: a
    /// declined lane would end the step right here, so the step goes on
    /// with a cut ([`Engine::cut`]) where those repairs were decided.
    pub(crate) fn whole_string_value(&mut self, ctx: Ctx) -> bool {
        let Some(count) = self.whole_strings else {
            return false;
        };
        let repaired = count != self.totals.count;
        if repaired && self.cut.is_some() {
            return false;
        }
        let before = self.track.horizon();
        let Some((q, compact)) = self.whole_end(ctx, b'"') else {
            return false;
        };
        if repaired {
            let decided = self.track.horizon();
            self.track.reset(before);
            self.cut_here();
            self.track.reset(decided);
        }
        let start = self.pos;
        if ctx == Ctx::Elem {
            self.begin_item();
        }
        let out_open = self.out.len();
        self.content = true;
        self.put(self.src.get(start..=q).unwrap_or_default());
        self.whole_done(out_open, q, compact);
        true
    }

    /// Reads the `'` string value at `pos` whole, as
    /// [`Self::whole_string_value`] reads a `"` one, when the general path
    /// would read it with no repair but its R011: content as in a `"` one (a
    /// `"` written escaped) up to a `'` that closes it alone. The
    /// general path notes R011 in the step after the opening's, having
    /// examined the first content character (for a doubled quote), and goes
    /// on past it with the step's cut; so does this lane, which declines
    /// when the cut is taken.
    pub(crate) fn whole_single_value(&mut self, ctx: Ctx) -> bool {
        if self.whole_strings != Some(self.totals.count) || self.cut.is_some() {
            return false;
        }
        let Some((q, compact)) = self.whole_end(ctx, b'\'') else {
            return false;
        };
        let start = self.pos;
        let decided = self.track.horizon();
        if ctx == Ctx::Elem {
            self.begin_item();
        }
        let out_open = self.out.len();
        // R011 as its own step notes it: after the opening's step, having
        // examined the first content character.
        self.track.reset(start);
        self.note(Rule::SingleQuotes, start);
        let _ = self.ch(start + 1);
        self.cut_here();
        self.track.reset(decided);
        self.content = true;
        self.out.push(b'"');
        self.put_single_content(self.src.get(start + 1..q).unwrap_or_default());
        self.out.push(b'"');
        self.whole_done(out_open, q, compact);
        true
    }

    /// The closing `quote` of the string value at `pos` when a lane can
    /// read it whole (its first content byte plain, nothing examined past
    /// its opening yet, a close that what arrived decides),
    /// and whether its escapes are all ones `Value::to_json` writes.
    /// `None` leaves the step's horizon as it was.
    fn whole_end(&mut self, ctx: Ctx, quote: u8) -> Option<(usize, bool)> {
        // An item without a comma before it: the general path notes R042
        // in the opening's step.
        if ctx == Ctx::Elem
            && self.sep == Sep::None
            && self.stack.last().is_some_and(|f| f.items > 0)
        {
            return None;
        }
        let start = self.pos;
        let mask = self.content_mask();
        let plain = |b: &u8| {
            PLAIN_SET
                .get(usize::from(*b))
                .is_some_and(|&f| f & mask != 0)
        };
        // The close must lie before the end of what arrived, and its
        // decision must examine nothing at or past it (checked below).
        let limit = self.src.len();
        let body = self.src.get(start + 1..limit).unwrap_or_default();
        let first = body.iter().position(|b| !plain(b)).unwrap_or(body.len());
        if first == 0 {
            return None;
        }
        // What this step examined before the string (a colon, blanks) stops
        // at its quote; anything further would shift the string's `at`s.
        let horizon = self.track.horizon();
        if horizon > start {
            return None;
        }
        let closed = self
            .whole_close(ctx, start + 1 + first, limit, quote)
            // A close decided by bytes not yet arrived would starve the
            // step: the lane declines it.
            .filter(|_| !self.starved());
        let Some((q, compact)) = closed else {
            self.track.reset(horizon);
            return None;
        };
        self.work.add(q - start);
        Some((q, compact))
    }

    /// A string value read whole up to its closing quote `q` (its output
    /// from `out_open` written): the marks the reader needs and the value's
    /// end.
    fn whole_done(&mut self, out_open: usize, q: usize, compact: bool) {
        let start = self.pos;
        self.last_string = (start + 1, q);
        self.pos = q + 1;
        self.log_string(out_open, start, q, compact);
        let out_close = self.out.len() - 1;
        // The opening's own step writes the quote, examining only it.
        self.open_at = Some((out_open, start + 1));
        // The last content character, decided by itself at the quote.
        self.plain_run = Some((out_close - 1, out_close, q - 1));
        self.value_done(None, true);
    }

    /// The closing `quote` (`"` or `'`) of the content from `at` (the first
    /// non-plain byte after the first run), before `limit`, and whether the
    /// content holds no `\/` or `\u` escape (no U+2028 or U+2029 stands
    /// raw in it either: their lead byte is not plain), so the string as
    /// written is its compact JSON text.
    fn whole_close(
        &self,
        ctx: Ctx,
        mut at: usize,
        limit: usize,
        quote: u8,
    ) -> Option<(usize, bool)> {
        let mask = self.content_mask();
        let mut compact = true;
        loop {
            let rest = self.src.get(at..limit)?;
            let run = rest
                .iter()
                .position(|&b| PLAIN_SET.get(usize::from(b)).is_none_or(|&f| f & mask == 0))?;
            at += run;
            match *rest.get(run)? {
                b if b == quote => return self.closed_alone(ctx, at).map(|q| (q, compact)),
                // Content in a value (`:` splits only keys; a quote of the
                // other kind is content).
                b'"' | b'\'' | b'`' | b':' => at += 1,
                // Content when a plain character follows (after blanks):
                // R024's probe stops there, before the closing quote.
                b',' => {
                    let next = self.src.get(at + 1..limit)?;
                    let blanks = next.iter().position(|&b| b != b' ' && b != b'\t')?;
                    let b = *next.get(blanks)?;
                    if b == b'\n'
                        || b == b'\r'
                        || PLAIN_SET.get(usize::from(b)).is_none_or(|&f| f & mask == 0)
                    {
                        return None;
                    }
                    at += 1;
                }
                b'\\' => match self.src.get(at + 1)? {
                    b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't' => at += 2,
                    b'/' => {
                        compact = false;
                        at += 2;
                    }
                    b'u' => {
                        let unit = crate::json::hex4(self.src, at + 2)?;
                        if (0xD000..=0xDFFF).contains(&unit) {
                            return None;
                        }
                        compact = false;
                        at += 6;
                    }
                    _ => return None,
                },
                _ => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Ctx, Engine, Horizon, Kind, State};

    /// What the whole-string lane does with the string item at offset 1 of
    /// a partial `src` (an array opened): whether it read it, the output,
    /// and where the engine stands.
    fn lane(src: &[u8]) -> (bool, String, usize) {
        let mut e = Engine::<Horizon>::new(src, 64, true);
        e.partial = true;
        e.pos = 1;
        let _ = e.push(Kind::Array, State::Elem, b"[");
        e.start_step(true);
        let read = e.whole_string_value(Ctx::Elem);
        (read, e.out.as_str().to_string(), e.pos)
    }

    #[test]
    fn a_close_decided_by_what_arrived_is_read_whole() {
        assert!(lane(b"[\"abc\",").0);
        assert_eq!(lane(b"[\"abc\"]").1, "[\"abc\"");
        assert_eq!(lane(b"[\"a, b\" ,").2, 7);
    }

    #[test]
    fn a_close_its_decision_would_look_past_the_end_for_is_declined() {
        for src in [&b"[\"abc\""[..], b"[\"abc\" ", b"[\"a, b\"", b"[\"abc"] {
            assert_eq!(lane(src), (false, "[".to_string(), 1), "{src:?}");
        }
    }
}
