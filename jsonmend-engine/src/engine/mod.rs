//! The repair engine: one forward pass over the input bytes with an explicit
//! container stack (spec §2). Framing (prose, fences, markup) is in
//! `framing`, strings in `string`, bare runs, numbers and literals in `bare`,
//! containers and separators in `structure`, keys in `member_key`, closers
//! and the end of input in `close`, the recorded repairs in `repairs`, and
//! a watch stream's offset tracking in `track`; this file holds the state
//! and the output helpers they share.

mod bare;
mod close;
mod fast;
mod framing;
mod journal;
mod lane_run;
mod member_key;
mod out;
mod partial;
mod repairs;
mod scan;
mod shape;
mod string;
mod structure;
mod tok_log;
mod track;
mod whole;
mod work;

pub(crate) use bare::is_json_number;
pub(crate) use framing::Mode;
pub(crate) use journal::{Held, Journal, Stack};
pub(crate) use out::Out;
pub(crate) use repairs::{Detail, RawRepair, Totals};
pub(crate) use tok_log::{Tok, TokKind};
pub(crate) use track::{
    Horizon, MEMO_BLOCK, MEMO_LINE, MEMO_RUN, MEMO_TAG, MEMO_WORD, Memo, OneShot, Track,
};

use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{Error, ErrorCode};
use crate::keys::Keys;

/// The lookahead window of spec §2.1: probes never look further.
pub(crate) const L: usize = 256;

/// What kind of container a frame is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Object,
    Array,
    /// `( … )` written as an array (R056).
    Tuple,
    /// `NAME( … )` unwrapped: one argument is itself, none is null.
    Call,
    /// The object R053 opened around a key found outside an object.
    Implicit,
}

impl Kind {
    /// The input closer that matches the kind.
    pub(crate) fn closer(self) -> u8 {
        match self {
            Kind::Object | Kind::Implicit => b'}',
            Kind::Array => b']',
            Kind::Tuple | Kind::Call => b')',
        }
    }

    pub(crate) fn is_object(self) -> bool {
        matches!(self, Kind::Object | Kind::Implicit)
    }
}

/// Where a frame is in its grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    /// Object: a key or the closer is expected.
    Key,
    /// Object: the key was read, its colon is expected.
    Colon,
    /// Object: the colon was read, the value is expected.
    Value,
    /// Array-like: an element or the closer is expected.
    Elem,
    /// After a member or element: a separator or the closer is expected.
    After,
}

/// A container that just closed inside an object (R055 may reopen it).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Closed {
    pub(crate) kind: Kind,
    pub(crate) closer_out: usize,
    pub(crate) items: usize,
}

/// A frame's grammar state: everything but its key index, copied whole
/// when a watch step may have to be undone.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FrameState {
    pub(crate) kind: Kind,
    pub(crate) state: State,
    pub(crate) items: usize,
    pub(crate) open_out: usize,
    /// `{` merged into this object by R055, each owed a `}`.
    pub(crate) absorbed: usize,
    pub(crate) key_base: usize,
    /// The last key's span in the source, for messages.
    pub(crate) key: (usize, usize),
    /// Out offset where the last item starts (R053 inserts `{` there).
    pub(crate) last_item_out: usize,
    pub(crate) last_item_string: bool,
    pub(crate) last_member: Option<Closed>,
    pub(crate) had_comma: bool,
    /// For calls: the rule to record when it unwraps (R009 wraps the
    /// document, its `;` is consumed).
    pub(crate) jsonp: bool,
    /// An object whose keys so far are, in order, those of the shape at
    /// its depth (`engine/shape.rs`): how many.
    pub(crate) follow: Option<usize>,
    /// The generation of the shape it follows: a watch step undone can
    /// bring back a frame that followed a shape replaced since.
    pub(crate) follow_gen: u64,
    /// A key of this object repeated an earlier one (R062).
    pub(crate) dup: bool,
}

#[derive(Clone, Debug)]
pub(crate) struct Frame {
    pub(crate) st: FrameState,
    pub(crate) key_index: crate::keys::KeyIndex,
}

impl core::ops::Deref for Frame {
    type Target = FrameState;
    fn deref(&self) -> &FrameState {
        &self.st
    }
}

