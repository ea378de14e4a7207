//! Watch streams (spec §12): feed a reply as it arrives, get deltas and
//! events as soon as the input decides them, and at the end exactly what
//! one-shot `repair` gives for the whole input.
//!
//! The stream keeps one engine over the bytes received so far. Each engine
//! step runs under a journal: a step that reads at or past the end of what
//! arrived (a token cut by the chunk boundary, a probe that needs more
//! lookahead) decides nothing and is taken back, to run again on the next
//! feed. A committed step is exactly the step one-shot repair takes, so the
//! result cannot depend on how the input was split, and no byte is parsed
//! again except inside the one step that waits.

mod decl;
mod delta;
mod escaped;
mod events;
#[cfg(feature = "watch-floor")]
pub mod floor;
mod output_text;
mod reader;
mod so_far;
mod tally;

pub use delta::{Delta, DeltaOp, DeltaRef, Deltas};
pub use events::{Event, EventKind};

use alloc::string::String;
use alloc::vec::Vec;

use crate::engine::{Engine, Horizon, Phase, Track};
use crate::error::{Error, ErrorCode};
use crate::options::{Options, Profile};
use crate::readiness::Readiness;
use crate::report::{Completeness, Repaired};
use crate::serialize::Obj;
use escaped::Source;
use reader::Reader;
use tally::{Tally, permille};

/// What one `feed` decided.
///
/// ```
/// use jsonmend_engine::{Options, Watch};
/// let mut w = Watch::new(Options::default());
/// let p = w.feed("{\"a\": [1").unwrap();
/// // `1` may go on: it is not decided yet.
/// assert_eq!((p.deltas.len(), p.events.len(), p.bytes), (2, 0, 8));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Deltas decided by this feed (appends to one path in a row merged).
    pub deltas: Deltas,
    /// Events decided by this feed.
    pub events: Vec<Event>,
    /// Bytes received so far.
    pub bytes: usize,
}

impl Progress {
    /// The protocol `watch.feed` result `{deltas, events, bytes}`.
    ///
    /// ```
    /// use jsonmend_engine::{Options, Watch};
    /// let mut w = Watch::new(Options::default());
    /// let p = w.feed("[1").unwrap();
    /// assert_eq!(p.to_json(), r#"{"deltas":[{"path":"","op":"add","value":[],"text":"[]","at":1}],"events":[],"bytes":2}"#);
    /// ```
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }

    /// Appends the protocol `watch.feed` result to `out`.
    pub(crate) fn write_json(&self, out: &mut String) {
        Obj::append_to(out)
            .with("deltas", |out| self.deltas.write_json(out))
            .with("events", |out| write_events(out, &self.events))
            .num("bytes", self.bytes)
            .end();
    }
}

/// Appends a JSON array of `events`.
fn write_events(out: &mut String, events: &[Event]) {
    crate::serialize::array_into(out, events, |out, e| e.write_json(out));
}

/// What `finish` returns: the one-shot result of the whole input, the
/// events `finish` itself decided, and the stream's readiness.
///
/// ```
/// use jsonmend_engine::{Options, Watch};
/// let mut w = Watch::new(Options::default());
/// w.feed("[1, 2]").unwrap();
/// let f = w.finish().unwrap();
/// assert_eq!(f.result.text, "[1, 2]");
/// assert!(f.streamed && f.events.is_empty() && f.watcher_final.is_none());
/// ```
#[derive(Clone, Debug)]
pub struct WatchFinal {
    /// Equal to `repair` of the whole input under the same options.
    pub result: Repaired<'static>,
    /// Events decided at the end of the input.
    pub events: Vec<Event>,
    /// `readiness` of the whole input, with a declaration.
    pub watcher_final: Option<Readiness>,
    /// The feeds' deltas build `result`'s value: the root completed while
    /// feeding and the end of input decided nothing more (a value only the
    /// end settles, such as a final bare number or a second document, is
    /// in `result` only).
    pub streamed: bool,
}

