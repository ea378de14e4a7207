//! `validate` (spec §10): whether the input is strict JSON as written, the
//! first strict refusal, and the repaired form.

use alloc::string::String;

use crate::error::{Error, ErrorCode};
use crate::finish::repair_bytes_unchecked;
use crate::gate::gate;
use crate::options::{Options, Profile};
use crate::report::Repaired;
use crate::serialize::Obj;
use crate::verdict::SchemaVerdict;

/// The result of [`validate`].
///
/// ```
/// use jsonmend_engine::{validate, ErrorCode, Options};
/// let v = validate(b"[1, 2,]", &Options::default());
/// assert_eq!(v.error.map(|e| e.code), Some(ErrorCode::E012));
/// ```
#[derive(Clone, Debug)]
pub struct Validation<'a> {
    /// The input is strict JSON as written (duplicate keys are grammatical).
    pub valid: bool,
    /// The `E012` refusal of the first deviation (or the fatal error).
    pub error: Option<Error>,
    /// The repair under the request's profile, the strict refusal waived.
    pub repaired: Option<Repaired<'a>>,
    /// For a valid document with a declaration: the verdict.
    pub schema: Option<SchemaVerdict>,
}

/// Validates `input`: strict verdict, first refusal, repaired form.
///
/// ```
/// use jsonmend_engine::{validate, Options};
/// let v = validate(b"{a:1,}", &Options::default());
/// assert!(!v.valid);
/// assert_eq!(v.repaired.unwrap().text, "{\"a\":1}");
/// assert!(validate(b"[1, 2]", &Options::default()).valid);
/// ```
pub fn validate<'a>(input: &'a [u8], opts: &Options) -> Validation<'a> {
    let schema_text = opts.schema.as_ref().map(crate::Schema::canonical);
    let strict = Options {
        profile: Profile::Strict,
        schema: None,
        ..opts.clone()
    };
    let first = repair_bytes_unchecked(input, &strict);
    let valid = matches!(&first, Ok(r) if r.text.as_bytes() == input
        && r.repairs.iter().all(|x| x.rule.class() == crate::Class::Exact));
    if valid {
        let schema = opts.schema.as_ref().map(|s| {
            let value = first.as_ref().map(Repaired::value).unwrap_or_default();
            s.verdict(Some(&value))
        });
        return Validation {
            valid,
            error: None,
            repaired: None,
            schema,
        };
    }
    let (error, repaired) = match first {
        Err(e) => (Some(e.with_hint(input, schema_text)), None),
        Ok(r) => {
            let refusal = gate(input, r.clone(), &strict)
                .err()
                .filter(|e| e.code == ErrorCode::E012)
                .map(|e| e.with_hint(input, schema_text));
            let repaired = gate(input, r, opts).ok();
            (refusal, repaired)
        }
    };
    Validation {
        valid,
        error,
        repaired,
        schema: None,
    }
}

impl Validation<'_> {
    /// The protocol `validate` result.
    ///
    /// ```
    /// use jsonmend_engine::{validate, Options};
    /// assert_eq!(validate(b"[1]", &Options::default()).to_json(), r#"{"valid":true}"#);
    /// ```
    pub fn to_json(&self) -> String {
        let mut o = Obj::new().bool("valid", self.valid);
        if let Some(e) = &self.error {
            o = o.raw("error", &e.to_json());
        }
        if let Some(r) = &self.repaired {
            o = o
                .str("repaired", &r.text)
                .str("exactness", r.exactness.as_str())
                .raw("repairs", &r.repairs_json());
        }
        if let Some(v) = &self.schema {
            o = o.raw("schema", &v.to_json());
        }
        o.end()
    }
}
