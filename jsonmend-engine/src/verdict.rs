//! The schema verdict (spec §9.3): required fields satisfied, missing and
//! mismatched, by JSON Pointer.

use alloc::string::String;
use alloc::vec::Vec;

use crate::schema::{Lit, Schema, Ty, ty_text};
use crate::serialize::{Obj, array};
use crate::value::Value;

/// A present field of the wrong type.
///
/// ```
/// use jsonmend_engine::{Schema, Value};
/// let v = Schema::parse("{!n:integer}").unwrap().verdict(Some(&Value::parse(r#"{"n":1.5}"#).unwrap()));
/// let m = &v.mismatched[0];
/// assert_eq!((m.path.as_str(), m.expected.as_str(), m.got.as_str()), ("/n", "integer", "number"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// JSON Pointer of the field.
    pub path: String,
    /// The declared type, canonical text.
    pub expected: String,
    /// What the value is: `string`, `integer`, `number`, `boolean`, `null`,
    /// `object` or `array`.
    pub got: String,
}

/// How a value meets a declaration.
///
/// ```
/// use jsonmend_engine::{Schema, Value};
/// let s = Schema::parse("{!q:string,!n:integer}").unwrap();
/// let v = s.verdict(Some(&Value::parse(r#"{"q":1}"#).unwrap()));
/// assert_eq!((v.total, v.satisfied), (2, 0));
/// assert_eq!(v.missing, ["/n"]);
/// assert_eq!(v.mismatched[0].got, "integer");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SchemaVerdict {
    /// Required fields of the declared objects present in the value.
    pub total: usize,
    /// Of those, present and matching.
    pub satisfied: usize,
    /// Required fields absent, in declaration order.
    pub missing: Vec<String>,
    /// Present fields of the wrong type.
    pub mismatched: Vec<Mismatch>,
}

impl SchemaVerdict {
    /// Both lists are empty.
    ///
    /// ```
    /// use jsonmend_engine::{Schema, Value};
    /// let s = Schema::parse("{!a:string}").unwrap();
    /// assert!(s.verdict(Some(&Value::parse(r#"{"a":"x"}"#).unwrap())).ok());
    /// assert!(!s.verdict(None).ok());
    /// ```
    pub fn ok(&self) -> bool {
        self.missing.is_empty() && self.mismatched.is_empty()
    }

    /// The protocol object: `total`, `satisfied`, `missing`, `mismatched`, `ok`.
    ///
    /// ```
    /// use jsonmend_engine::{Schema, Value};
    /// let s = Schema::parse("{!q:string,!n:integer}").unwrap();
    /// let v = s.verdict(Some(&Value::parse(r#"{"q":1}"#).unwrap()));
    /// assert_eq!(
    ///     v.to_json(),
    ///     r#"{"total":2,"satisfied":0,"missing":["/n"],"mismatched":[{"path":"/q","expected":"string","got":"integer"}],"ok":false}"#
    /// );
    /// ```
    pub fn to_json(&self) -> String {
        let missing = array(self.missing.iter().map(|p| crate::json::quoted(p)));
        let mismatched = array(self.mismatched.iter().map(|m| {
            Obj::new()
                .str("path", &m.path)
                .str("expected", &m.expected)
                .str("got", &m.got)
                .end()
        }));
        Obj::new()
            .num("total", self.total)
            .num("satisfied", self.satisfied)
            .raw("missing", &missing)
            .raw("mismatched", &mismatched)
            .bool("ok", self.ok())
            .end()
    }
}

/// Whether `v` is of type `ty` (containers by JSON type only).
pub(crate) fn matches(ty: &Ty, v: &Value) -> bool {
    match (ty, v) {
        (Ty::Any, _) => true,
        (Ty::Str, Value::String(_)) => true,
        (Ty::Num, Value::Number(_)) => true,
        (Ty::Int, Value::Number(n)) => n.is_integral(),
        (Ty::Bool, Value::Bool(_)) => true,
        (Ty::Null, Value::Null) => true,
        (Ty::Object(_), Value::Object(_)) => true,
        (Ty::Array(_), Value::Array(_)) => true,
        (Ty::Lit(Lit::Str(a)), Value::String(b)) => a == b,
        (Ty::Lit(Lit::Num(_, a)), Value::Number(n)) => n.as_f64() == Some(*a),
        (Ty::Lit(Lit::Bool(a)), Value::Bool(b)) => a == b,
        (Ty::Union(alts), v) => alts.iter().any(|a| matches(a, v)),
        _ => false,
    }
}