impl WatchFinal {
    /// The protocol `watch.finish` result `{final, events, watcher_final}`;
    /// `final` holds the `repair` fields plus `value`.
    ///
    /// ```
    /// use jsonmend_engine::{Options, Watch};
    /// let mut w = Watch::new(Options::default());
    /// w.feed("{\"a\":1").unwrap();
    /// let f = w.finish().unwrap();
    /// assert!(f.to_json().starts_with(r#"{"final":{"text":"{\"a\":1}","#));
    /// assert!(f.to_json().ends_with(r#""value":{"a":1}},"events":[{"kind":"repair","path":"","code":"R075","threshold":"truncated_container","severity":"high","at":6,"permille":857}],"watcher_final":null}"#));
    /// ```
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }

    /// Appends the protocol `watch.finish` result to `out`.
    pub(crate) fn write_json(&self, out: &mut String) {
        // The text, and the value about as long again.
        out.reserve(2 * self.result.text.len() + 256);
        Obj::append_to(out)
            .with("final", |out| {
                self.result
                    .members(Obj::append_to(out))
                    .with("value", |out| self.result.write_value_json(out))
                    .end();
            })
            .with("events", |out| write_events(out, &self.events))
            .with("watcher_final", |out| match &self.watcher_final {
                Some(r) => out.push_str(&r.to_json()),
                None => out.push_str("null"),
            })
            .end();
    }
}

/// An incremental watcher over one reply (spec §12).
///
/// ```
/// use jsonmend_engine::{Options, Watch};
/// let mut w = Watch::new(Options::default());
/// let mut ops = Vec::new();
/// for chunk in ["{\"items\": [1, ", "2], \"done\": tr", "ue}"] {
///     for d in w.feed(chunk).unwrap().deltas.iter() {
///         ops.push(format!("{} {} {}", d.op.as_str(), d.path, d.text));
///     }
/// }
/// assert_eq!(ops[..3], ["add  {}", "add /items []", "add /items/0 1"]);
/// assert_eq!(w.finish().unwrap().result.text, "{\"items\": [1, 2], \"done\": true}");
/// ```
///
/// A copy goes on from where the stream is, on its own:
///
/// ```
/// use jsonmend_engine::{Options, Watch};
/// let mut w = Watch::new(Options::default());
/// w.feed("[1, ").unwrap();
/// let mut other = w.clone();
/// w.feed("2]").unwrap();
/// other.feed("3]").unwrap();
/// assert_eq!(w.finish().unwrap().result.text, "[1, 2]");
/// assert_eq!(other.finish().unwrap().result.text, "[1, 3]");
/// ```
#[derive(Clone)]
pub struct Watch {
    opts: Options,
    source: Source,
    engine: Option<Engine<'static, Horizon>>,
    reader: Reader,
    /// A fatal condition met while feeding: `E040`/`E041` are returned by
    /// later feeds, every error by `finish`.
    failed: Option<Error>,
    tally: Tally,
    /// Documents the engine started.
    docs_started: usize,
    /// The marks of a batch and their repairs (buffers kept between feeds).
    marks: Vec<Mark>,
    rules: Vec<crate::Rule>,
}

impl core::fmt::Debug for Watch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Watch")
            .field("bytes", &self.source.len())
            .field("failed", &self.failed)
            .finish()
    }
}

/// How far from the end of what arrived a batch of tokens may start: past
/// it, tokens run one step each (most of them wait for more input there).
const BATCH_MARGIN: usize = 128;

/// What `syntax_permille` needs of the engine after a step: where the
/// payload starts and ends, and what the end of input would synthesize.
#[derive(Clone, Copy, Debug)]
struct Level {
    start: Option<usize>,
    payload_end: Option<usize>,
    synthesized: usize,
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

/// A stream's engine over `src`: partial input, offsets tracked.
fn stream_engine<'a>(src: &'a [u8], opts: &Options) -> Engine<'a, Horizon> {
    let mut engine = Engine::new(src, opts.max_depth, opts.skip_prose);
    engine.max_repairs = opts.max_repairs;
    engine.partial = true;
    engine
}

