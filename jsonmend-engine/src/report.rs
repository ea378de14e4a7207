//! What a repair returns: the repairs it made and the three verdicts
//! (`exactness`, `ambiguous`, `completeness`) of spec §6.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use crate::rules::{Class, Rule, Severity};

/// How far the repaired value is from what the input spells (spec §6).
///
/// ```
/// use jsonmend_engine::{repair_text, Exactness};
/// assert_eq!(repair_text("[1]").unwrap().exactness, Exactness::Exact);
/// assert_eq!(repair_text("[1,]").unwrap().exactness, Exactness::Cosmetic);
/// assert_eq!(repair_text("[1, \"ab").unwrap().exactness, Exactness::Lossy);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Exactness {
    /// The text is the input, unchanged (duplicate-key flags allowed).
    Exact,
    /// Only syntax was added or removed.
    Cosmetic,
    /// Something was synthesized, dropped, replaced or guessed.
    Lossy,
}

impl Exactness {
    /// The protocol spelling.
    ///
    /// ```
    /// assert_eq!(jsonmend_engine::Exactness::Cosmetic.as_str(), "cosmetic");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Exactness::Exact => "exact",
            Exactness::Cosmetic => "cosmetic",
            Exactness::Lossy => "lossy",
        }
    }
}

/// Whether the input was cut off (spec §6).
///
/// ```
/// use jsonmend_engine::{repair_text, Completeness};
/// assert_eq!(repair_text("{\"a\": 1}").unwrap().completeness, Completeness::Complete);
/// assert_eq!(repair_text("{\"a\": 1").unwrap().completeness, Completeness::Partial);
/// assert_eq!(repair_text("{\"").unwrap().completeness, Completeness::Empty);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Completeness {
    /// No truncation repair (R070–R076).
    Complete,
    /// Truncated, and some scalar, key or string content survived.
    Partial,
    /// Truncated before any scalar content (`{`, `[[`, `"`, `{"`).
    Empty,
}

impl Completeness {
    /// The protocol spelling.
    ///
    /// ```
    /// assert_eq!(jsonmend_engine::Completeness::Partial.as_str(), "partial");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Completeness::Complete => "complete",
            Completeness::Partial => "partial",
            Completeness::Empty => "empty",
        }
    }
}

/// One applied repair: a catalogue rule at a place in the input.
///
/// ```
/// use jsonmend_engine::{repair_text, Rule};
/// let r = repair_text("{\"a\": 1,\n \"b\": 'x'}").unwrap();
/// let quote = &r.repairs[0];
/// assert_eq!((quote.rule, quote.offset, quote.line, quote.column), (Rule::SingleQuotes, 15, 2, 7));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repair {
    /// The rule applied.
    pub rule: Rule,
    /// Byte offset in the input where the defect starts (an insertion sits
    /// at the offset it precedes; an end-of-input completion at the length).
    pub offset: usize,
    /// 1-based line of `offset`.
    pub line: usize,
    /// 1-based column of `offset`, in Unicode scalar values.
    pub column: usize,
    /// The `{token}`/`{key}` of the message, if the rule has one.
    pub detail: Option<String>,
}

impl Repair {
    /// The severity of the rule.
    ///
    /// ```
    /// let r = jsonmend_engine::repair_text("[1,]").unwrap();
    /// assert_eq!(r.repairs[0].severity().as_str(), "low");
    /// ```
    pub fn severity(&self) -> Severity {
        self.rule.severity()
    }

    /// The message: "defect; action", with the token JSON-quoted and cut to
    /// 32 characters.
    ///
    /// ```
    /// let r = jsonmend_engine::repair_text("{a:1}").unwrap();
    /// assert_eq!(r.repairs[0].message(), "unquoted key \"a\"; quoted");
    /// ```
    pub fn message(&self) -> String {
        let mut out = String::with_capacity(64);
        self.write_message(&mut out);
        out
    }

