//! The step loop of a feed: engine steps in batches under one journal,
//! their deltas and events read in order once a batch commits.
//!
//! A step the fast lane took whole is logged (`engine/tok_log.rs`): the
//! reader takes its tokens from the log, with the step's repairs logged
//! beside them (their `at` and permille). Every other step keeps a
//! [`Mark`], and the reader reads its output as text. Marks sit in the log
//! where their step ran, so deltas and events come in step order either
//! way. A logged step that did not starve runs on to the next token
//! without coming back to the loop (`engine/lane_run.rs`).

use alloc::vec::Vec;

use super::events::Event;
use super::reader::{self, Reader};
use super::tally::Tally;
use super::{Progress, Watch, fatal};
use crate::engine::{Engine, Horizon, Phase, Tok, TokKind, Track};
use crate::error::Error;

/// How far from the end of what arrived a batch of tokens may start: past
/// it, tokens run one step each (most of them wait for more input there).
/// The most a stream leaves; it starts with [`BATCH_MARGIN_MIN`].
pub(super) const BATCH_MARGIN: usize = 128;

/// The margin a stream starts with, doubled (up to [`BATCH_MARGIN`]) each
/// time a batch's step runs into the end of what arrived, which takes the
/// batch back to run again a token at a time: a document of short tokens
/// runs few tokens alone, one of long steps (deep indentation, long keys)
/// soon leaves room for them.
pub(super) const BATCH_MARGIN_MIN: usize = 32;

/// What `syntax_permille` needs of the engine after a step: where the
/// payload starts and ends, and what the end of input would synthesize.
#[derive(Clone, Copy, Debug)]
pub(super) struct Level {
    pub(super) start: Option<usize>,
    pub(super) payload_end: Option<usize>,
    pub(super) synthesized: usize,
}

impl Level {
    fn of(engine: &Engine<'_, Horizon>, shift: usize) -> Level {
        Level {
            start: engine.doc_in.first().map(|s| s + shift),
            payload_end: engine.payload_end.map(|p| p + shift),
            synthesized: engine.pending_synthesis(),
        }
    }
}

/// One engine step's decisions, read once its batch commits.
#[derive(Clone)]
pub(super) struct Mark {
    at: usize,
    stable: usize,
    retracted: Option<(usize, bool)>,
    run: Option<(usize, usize, usize)>,
    /// The opening of a string value it read whole: output offset, `at`.
    open: Option<(usize, usize)>,
    /// Its repairs, a range of the batch's rule list.
    rules: (usize, usize),
    level: Level,
    /// The step went on past a key that recorded repairs: the rules before
    /// this index of the list were decided at this `at`, the end of input
    /// then synthesizing this many bytes.
    cut: Option<(usize, usize, usize)>,
}

impl Mark {
    /// The mark of the step just run (`before`: the repair count before
    /// it), its repairs added to `rules`.
    fn of(
        engine: &Engine<'_, Horizon>,
        (before, shift): (usize, usize),
        rules: &mut Vec<crate::Rule>,
    ) -> Mark {
        let from = rules.len();
        // Repairs decided before the step went on past a key.
        let cut = engine.cut.map(|(n, horizon, synthesized)| {
            (
                from + n.saturating_sub(before),
                horizon + 1 + shift,
                synthesized,
            )
        });
        rules.extend(
            engine
                .repairs
                .get(before..)
                .unwrap_or_default()
                .iter()
                .map(|x| x.rule),
        );
        Mark {
            at: engine.track.horizon() + 1 + shift,
            stable: engine.stable_out(),
            retracted: engine.retracted,
            run: engine.plain_run.map(|(o, e, i)| (o, e, i + shift)),
            open: engine.open_at.map(|(o, a)| (o, a + shift)),
            rules: (from, rules.len()),
            level: Level::of(engine, shift),
            cut,
        }
    }
}

