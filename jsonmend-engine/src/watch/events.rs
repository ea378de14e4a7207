//! Events (spec §12.3): fields settling, declared fields matching or not,
//! readiness reaching 1000, repairs, the root completing, fatal limits.

use alloc::string::String;

use crate::serialize::Obj;

/// What happened.
///
/// ```
/// use jsonmend_engine::{EventKind, Options, Watch};
/// let mut w = Watch::new(Options::default());
/// let p = w.feed("{\"a\": 1, \"b\": [2]}").unwrap();
/// let kinds: Vec<&str> = p.events.iter().map(|e| e.kind.name()).collect();
/// assert_eq!(kinds, ["field", "field", "complete"]);
/// assert_eq!(p.events[0].kind, EventKind::Field("1".into()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A member of the root object or a declared field settled; its value
    /// as compact JSON (`null` for containers).
    Field(String),
    /// A declared required field settled with the declared type.
    Required(String),
    /// A declared field settled with another type.
    Mismatch {
        /// The declared type, as in the canonical declaration.
        expected: String,
        /// The JSON type found.
        got: String,
    },
    /// `settled_permille` reached 1000 for the first time.
    Ready,
    /// A repair was decided.
    Repair {
        /// `R0xx`.
        code: &'static str,
        /// The rule name.
        threshold: &'static str,
        /// `info`, `warning` or `error`.
        severity: &'static str,
    },
    /// The root value is complete (again after a reopen).
    Complete,
    /// A fatal limit (`E040`, `E041`); later feeds return it.
    Error {
        /// `E040` or `E041`.
        code: &'static str,
        /// The error message.
        message: String,
    },
}

impl EventKind {
    /// The protocol name.
    ///
    /// ```
    /// assert_eq!(jsonmend_engine::EventKind::Ready.name(), "ready");
    /// ```
    pub fn name(&self) -> &'static str {
        match self {
            EventKind::Field(_) => "field",
            EventKind::Required(_) => "required",
            EventKind::Mismatch { .. } => "mismatch",
            EventKind::Ready => "ready",
            EventKind::Repair { .. } => "repair",
            EventKind::Complete => "complete",
            EventKind::Error { .. } => "error",
        }
    }
}

/// One watch event.
///
/// ```
/// use jsonmend_engine::{Options, Watch};
/// let mut w = Watch::new(Options::default());
/// let p = w.feed("[1,,2]").unwrap();
/// let e = &p.events[0];
/// assert_eq!((e.kind.name(), e.at), ("repair", 4));
/// assert!(e.to_json().contains(r#""code":"R041""#));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// What happened.
    pub kind: EventKind,
    /// JSON Pointer of the value concerned (`""` for the root and for
    /// stream-wide events).
    pub path: String,
    /// The input length that decided it.
    pub at: usize,
    /// `settled_permille` with a declaration, else `syntax_permille`.
    pub permille: i32,
}

impl Event {
    /// The `repair` event of a decided repair.
    pub(crate) fn repair(rule: crate::Rule, at: usize, permille: i32) -> Event {
        Event {
            kind: EventKind::Repair {
                code: rule.code(),
                threshold: rule.threshold(),
                severity: rule.severity().as_str(),
            },
            path: String::new(),
            at,
            permille,
        }
    }

    /// The protocol object `{kind, path, …payload, at, permille}`.
    ///
    /// ```
    /// use jsonmend_engine::{Event, EventKind};
    /// let e = Event { kind: EventKind::Field("1".into()), path: "/n".into(), at: 7, permille: 875 };
    /// assert_eq!(e.to_json(), r#"{"kind":"field","path":"/n","value":1,"at":7,"permille":875}"#);
    /// ```
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(96 + self.path.len());
        self.write_json(&mut out);
        out
    }

    /// Appends the protocol object to `out`.
    pub(crate) fn write_json(&self, out: &mut String) {
        let o = Obj::append_to(out)
            .name("kind", self.kind.name())
            .str("path", &self.path);
        let o = match &self.kind {
            EventKind::Field(v) | EventKind::Required(v) => o.raw("value", v),
            EventKind::Mismatch { expected, got } => o.str("expected", expected).str("got", got),
            EventKind::Repair {
                code,
                threshold,
                severity,
            } => o
                .name("code", code)
                .name("threshold", threshold)
                .name("severity", severity),
            EventKind::Error { code, message } => o.name("code", code).str("message", message),
            EventKind::Ready | EventKind::Complete => o,
        };
        o.num("at", self.at).num("permille", self.permille).end();
    }
}

#[cfg(test)]
mod tests {
    use super::Event;
    use alloc::string::String;

    /// Every rule's repair event is written with its names as they are
    /// (`Obj::name`): the JSON reads back with the rule's code, threshold
    /// and severity.
    #[test]
    fn every_rule_writes_its_repair_event() {
        for &rule in crate::Rule::ALL {
            let mut out = String::new();
            Event::repair(rule, 7, 500).write_json(&mut out);
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(v["kind"], "repair", "{out}");
            assert_eq!(v["code"], rule.code(), "{out}");
            assert_eq!(v["threshold"], rule.threshold(), "{out}");
            assert_eq!(v["severity"], rule.severity().as_str(), "{out}");
            assert_eq!(
                (v["at"].as_u64(), v["permille"].as_i64()),
                (Some(7), Some(500))
            );
        }
    }
}
