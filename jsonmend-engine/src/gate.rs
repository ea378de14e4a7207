//! The profile gate of spec §7: `E012` → `E011` → `E010` → `E013`.

use alloc::format;

use crate::error::{Error, ErrorCode};
use crate::finish::{repair_bytes_unchecked, repair_unchecked};
use crate::options::{Options, Profile};
use crate::report::{Exactness, Repaired};
use crate::rules::{Class, Rule};

/// Repairs `input` under `opts`: the repaired text and what was done, or
/// the fatal condition / refusal as a typed error.
///
/// ```
/// use jsonmend_engine::{repair, ErrorCode, Options, Profile};
/// let opts = Options::with_profile(Profile::Execution);
/// assert_eq!(repair("{a: 1,}", &opts).unwrap().text, "{\"a\": 1}");
/// let err = repair("{\"a\": 1", &opts).unwrap_err();
/// assert_eq!(err.code, ErrorCode::E010);
/// ```
pub fn repair<'a>(input: &'a str, opts: &Options) -> Result<Repaired<'a>, Error> {
    let r = repair_unchecked(input, opts).map_err(|e| hinted(e, input.as_bytes(), opts))?;
    gate(input.as_bytes(), r, opts).map_err(|e| hinted(e, input.as_bytes(), opts))
}

pub(crate) fn hinted(e: Error, input: &[u8], opts: &Options) -> Error {
    e.with_hint(input, opts.schema.as_ref().map(crate::Schema::canonical))
}

/// [`repair`] over bytes: invalid UTF-8 is replaced (R023).
///
/// ```
/// use jsonmend_engine::{repair_bytes, Options};
/// let r = repair_bytes(b"{'a': True}", &Options::default()).unwrap();
/// assert_eq!(r.text, "{\"a\": true}");
/// ```
pub fn repair_bytes<'a>(input: &'a [u8], opts: &Options) -> Result<Repaired<'a>, Error> {
    let r = repair_bytes_unchecked(input, opts).map_err(|e| hinted(e, input, opts))?;
    gate(input, r, opts).map_err(|e| hinted(e, input, opts))
}

/// [`repair`] with default options: the benchmarked API.
///
/// ```
/// let r = jsonmend_engine::repair_text("[1, 2, 3,]").unwrap();
/// assert_eq!(r.text, "[1, 2, 3]");
/// ```
pub fn repair_text(input: &str) -> Result<Repaired<'_>, Error> {
    repair(input, &Options::default())
}

fn refusal(input: &[u8], code: ErrorCode, profile: Profile, r: &crate::Repair) -> Error {
    let message = r.message();
    let text = match code {
        ErrorCode::E010 => format!(
            "lossy repair refused by profile {}: {message}",
            profile.as_str()
        ),
        ErrorCode::E011 => {
            format!(
                "ambiguous repair refused by profile {}: {message}",
                profile.as_str()
            )
        }
        _ => format!("repair refused by profile {}: {message}", profile.as_str()),
    };
    let mut e = Error::new(code, text).at(input, r.offset);
    e.rule = Some(r.rule);
    let defect = message.split("; ").next().unwrap_or("");
    e.problem = Some(defect.into());
    e
}

/// Applies the profile's refusals to a result.
pub(crate) fn gate<'a>(
    input: &[u8],
    r: Repaired<'a>,
    opts: &Options,
) -> Result<Repaired<'a>, Error> {
    let p = opts.profile;
    let denied = |rule: Rule| opts.deny.contains(&rule);
    // E012: strict refuses every change; `deny` refuses its rules.
    if let Some(first) = r
        .repairs
        .iter()
        .find(|x| (p == Profile::Strict && x.rule.class() != Class::Exact) || denied(x.rule))
    {
        return Err(refusal(input, ErrorCode::E012, p, first));
    }
    if matches!(p, Profile::Strict | Profile::Execution) {
        if let Some(first) = r.repairs.iter().find(|x| x.rule.ambiguity().is_some()) {
            return Err(refusal(input, ErrorCode::E011, p, first));
        }
        if let Some(first) = r.first_of(Class::Lossy) {
            return Err(refusal(input, ErrorCode::E010, p, first));
        }
    }
    let max = opts.effective_max_loss();
    if r.exactness == Exactness::Lossy && r.loss_permille > max {
        let first = r.first_of(Class::Lossy);
        let mut e = Error::new(
            ErrorCode::E013,
            format!(
                "loss {}\u{2030} exceeds max_loss {}\u{2030}",
                r.loss_permille, max
            ),
        );
        if let Some(first) = first {
            e = e.at(input, first.offset);
            e.rule = Some(first.rule);
        }
        e.loss_permille = Some(r.loss_permille);
        return Err(e);
    }
    if p != Profile::Lenient {
        if let Some(schema) = &opts.schema {
            let value = r.value();
            if let Some(e) = schema_error(&schema.verdict(Some(&value))) {
                return Err(e);
            }
        }
    }
    Ok(r)
}

/// `E021` for a verdict that is not ok.
pub(crate) fn schema_error(v: &crate::SchemaVerdict) -> Option<Error> {
    let (path, problem) = if let Some(m) = v.missing.first() {
        (m.clone(), format!("missing required field {m}"))
    } else if let Some(m) = v.mismatched.first() {
        (
            m.path.clone(),
            format!("field {} is {}, expected {}", m.path, m.got, m.expected),
        )
    } else {
        return None;
    };
    let mut e = Error::new(ErrorCode::E021, format!("schema not satisfied: {path}"));
    e.problem = Some(problem);
    Some(e)
}