/// One engine step's decisions, read once its batch commits.
#[derive(Clone)]
struct Mark {
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

/// A fatal condition met while feeding: `E040`/`E041` are also an `error`
/// event.
fn fatal(e: Error, (at, permille): (usize, i32), progress: &mut Progress) -> Error {
    if matches!(e.code, ErrorCode::E040 | ErrorCode::E041) {
        progress.events.push(Event {
            kind: EventKind::Error {
                code: e.code.as_str(),
                message: e.message.clone(),
            },
            path: String::new(),
            at,
            permille,
        });
    }
    e
}

impl Watch {
    /// Starts a stream (the profile applies at `finish`).
    ///
    /// ```
    /// use jsonmend_engine::{Options, Schema, Watch};
    /// let opts = Options { schema: Some(Schema::parse("{!a:string}").unwrap()), ..Options::default() };
    /// let mut w = Watch::new(opts);
    /// let p = w.feed("{\"a\":\"x\"}").unwrap();
    /// assert!(p.events.iter().any(|e| e.kind.name() == "ready"));
    /// ```
    pub fn new(opts: Options) -> Watch {
        let engine = stream_engine(&[], &opts);
        let decls = opts.schema.as_ref().map(|s| decl::Decls::new(&s.root));
        let total = decls
            .as_ref()
            .and_then(|d| d.container(0, true))
            .zip(decls.as_ref())
            .map_or(0, |(n, d)| d.required(n));
        let (opts_schema, max_repairs) = (opts.schema.is_some(), opts.max_repairs);
        let opts_limit = opts.max_input;
        let lenient = opts.profile == Profile::Lenient;
        Watch {
            reader: Reader::new(decls),
            opts,
            source: Source::new(opts_limit),
            engine: Some(engine),
            failed: None,
            docs_started: 0,
            marks: Vec::new(),
            rules: Vec::new(),
            tally: Tally {
                schema: opts_schema,
                lenient,
                max_repairs,
                repair_events: 0,
                total,
                settled: 0,
                ready: false,
                complete: false,
            },
        }
    }

    /// Feeds text (see [`Watch::feed_bytes`]).
    ///
    /// ```
    /// use jsonmend_engine::{Options, Watch};
    /// let mut w = Watch::new(Options::default());
    /// // `tr` may still become `true`: nothing is decided about it yet.
    /// assert_eq!(w.feed("[tr").unwrap().deltas.len(), 1);
    /// assert_eq!(w.feed("ue]").unwrap().deltas.get(0).unwrap().text, "true");
    /// ```
    pub fn feed(&mut self, chunk: &str) -> Result<Progress, Error> {
        // Text is known to be UTF-8: it is not checked again.
        self.source.push_str(chunk);
        self.fed(chunk.len())
    }

    /// Feeds bytes (a chunk may end inside a UTF-8 sequence): the deltas
    /// and events this input decided. After `E040`/`E041` (reported once
    /// as an `error` event) every feed returns that error.
    ///
    /// ```
    /// use jsonmend_engine::{Options, Watch};
    /// let mut w = Watch::new(Options::default());
    /// // `[` and the string's opening quote are decided; `é` is cut.
    /// assert_eq!(w.feed_bytes(b"[\"\xC3").unwrap().deltas.len(), 2);
    /// let p = w.feed_bytes(b"\xA9\"]").unwrap();
    /// let d = p.deltas.get(0).unwrap();
    /// assert_eq!((d.op.as_str(), d.text), ("append", "\"\u{e9}\""));
    /// ```
    pub fn feed_bytes(&mut self, chunk: &[u8]) -> Result<Progress, Error> {
        self.source.push(chunk);
        self.fed(chunk.len())
    }

