//! What the events of a watch stream add up to: required fields counted
//! and settled, `ready` once, the root complete; the `field`, `required`,
//! `mismatch` and `complete` events and lenient coercions as values
//! settle.

use alloc::string::String;
use alloc::vec::Vec;

use super::decl;
use super::reader::{self, Note};
use super::{DeltaOp, Event, EventKind, Level, Progress};
use crate::verdict::matches;

/// What the events so far add up to.
#[derive(Clone)]
pub(crate) struct Tally {
    /// A declaration was given (permille is `settled_permille`).
    pub(crate) schema: bool,
    /// Declared fields are coerced (R090–R093) as they settle.
    pub(crate) lenient: bool,
    pub(crate) max_repairs: usize,
    /// Repairs reported as events so far.
    pub(crate) repair_events: usize,
    /// Required declared fields counted so far, and those settled.
    pub(crate) total: usize,
    pub(crate) settled: usize,
    pub(crate) ready: bool,
    /// The root is complete (no reopen since).
    pub(crate) complete: bool,
}

pub(crate) fn permille(part: usize, whole: usize) -> i32 {
    (part * 1000).checked_div(whole).map_or(1000, |p| p as i32)
}

impl Tally {
    /// How many more repairs the stream reports as events.
    pub(crate) fn reports_left(&self) -> usize {
        self.max_repairs.saturating_sub(self.repair_events)
    }

    /// The permille of events decided at `at`, the engine at `level`.
    pub(crate) fn permille_at(&self, level: Level, at: usize) -> i32 {
        if self.schema {
            return permille(self.settled, self.total);
        }
        let Some(start) = level.start else {
            return 0;
        };
        let end = level.payload_end.unwrap_or(at);
        crate::readiness::syntax_permille(end.saturating_sub(start), level.synthesized) as i32
    }

    pub(crate) fn take_notes(
        &mut self,
        notes: &mut Vec<Note>,
        decls: Option<&decl::Decls>,
        (at, pm): (usize, i32),
        progress: &mut Progress,
    ) {
        let schema = self.schema;
        for note in notes.drain(..) {
            match note {
                Note::Declared(n) => self.total += n,
                Note::Complete => {
                    self.complete = true;
                    self.check_ready(at, progress);
                    progress.events.push(Event {
                        kind: EventKind::Complete,
                        path: String::new(),
                        at,
                        permille: if schema {
                            permille(self.settled, self.total)
                        } else {
                            pm
                        },
                    });
                }
                Note::Settled {
                    path,
                    root_member,
                    decl,
                    value,
                } => self.settled_value(path, root_member, decl, value, decls, (at, pm), progress),
            }
        }
    }

    /// A value settled: coercion under `lenient` (a `set`), and the
    /// `field`, `required` and `mismatch` events.
    #[allow(clippy::too_many_arguments)]
    fn settled_value(
        &mut self,
        path: String,
        root_member: bool,
        decl: reader::Decl,
        mut value: crate::Value,
        decls: Option<&decl::Decls>,
        (at, pm): (usize, i32),
        progress: &mut Progress,
    ) {
        let ty = decls.zip(decl.node).and_then(|(d, n)| d.ty(n));
        let mut fits = ty.map(|t| matches(t, &value));
        if let (Some(t), Some(false), true) = (ty, fits, self.lenient) {
            if let Some((json, _, _)) = crate::coerce::coerce_one(t, &value) {
                progress.deltas.push(DeltaOp::Set, at, &path, &json);
                value = crate::Value::parse(&json).unwrap_or(crate::Value::Null);
                fits = Some(true);
            }
        }
        if !root_member && decl.member.is_none() {
            return;
        }
        let text = match &value {
            crate::Value::Object(_) | crate::Value::Array(_) => String::from("null"),
            v => v.to_json(),
        };
        if decl.member == Some(true) && fits == Some(true) {
            self.settled += 1;
        }
        let pm = if self.schema {
            permille(self.settled, self.total)
        } else {
            pm
        };
        progress.events.push(Event {
            kind: EventKind::Field(text.clone()),
            path: path.clone(),
            at,
            permille: pm,
        });
        match (decl.member, fits, ty) {
            (Some(true), Some(true), _) => progress.events.push(Event {
                kind: EventKind::Required(text),
                path,
                at,
                permille: pm,
            }),
            (Some(_), Some(false), Some(t)) => progress.events.push(Event {
                kind: EventKind::Mismatch {
                    expected: crate::schema::ty_text(t),
                    got: String::from(value.type_name()),
                },
                path,
                at,
                permille: pm,
            }),
            _ => {}
        }
        self.check_ready(at, progress);
    }

    fn check_ready(&mut self, at: usize, progress: &mut Progress) {
        if self.schema && !self.ready && permille(self.settled, self.total) == 1000 {
            self.ready = true;
            progress.events.push(Event {
                kind: EventKind::Ready,
                path: String::new(),
                at,
                permille: 1000,
            });
        }
    }
}
