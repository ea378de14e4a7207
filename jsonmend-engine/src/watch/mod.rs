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
mod run;
mod so_far;
mod tally;

pub use delta::{Delta, DeltaOp, DeltaRef, Deltas};
pub use events::{Event, EventKind};

use alloc::string::String;
use alloc::vec::Vec;

use crate::engine::{Engine, Horizon};
use crate::error::{Error, ErrorCode};
use crate::options::{Options, Profile};
use crate::readiness::Readiness;
use crate::report::{Completeness, Repaired};
use crate::serialize::Obj;
use escaped::Source;
use reader::Reader;
use run::{Level, Mark};
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
    /// Fast-lane steps are read from the engine's token log (off only to
    /// test the log against the text reader).
    log_tokens: bool,
    /// A batch's first step that starved always runs again alone (on only
    /// to test that a step which took no batch's path need not).
    rerun_alone: bool,
    /// How far from the end of what arrived batches stop (`run.rs`).
    margin: usize,
}

impl core::fmt::Debug for Watch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Watch")
            .field("bytes", &self.source.len())
            .field("failed", &self.failed)
            .finish()
    }
}

/// A stream's engine over `src`: partial input, offsets tracked.
fn stream_engine<'a>(src: &'a [u8], opts: &Options) -> Engine<'a, Horizon> {
    let mut engine = Engine::new(src, opts.max_depth, opts.skip_prose);
    engine.max_repairs = opts.max_repairs;
    engine.partial = true;
    engine
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
            log_tokens: true,
            rerun_alone: false,
            margin: run::BATCH_MARGIN_MIN,
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
        // Small chunks decide a few deltas or none: room for them is made
        // at the first (`Deltas::push`).
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

    /// The stream with every step's output read as text, none from the
    /// engine's token log (for tests of the log against the text reader;
    /// the deltas and events are the same either way).
    ///
    /// ```
    /// use jsonmend_engine::{Options, Watch};
    /// let input = format!("[{}1, \"ab\", {{\"k\": null}}]", " ".repeat(300));
    /// let mut a = Watch::new(Options::default());
    /// let mut b = Watch::new(Options::default()).reading_text_only();
    /// assert_eq!(a.feed(&input).unwrap(), b.feed(&input).unwrap());
    /// ```
    #[doc(hidden)]
    pub fn reading_text_only(mut self) -> Watch {
        self.log_tokens = false;
        self
    }

    /// The stream with a batch's first step that starved always run again
    /// alone, as it was before such a step that took no batch's path (no
    /// string read whole, no cut, no string content gone on) waited for
    /// more input at once (for tests: every feed's deltas and events are
    /// the same either way).
    ///
    /// ```
    /// use jsonmend_engine::{Options, Watch};
    /// let mut a = Watch::new(Options::default());
    /// let mut b = Watch::new(Options::default()).always_rerunning_alone();
    /// for piece in ["[\"ab", "c\", 1", "2]"] {
    ///     assert_eq!(a.feed(piece).unwrap(), b.feed(piece).unwrap());
    /// }
    /// ```
    #[doc(hidden)]
    pub fn always_rerunning_alone(mut self) -> Watch {
        self.rerun_alone = true;
        self
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
