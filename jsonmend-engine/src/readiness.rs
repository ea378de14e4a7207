//! Readiness (spec §11): how much of a (possibly still streaming) reply is
//! there — syntax, schema, settled — and the step it is at.

use alloc::string::String;

use crate::error::ErrorCode;
use crate::finish::repair_bytes_unchecked;
use crate::options::{Options, Profile};
use crate::serialize::Obj;
use crate::value::Value;
use crate::verdict::SchemaVerdict;

/// The readiness object.
///
/// ```
/// use jsonmend_engine::{readiness, Options};
/// let r = readiness(b"[1, 2", &Options::default());
/// assert_eq!((r.syntax_permille, r.schema_permille, r.step), (833, -1, "open"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Readiness {
    /// `floor(1000·P/(P+S))`; 0 without payload.
    pub syntax_permille: u32,
    /// Satisfied required fields per mille; -1 without a declaration.
    pub schema_permille: i32,
    /// Satisfied and settled required fields per mille; -1 without a
    /// declaration.
    pub settled_permille: i32,
    /// `invalid`, `waiting`, `mismatch`, `complete`, `missing`, `settled`,
    /// `satisfied` or `open`.
    pub step: &'static str,
    /// The verdict, with a declaration.
    pub verdict: Option<SchemaVerdict>,
}

fn permille(part: usize, whole: usize) -> i32 {
    (part * 1000).checked_div(whole).map_or(1000, |p| p as i32)
}

/// Readiness of `input` (profile refusals do not apply: the reply may be
/// incomplete by design).
///
/// ```
/// use jsonmend_engine::{readiness, Options, Schema};
/// let opts = Options { schema: Some(Schema::parse("{!query:string,!limit:integer}").unwrap()), ..Options::default() };
/// let r = readiness(br#"{"query":"x","limit":10"#, &opts);
/// assert_eq!((r.syntax_permille, r.schema_permille, r.settled_permille, r.step), (958, 1000, 500, "satisfied"));
/// ```
pub fn readiness(input: &[u8], opts: &Options) -> Readiness {
    let opts = Options {
        profile: Profile::Default,
        ..opts.clone()
    };
    of_result(repair_bytes_unchecked(input, &opts).as_ref(), &opts)
}

/// `syntax_permille` of a payload of `payload` bytes to which the end of
/// input would add `synthesized` (0 for an empty payload).
pub(crate) fn syntax_permille(payload: usize, synthesized: usize) -> u32 {
    if payload == 0 {
        0
    } else {
        ((payload * 1000) / (payload + synthesized)) as u32
    }
}

/// Readiness from the unchecked repair of the input under the `default`
/// profile (what a watch stream already has at its end).
pub(crate) fn of_result(
    r: Result<&crate::Repaired<'_>, &crate::Error>,
    opts: &Options,
) -> Readiness {
    let schema = opts.schema.as_ref();
    let none = |step: &'static str| Readiness {
        syntax_permille: 0,
        schema_permille: if schema.is_some() { 0 } else { -1 },
        settled_permille: if schema.is_some() { 0 } else { -1 },
        step,
        verdict: schema.map(|s| s.verdict(None)),
    };
    let r = match r {
        Ok(r) => r,
        Err(e) => {
            return match e.code {
                ErrorCode::E003 | ErrorCode::E040 | ErrorCode::E041 => none("invalid"),
                _ => none("waiting"),
            };
        }
    };
    let (p, s) = (r.payload, r.synthesized);
    let syntax = syntax_permille(p, s);
    let Some(schema) = schema else {
        let step = if syntax == 1000 { "complete" } else { "open" };
        return Readiness {
            syntax_permille: syntax,
            schema_permille: -1,
            settled_permille: -1,
            step,
            verdict: None,
        };
    };
    let value = r.value();
    let verdict = schema.verdict(Some(&value));
    let settled = settled_fields(schema, &value, &r.open_paths);
    let schema_pm = permille(verdict.satisfied, verdict.total);
    let settled_pm = permille(settled, verdict.total);
    let step = if !verdict.mismatched.is_empty() {
        "mismatch"
    } else if syntax == 1000 && verdict.ok() {
        "complete"
    } else if syntax == 1000 {
        "missing"
    } else if settled_pm == 1000 {
        "settled"
    } else if schema_pm == 1000 {
        "satisfied"
    } else {
        "open"
    };
    Readiness {
        syntax_permille: syntax,
        schema_permille: schema_pm,
        settled_permille: settled_pm,
        step,
        verdict: Some(verdict),
    }
}

/// Satisfied required fields whose values are not open.
fn settled_fields(schema: &crate::Schema, value: &Value, open: &[String]) -> usize {
    let mut satisfied_paths = alloc::vec::Vec::new();
    crate::verdict::satisfied_paths(&schema.root, value, "", &mut satisfied_paths);
    satisfied_paths
        .iter()
        .filter(|p| !open.iter().any(|o| o == *p))
        .count()
}

impl Readiness {
    /// The protocol `readiness` result object.
    ///
    /// ```
    /// use jsonmend_engine::{readiness, Options};
    /// let r = readiness(b"[1, 2", &Options::default());
    /// assert_eq!(r.to_json(), r#"{"syntax_permille":833,"schema_permille":-1,"settled_permille":-1,"step":"open","verdict":null}"#);
    /// ```
    pub fn to_json(&self) -> String {
        Obj::new()
            .num("syntax_permille", self.syntax_permille)
            .num("schema_permille", self.schema_permille)
            .num("settled_permille", self.settled_permille)
            .str("step", self.step)
            .raw(
                "verdict",
                &self
                    .verdict
                    .as_ref()
                    .map_or_else(|| "null".into(), SchemaVerdict::to_json),
            )
            .end()
    }
}