impl Watch {
    /// Runs engine steps until one needs more input. Far from the end of
    /// what arrived, tokens run in batches under one journal (a batch that
    /// reaches the end, or rewrites earlier output, is taken back and run
    /// again a token at a time); each token's decisions are logged or kept
    /// in a [`Mark`] and read in order once its batch commits, so the
    /// deltas and events are those of single steps.
    pub(super) fn run(&mut self, progress: &mut Progress) {
        let Some(src) = self.source.engine_src() else {
            return;
        };
        let shift = self.source.shift();
        let Some(engine) = self.engine.take() else {
            return;
        };
        let mut engine = engine.rebind(src);
        engine.src_str = self.source.engine_text();
        engine.utf8_runs = self.source.utf8_known();
        // Under a declaration every step's level may be needed.
        engine.log_toks = self.log_tokens && self.reader.decls().is_none();
        engine.lanes.margin = self.margin;
        engine.lanes.shift = shift;
        let mut notes = Vec::new();
        // Reused from feed to feed.
        let mut marks = core::mem::take(&mut self.marks);
        let mut rules = core::mem::take(&mut self.rules);
        // Tokens to run one at a time (after a batch was taken back).
        let mut single = 0usize;
        loop {
            if engine.phase == Phase::Done {
                break;
            }
            let batch = single == 0;
            single = single.saturating_sub(1);
            marks.clear();
            rules.clear();
            engine.toks.clear();
            // (A batch taken back is read again: its repairs count anew.)
            engine.lanes.reports = self.tally.reports_left();
            engine.begin_step();
            let (mut starved, mut failure, mut steps, mut rewrote) = (false, None, 0usize, false);
            engine.lanes.on = batch;
            loop {
                engine.start_step(batch);
                // (Inside a document, the document's step itself; logged
                // lane steps after it run on, `lane_run.rs`.)
                let r = if engine.phase == Phase::Doc && engine.is_partial() {
                    engine.doc_step().map(|()| true)
                } else {
                    engine.advance()
                };
                steps += engine.lanes.ran_on;
                let start = engine.lanes.start;
                if engine.starved() {
                    starved = true;
                    break;
                }
                steps += 1;
                if r.is_ok() && engine.step_logged() {
                    let at = engine.stamp_step();
                    if engine.repairs.len() > start.repairs {
                        engine.log_step_repairs(at);
                    }
                } else {
                    engine.toks.truncate(start.toks);
                    engine.toks.push(Tok::mark(marks.len()));
                    marks.push(Mark::of(&engine, (start.repairs, shift), &mut rules));
                    rewrote |= engine.retracted.is_some();
                }
                if let Err(e) = r {
                    failure = Some(e);
                    break;
                }
                let far = engine.pos + self.margin < src.len();
                // (A batch whose repair list is due for a trim commits, so
                // the list is trimmed before it outgrows its buffer.)
                if !batch
                    || !far
                    || engine.retracted.is_some()
                    || engine.phase == Phase::Done
                    || engine.repairs_full()
                {
                    break;
                }
            }
            if starved || (rewrote && steps > 1) {
                // A batch's first step that starved as it would alone.
                let as_alone =
                    starved && steps == 0 && !self.rerun_alone && !engine.took_batch_path();
                engine.undo_step();
                // (A batch's step ran into the end: leave more room.)
                if starved && steps > 0 && batch && self.margin < BATCH_MARGIN {
                    self.margin = (2 * self.margin).min(BATCH_MARGIN);
                    engine.lanes.margin = self.margin;
                }
                if steps == 0 && (!batch || as_alone) {
                    // One token waits for more input.
                    break;
                }
                // (A batch's first step that starved on a batch's path runs
                // again alone: read a token at a time, a string's content is
                // decided before its close, which may be what waits.)
                single = steps + usize::from(starved);
                continue;
            }
            engine.commit_step();
            let mut sink = Sink {
                reader: &mut self.reader,
                tally: &mut self.tally,
                failed: &mut self.failed,
                input: self.source.input(),
                shift,
            };
            sink.read_batch(
                &engine,
                (&marks, &rules),
                &mut failure,
                progress,
                &mut notes,
            );
            self.docs_started = engine.doc_in.len();
            if self.failed.is_some() {
                break;
            }
        }
        engine.log_toks = false;
        engine.lanes.on = false;
        self.engine = Some(engine.rebind(&[]));
        self.marks = marks;
        self.rules = rules;
    }
}

/// What reading a batch moves on: the stream's reader and tally, its
/// failure, and the input (for an error's position).
struct Sink<'a> {
    reader: &'a mut Reader,
    tally: &'a mut Tally,
    failed: &'a mut Option<Error>,
    input: &'a [u8],
    shift: usize,
}

