//! RetryHint (spec §14): a prompt that tells the model what was wrong and
//! how to fix it.

use alloc::format;
use alloc::string::String;

use crate::error::{Error, ErrorCode};
use crate::rules::Rule;
use crate::serialize::Obj;

/// What to tell the model after a refusal or fatal error.
///
/// ```
/// use jsonmend_engine::{analyze, Options, Profile};
/// let hint = analyze(b"{'a': 1}", &Options::with_profile(Profile::Strict)).retry.unwrap();
/// assert_eq!((hint.code.as_str(), hint.line, hint.column), ("E012", 1, 2));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetryHint {
    /// The E-code.
    pub code: ErrorCode,
    /// The rule behind a refusal.
    pub rule: Option<Rule>,
    /// Byte offset, where one applies.
    pub offset: Option<usize>,
    /// 1-based line (0 without an offset).
    pub line: usize,
    /// 1-based column (0 without an offset).
    pub column: usize,
    /// Up to 10 characters each side of the offset on its line.
    pub excerpt: String,
    /// What was wrong.
    pub problem: String,
    /// How to fix it.
    pub fix: String,
    /// The canonical declaration, if one was given.
    pub schema: Option<String>,
}

/// The fix sentence of a rule's group.
pub(crate) fn group_fix(rule: Option<Rule>) -> &'static str {
    match rule.map(Rule::number) {
        Some(1..=9) => "Send the JSON alone, without prose, tags, comments or code fences.",
        Some(10..=19) => {
            "Put every key and string in double quotes and escape inner quotes as \\\"."
        }
        Some(20..=25) => "Close every string and use only JSON escapes; write a backslash as \\\\.",
        Some(30..=37) => {
            "Use only true, false, null and plain decimal numbers; quote anything else."
        }
        Some(40..=44) => "Separate items with one comma and keys from values with one colon.",
        Some(50..=58) => "Send one JSON value with matching brackets.",
        Some(60..=65) => {
            "Give every key one value, send each key once, and write out every element."
        }
        Some(70..=76) => "Finish every string, array and object.",
        Some(80..=81) => "Send exactly one JSON value.",
        Some(90..=93) => "Use the declared type for every field.",
        _ => "Send one complete JSON value.",
    }
}

/// The excerpt around `offset`: up to 10 scalars each side on its line,
/// whitespace runs as one space, backticks as `'`, trimmed.
fn excerpt(input: &[u8], offset: usize) -> String {
    let text = String::from_utf8_lossy(input);
    let offset = offset.min(input.len());
    let mut at = offset;
    while at > 0 && !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = text.get(..at).unwrap_or_default();
    let after = text.get(at..).unwrap_or_default();
    let before = before.rsplit(['\n', '\r']).next().unwrap_or_default();
    let after = after.split(['\n', '\r']).next().unwrap_or_default();
    let left: String = {
        let chars: alloc::vec::Vec<char> = before.chars().rev().take(10).collect();
        chars.into_iter().rev().collect()
    };
    let right: String = after.chars().take(10).collect();
    let mut out = String::new();
    let mut space = false;
    for c in left.chars().chain(right.chars()) {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        out.push(if c == '`' { '\'' } else { c });
    }
    out
}

fn cut(problem: String) -> String {
    if problem.chars().count() <= 160 {
        return problem;
    }
    let mut s: String = problem.chars().take(159).collect();
    s.push('\u{2026}');
    s
}

