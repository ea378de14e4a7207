//! Undo for watch steps (spec §12.4). A watch stream runs the engine over
//! the bytes received so far; a step that reads at or past their end
//! decides nothing yet and is taken back, to be run again when more input
//! arrives. Most state is append-only and goes back by length; the few
//! places that rewrite earlier state record what they destroy here, so a
//! step costs the same whether or not it is undone.

use alloc::string::String;
use alloc::vec::Vec;

use super::{Engine, Frame, FrameState, Phase, RawRepair, Sep, Totals, Track};
use crate::keys::KeyIndexMark;

/// The container stack; while a watch step runs it keeps what the step
/// changed in frames that existed when it began.
#[derive(Clone, Default)]
pub(crate) struct Stack {
    frames: Vec<Frame>,
    /// Kept between steps so its buffers are reused.
    j: StackJournal,
}

#[derive(Clone, Default)]
struct StackJournal {
    /// A step is running.
    on: bool,
    /// Frames at the step's start.
    base: usize,
    /// `frames[..orig]` are frames of the step's start.
    orig: usize,
    /// Frames `low..base` had their state saved (in `saved`, top first);
    /// 0 while no step runs.
    low: usize,
    saved: Vec<FrameState>,
    /// Original frames popped by the step, top first.
    popped: Vec<Frame>,
    /// Key insertions into original frames: frame, index state, hash.
    keys: Vec<(usize, KeyIndexMark, u64)>,
}

impl Stack {
    pub(crate) fn len(&self) -> usize {
        self.frames.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    pub(crate) fn last(&self) -> Option<&Frame> {
        self.frames.last()
    }

    pub(crate) fn get(&self, i: usize) -> Option<&Frame> {
        self.frames.get(i)
    }

    pub(crate) fn iter(&self) -> core::slice::Iter<'_, Frame> {
        self.frames.iter()
    }

    /// Saves frame `i`'s state the first time the step touches it (`low`
    /// is never above `orig`, and is 0 while no step runs).
    #[inline(always)]
    fn touch(&mut self, i: usize) {
        let j = &mut self.j;
        if i < j.low {
            if let Some(f) = self.frames.get(i) {
                j.saved.push(f.st);
            }
            j.low = i;
        }
    }

    /// [`Stack::last_mut`] for an engine of kind `T`: one-shot engines
    /// keep no journal, so they skip its check.
    #[inline(always)]
    pub(crate) fn top_mut<T: super::Track>(&mut self) -> Option<&mut Frame> {
        if T::TRACKS {
            self.last_mut()
        } else {
            self.frames.last_mut()
        }
    }

    #[inline(always)]
    pub(crate) fn last_mut(&mut self) -> Option<&mut Frame> {
        let top = self.frames.len().checked_sub(1)?;
        self.touch(top);
        self.frames.last_mut()
    }

    /// [`Stack::pop`] for an engine of kind `T` (see [`Stack::top_mut`]).
    /// The caller reads the frame's state before, from [`Stack::last`]: a
    /// state returned by value was read back while its bytes were still
    /// being stored.
    #[inline(always)]
    pub(crate) fn drop_top<T: super::Track>(&mut self) {
        if T::TRACKS {
            self.pop();
        } else {
            self.frames.pop();
        }
    }

    /// Pops the top frame (the journal keeps it when it is one of the
    /// step's start).
    pub(crate) fn pop(&mut self) {
        let Some(top) = self.frames.len().checked_sub(1) else {
            return;
        };
        self.touch(top);
        let Some(f) = self.frames.pop() else {
            return;
        };
        let j = &mut self.j;
        if j.on && top < j.orig {
            j.orig = top;
            j.popped.push(f);
        }
    }

    pub(crate) fn push(&mut self, f: Frame) {
        self.frames.push(f);
    }

    /// Before a key goes into the top frame's index: what to restore.
    pub(crate) fn key_mark(&self) -> Option<(usize, KeyIndexMark)> {
        let j = &self.j;
        if !j.on {
            return None;
        }
        let top = self.frames.len().checked_sub(1)?;
        if top >= j.orig {
            return None;
        }
        Some((top, self.frames.get(top)?.key_index.mark()))
    }

