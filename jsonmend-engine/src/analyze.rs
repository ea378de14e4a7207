//! `analyze` (spec §10): the never-raising decision call and its RepairPlan.

use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{Error, ErrorCode};
use crate::finish::repair_bytes_unchecked;
use crate::gate::gate;
use crate::hint::RetryHint;
use crate::options::{Options, Profile};
use crate::report::{Completeness, Exactness, Repaired};
use crate::serialize::{Obj, array};
use crate::value::Value;
use crate::verdict::SchemaVerdict;

/// What to do with a reply.
///
/// ```
/// use jsonmend_engine::{analyze, Decision, Options, Profile};
/// assert_eq!(analyze(b"[1, 2]", &Options::default()).decision, Decision::Accept);
/// let strict = Options::with_profile(Profile::Strict);
/// assert_eq!(analyze(b"[1, 2,]", &strict).decision, Decision::Retry);
/// assert_eq!(analyze(b"", &Options::default()).decision, Decision::Invalid);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Exact, not ambiguous, no error.
    Accept,
    /// The profile accepts a non-exact or ambiguous result.
    Repair,
    /// A result exists but is refused (`E010`–`E013`, `E021`).
    Retry,
    /// Fatal (`E001`–`E003`, `E020`, `E040`, `E041`).
    Invalid,
}

impl Decision {
    /// The protocol spelling.
    ///
    /// ```
    /// assert_eq!(jsonmend_engine::Decision::Retry.as_str(), "retry");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Accept => "accept",
            Decision::Repair => "repair",
            Decision::Retry => "retry",
            Decision::Invalid => "invalid",
        }
    }
}

/// The full plan `analyze` returns.
///
/// ```
/// use jsonmend_engine::{analyze, Options, Profile};
/// let plan = analyze(b"{\"a\": 1", &Options::with_profile(Profile::Execution));
/// assert!(!plan.valid_json);
/// assert_eq!(plan.error.as_ref().map(|e| e.code.as_str()), Some("E010"));
/// let hint = plan.retry.expect("a refusal comes with a retry hint");
/// assert!(hint.to_prompt().starts_with("Your previous reply was not usable JSON"));
/// ```
#[derive(Clone, Debug)]
pub struct RepairPlan<'a> {
    /// What to do.
    pub decision: Decision,
    /// The first matching label of spec §10 (independent of the profile).
    pub label: &'static str,
    /// The input is strict JSON as written.
    pub valid_json: bool,
    /// The verdict of the `execution` profile plus the shape check.
    pub execution: &'static str,
    /// The error `repair` would raise.
    pub error: Option<Error>,
    /// The repair result, when there is one.
    pub result: Option<Repaired<'a>>,
    /// The repaired value, when there is one.
    pub value: Option<Value>,
    /// The schema verdict, with a declaration.
    pub verdict: Option<SchemaVerdict>,
    /// The retry hint, for `retry`/`invalid` with a hinted code.
    pub retry: Option<RetryHint>,
}

fn fatal(code: ErrorCode) -> bool {
    matches!(
        code,
        ErrorCode::E001
            | ErrorCode::E002
            | ErrorCode::E003
            | ErrorCode::E020
            | ErrorCode::E040
            | ErrorCode::E041
    )
}

fn label_of(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::E001 => "empty",
        ErrorCode::E002 => "no_json",
        ErrorCode::E003 => "unrecoverable",
        ErrorCode::E040 => "too_deep",
        ErrorCode::E041 => "too_large",
        _ => "bad_schema",
    }
}

/// Analyzes `input` under `opts`; never fails.
///
/// ```
/// use jsonmend_engine::{analyze, Options};
/// let plan = analyze(b"{\"a\": 1,}", &Options::default());
/// assert_eq!(plan.decision.as_str(), "repair");
/// assert_eq!(plan.label, "cosmetic");
/// assert_eq!(plan.execution, "ready");
/// ```
pub fn analyze<'a>(input: &'a [u8], opts: &Options) -> RepairPlan<'a> {
    let schema_text = opts.schema.as_ref().map(crate::Schema::canonical);
    let unchecked = match repair_bytes_unchecked(input, opts) {
        Ok(r) => r,
        Err(e) => {
            return RepairPlan::from_error(e.with_hint(input, schema_text), input, schema_text);
        }
    };
    let value = unchecked.value();
    let verdict = opts.schema.as_ref().map(|s| s.verdict(Some(&value)));
    let valid_json = unchecked.text.as_bytes() == input && unchecked.exactness == Exactness::Exact;
    let label = match &verdict {
        Some(v) if !v.missing.is_empty() => "schema_missing",
        Some(v) if !v.mismatched.is_empty() => "schema_mismatch",
        _ if unchecked.completeness != Completeness::Complete => "truncated",
        _ if unchecked.ambiguous => "ambiguous",
        _ => match unchecked.exactness {
            Exactness::Lossy => "lossy",
            Exactness::Cosmetic => "cosmetic",
            Exactness::Exact => "valid",
        },
    };
    let exec_opts = Options {
        profile: Profile::Execution,
        max_loss: None,
        ..opts.clone()
    };
    let execution = match gate(input, unchecked.clone(), &exec_opts) {
        Ok(_) if !matches!(value, Value::Object(_)) => "refused_shape",
        Ok(_) => "ready",
        Err(e) => match e.code {
            ErrorCode::E011 => "refused_ambiguous",
            ErrorCode::E021 => "refused_schema",
            _ => "refused_lossy",
        },
    };
    let gated = gate(input, unchecked.clone(), opts);
    let (decision, error) = match gated {
        Ok(r) if r.exactness == Exactness::Exact && !r.ambiguous => (Decision::Accept, None),
        Ok(_) => (Decision::Repair, None),
        Err(e) => (Decision::Retry, Some(e.with_hint(input, schema_text))),
    };
    let retry = error
        .as_ref()
        .and_then(|e| RetryHint::for_error(e, input, schema_text));
    RepairPlan {
        decision,
        label,
        valid_json,
        execution,
        error,
        result: Some(unchecked),
        value: Some(value),
        verdict,
        retry,
    }
}