impl RetryHint {
    /// The hint for an error on `input`, or `None` for codes without one.
    ///
    /// ```
    /// use jsonmend_engine::{repair, Options, Profile, RetryHint};
    /// let input = r#"{"query":"x","limit":10"#;
    /// let e = repair(input, &Options::with_profile(Profile::Execution)).unwrap_err();
    /// let hint = RetryHint::for_error(&e, input.as_bytes(), Some("{!query:string,!limit:integer}")).unwrap();
    /// assert_eq!(
    ///     hint.to_prompt(),
    ///     "Your previous reply was not usable JSON: unclosed object or array at end of input at line 1, column 24 (near `\"limit\":10`). Finish every string, array and object. Reply with only the corrected JSON matching {!query:string,!limit:integer}."
    /// );
    /// ```
    pub fn for_error(e: &Error, input: &[u8], schema: Option<&str>) -> Option<RetryHint> {
        if !e.code.has_hint() {
            return None;
        }
        let detail = e
            .message
            .strip_prefix("no value could be recovered: ")
            .unwrap_or(&e.message);
        let (problem, fix): (String, &str) = match e.code {
            ErrorCode::E001 => ("the reply was empty".into(), "Send the JSON value."),
            ErrorCode::E002 => (
                "no JSON value was found".into(),
                "Send a JSON object or array, not prose.",
            ),
            ErrorCode::E003 => (detail.into(), "Send one complete JSON value."),
            ErrorCode::E010 | ErrorCode::E011 | ErrorCode::E012 => {
                (e.problem.clone().unwrap_or_default(), group_fix(e.rule))
            }
            ErrorCode::E013 => (
                format!(
                    "too much had to be guessed ({}\u{2030} of the value)",
                    e.loss_permille.unwrap_or(0)
                ),
                group_fix(e.rule),
            ),
            ErrorCode::E021 => (
                e.problem.clone().unwrap_or_default(),
                "Include every required field with its declared type.",
            ),
            ErrorCode::E040 => (e.message.clone(), "Use a flatter structure."),
            ErrorCode::E041 => (
                e.message
                    .replacen("input larger than", "the reply is larger than", 1),
                "Send a shorter value.",
            ),
            _ => return None,
        };
        let ex = e.offset.map(|o| excerpt(input, o)).unwrap_or_default();
        Some(RetryHint {
            code: e.code,
            rule: e.rule,
            offset: e.offset,
            line: e.line,
            column: e.column,
            excerpt: ex,
            problem: cut(problem),
            fix: fix.into(),
            schema: schema.map(String::from),
        })
    }

    /// The prompt text of spec §14, exactly.
    ///
    /// ```
    /// use jsonmend_engine::{analyze, Options};
    /// let hint = analyze(b"no json here", &Options::default()).retry.unwrap();
    /// assert_eq!(
    ///     hint.to_prompt(),
    ///     "Your previous reply was not usable JSON: no JSON value was found. \
    ///      Send a JSON object or array, not prose. Reply with only the corrected JSON."
    /// );
    /// ```
    pub fn to_prompt(&self) -> String {
        let located = self.offset.is_some()
            && !matches!(
                self.code,
                ErrorCode::E001 | ErrorCode::E002 | ErrorCode::E041
            );
        let location = if !located {
            String::new()
        } else if self.excerpt.is_empty() {
            format!(" at line {}, column {}", self.line, self.column)
        } else {
            format!(
                " at line {}, column {} (near `{}`)",
                self.line, self.column, self.excerpt
            )
        };
        let schema = self
            .schema
            .as_deref()
            .map(|s| format!(" matching {s}"))
            .unwrap_or_default();
        format!(
            "Your previous reply was not usable JSON: {}{}. {} Reply with only the corrected JSON{}.",
            self.problem, location, self.fix, schema
        )
    }

    /// The `retry` object of a RepairPlan: `code`, `rule`, `offset`,
    /// `line`, `column`, `problem`, `fix`, `prompt`.
    ///
    /// ```
    /// use jsonmend_engine::{analyze, Options};
    /// let hint = analyze(b"no json here", &Options::default()).retry.unwrap();
    /// assert!(hint.to_json().starts_with(r#"{"code":"E002","#));
    /// ```
    pub fn to_json(&self) -> String {
        let placed = self.offset.is_some();
        Obj::new()
            .str("code", self.code.as_str())
            .opt_str("rule", self.rule.map(Rule::code))
            .opt_num("offset", self.offset)
            .opt_num("line", placed.then_some(self.line))
            .opt_num("column", placed.then_some(self.column))
            .str("problem", &self.problem)
            .str("fix", &self.fix)
            .str("prompt", &self.to_prompt())
            .end()
    }
}