    /// After the insertion marked by [`Stack::key_mark`].
    pub(crate) fn key_inserted(&mut self, mark: (usize, KeyIndexMark), h: u64) {
        if self.j.on {
            self.j.keys.push((mark.0, mark.1, h));
        }
    }

    fn begin(&mut self) {
        let n = self.frames.len();
        let j = &mut self.j;
        j.on = true;
        j.base = n;
        j.orig = n;
        j.low = n;
        j.saved.clear();
        j.popped.clear();
        j.keys.clear();
    }

    fn commit(&mut self) {
        self.j.on = false;
        self.j.low = 0;
        self.j.popped.clear();
    }

    fn undo(&mut self) {
        if !self.j.on {
            return;
        }
        let j = &mut self.j;
        j.on = false;
        j.low = 0;
        self.frames.truncate(j.orig);
        while let Some(f) = j.popped.pop() {
            self.frames.push(f);
        }
        for &(i, mark, h) in j.keys.iter().rev() {
            if let Some(f) = self.frames.get_mut(i) {
                f.key_index.undo(mark, h);
            }
        }
        for (k, &st) in j.saved.iter().enumerate() {
            if let Some(f) = j
                .base
                .checked_sub(k + 1)
                .and_then(|i| self.frames.get_mut(i))
            {
                f.st = st;
            }
        }
    }
}

/// Whitespace and a comma read after an item, written when the next item
/// begins or the container closes.
#[derive(Clone, Default)]
pub(crate) struct Held {
    /// ASCII only: whitespace (special whitespace is held as a space) and
    /// the comma.
    bytes: String,
    /// During a watch step: the length at its start, and the content then
    /// once the step destroyed some of it.
    j: Option<(usize, Option<String>)>,
}

impl Held {
    pub(crate) fn as_str(&self) -> &str {
        &self.bytes
    }

    pub(crate) fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Holds an ASCII byte (a comma, or a space for special whitespace).
    pub(crate) fn push(&mut self, b: u8) {
        self.bytes.push(char::from(b & 0x7F));
    }

    pub(crate) fn push_str(&mut self, s: &str) {
        self.bytes.push_str(s);
    }

    fn save(&mut self) {
        if let Some((len, saved @ None)) = self.j.as_mut() {
            *saved = Some(String::from(self.bytes.get(..*len).unwrap_or_default()));
        }
    }

    pub(crate) fn clear(&mut self) {
        if !self.bytes.is_empty() {
            self.save();
            self.bytes.clear();
        }
    }

    /// Removes the held comma (a trailing or separating comma dropped).
    pub(crate) fn remove_comma(&mut self) {
        // (Held text is short: a byte scan, not a string search.)
        if let Some(i) = self.bytes.bytes().position(|b| b == b',') {
            self.save();
            self.bytes.remove(i);
        }
    }

    fn begin(&mut self) {
        self.j = Some((self.bytes.len(), None));
    }

    fn commit(&mut self) {
        self.j = None;
    }

    fn undo(&mut self) {
        match self.j.take() {
            Some((_, Some(saved))) => self.bytes = saved,
            Some((len, None)) if self.bytes.is_char_boundary(len) => self.bytes.truncate(len),
            Some((_, None)) => {}
            None => {}
        }
    }
}

/// A destructive change, undone in reverse order; `len` fields are the
/// vector's length right after the change (appends after it go first).
#[derive(Clone)]
enum Undo {
    OutCut(usize, String),
    OutInsert(usize, usize),
    /// The keys from `.0` on, kept in [`Journal::keys`] from `.1` on.
    KeysCut(usize, usize),
    DocPop((usize, usize), usize),
    DocInPop(usize, usize),
    OpenPaths(Vec<String>),
    Repairs(Vec<RawRepair>),
}