impl core::ops::DerefMut for Frame {
    fn deref_mut(&mut self) -> &mut FrameState {
        &mut self.st
    }
}

impl Frame {
    fn new(kind: Kind, state: State, open_out: usize, key_base: usize) -> Frame {
        Frame {
            st: FrameState {
                kind,
                state,
                items: 0,
                open_out,
                absorbed: 0,
                key_base,
                key: (0, 0),
                last_item_out: open_out,
                last_item_string: false,
                last_member: None,
                had_comma: false,
                jsonp: false,
                follow: None,
                follow_gen: 0,
                dup: false,
            },
            key_index: crate::keys::KeyIndex::default(),
        }
    }
}

/// The separator state after an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sep {
    None,
    /// A comma was read (its offset); it sits in `held`.
    Comma(usize),
    /// The next item needs a comma that no rule has to report.
    Implied,
}

/// Where a value is being read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ctx {
    Key,
    ObjValue,
    Elem,
    Top,
}

#[derive(Clone)]
pub(crate) struct Engine<'a, T: Track = OneShot> {
    pub(crate) src: &'a [u8],
    pub(crate) pos: usize,
    pub(crate) out: Out,
    pub(crate) stack: Stack,
    /// Open containers per closer (`}`, `]`, `)`), for O(1) deeper matches.
    pub(crate) open_counts: [usize; 3],
    pub(crate) held: Held,
    pub(crate) sep: Sep,
    pub(crate) repairs: Vec<RawRepair>,
    pub(crate) totals: Totals,
    /// How many repairs the result lists.
    pub(crate) max_repairs: usize,
    /// Once the list was trimmed: repairs past this offset cannot be among
    /// the first `max_repairs` and are only counted.
    pub(crate) cap_offset: usize,
    /// The source is known to be UTF-8 (it came as `&str`).
    pub(crate) utf8_known: bool,
    /// The source as text when it is, else empty (pieces of a text source
    /// are written without a check).
    pub(crate) src_str: &'a str,
    /// Whether the fast lane runs (off only to test it against the
    /// general path).
    pub(crate) fast_lane: bool,
    /// The source span of the last string read (its content).
    pub(crate) last_string: (usize, usize),
    pub(crate) max_depth: usize,
    pub(crate) skip_prose: bool,
    /// The open code fence: its character and length.
    pub(crate) fence: Option<(u8, usize)>,
    /// Tag names seen in prose; `</NAME>` ends a document.
    pub(crate) tags: Vec<Vec<u8>>,
    /// A fence close or closing tag ended the current document.
    pub(crate) stop: bool,
    /// Out spans of the documents found.
    pub(crate) docs: Vec<(usize, usize)>,
    /// The deepest nesting any document reached (R080's wrapper adds one).
    pub(crate) max_seen_depth: usize,
    /// Out ranges cut when the text is assembled (unwrapped brackets).
    pub(crate) holes: Vec<(usize, usize)>,
    /// Input offset where each document starts.
    pub(crate) doc_in: Vec<usize>,
    pub(crate) truncated: bool,
    /// Some input character lies inside a string, key, number or literal.
    pub(crate) content: bool,
    pub(crate) top_done: bool,
    pub(crate) top_string: bool,
    pub(crate) keys: Keys,
    /// Bytes synthesized by R070–R076 (readiness `S`).
    pub(crate) synthesized: usize,
    /// The last scalar ended at the end of the input without a byte that
    /// confirms it (a bare run, or a string closed by R070).
    pub(crate) unconfirmed: bool,
    /// JSON Pointers of the values still open when the last document ended
    /// (never settled, spec §11).
    pub(crate) open_paths: Vec<String>,
    /// A wrapper (fence, tag, `data:`, call) was seen (E003 vs E002).
    pub(crate) saw_wrapper: bool,
    /// The prose region being skipped has text (not only markup).
    pub(crate) prose_text: bool,
    /// Input offset where trailing prose starts (readiness `P`).
    pub(crate) payload_end: Option<usize>,
    /// Spec §19's work units (feature `work-counter`; no-op otherwise).
    pub(crate) work: work::Work,
    /// Where the run is: framing, inside a document, done.
    pub(crate) phase: Phase,
    /// Output offset where the current document starts.
    pub(crate) doc_start: usize,
    /// Steps in a row that neither consumed input nor changed structure.
    pub(crate) guard: usize,
    /// More input may follow (a watch stream): reading at or past the end
    /// starves the step instead of deciding on end of input.
    pub(crate) partial: bool,
    /// The furthest offset the current step examined (watch streams only).
    pub(crate) track: T,
    /// What the current watch step changed, to take it back.
    pub(crate) journal: Journal,
    /// What the current step rewrote in earlier output: the offset of a
    /// closer taken back (R054/R055 reopened its container, `false`) or of
    /// the `{` inserted before a string item that became a key (R053,
    /// `true`).
    pub(crate) retracted: Option<(usize, bool)>,
    /// The string being read, between watch steps.
    pub(crate) open_str: Option<string::OpenStr>,
    /// The plain run the current watch step copied into a string: output
    /// span and input start (byte for byte the same).
    pub(crate) plain_run: Option<(usize, usize, usize)>,
    /// A watch step in a batch may read a plain `"` string value whole
    /// when what arrived decides its close (its opening, content and close) and
    /// then records where the opening alone would have been decided: the
    /// count of repairs noted before the step (a step that noted one
    /// already ends with the token that decided it).
    pub(crate) whole_strings: Option<usize>,
    /// Where a watch step that goes on past a key which recorded a repair
    /// had decided everything so far: the repair count then, the furthest
    /// offset examined then, and the bytes the end of input would have
    /// synthesized then (those repairs are reported as decided there).
    pub(crate) cut: Option<(usize, usize, usize)>,
    /// A watch stream's source so far is whole UTF-8 characters: string
    /// content steps copy non-ASCII runs without decoding them (a run is
    /// decided by its last character either way; unlike `utf8_known`, the
    /// fast lanes do not change, so steps and their `at` do not depend on
    /// where a chunk cut a character).
    pub(crate) utf8_runs: bool,
    /// The output offset of the opening quote of the string value the
    /// current watch step read whole, and the `at` of its opening (the
    /// opening's own step would have examined through its first plain run).
    pub(crate) open_at: Option<(usize, usize)>,
    /// Watch steps log their fast-lane tokens (`tok_log.rs`).
    pub(crate) log_toks: bool,
    /// The tokens of the current batch, with the watch's marks among them.
    pub(crate) toks: Vec<Tok>,
    /// The current step was a fast-lane token (and what rode along).
    pub(crate) lane_step: bool,
    /// Everything the current step wrote is in the log.
    pub(crate) toks_ok: bool,
    /// Watch steps that run on while they are quiet (`lane_run.rs`).
    pub(crate) lanes: lane_run::LaneRun,
    /// How far a long scan got before the end of a partial input (kept when
    /// the step is taken back: the bytes it covered do not change).
    pub(crate) memo: core::cell::Cell<Memo>,
    /// Where the prose being skipped began (a watch step reads prose one
    /// character at a time).
    pub(crate) prose_from: Option<usize>,
    /// Open frames of kind `Implicit` (they owe no closer).
    pub(crate) implicit_open: usize,
    /// Per depth, the keys of the last object closed there with no
    /// repeated key (one-shot runs; `shape.rs`).
    pub(crate) shapes: Vec<shape::Shape>,
}

