//! The one-shot protocol methods (`repair`, `analyze`, `validate`) from a
//! parsed params object to the response envelope: what the conformance
//! runner, the CLI parity check and the server share.

use alloc::format;
use alloc::string::String;

use crate::analyze::{RepairPlan, analyze};
use crate::error::{Error, ErrorCode};
use crate::options::{Options, Profile};
use crate::schema::Schema;
use crate::serialize::Obj;
use crate::validate::validate;
use crate::value::Value;

fn bad(detail: &str) -> Error {
    Error::new(ErrorCode::E050, detail)
}

/// Options from request params (`profile`, `schema`, `schema_json`,
/// `skip_prose`, `max_loss`); unknown fields are ignored. The schema's
/// `E020` is returned separately so `analyze` can put it in its plan.
pub(crate) fn options(params: &Value) -> Result<(Options, Result<Option<Schema>, Error>), Error> {
    let mut opts = Options::default();
    match params.get("profile") {
        None | Some(Value::Null) => {}
        Some(Value::String(p)) => opts.profile = Profile::parse(p)?,
        Some(_) => return Err(bad("profile must be a string")),
    }
    match params.get("skip_prose") {
        None | Some(Value::Null) => {}
        Some(Value::Bool(b)) => opts.skip_prose = *b,
        Some(_) => return Err(bad("skip_prose must be a boolean")),
    }
    match params.get("max_loss") {
        None | Some(Value::Null) => {}
        Some(Value::Number(n)) => match n.as_u64().filter(|n| *n <= 1000) {
            Some(n) => opts.max_loss = Some(n as u32),
            None => return Err(bad("max_loss must be an integer 0-1000")),
        },
        Some(_) => return Err(bad("max_loss must be an integer 0-1000")),
    }
    let schema = match (params.get("schema"), params.get("schema_json")) {
        (Some(s), Some(j)) if !s.is_null_value() && !j.is_null_value() => Err(Error::new(
            ErrorCode::E020,
            "invalid schema: both schema and schema_json given at column 1",
        )),
        (Some(Value::String(s)), _) => Schema::parse(s).map(Some),
        (Some(v), _) if !v.is_null_value() => return Err(bad("schema must be a string")),
        (_, Some(Value::String(j))) => Schema::from_json_schema(j).map(Some),
        (_, Some(j)) if matches!(j, Value::Object(_) | Value::Bool(_)) => {
            Schema::from_json_schema(&j.to_json()).map(Some)
        }
        (_, Some(v)) if !v.is_null_value() => {
            return Err(bad("schema_json must be an object or a string"));
        }
        _ => Ok(None),
    };
    Ok((opts, schema))
}

impl Value {
    fn is_null_value(&self) -> bool {
        matches!(self, Value::Null)
    }
}

fn text_param(params: &Value) -> Result<&str, Error> {
    match params.get("text") {
        Some(Value::String(t)) => Ok(t),
        Some(_) => Err(bad("text must be a string")),
        None => Err(bad("missing parameter text")),
    }
}

/// Runs a one-shot method; `Ok` is the result object's JSON text.
///
/// ```
/// use jsonmend_engine::{call, Value};
/// let params = Value::parse(r#"{"text":"[1,2,3,]"}"#).unwrap();
/// let result = call("repair", &params).unwrap();
/// assert!(result.starts_with(r#"{"text":"[1,2,3]","exactness":"cosmetic""#));
/// ```
pub fn call(method: &str, params: &Value) -> Result<String, Error> {
    let mut out = String::new();
    call_into(method, params, &mut out).map(|()| out)
}

/// [`call`], its result appended to `out` (left as it was on an error).
pub(crate) fn call_into(method: &str, params: &Value, out: &mut String) -> Result<(), Error> {
    let json = match method {
        "repair" => {
            let text = text_param(params)?;
            let (mut opts, schema) = options(params)?;
            opts.schema = schema?;
            let r = crate::repair(text, &opts)?;
            out.reserve(r.text.len() + 128);
            r.members(Obj::append_to(out)).end();
            return Ok(());
        }
        "analyze" => {
            let text = text_param(params)?;
            let (mut opts, schema) = options(params)?;
            let plan = match schema {
                Ok(s) => {
                    opts.schema = s;
                    analyze(text.as_bytes(), &opts)
                }
                Err(e) => RepairPlan::from_error(e, text.as_bytes(), None),
            };
            plan.to_json()
        }
        "validate" => {
            let text = text_param(params)?;
            let (mut opts, schema) = options(params)?;
            opts.schema = schema?;
            validate(text.as_bytes(), &opts).to_json()
        }
        "readiness" => {
            let text = text_param(params)?;
            let (mut opts, schema) = options(params)?;
            opts.schema = schema?;
            crate::readiness::readiness(text.as_bytes(), &opts).to_json()
        }
        other => {
            return Err(bad(&format!(
                "unknown method {}",
                crate::json::quoted(other)
            )));
        }
    };
    out.push_str(&json);
    Ok(())
}

/// The response envelope without `id`: `{"ok":true,"result":…}` or
/// `{"ok":false,"error":…}`.
///
/// ```
/// use jsonmend_engine::{envelope, Value};
/// let out = envelope("repair", &Value::parse(r#"{"text":""}"#).unwrap());
/// assert!(out.starts_with(r#"{"ok":false,"error":{"code":"E001""#));
/// ```
pub fn envelope(method: &str, params: &Value) -> String {
    match call(method, params) {
        Ok(result) => format!("{{\"ok\":true,\"result\":{result}}}"),
        Err(e) => format!("{{\"ok\":false,\"error\":{}}}", e.to_json()),
    }
}
