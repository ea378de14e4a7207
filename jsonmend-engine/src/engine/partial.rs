//! What a watch stream needs from the engine beyond one-shot runs: the
//! state moved onto a longer buffer, the output prefix no later input can
//! change, and the containers a step reopened.

use super::{Engine, Kind, Phase, State, Track};

impl<T: Track> Engine<'_, T> {
    /// The same state over another source: a watch stream's buffer grew
    /// (the bytes read so far are unchanged).
    pub(crate) fn rebind(self, src: &[u8]) -> Engine<'_, T> {
        let Engine {
            src: _,
            src_str: _,
            pos,
            out,
            stack,
            open_counts,
            held,
            sep,
            repairs,
            totals,
            max_repairs,
            cap_offset,
            utf8_known,
            fast_lane,
            last_string,
            max_depth,
            skip_prose,
            fence,
            tags,
            stop,
            docs,
            max_seen_depth,
            holes,
            doc_in,
            truncated,
            content,
            top_done,
            top_string,
            keys,
            synthesized,
            unconfirmed,
            open_paths,
            saw_wrapper,
            prose_text,
            payload_end,
            work,
            phase,
            doc_start,
            guard,
            partial,
            track,
            journal,
            retracted,
            open_str,
            plain_run,
            whole_strings,
            open_at,
            log_toks,
            toks,
            lane_step,
            toks_ok,
            lanes,
            utf8_runs,
            cut,
            memo,
            prose_from,
            implicit_open,
            shapes,
        } = self;
        Engine {
            src,
            src_str: "",
            pos,
            out,
            stack,
            open_counts,
            held,
            sep,
            repairs,
            totals,
            max_repairs,
            cap_offset,
            utf8_known,
            fast_lane,
            last_string,
            max_depth,
            skip_prose,
            fence,
            tags,
            stop,
            docs,
            max_seen_depth,
            holes,
            doc_in,
            truncated,
            content,
            top_done,
            top_string,
            keys,
            synthesized,
            unconfirmed,
            open_paths,
            saw_wrapper,
            prose_text,
            payload_end,
            work,
            phase,
            doc_start,
            guard,
            partial,
            track,
            journal,
            retracted,
            open_str,
            plain_run,
            whole_strings,
            open_at,
            log_toks,
            toks,
            lane_step,
            toks_ok,
            lanes,
            utf8_runs,
            cut,
            memo,
            prose_from,
            implicit_open,
            shapes,
        }
    }

    /// How much of the output no later input can rewrite, apart from the
    /// rewrites `retracted` reports: nothing from the `[` of an open call or
    /// tuple (it may be unwrapped or become an array).
    pub(crate) fn stable_out(&self) -> usize {
        let stable = self.out.len();
        if self.phase != Phase::Doc || self.open_count(b')') == 0 {
            return stable;
        }
        self.stack
            .iter()
            .find(|f| matches!(f.kind, Kind::Call | Kind::Tuple))
            .map_or(stable, |f| stable.min(f.open_out))
    }

    /// The bytes the end of input would synthesize now (readiness `S` of
    /// the input so far): a closer per open container, and `:null` or
    /// `null` for a member the top object awaits.
    pub(crate) fn pending_synthesis(&self) -> usize {
        if self.phase != Phase::Doc {
            return 0;
        }
        let member = match self.stack.last().map(|f| f.state) {
            Some(State::Colon) => 5,
            Some(State::Value) => 4,
            _ => 0,
        };
        self.stack.len().saturating_sub(self.implicit_open) + member
    }
}