/// Where a run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Nothing read yet (the BOM check).
    Start,
    /// Between documents.
    Frame(Mode),
    /// Inside a document.
    Doc,
    /// The input is done.
    Done,
}

impl<'a, T: Track> Engine<'a, T> {
    pub(crate) fn new(src: &'a [u8], max_depth: usize, skip_prose: bool) -> Engine<'a, T> {
        Engine {
            src,
            pos: 0,
            out: Out::with_capacity(src.len() + src.len() / 8 + 16),
            stack: Stack::default(),
            open_counts: [0; 3],
            held: Held::default(),
            sep: Sep::None,
            repairs: Vec::new(),
            totals: Totals::default(),
            max_repairs: 1000,
            cap_offset: usize::MAX,
            utf8_known: false,
            src_str: "",
            fast_lane: true,
            last_string: (0, 0),
            max_depth,
            skip_prose,
            fence: None,
            tags: Vec::new(),
            stop: false,
            docs: Vec::new(),
            holes: Vec::new(),
            max_seen_depth: 0,
            doc_in: Vec::new(),
            truncated: false,
            content: false,
            top_done: false,
            top_string: false,
            keys: Keys::default(),
            synthesized: 0,
            unconfirmed: false,
            open_paths: Vec::new(),
            saw_wrapper: false,
            payload_end: None,
            prose_text: false,
            work: work::Work::new(),
            phase: Phase::Start,
            doc_start: 0,
            guard: 0,
            partial: false,
            track: T::default(),
            journal: Journal::default(),
            retracted: None,
            open_str: None,
            plain_run: None,
            whole_strings: None,
            open_at: None,
            log_toks: false,
            toks: Vec::new(),
            lane_step: false,
            toks_ok: true,
            lanes: lane_run::LaneRun::default(),
            utf8_runs: false,
            cut: None,
            memo: core::cell::Cell::new(Memo::default()),
            prose_from: None,
            implicit_open: 0,
            shapes: Vec::new(),
        }
    }

    pub(crate) fn peek(&self) -> Option<u8> {
        self.work.add(1);
        self.saw(self.pos);
        self.src.get(self.pos).copied()
    }

    /// [`Engine::peek`] of a byte the step examined already (its horizon
    /// is past it): not tracked again.
    #[inline(always)]
    pub(crate) fn peek_seen(&self) -> Option<u8> {
        self.work.add(1);
        self.src.get(self.pos).copied()
    }

    /// [`Engine::eof`] where the step examined `pos` already.
    #[inline(always)]
    pub(crate) fn at_end_seen(&self) -> bool {
        self.work.add(1);
        self.pos >= self.src.len()
    }

    pub(crate) fn byte(&self, at: usize) -> Option<u8> {
        self.work.add(1);
        self.saw(at);
        self.src.get(at).copied()
    }

    pub(crate) fn slice(&self, from: usize, to: usize) -> &'a [u8] {
        let src: &'a [u8] = self.src;
        if to > from {
            self.saw(to.min(src.len() + 1) - 1);
        }
        let s = src.get(from..to.min(src.len())).unwrap_or_default();
        self.work.add(s.len().max(1));
        s
    }