    /// The feed of a chunk of `len` bytes just pushed to the source.
    fn fed(&mut self, len: usize) -> Result<Progress, Error> {
        // The bytes count even after a fatal limit: `finish` reports on
        // the whole input.
        if let Some(e) = self
            .failed
            .as_ref()
            .filter(|e| matches!(e.code, ErrorCode::E040 | ErrorCode::E041))
        {
            return Err(e.clone());
        }
        let mut progress = Progress {
            bytes: self.source.len(),
            ..Progress::default()
        };
        if self.failed.is_some() {
            return Ok(progress);
        }
        // Small chunks decide a delta or two: no room made ahead for them.
        if len >= 512 {
            progress.deltas = Deltas::for_input(len.min(64 << 10));
        }
        // What the first `max_input` bytes decide is reported whatever the
        // chunks; the byte after them is `E041`.
        self.run(&mut progress);
        if self.failed.is_none() && self.source.len() > self.opts.max_input {
            let e = Error::new(
                ErrorCode::E041,
                alloc::format!("input larger than {} bytes", self.opts.max_input),
            );
            self.fail(e, self.opts.max_input + 1, &mut progress);
        }
        Ok(progress)
    }

    fn fail(&mut self, e: Error, at: usize, progress: &mut Progress) {
        let permille = if self.tally.schema {
            permille(self.tally.settled, self.tally.total)
        } else {
            0
        };
        self.failed = Some(fatal(e, (at, permille), progress));
    }