    /// Appends the message to `out`.
    pub(crate) fn write_message(&self, out: &mut String) {
        let defect = self.rule.defect();
        match defect.find('{') {
            Some(open) => {
                let close = defect[open..]
                    .find('}')
                    .map_or(defect.len(), |c| open + c + 1);
                out.push_str(&defect[..open]);
                let detail = self.detail.as_deref().unwrap_or("");
                if &defect[open..close] == "{ws}" {
                    out.push_str(detail);
                } else {
                    let cut = detail
                        .char_indices()
                        .nth(32)
                        .map_or(detail, |(i, _)| &detail[..i]);
                    crate::json::write_str(out, cut);
                }
                out.push_str(&defect[close..]);
            }
            None => out.push_str(defect),
        }
        out.push_str("; ");
        out.push_str(self.rule.action());
    }
}

/// The result of a successful repair.
///
/// ```
/// let r = jsonmend_engine::repair_text("Sure! ```json\n{\"ok\": true,}\n```").unwrap();
/// assert_eq!(r.text, "{\"ok\": true}");
/// assert_eq!(r.exactness.as_str(), "cosmetic");
/// assert!(!r.ambiguous && r.loss_permille == 0);
/// ```
#[derive(Clone, Debug)]
pub struct Repaired<'a> {
    /// Strict JSON: the input itself when nothing had to change.
    pub text: Cow<'a, str>,
    /// Exact, cosmetic or lossy.
    pub exactness: Exactness,
    /// Some applied repair chose between readings.
    pub ambiguous: bool,
    /// Whether the input was cut off.
    pub completeness: Completeness,
    /// The repairs, sorted by offset then code (at most `max_repairs`).
    pub repairs: Vec<Repair>,
    /// More repairs were applied than `repairs` holds.
    pub repairs_truncated: bool,
    /// How much of the value was guessed, in permille (spec §6).
    pub loss_permille: u32,
    /// Readiness inputs (spec §11): payload bytes `P`, synthesized bytes
    /// `S`, and the pointers of values still open at the end.
    pub(crate) payload: usize,
    pub(crate) synthesized: usize,
    pub(crate) open_paths: Vec<String>,
}

impl Repaired<'_> {
    /// The same result owning its text (which borrows the input when
    /// nothing had to change), so it outlives the input.
    ///
    /// ```
    /// let kept = {
    ///     let input = String::from("[1, 2]");
    ///     jsonmend_engine::repair_text(&input).unwrap().into_owned()
    /// };
    /// assert_eq!(kept.text, "[1, 2]");
    /// ```
    pub fn into_owned(self) -> Repaired<'static> {
        Repaired {
            text: Cow::Owned(self.text.into_owned()),
            ..self
        }
    }

    /// The repaired value (`text` parsed; by invariant I2 it always parses).
    ///
    /// ```
    /// let r = jsonmend_engine::repair_text("{a: [1, 2,]}").unwrap();
    /// assert_eq!(r.value().to_json(), r#"{"a":[1,2]}"#);
    /// ```
    pub fn value(&self) -> crate::Value {
        crate::Value::parse(&self.text).unwrap_or_default()
    }

    /// The compact JSON text of [`Repaired::value`].
    pub(crate) fn value_json(&self) -> String {
        let mut json = String::with_capacity(self.text.len());
        self.write_value_json(&mut json);
        json
    }

    /// Appends the compact JSON text of [`Repaired::value`], in one pass
    /// over `text` where it can (`compact::write_compact`).
    pub(crate) fn write_value_json(&self, out: &mut String) {
        if !crate::compact::write_compact(out, &self.text) {
            self.value().write_json(out);
        }
    }

    /// The first applied repair of a class, if any (used by the profile gate).
    ///
    /// ```
    /// use jsonmend_engine::{repair_text, Class, Rule};
    /// let r = repair_text("{a: 1").unwrap();
    /// assert_eq!(r.first_of(Class::Lossy).unwrap().rule, Rule::TruncatedContainer);
    /// ```
    pub fn first_of(&self, class: Class) -> Option<&Repair> {
        self.repairs.iter().find(|r| r.rule.class() == class)
    }
}