    /// `bytes` as text when they are a piece of a text source (the usual
    /// case: then they are written without a check).
    #[inline(always)]
    pub(crate) fn text_of(&self, bytes: &[u8]) -> Option<&'a str> {
        let from = (bytes.as_ptr() as usize).wrapping_sub(self.src.as_ptr() as usize);
        self.src_str.get(from..from.wrapping_add(bytes.len()))
    }

    /// Writes the source's `from..to` (within the source) to the output.
    #[inline(always)]
    pub(crate) fn put_range(&mut self, from: usize, to: usize) {
        match self.src_str.get(from..to) {
            Some(t) => self.out.push_str(t),
            None => self
                .out
                .push_bytes(self.src.get(from..to).unwrap_or_default()),
        }
    }

    /// Writes `bytes` to the output: a piece of a text source as it is,
    /// anything else checked (see [`Out::push_bytes`]).
    #[inline(always)]
    pub(crate) fn put(&mut self, bytes: &[u8]) {
        match self.text_of(bytes) {
            Some(t) => self.out.push_str(t),
            None => self.out.push_bytes(bytes),
        }
    }

    /// Holds the source's `from..to` (whitespace) for the next item or the
    /// closer.
    #[inline(always)]
    pub(crate) fn hold_range(&mut self, from: usize, to: usize) {
        match self.src_str.get(from..to) {
            Some(t) => self.held.push_str(t),
            None => self.held.push_str(&String::from_utf8_lossy(
                self.src.get(from..to).unwrap_or_default(),
            )),
        }
    }

    /// Whether `lit` is at `at`, examining bytes only up to the first
    /// difference (what a watch stream must wait for).
    pub(crate) fn lit_at(&self, at: usize, lit: &[u8]) -> bool {
        lit.iter()
            .enumerate()
            .all(|(i, &b)| self.byte(at + i) == Some(b))
    }

    pub(crate) fn eof(&self) -> bool {
        self.work.add(1);
        self.at_end(self.pos)
    }

    /// Takes the output back to `len` bytes, counting what is removed.
    pub(crate) fn truncate_out(&mut self, len: usize) {
        self.work.add(self.out.len().saturating_sub(len));
        if T::TRACKS && self.journal.on && len < self.out.len() {
            self.journal.out_cut(&self.out, len);
        }
        self.out.truncate(len);
    }

    /// Pushes a container frame, writing its opener; `E040` past the limit.
    pub(crate) fn push(&mut self, kind: Kind, state: State, opener: &[u8]) -> Result<(), Error> {
        if self.stack.len() >= self.max_depth {
            return Err(Error::new(
                ErrorCode::E040,
                alloc::format!("nesting deeper than {} levels", self.max_depth),
            )
            .at(self.src, self.pos));
        }
        let open_out = self.out.len();
        for &b in opener {
            self.out.push(b);
        }
        let frame = Frame::new(kind, state, open_out, self.keys.base());
        self.count(kind, true);
        self.stack.push(frame);
        if kind == Kind::Object {
            self.start_shape();
        }
        self.max_seen_depth = self.max_seen_depth.max(self.stack.len());
        Ok(())
    }

    pub(crate) fn count(&mut self, kind: Kind, open: bool) {
        let slot = match kind.closer() {
            b'}' => 0,
            b']' => 1,
            _ => 2,
        };
        if let Some(n) = self.open_counts.get_mut(slot) {
            if open {
                *n += 1;
            } else {
                *n = n.saturating_sub(1);
            }
        }
        if kind == Kind::Implicit {
            self.implicit_open = if open {
                self.implicit_open + 1
            } else {
                self.implicit_open.saturating_sub(1)
            };
        }
    }

    pub(crate) fn open_count(&self, closer: u8) -> usize {
        let slot = match closer {
            b'}' => 0,
            b']' => 1,
            _ => 2,
        };
        self.open_counts.get(slot).copied().unwrap_or(0)
    }

    /// Writes one char as JSON string content (escaping as needed).
    pub(crate) fn write_char(&mut self, c: char) {
        match c {
            '"' => self.out.push_str("\\\""),
            '\\' => self.out.push_str("\\\\"),
            '\n' => self.out.push_str("\\n"),
            '\r' => self.out.push_str("\\r"),
            '\t' => self.out.push_str("\\t"),
            '\u{8}' => self.out.push_str("\\b"),
            '\u{c}' => self.out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let hex = b"0123456789abcdef";
                let v = c as usize;
                self.out.push_str("\\u00");
                self.out.push(hex.get(v >> 4).copied().unwrap_or(b'0'));
                self.out.push(hex.get(v & 15).copied().unwrap_or(b'0'));
            }
            c => self.out.push_char(c),
        }
    }

    /// Appends `out[s..e]` to `dst`, leaving out the holes (sorted).
    pub(crate) fn copy_without_holes(&self, s: usize, e: usize, dst: &mut String) {
        let mut at = s;
        let first = self.holes.partition_point(|h| h.1 <= s);
        for &(hs, he) in self.holes.get(first..).unwrap_or_default() {
            if hs >= e {
                break;
            }
            if hs > at {
                dst.push_str(self.out.text(at, hs));
            }
            at = at.max(he);
        }
        if at < e {
            dst.push_str(self.out.text(at, e));
        }
    }

    /// Writes `text` as a complete JSON string.
    pub(crate) fn write_string(&mut self, text: &[u8]) {
        self.out.push(b'"');
        let lossy;
        let text = match self.text_of(text) {
            Some(t) => t,
            None => {
                lossy = String::from_utf8_lossy(text);
                &*lossy
            }
        };
        let mut from = 0;
        for (i, b) in text.bytes().enumerate() {
            if b == b'"' || b == b'\\' || b < 0x20 {
                self.out.push_str(text.get(from..i).unwrap_or_default());
                self.write_char(char::from(b));
                from = i + 1;
            }
        }
        self.out.push_str(text.get(from..).unwrap_or_default());
        self.out.push(b'"');
    }
}