impl Sink<'_> {
    /// Reads a committed batch: its logged tokens and marks in order.
    fn read_batch(
        &mut self,
        engine: &Engine<'_, Horizon>,
        (marks, rules): (&[Mark], &[crate::Rule]),
        failure: &mut Option<Error>,
        progress: &mut Progress,
        notes: &mut Vec<reader::Note>,
    ) {
        let shift = self.shift;
        let text = engine.out.as_str();
        let last = marks.len().saturating_sub(1);
        // (The batch's holes, taken before its first token is read.)
        self.reader.take_holes(&engine.holes);
        for tok in &engine.toks {
            if let TokKind::Repair(rule, permille) = tok.kind {
                if self.tally.repair_events < self.tally.max_repairs {
                    self.tally.repair_events += 1;
                    progress.events.push(Event::repair(rule, tok.at, permille));
                }
                continue;
            }
            if tok.kind != TokKind::Mark {
                let lean = self.reader.replay(
                    text,
                    &engine.holes,
                    tok,
                    (&mut progress.deltas, &mut *notes),
                );
                if !lean && !notes.is_empty() {
                    // (A logged step settles nothing that reports an event;
                    // should one, it is reported at the batch's level.)
                    let permille = self.tally.permille_at(Level::of(engine, shift), tok.at);
                    self.tally
                        .take_notes(notes, self.reader.decls(), (tok.at, permille), progress);
                }
                continue;
            }
            // (A step read as text may have written past what it settled.)
            self.reader.text_step_ran();
            let k = tok.start;
            let Some(m) = marks.get(k) else { continue };
            // (A step read as text reads its keys from the text.)
            self.reader.take_key(text);
            for (j, &rule) in rules.iter().enumerate().take(m.rules.1).skip(m.rules.0) {
                if self.tally.repair_events >= self.tally.max_repairs {
                    break;
                }
                self.tally.repair_events += 1;
                let (at, level) = match m.cut {
                    Some((upto, at, synthesized)) if j < upto => (
                        at,
                        Level {
                            synthesized,
                            ..m.level
                        },
                    ),
                    _ => (m.at, m.level),
                };
                let permille = self.tally.permille_at(level, at);
                progress.events.push(Event::repair(rule, at, permille));
            }
            if k == last {
                if let Some(e) = failure.take() {
                    let e = crate::finish::shifted(e, self.input, shift);
                    let permille = self.tally.permille_at(m.level, m.at);
                    *self.failed = Some(fatal(e, (m.at, permille), progress));
                    break;
                }
            }
            match m.retracted {
                Some((r, false)) => self.reader.retract(r, m.at, &mut progress.deltas),
                Some((r, true)) => self.reader.implicit(r),
                // Nothing new to read (a separator, a key on its way).
                None if m.stable <= self.reader.pos() => continue,
                None => {}
            }
            self.reader.read(
                text,
                m.stable,
                &engine.holes,
                reader::Decided {
                    at: m.at,
                    run: m.run,
                    open: m.open,
                },
                (&mut progress.deltas, &mut *notes),
            );
            if core::mem::take(&mut self.reader.reopened_root) {
                self.tally.complete = false;
            }
            if !notes.is_empty() {
                let permille = self.tally.permille_at(m.level, m.at);
                self.tally
                    .take_notes(notes, self.reader.decls(), (m.at, permille), progress);
            }
        }
        // The output moves on: a key still waiting for its value keeps its
        // text.
        self.reader.take_key(text);
    }
}

#[cfg(test)]
mod tests {
    use super::{BATCH_MARGIN, BATCH_MARGIN_MIN};
    use crate::{Options, Watch};
    use alloc::string::String;

    /// Feeds `doc` in 4 KiB pieces; the margin the stream ends with, and
    /// whether `finish` gave one-shot repair's text.
    fn margin_after(doc: &str) -> (usize, bool) {
        let mut w = Watch::new(Options::default());
        for piece in doc.as_bytes().chunks(4096) {
            w.feed_bytes(piece).unwrap();
        }
        let margin = w.margin;
        let same = w.finish().map(|f| f.result.text.into_owned()).ok()
            == crate::repair_text(doc).ok().map(|r| r.text.into_owned());
        (margin, same)
    }

    /// `n` members, each indented by `indent` blanks.
    fn members(n: usize, indent: usize) -> String {
        let mut doc = String::from("{\"a\": [");
        for i in 0..n {
            doc.push('\n');
            doc.extend(core::iter::repeat_n(' ', indent));
            doc.push_str(&alloc::format!("{{\"k\": {i}}},"));
        }
        doc.push_str("\n{}]}");
        doc
    }

    #[test]
    fn short_steps_keep_the_small_margin() {
        assert_eq!(margin_after(&members(3000, 1)), (BATCH_MARGIN_MIN, true));
    }

    #[test]
    fn long_steps_widen_the_margin() {
        // Each step passes 100 blanks before its token: a batch's step
        // starting 32 or 64 bytes before the end runs into it.
        assert_eq!(margin_after(&members(3000, 100)), (BATCH_MARGIN, true));
    }
}