    /// Runs engine steps until one needs more input. Far from the end of
    /// what arrived, tokens run in batches under one journal (a batch that
    /// reaches the end, or rewrites earlier output, is taken back and run
    /// again a token at a time); each token's decisions are kept in a
    /// [`Mark`] and read in order once its batch commits, so the deltas and
    /// events are those of single steps.
    fn run(&mut self, progress: &mut Progress) {
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
            engine.begin_step();
            let mut starved = false;
            let mut failure = None;
            loop {
                let before = engine.repairs.len();
                engine.begin_token();
                engine.whole_strings =
                    (batch && engine.pos + BATCH_MARGIN < src.len()).then_some(engine.totals.count);
                let r = engine.advance();
                if engine.starved() {
                    starved = true;
                    break;
                }
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
                marks.push(Mark {
                    at: engine.track.horizon() + 1 + shift,
                    stable: engine.stable_out(),
                    retracted: engine.retracted,
                    run: engine.plain_run.map(|(o, e, i)| (o, e, i + shift)),
                    open: engine.open_at.map(|(o, a)| (o, a + shift)),
                    rules: (from, rules.len()),
                    level: Level::of(&engine, shift),
                    cut,
                });
                if let Err(e) = r {
                    failure = Some(e);
                    break;
                }
                let far = engine.pos + BATCH_MARGIN < src.len();
                if !batch || !far || engine.retracted.is_some() || engine.phase == Phase::Done {
                    break;
                }
            }
            let rewrote = marks.len() > 1 && marks.iter().any(|m| m.retracted.is_some());
            if starved || rewrote {
                engine.undo_step();
                if marks.is_empty() && !batch {
                    // One token waits for more input.
                    break;
                }
                // (A batch's first step that starved runs again alone: read
                // a token at a time, a string's content is decided before
                // its close, which may be what waits.)
                single = marks.len() + usize::from(starved);
                continue;
            }
            engine.commit_step();
            let last = marks.len().saturating_sub(1);
            for (k, m) in marks.iter().enumerate() {
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
                        let e = crate::finish::shifted(e, self.source.input(), shift);
                        let permille = self.tally.permille_at(m.level, m.at);
                        self.failed = Some(fatal(e, (m.at, permille), progress));
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
                    engine.out.as_str(),
                    m.stable,
                    &engine.holes,
                    reader::Decided {
                        at: m.at,
                        run: m.run,
                        open: m.open,
                    },
                    (&mut progress.deltas, &mut notes),
                );
                if core::mem::take(&mut self.reader.reopened_root) {
                    self.tally.complete = false;
                }
                if !notes.is_empty() {
                    let permille = self.tally.permille_at(m.level, m.at);
                    self.tally.take_notes(
                        &mut notes,
                        self.reader.decls(),
                        (m.at, permille),
                        progress,
                    );
                }
            }
            self.docs_started = engine.doc_in.len();
            if self.failed.is_some() {
                break;
            }
        }
        self.engine = Some(engine.rebind(&[]));
        self.marks = marks;
        self.rules = rules;
    }

    /// Spec §19's work units of the stream's engine so far (feature
    /// `work-counter`): bytes examined, output written or taken back.
    #[cfg(feature = "work-counter")]
    #[doc(hidden)]
    pub fn work(&self) -> usize {
        self.engine
            .as_ref()
            .map_or(0, |e| e.work.get() + e.out.len())
    }

    /// Whether the root value is complete as far as fed (it closed, and
    /// nothing reopened it since).
    ///
    /// ```
    /// use jsonmend_engine::{Options, Watch};
    /// let mut w = Watch::new(Options::default());
    /// w.feed("[1, 2]").unwrap();
    /// assert!(w.is_complete());
    /// ```
    pub fn is_complete(&self) -> bool {
        // A document started after the last complete one is not.
        self.tally.complete && self.docs_started <= self.reader.roots()
    }

    /// Ends the stream: the result of `repair` on the whole input (the
    /// profile's refusals are errors), the events decided at the end, and
    /// with a declaration the readiness of the whole input.
    ///
    /// ```
    /// use jsonmend_engine::{ErrorCode, Options, Profile, Watch};
    /// let mut w = Watch::new(Options::with_profile(Profile::Execution));
    /// w.feed("{\"a\": 1").unwrap();
    /// // Completing a cut-off object is lossy: `execution` refuses it.
    /// assert_eq!(w.finish().unwrap_err().code, ErrorCode::E010);
    /// ```
    pub fn finish(mut self) -> Result<WatchFinal, Error> {
        self.source.finish();
        let shift = self.source.shift();
        let escaped = self.source.escaped();
        let input = self.source.input();
        let src = self.source.engine_src().unwrap_or(input);
        let engine = match (self.failed.take(), self.engine.take()) {
            (Some(e), _) => Err(e),
            (None, Some(e)) => Ok(e.rebind(src)),
            (None, None) => Err(Error::new(ErrorCode::E090, "watch engine lost")),
        };
        // The rest of the input, decided now that it is complete.
        let mut late = Vec::new();
        let read = self.reader.pos();
        let mut streamed = self.is_complete() && self.reader.open_string().is_none();
        let utf8_runs = self.source.utf8_known();
        let text = self.source.engine_text();
        let engine = engine.and_then(|mut e| {
            e.src_str = text;
            e.partial = false;
            e.utf8_runs = utf8_runs;
            let before = e.repairs.len();
            let out = e.out.len();
            e.run()?;
            streamed &= read == out && e.out.len() == out;
            late.extend(
                e.repairs
                    .get(before..)
                    .unwrap_or_default()
                    .iter()
                    .map(|r| r.rule),
            );
            Ok(e)
        });
        let unchecked = crate::finish::finish_stream(input, engine, shift, escaped, &self.opts);
        let watcher_final = self.opts.schema.as_ref().map(|_| {
            if self.opts.profile == Profile::Lenient {
                crate::readiness::readiness(input, &self.opts)
            } else {
                crate::readiness::of_result(unchecked.as_ref(), &self.opts)
            }
        });
        let r = unchecked
            .and_then(|r| crate::gate::gate(input, r, &self.opts))
            .map_err(|e| crate::gate::hinted(e, input, &self.opts))?;
        let at = input.len();
        let mut events = Vec::new();
        let pm = if self.opts.schema.is_some() {
            watcher_final.as_ref().map_or(0, |w| w.settled_permille)
        } else {
            let (p, s) = (r.payload, r.synthesized);
            permille(p, p + s).min(if p == 0 { 0 } else { 1000 })
        };
        let limit = self
            .opts
            .max_repairs
            .saturating_sub(self.tally.repair_events);
        for rule in late.into_iter().take(limit) {
            events.push(Event::repair(rule, at, pm));
        }
        if !self.tally.complete && r.completeness == Completeness::Complete {
            events.push(Event {
                kind: EventKind::Complete,
                path: String::new(),
                at,
                permille: pm,
            });
        }
        let result = r.into_owned();
        let streamed = streamed && result.completeness == Completeness::Complete;
        Ok(WatchFinal {
            result,
            events,
            watcher_final,
            streamed,
        })
    }
}
