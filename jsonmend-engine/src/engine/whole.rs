//! Whole strings in watch steps: far from the end of what arrived, a watch
//! batch reads a plain `"` string value in one step — opening, content and
//! close — where the general path takes a step for the opening and its
//! first plain run, one per special character or later run, and one for the
//! close. The deltas are the same: the step records where the opening
//! alone would have been decided ([`Engine::open_at`]) and marks the
//! content's last character as decided by itself (it is, when it is a
//! plain byte, an escape or a quote of another kind: those steps examine
//! nothing past the character), and the close is decided where the close's
//! own step would decide it, since the content examined nothing past the
//! closing quote. Appends to one path in a row are one delta, so the
//! intermediate pieces need no `at` of their own.

use super::string::PLAIN_SET;
use super::{Ctx, Engine, L, Sep, Track};

impl<T: Track> Engine<'_, T> {
    /// Reads the `"` string value at `pos` whole when the watch allows it
    /// and the general path would read it without a repair, examining
    /// nothing past its closing quote but the close decision: its first
    /// content byte plain, then plain bytes, valid escapes (no surrogate),
    /// `'`, `` ` ``, `:` and commas followed by a plain character, up to a
    /// quote that closes it alone. Declines (false,
    /// nothing changed, the step's horizon as it was) otherwise.
    pub(crate) fn whole_string_value(&mut self, ctx: Ctx) -> bool {
        if self.whole_strings != Some(self.totals.count) {
            return false;
        }
        // An item without a comma before it: the general path notes R042
        // in the opening's step.
        if ctx == Ctx::Elem
            && self.sep == Sep::None
            && self.stack.last().is_some_and(|f| f.items > 0)
        {
            return false;
        }
        let start = self.pos;
        let mask = self.content_mask();
        let plain = |b: &u8| {
            PLAIN_SET
                .get(usize::from(*b))
                .is_some_and(|&f| f & mask != 0)
        };
        // Far enough from the end that the close decision cannot reach it.
        let limit = self.src.len().saturating_sub(2 * L);
        let body = self.src.get(start + 1..limit).unwrap_or_default();
        let first = body.iter().position(|b| !plain(b)).unwrap_or(body.len());
        if first == 0 {
            return false;
        }
        // What this step examined before the string (a colon, blanks) stops
        // at its quote; anything further would shift the string's `at`s.
        let horizon = self.track.horizon();
        if horizon > start {
            return false;
        }
        let Some(q) = self.whole_string_close(ctx, start + 1 + first, limit) else {
            self.track.reset(horizon);
            return false;
        };
        self.work.add(q - start);
        // The opening's own step writes the quote, examining only it.
        let opened = start + 1;
        if ctx == Ctx::Elem {
            self.begin_item();
        }
        let out_open = self.out.len();
        self.content = true;
        self.put(self.src.get(start..=q).unwrap_or_default());
        self.last_string = (start + 1, q);
        self.pos = q + 1;
        let out_close = self.out.len() - 1;
        self.open_at = Some((out_open, opened));
        // The last content character, decided by itself at the quote.
        self.plain_run = Some((out_close - 1, out_close, q - 1));
        self.value_done(None, true);
        true
    }

    /// The closing quote of the content from `at` (the first non-plain byte
    /// after the first run), before `limit`.
    fn whole_string_close(&self, ctx: Ctx, mut at: usize, limit: usize) -> Option<usize> {
        let mask = self.content_mask();
        loop {
            let rest = self.src.get(at..limit)?;
            let run = rest
                .iter()
                .position(|&b| PLAIN_SET.get(usize::from(b)).is_none_or(|&f| f & mask == 0))?;
            at += run;
            match rest.get(run)? {
                b'"' => return self.closed_alone(ctx, at),
                // Content in a value (`:` splits only keys).
                b'\'' | b'`' | b':' => at += 1,
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
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => at += 2,
                    b'u' => {
                        let unit = crate::json::hex4(self.src, at + 2)?;
                        if (0xD000..=0xDFFF).contains(&unit) {
                            return None;
                        }
                        at += 6;
                    }
                    _ => return None,
                },
                _ => return None,
            }
        }
    }
}