/// The scalars and lengths at a step's start.
#[derive(Clone, Copy)]
struct Snap {
    pos: usize,
    phase: Phase,
    doc_start: usize,
    guard: usize,
    open_counts: [usize; 3],
    sep: Sep,
    totals: Totals,
    cap_offset: usize,
    last_string: (usize, usize),
    fence: Option<(u8, usize)>,
    stop: bool,
    max_seen_depth: usize,
    truncated: bool,
    content: bool,
    top_done: bool,
    top_string: bool,
    synthesized: usize,
    unconfirmed: bool,
    saw_wrapper: bool,
    prose_text: bool,
    payload_end: Option<usize>,
    open_str: Option<super::string::OpenStr>,
    prose_from: Option<usize>,
    implicit_open: usize,
    out: usize,
    repairs: usize,
    docs: usize,
    holes: usize,
    doc_in: usize,
    tags: usize,
    keys: usize,
}

/// What the current watch step destroyed.
#[derive(Clone, Default)]
pub(crate) struct Journal {
    pub(crate) on: bool,
    undo: Vec<Undo>,
    /// (Boxed: the engine moves with every feed, and the snapshot is a
    /// third of its size.)
    snap: alloc::boxed::Box<Option<Snap>>,
    /// The keys of the objects the step closed, one after another (one
    /// buffer for the step, not an allocation per object).
    keys: Vec<(u64, usize, usize)>,
    /// The shortest the key list has been since the step began (its
    /// length then, at first): the keys below it are the step's start's,
    /// those from it on were added since, and an undo cuts the list back
    /// to the start's length after putting back what was kept — so only
    /// keys below it need keeping when an object's keys go.
    keys_low: usize,
}

impl Journal {
    pub(crate) fn out_cut(&mut self, out: &super::Out, len: usize) {
        let tail = String::from(out.text(len, out.len()));
        self.undo.push(Undo::OutCut(len, tail));
    }

    pub(crate) fn out_insert(&mut self, at: usize, len_after: usize) {
        self.undo.push(Undo::OutInsert(at, len_after));
    }
}

