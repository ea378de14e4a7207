//! The token log of watch steps: what the fast lane wrote, as output spans
//! with the input offsets that decide their deltas, so the watch reads a
//! fast-lane step's deltas from the log instead of parsing its output and
//! keeping a mark for it (`watch/reader/replay.rs`).
//!
//! A step is logged whole or not at all: a lane site that writes something
//! the log cannot describe, or whose value would settle as a member of the
//! root object or complete a root value (events that need the readiness
//! level of the step), marks the step unlogged, and the watch reads its
//! output as text.

use super::{Engine, Kind, Track};

/// What a logged token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokKind {
    /// A container's opener (`true`: `{`).
    Open(bool),
    /// An object's or array's closer.
    Close,
    /// A member's key, quotes included (`true`: its content needs no
    /// decoding and holds no `~` or `/`, so it is its own JSON Pointer
    /// token; `false`: not known).
    Key(bool),
    /// A number or literal.
    Scalar,
    /// A string value read whole, quotes included (`true`: its escapes
    /// are those `Value::to_json` writes, so it is its own compact JSON
    /// text).
    Str(bool),
    /// Not a token: the watch's mark `start` (a step read as text).
    Mark,
    /// Not a token: a repair a logged step decided, reported at `at` with
    /// this permille.
    Repair(crate::Rule, i32),
}

/// One logged token: its output span and the input lengths that decide
/// its deltas (`at` for all of them but a whole string's opening and its
/// last character; filled in when the step ends).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tok {
    pub(crate) kind: TokKind,
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) at: usize,
    /// A whole string's opening: its own step's `at`.
    pub(crate) open_at: usize,
    /// A whole string's closing quote: the `at` of its last character.
    pub(crate) last_at: usize,
}

impl Tok {
    /// A repair entry.
    pub(crate) fn repair(rule: crate::Rule, at: usize, permille: i32) -> Tok {
        Tok {
            kind: TokKind::Repair(rule, permille),
            start: 0,
            end: 0,
            at,
            open_at: 0,
            last_at: 0,
        }
    }

    /// A mark entry.
    pub(crate) fn mark(i: usize) -> Tok {
        Tok {
            kind: TokKind::Mark,
            start: i,
            end: 0,
            at: 0,
            open_at: 0,
            last_at: 0,
        }
    }
}

impl<T: Track> Engine<'_, T> {
    /// Whether the lane logs what it writes now.
    #[inline(always)]
    fn logging(&self) -> bool {
        T::TRACKS && self.log_toks
    }

    /// Logs the token written from output offset `start` to the end.
    #[inline]
    pub(crate) fn log_tok(&mut self, kind: TokKind, start: usize) {
        self.log_span(kind, start, (0, 0));
    }

    /// Logs a whole string written from `start`, opened at input offset
    /// `open` and closed by the quote at `q` (`compact`: see
    /// [`TokKind::Str`]).
    #[inline]
    pub(crate) fn log_string(&mut self, start: usize, open: usize, q: usize, compact: bool) {
        let shift = self.lanes.shift;
        self.log_span(TokKind::Str(compact), start, (open + 1 + shift, q + shift));
    }

    fn log_span(&mut self, kind: TokKind, start: usize, (open_at, last_at): (usize, usize)) {
        if !self.logging() {
            return;
        }
        // A scalar or string settling as a root object's member reports an
        // event.
        if matches!(kind, TokKind::Scalar | TokKind::Str(_)) && self.in_root_object() {
            self.toks_ok = false;
        }
        self.toks.push(Tok {
            kind,
            start,
            end: self.out.len(),
            at: 0,
            open_at,
            last_at,
        });
    }

    /// Logs the closer just written for a frame of `kind`.
    #[inline]
    pub(crate) fn log_close(&mut self, kind: Kind) {
        if !self.logging() {
            return;
        }
        // An implicit object's closer, a root value completing or a root
        // object's member settling: read as text.
        if !matches!(kind, Kind::Object | Kind::Array)
            || self.stack.is_empty()
            || self.in_root_object()
        {
            self.toks_ok = false;
        }
        self.log_last_byte(TokKind::Close);
    }

    /// Logs the one byte just written.
    #[inline]
    pub(crate) fn log_last_byte(&mut self, kind: TokKind) {
        if self.logging() {
            let end = self.out.len();
            self.log_span(kind, end.saturating_sub(1), (0, 0));
        }
    }

    /// The top frame is the root object.
    fn in_root_object(&self) -> bool {
        self.stack.len() == 1 && self.stack.last().is_some_and(|f| f.kind.is_object())
    }
}