impl<'a> RepairPlan<'a> {
    /// The plan for a fatal error (`decision: invalid`), e.g. `E020` from a
    /// schema that did not parse.
    ///
    /// ```
    /// use jsonmend_engine::{RepairPlan, Schema};
    /// let e = Schema::parse("{!a:}").unwrap_err();
    /// let plan = RepairPlan::from_error(e, b"{}", None);
    /// assert_eq!((plan.decision.as_str(), plan.label), ("invalid", "bad_schema"));
    /// ```
    pub fn from_error(e: Error, input: &[u8], schema: Option<&str>) -> RepairPlan<'a> {
        let code = e.code;
        let retry = if fatal(code) {
            RetryHint::for_error(&e, input, schema)
        } else {
            None
        };
        RepairPlan {
            decision: if fatal(code) {
                Decision::Invalid
            } else {
                Decision::Retry
            },
            label: label_of(code),
            valid_json: false,
            execution: "refused_invalid",
            error: Some(e),
            result: None,
            value: None,
            verdict: None,
            retry,
        }
    }

    /// Whether the arguments may be handed to a tool.
    ///
    /// ```
    /// use jsonmend_engine::{analyze, Options};
    /// assert!(analyze(b"{a: 1}", &Options::default()).executable());
    /// assert!(!analyze(b"{\"a\": 1", &Options::default()).executable());
    /// ```
    pub fn executable(&self) -> bool {
        self.execution == "ready"
    }

    /// The protocol RepairPlan object.
    ///
    /// ```
    /// let plan = jsonmend_engine::analyze(b"[1]", &jsonmend_engine::Options::default());
    /// assert!(plan.to_json().starts_with(r#"{"decision":"accept","label":"valid""#));
    /// ```
    pub fn to_json(&self) -> String {
        let r = self.result.as_ref();
        let mut ambiguity: Vec<&str> = Vec::new();
        for rep in r.map(|r| r.repairs.as_slice()).unwrap_or_default() {
            if let Some(tag) = rep.rule.ambiguity() {
                if !ambiguity.contains(&tag) {
                    ambiguity.push(tag);
                }
            }
        }
        let (total, satisfied, missing) = match &self.verdict {
            Some(v) => (
                alloc::format!("{}", v.total),
                alloc::format!("{}", v.satisfied),
                array(v.missing.iter().map(|p| crate::json::quoted(p))),
            ),
            None => ("-1".into(), "-1".into(), "[]".into()),
        };
        // The value's compact text, written twice: as `value` and, quoted,
        // as `normalized`.
        let value = self.value.as_ref().map(Value::to_json);
        Obj::new()
            .str("decision", self.decision.as_str())
            .str("label", self.label)
            .opt_str("exactness", r.map(|r| r.exactness.as_str()))
            .bool("ambiguous", r.is_some_and(|r| r.ambiguous))
            .bool("valid_json", self.valid_json)
            .with("normalized", |out| match &value {
                Some(v) => crate::json::write_str(out, v),
                None => out.push_str("null"),
            })
            .raw(
                "ambiguity",
                &array(ambiguity.iter().map(|t| crate::json::quoted(t))),
            )
            .str("execution", self.execution)
            .bool("executable", self.executable())
            .raw("schema_total", &total)
            .raw("schema_satisfied", &satisfied)
            .raw("schema_missing", &missing)
            .raw(
                "error",
                &self
                    .error
                    .as_ref()
                    .map_or_else(|| "null".into(), Error::to_json),
            )
            .with("repairs", |out| match r {
                Some(r) => r.write_repairs(out),
                None => out.push_str("[]"),
            })
            .raw(
                "retry",
                &self
                    .retry
                    .as_ref()
                    .map_or_else(|| "null".into(), RetryHint::to_json),
            )
            .raw("value", value.as_deref().unwrap_or("null"))
            .raw(
                "text",
                &r.map_or_else(|| "null".into(), |r| crate::json::quoted(&r.text)),
            )
            .end()
    }
}