impl<T: Track> Engine<'_, T> {
    /// Clears what one token's step records for a watch (its horizon, the
    /// rewrite, the plain run, a whole string's opening, a cut).
    pub(crate) fn begin_token(&mut self) {
        self.track.reset(self.pos.saturating_sub(1));
        self.retracted = None;
        self.plain_run = None;
        self.open_at = None;
        self.cut = None;
    }

    /// Starts a step that may be undone.
    pub(crate) fn begin_step(&mut self) {
        self.begin_token();
        self.journal.on = true;
        self.journal.undo.clear();
        self.journal.keys.clear();
        self.journal.keys_low = self.keys.base();
        *self.journal.snap = Some(Snap {
            pos: self.pos,
            phase: self.phase,
            doc_start: self.doc_start,
            guard: self.guard,
            open_counts: self.open_counts,
            sep: self.sep,
            totals: self.totals,
            cap_offset: self.cap_offset,
            last_string: self.last_string,
            fence: self.fence,
            stop: self.stop,
            max_seen_depth: self.max_seen_depth,
            truncated: self.truncated,
            content: self.content,
            top_done: self.top_done,
            top_string: self.top_string,
            synthesized: self.synthesized,
            unconfirmed: self.unconfirmed,
            saw_wrapper: self.saw_wrapper,
            prose_text: self.prose_text,
            payload_end: self.payload_end,
            open_str: self.open_str,
            prose_from: self.prose_from,
            implicit_open: self.implicit_open,
            out: self.out.len(),
            repairs: self.repairs.len(),
            docs: self.docs.len(),
            holes: self.holes.len(),
            doc_in: self.doc_in.len(),
            tags: self.tags.len(),
            keys: self.keys.base(),
        });
        self.stack.begin();
        self.held.begin();
    }

    /// Keeps what the step did.
    pub(crate) fn commit_step(&mut self) {
        self.journal.on = false;
        self.journal.undo.clear();
        self.journal.keys.clear();
        *self.journal.snap = None;
        self.stack.commit();
        self.held.commit();
        if self.repairs_full() {
            self.trim_repairs();
        }
    }

    /// Takes the step back: the engine is as it was at `begin_step`.
    pub(crate) fn undo_step(&mut self) {
        self.journal.on = false;
        self.stack.undo();
        self.held.undo();
        while let Some(u) = self.journal.undo.pop() {
            match u {
                Undo::OutCut(len, tail) => {
                    self.out.truncate(len);
                    self.out.push_str(&tail);
                }
                Undo::OutInsert(at, len_after) => {
                    self.out.truncate(len_after);
                    if at < self.out.len() {
                        self.out.remove(at);
                    }
                }
                Undo::KeysCut(base, kept) => {
                    self.keys
                        .restore(base, self.journal.keys.get(kept..).unwrap_or_default());
                    self.journal.keys.truncate(kept);
                }
                Undo::DocPop(doc, len) => {
                    self.docs.truncate(len);
                    self.docs.push(doc);
                }
                Undo::DocInPop(at, len) => {
                    self.doc_in.truncate(len);
                    self.doc_in.push(at);
                }
                Undo::OpenPaths(paths) => self.open_paths = paths,
                Undo::Repairs(list) => self.repairs = list,
            }
        }
        let Some(s) = self.journal.snap.take() else {
            return;
        };
        self.pos = s.pos;
        self.phase = s.phase;
        self.doc_start = s.doc_start;
        self.guard = s.guard;
        self.open_counts = s.open_counts;
        self.sep = s.sep;
        self.totals = s.totals;
        self.cap_offset = s.cap_offset;
        self.last_string = s.last_string;
        self.fence = s.fence;
        self.stop = s.stop;
        self.max_seen_depth = s.max_seen_depth;
        self.truncated = s.truncated;
        self.content = s.content;
        self.top_done = s.top_done;
        self.top_string = s.top_string;
        self.synthesized = s.synthesized;
        self.unconfirmed = s.unconfirmed;
        self.saw_wrapper = s.saw_wrapper;
        self.prose_text = s.prose_text;
        self.payload_end = s.payload_end;
        self.open_str = s.open_str;
        self.prose_from = s.prose_from;
        self.implicit_open = s.implicit_open;
        self.out.truncate(s.out);
        self.repairs.truncate(s.repairs);
        self.docs.truncate(s.docs);
        self.holes.truncate(s.holes);
        self.doc_in.truncate(s.doc_in);
        self.tags.truncate(s.tags);
        self.keys.truncate(s.keys);
    }

    /// Forgets the keys of a closed object (kept for an undo).
    pub(crate) fn cut_keys(&mut self, base: usize) {
        // (Keys added in the step go with an undo's cut of the list
        // anyway: those of an object opened in it are all such.)
        if T::TRACKS && self.journal.on && base < self.journal.keys_low {
            let kept = self.journal.keys.len();
            self.journal.keys.extend_from_slice(self.keys.from(base));
            self.keys.truncate(base);
            self.journal.undo.push(Undo::KeysCut(base, kept));
            self.journal.keys_low = base;
        } else {
            self.keys.truncate(base);
        }
    }

    /// Takes back the last document (R054 reopens it).
    pub(crate) fn pop_doc(&mut self) -> Option<(usize, usize)> {
        let d = self.docs.pop()?;
        if T::TRACKS && self.journal.on {
            self.journal.undo.push(Undo::DocPop(d, self.docs.len()));
        }
        Some(d)
    }

    /// Forgets the start of a document that wrote nothing.
    pub(crate) fn pop_doc_in(&mut self) {
        if let Some(at) = self.doc_in.pop() {
            if T::TRACKS && self.journal.on {
                self.journal
                    .undo
                    .push(Undo::DocInPop(at, self.doc_in.len()));
            }
        }
    }

    pub(crate) fn set_open_paths(&mut self, paths: Vec<String>) {
        let old = core::mem::replace(&mut self.open_paths, paths);
        if T::TRACKS && self.journal.on {
            self.journal.undo.push(Undo::OpenPaths(old));
        }
    }

    /// Keeps the repair list before a change that is not an append.
    pub(crate) fn save_repairs(&mut self) {
        if T::TRACKS && self.journal.on {
            self.journal.undo.push(Undo::Repairs(self.repairs.clone()));
        }
    }
}