/// The JSON type name used in `got`.
pub(crate) fn got(v: &Value) -> &'static str {
    v.type_name()
}

fn pointer(base: &str, token: &str) -> String {
    let mut p = String::from(base);
    crate::json::push_pointer_token(&mut p, token);
    p
}

impl Schema {
    /// The verdict for `value` (`None`: no value yet, every required root
    /// field missing).
    ///
    /// ```
    /// use jsonmend_engine::Schema;
    /// let v = Schema::parse("{!q:string,!n:integer}").unwrap().verdict(None);
    /// assert_eq!((v.total, v.missing.len()), (2, 2));
    /// ```
    pub fn verdict(&self, value: Option<&Value>) -> SchemaVerdict {
        let mut v = SchemaVerdict::default();
        match value {
            None => {
                if let Ty::Object(fields) = &self.root {
                    for f in fields.iter().filter(|f| f.required) {
                        v.total += 1;
                        v.missing.push(pointer("", &f.name));
                    }
                }
            }
            Some(value) => {
                if matches(&self.root, value) {
                    walk(&self.root, value, "", &mut v);
                } else {
                    v.mismatched.push(Mismatch {
                        path: String::new(),
                        expected: ty_text(&self.root),
                        got: got(value).into(),
                    });
                }
            }
        }
        v
    }
}

/// Descends into a value that matches `ty` (bounded by the declaration's
/// depth, at most 64).
fn walk(ty: &Ty, value: &Value, path: &str, v: &mut SchemaVerdict) {
    match (ty, value) {
        (Ty::Union(alts), value) => {
            if let Some(alt) = alts.iter().find(|a| matches(a, value)) {
                walk(alt, value, path, v);
            }
        }
        (Ty::Object(fields), Value::Object(_)) => {
            for f in fields {
                let p = pointer(path, &f.name);
                match value.get(&f.name) {
                    Some(member) if matches(&f.ty, member) => {
                        if f.required {
                            v.total += 1;
                            v.satisfied += 1;
                        }
                        walk(&f.ty, member, &p, v);
                    }
                    Some(member) => {
                        if f.required {
                            v.total += 1;
                        }
                        v.mismatched.push(Mismatch {
                            path: p,
                            expected: ty_text(&f.ty),
                            got: got(member).into(),
                        });
                    }
                    None => {
                        if f.required {
                            v.total += 1;
                            v.missing.push(p);
                        }
                    }
                }
            }
        }
        (Ty::Array(Some(item)), Value::Array(items)) => {
            for (i, e) in items.iter().enumerate() {
                let p = pointer(path, &alloc::format!("{i}"));
                if matches(item, e) {
                    walk(item, e, &p, v);
                } else {
                    v.mismatched.push(Mismatch {
                        path: p,
                        expected: ty_text(item),
                        got: got(e).into(),
                    });
                }
            }
        }
        _ => {}
    }
}

/// The pointers of satisfied required fields (the verdict's walk, keeping
/// the paths).
pub(crate) fn satisfied_paths(ty: &Ty, value: &Value, path: &str, out: &mut Vec<String>) {
    match (ty, value) {
        (Ty::Union(alts), value) => {
            if let Some(alt) = alts.iter().find(|a| matches(a, value)) {
                satisfied_paths(alt, value, path, out);
            }
        }
        (Ty::Object(fields), Value::Object(_)) => {
            for f in fields {
                if let Some(member) = value.get(&f.name) {
                    if matches(&f.ty, member) {
                        let p = pointer(path, &f.name);
                        satisfied_paths(&f.ty, member, &p, out);
                        if f.required {
                            out.push(p);
                        }
                    }
                }
            }
        }
        (Ty::Array(Some(item)), Value::Array(items)) => {
            for (i, e) in items.iter().enumerate() {
                if matches(item, e) {
                    let p = pointer(path, &alloc::format!("{i}"));
                    satisfied_paths(item, e, &p, out);
                }
            }
        }
        _ => {}
    }
}
