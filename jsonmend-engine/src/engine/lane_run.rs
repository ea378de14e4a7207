//! Lane runs: in a watch batch, far from the end of what arrived, one
//! document step goes on to the next token while the token just read is a
//! lane step the log describes whole (`tok_log.rs`) and nothing starved;
//! its repairs, if any, go into the log with their `at` and permille, as
//! the loop logs them. Each token is still its own step: it starts as the
//! watch's step loop starts one (the same resets, the horizon from the
//! byte before it) and its tokens get that step's `at`; the run only saves
//! the loop's round trip for steps that need nothing of it. The step the
//! run ends with — any kind — goes back to the loop as the step it called,
//! with where it started.

use super::{Engine, L, Tok, Track};
use crate::error::Error;

/// The lengths of the lists a step may add to, taken as it starts.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct StepStart {
    /// Repairs recorded before the step.
    pub(crate) repairs: usize,
    /// Log entries before the step.
    pub(crate) toks: usize,
    /// Holes cut before the step.
    pub(crate) holes: usize,
    /// Where in the input the step started.
    pub(crate) pos: usize,
}

/// What a lane run needs and what it leaves for the step loop.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LaneRun {
    /// Steps may run on (set by the loop for a batch's steps).
    pub(crate) on: bool,
    /// How far from the end of the input a step must start to run on.
    pub(crate) margin: usize,
    /// Added to input offsets in `at`s (what the source dropped).
    pub(crate) shift: usize,
    /// Steps run on before the current one, since the loop's call.
    pub(crate) ran_on: usize,
    /// How many more repairs the stream reports as events (set by the
    /// loop for each batch; the log keeps no repair past them).
    pub(crate) reports: usize,
    /// Where the current step started.
    pub(crate) start: StepStart,
}

impl<T: Track> Engine<'_, T> {
    /// Starts a watch step (`whole`: strings may be read whole, the step
    /// being one of a batch).
    #[inline]
    pub(crate) fn start_step(&mut self, whole: bool) {
        self.lanes.start = StepStart {
            repairs: self.repairs.len(),
            toks: self.toks.len(),
            holes: self.holes.len(),
            pos: self.pos,
        };
        self.lanes.ran_on = 0;
        self.begin_token();
        self.whole_strings = whole.then_some(self.totals.count);
        self.lane_step = false;
        self.toks_ok = true;
    }

    /// Whether the current step can be read from the token log: tokens were
    /// logged, the fast lane took it and logged everything it wrote, and it
    /// rewrote nothing earlier, cut no hole and holds nothing back.
    #[inline]
    pub(crate) fn step_logged(&self) -> bool {
        self.log_toks
            && self.lane_step
            && self.toks_ok
            && self.retracted.is_none()
            && self.open_str.is_none()
            && self.holes.len() == self.lanes.start.holes
            && self.stable_out() == self.out.len()
    }

    /// Whether the current step went where only a batch's steps go: a
    /// string read whole, a cut past a key's repair, or string content
    /// going on past a run (which needs `L` + 2 bytes ahead of where the
    /// step started). A step that did none of them is the step it would
    /// have been alone.
    pub(crate) fn took_batch_path(&self) -> bool {
        self.open_at.is_some()
            || self.cut.is_some()
            || self.lanes.start.pos + L + 2 < self.src.len()
    }

    /// Gives the current step's logged tokens its `at`; that `at`.
    #[inline]
    pub(crate) fn stamp_step(&mut self) -> usize {
        let shift = self.lanes.shift;
        let at = self.track.horizon() + 1 + shift;
        for t in self
            .toks
            .get_mut(self.lanes.start.toks..)
            .unwrap_or_default()
        {
            t.at = at;
        }
        at
    }

    /// Logs the repairs of the logged step just run (its `at`: `at`), each
    /// with its `at` and permille (readiness's syntax permille of the input
    /// so far, what a stream without a schema reports); those decided
    /// before the step went on past a key at the cut's. Repairs past those
    /// the stream still reports are not logged.
    pub(crate) fn log_step_repairs(&mut self, at: usize) {
        if self.lanes.reports == 0 {
            return;
        }
        let (before, shift) = (self.lanes.start.repairs, self.lanes.shift);
        let start = self.doc_in.first().map(|s| s + shift);
        let end = self.payload_end.map(|p| p + shift);
        let permille = |at: usize, synthesized: usize| {
            start.map_or(0, |start| {
                let payload = end.unwrap_or(at).saturating_sub(start);
                crate::readiness::syntax_permille(payload, synthesized) as i32
            })
        };
        let synthesized = self.pending_synthesis();
        let cut = self
            .cut
            .map(|(n, horizon, then)| (n.saturating_sub(before), horizon + 1 + shift, then));
        let Engine {
            repairs,
            toks,
            lanes,
            ..
        } = self;
        let step = repairs.get(before..).unwrap_or_default();
        let logged = step.len().min(lanes.reports);
        lanes.reports -= logged;
        for (i, r) in step.iter().take(logged).enumerate() {
            let (at, synthesized) = match cut {
                Some((upto, cut_at, then)) if i < upto => (cut_at, then),
                _ => (at, synthesized),
            };
            toks.push(Tok::repair(r.rule, at, permille(at, synthesized)));
        }
    }

    /// The token of a document step (its trivia passed) and, in a lane
    /// run, the steps after it while each is logged whole.
    pub(crate) fn token_steps(&mut self) -> Result<(), Error> {
        loop {
            self.token_step()?;
            if !T::TRACKS || !self.lanes.on || !self.runs_on() {
                return Ok(());
            }
            if self.pos + self.lanes.margin >= self.src.len() {
                return Ok(());
            }
            self.next_lane_step();
            self.trivia();
        }
    }

    /// The step just run needs nothing of the loop: a logged lane step
    /// that did not starve (its repairs logged here), the repair list not
    /// due for a trim (the loop commits the batch for that).
    #[inline]
    fn runs_on(&self) -> bool {
        self.step_logged() && !self.starved() && !self.repairs_full()
    }

    /// Stamps the step just run, logs its repairs, and starts the next one
    /// as the loop would.
    fn next_lane_step(&mut self) {
        let at = self.stamp_step();
        if self.repairs.len() > self.lanes.start.repairs {
            self.log_step_repairs(at);
        }
        let ran_on = self.lanes.ran_on + 1;
        self.start_step(true);
        self.lanes.ran_on = ran_on;
    }
}
