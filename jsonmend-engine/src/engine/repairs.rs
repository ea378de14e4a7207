//! The repairs an engine records (spec §5): each rule with its offset and
//! `{token}`, running totals over all of them, and the list kept bounded
//! to the first `max_repairs` by offset.

use alloc::string::String;

use super::{Engine, Track};
use crate::rules::Rule;

/// The `{token}`/`{key}` of a repair, materialized only for reported ones.
#[derive(Clone, Debug)]
pub(crate) enum Detail {
    None,
    /// A span of the engine's source.
    Span(usize, usize),
    /// A code point, shown as `U+XXXX`.
    Code(u32),
    Owned(String),
}

impl Detail {
    pub(crate) fn text(&self, src: &[u8]) -> Option<String> {
        match self {
            Detail::None => None,
            Detail::Span(s, e) => {
                Some(String::from_utf8_lossy(src.get(*s..*e).unwrap_or_default()).into_owned())
            }
            Detail::Code(c) => Some(alloc::format!("U+{c:04X}")),
            Detail::Owned(t) => Some(t.clone()),
        }
    }
}

/// A repair as the engine records it; lines and columns come at the end.
#[derive(Clone, Debug)]
pub(crate) struct RawRepair {
    pub(crate) rule: Rule,
    pub(crate) offset: usize,
    pub(crate) detail: Detail,
}

/// Running totals over every repair, kept while the list itself is capped.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Totals {
    pub(crate) count: usize,
    pub(crate) cosmetic: bool,
    pub(crate) lossy: bool,
    pub(crate) ambiguous: bool,
    pub(crate) loss_weight: usize,
}

impl<T: Track> Engine<'_, T> {
    /// Records a repair without a token.
    pub(crate) fn note(&mut self, rule: Rule, offset: usize) {
        self.note_weighted(rule, offset, Detail::None, 1);
    }

    /// Records a repair with its `{token}`/`{key}` (a span of the source
    /// when it is one, so nothing is allocated).
    pub(crate) fn note_with(&mut self, rule: Rule, offset: usize, detail: &[u8]) {
        let base = self.src.as_ptr() as usize;
        let at = detail.as_ptr() as usize;
        let weight = detail.len().max(1);
        let detail = if at >= base && at + detail.len() <= base + self.src.len() {
            Detail::Span(at - base, at - base + detail.len())
        } else {
            Detail::Owned(String::from_utf8_lossy(detail).into_owned())
        };
        self.note_weighted(rule, offset, detail, weight);
    }

    #[inline]
    pub(crate) fn note_weighted(
        &mut self,
        rule: Rule,
        offset: usize,
        detail: Detail,
        weight: usize,
    ) {
        if rule.is_truncation() {
            self.truncated = true;
        }
        let t = &mut self.totals;
        t.count += 1;
        match rule.class() {
            crate::rules::Class::Lossy => {
                t.lossy = true;
                t.loss_weight += weight.max(1);
            }
            crate::rules::Class::Cosmetic => t.cosmetic = true,
            crate::rules::Class::Exact => {}
        }
        t.ambiguous |= rule.ambiguity().is_some();
        if offset <= self.cap_offset {
            self.keep_repair(rule, offset, detail);
        }
    }

    /// Adds a repair to the list (only the first `max_repairs` by offset
    /// stay: past them a long input records counts only).
    #[inline(never)]
    fn keep_repair(&mut self, rule: Rule, offset: usize, detail: Detail) {
        self.repairs.push(RawRepair {
            rule,
            offset,
            detail,
        });
        // Keep the list bounded: only the first `max_repairs` by offset are
        // reported, so the rest can go (amortized linear).
        if self.repairs_full() && !(T::TRACKS && self.journal.on) {
            self.trim_repairs();
        }
    }

    /// Whether the list is long enough to trim: twice what is reported and
    /// a little more, so a trim removes at least half the list (linear
    /// overall) and the list's buffer stays near twice the reported size.
    #[inline]
    pub(crate) fn repairs_full(&self) -> bool {
        self.repairs.len() >= 2 * self.max_repairs + 32
    }

    /// Sorts the repairs by offset then code and keeps the reported ones.
    pub(crate) fn trim_repairs(&mut self) {
        let order =
            |a: &RawRepair, b: &RawRepair| a.offset.cmp(&b.offset).then(a.rule.cmp(&b.rule));
        if self.repairs.is_sorted_by_key(|r| r.offset) {
            // The usual case: pushed in offset order, rules of one offset
            // in any order. Each run of one offset is sorted alone (stable,
            // as the whole sort is): linear over the list.
            for run in self.repairs.chunk_by_mut(|a, b| a.offset == b.offset) {
                if run.len() > 1 {
                    run.sort_by_key(|r| r.rule);
                }
            }
        } else {
            self.repairs.sort_by(order);
        }
        self.repairs.truncate(self.max_repairs);
        if let Some(last) = self.repairs.last() {
            self.cap_offset = last.offset;
        }
    }
}
