//! Offset tracking for watch streams (spec §12.2 `at`): what an engine
//! keeps of the offsets its steps examine (nothing for one-shot runs, the
//! furthest one for a stream), and the memo that lets a long scan resume
//! on the next feed without examining its bytes again.

use super::Engine;

/// A long scan's progress: which scan, from where, how far, its depth, and
/// the furthest offset the scan of the bytes before `at` examined (a step
/// that resumes it has examined that much too, as a fresh scan would have).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Memo {
    kind: u8,
    start: usize,
    at: usize,
    depth: usize,
    seen: usize,
}

/// The scans that keep their progress over a partial input.
pub(crate) const MEMO_RUN: u8 = 1;
pub(crate) const MEMO_LINE: u8 = 8;
pub(crate) const MEMO_BLOCK: u8 = 9;
pub(crate) const MEMO_TAG: u8 = 10;
pub(crate) const MEMO_WORD: u8 = 11;

/// What an engine keeps of the offsets its steps examine: nothing for a
/// one-shot run (every call compiles away), the furthest one for a watch
/// stream (whose steps starve at the end of what arrived).
pub(crate) trait Track: Default {
    /// Whether offsets are tracked at all.
    const TRACKS: bool;
    fn saw(&self, at: usize);
    fn horizon(&self) -> usize;
    fn reset(&self, at: usize);
}

/// One-shot runs track nothing.
#[derive(Clone, Debug, Default)]
pub(crate) struct OneShot;

impl Track for OneShot {
    const TRACKS: bool = false;
    #[inline(always)]
    fn saw(&self, _at: usize) {}
    fn horizon(&self) -> usize {
        0
    }
    fn reset(&self, _at: usize) {}
}

/// The furthest offset examined by the current step.
#[derive(Clone, Debug, Default)]
pub(crate) struct Horizon(core::cell::Cell<usize>);

impl Track for Horizon {
    const TRACKS: bool = true;
    #[inline]
    fn saw(&self, at: usize) {
        if at > self.0.get() {
            self.0.set(at);
        }
    }
    fn horizon(&self) -> usize {
        self.0.get()
    }
    fn reset(&self, at: usize) {
        self.0.set(at);
    }
}

impl<T: Track> Engine<'_, T> {
    /// Records that the current step examined offset `at` (an offset at or
    /// past the end of a partial input starves the step). Watch engines
    /// track it even when the input is whole (a stream's `finish`, a copy
    /// finished for `repaired_so_far`): what the horizon decides there —
    /// whether a comma joins the step before it — changes no output, and
    /// a check of `partial` at every byte examined costs more.
    #[inline(always)]
    pub(crate) fn saw(&self, at: usize) {
        if T::TRACKS {
            self.track.saw(at);
        }
    }

    /// More input may follow (never for one-shot engines).
    #[inline(always)]
    pub(crate) fn is_partial(&self) -> bool {
        T::TRACKS && self.partial
    }

    /// Whether `at` is at or past the end of the input (examining it).
    #[inline]
    pub(crate) fn at_end(&self, at: usize) -> bool {
        self.saw(at);
        at >= self.src.len()
    }

    /// Where scan `kind` from `start` got on an earlier attempt: its offset
    /// and depth (watch streams only); what that part examined counts as
    /// examined by this step.
    #[inline]
    pub(crate) fn memo_resume(&self, kind: u8, start: usize) -> Option<(usize, usize)> {
        if !T::TRACKS {
            return None;
        }
        let m = self.memo.get();
        let hit = m.kind == kind && m.start == start && m.at >= start;
        if hit {
            self.saw(m.seen);
        }
        hit.then_some((m.at, m.depth))
    }

    /// Keeps scan `kind`'s progress: everything before `at` is decided, and
    /// scanning it examined through `seen`.
    #[inline]
    pub(crate) fn memo_keep(
        &self,
        kind: u8,
        start: usize,
        (at, depth): (usize, usize),
        seen: usize,
    ) {
        if self.is_partial() {
            self.memo.set(Memo {
                kind,
                start,
                at,
                depth,
                seen,
            });
        }
    }

    /// Starts a scan whose progress a memo keeps: the step's horizon so far
    /// (returned, for [`Self::scan_end`]) is set aside, so the horizon
    /// during the scan is the scan's own.
    #[inline]
    pub(crate) fn scan_begin(&self, start: usize) -> usize {
        let outer = self.track.horizon();
        if T::TRACKS {
            self.track.reset(start.saturating_sub(1));
        }
        outer
    }

    /// Ends such a scan: the step's horizon is the furthest of both again.
    #[inline]
    pub(crate) fn scan_end(&self, outer: usize) {
        self.track.saw(outer);
    }

    /// Whether the current step read at or past the end of a partial input.
    pub(crate) fn starved(&self) -> bool {
        self.is_partial() && self.track.horizon() >= self.src.len()
    }
}
