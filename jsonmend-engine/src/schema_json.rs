//! The `schema_json` subset (spec §9.2): a JSON Schema converted to the
//! compact form.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::Error;
use crate::schema::{Field, Lit, MAX_DEPTH, Schema, Ty, invalid};
use crate::value::Value;

/// Keywords accepted and not enforced.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "default",
    "format",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "multipleOf",
    "additionalProperties",
    "$schema",
    "strict",
    "$id",
    "$comment",
    "examples",
    "uniqueItems",
    "deprecated",
    "readOnly",
    "writeOnly",
    "nullable",
    "$defs",
    "definitions",
    "contentMediaType",
    "contentEncoding",
];

impl Schema {
    /// Converts a JSON Schema (an object, or a string holding one) to a
    /// declaration. Unsupported keywords are `E020` naming them.
    ///
    /// ```
    /// use jsonmend_engine::Schema;
    /// let s = Schema::from_json_schema(r#"{"type":"object","properties":{"q":{"type":"string"},"n":{"type":"integer"}},"required":["q"]}"#).unwrap();
    /// assert_eq!(s.canonical(), "{!q:string,n:integer}");
    /// assert!(Schema::from_json_schema(r#"{"not":{}}"#).is_err());
    /// ```
    pub fn from_json_schema(text: &str) -> Result<Schema, Error> {
        let v = Value::parse(text).map_err(|e| invalid("not valid JSON", e.offset + 1))?;
        let v = match v.as_str() {
            Some(inner) => {
                Value::parse(inner).map_err(|e| invalid("not valid JSON", e.offset + 1))?
            }
            None => v,
        };
        let mut cx = Convert {
            root: &v,
            refs: Vec::new(),
        };
        let ty = cx.ty(&v, 0)?;
        Ok(Schema::from_ty(ty))
    }
}

struct Convert<'a> {
    root: &'a Value,
    refs: Vec<String>,
}

fn lit(v: &Value) -> Result<Ty, Error> {
    Ok(match v {
        Value::String(s) => Ty::Lit(Lit::Str(s.clone())),
        Value::Number(n) => Ty::Lit(Lit::Num(n.as_str().into(), n.as_f64().unwrap_or(0.0))),
        Value::Bool(b) => Ty::Lit(Lit::Bool(*b)),
        Value::Null => Ty::Null,
        _ => return Err(invalid("enum and const take scalars", 1)),
    })
}

fn union(mut alts: Vec<Ty>) -> Ty {
    let mut out: Vec<Ty> = Vec::new();
    for a in alts.drain(..) {
        let parts = match a {
            Ty::Union(inner) => inner,
            other => alloc::vec![other],
        };
        for p in parts {
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    if out.len() == 1 {
        out.pop().unwrap_or(Ty::Any)
    } else {
        Ty::Union(out)
    }
}

impl<'a> Convert<'a> {
    fn ty(&mut self, v: &'a Value, depth: usize) -> Result<Ty, Error> {
        if depth > MAX_DEPTH {
            return Err(invalid("nesting deeper than 64 levels", 1));
        }
        let pairs = match v {
            Value::Bool(true) => return Ok(Ty::Any),
            Value::Object(p) => p,
            _ => return Err(invalid("a schema must be an object or true", 1)),
        };
        if pairs.is_empty() {
            return Ok(Ty::Any);
        }
        for (k, _) in pairs {
            let known = matches!(
                k.as_str(),
                "type"
                    | "properties"
                    | "required"
                    | "items"
                    | "enum"
                    | "const"
                    | "anyOf"
                    | "oneOf"
                    | "allOf"
                    | "$ref"
            );
            if !known && !ANNOTATIONS.contains(&k.as_str()) {
                return Err(invalid(
                    &format!("unsupported keyword {}", crate::json::quoted(k)),
                    1,
                ));
            }
        }
        if let Some(Value::String(r)) = v.get("$ref") {
            return self.reference(r, depth);
        }
        if let Some(c) = v.get("const") {
            return lit(c);
        }
        if let Some(Value::Array(items)) = v.get("enum") {
            return Ok(union(items.iter().map(lit).collect::<Result<_, _>>()?));
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(items)) = v.get(key) {
                let alts = items
                    .iter()
                    .map(|s| self.ty(s, depth + 1))
                    .collect::<Result<Vec<_>, _>>()?;
                return Ok(union(alts));
            }
        }
        if let Some(Value::Array(items)) = v.get("allOf") {
            let mut fields: Vec<Field> = Vec::new();
            for s in items {
                match self.ty(s, depth + 1)? {
                    Ty::Object(f) => {
                        for field in f {
                            match fields.iter_mut().find(|x| x.name == field.name) {
                                Some(x) => x.required |= field.required,
                                None => fields.push(field),
                            }
                        }
                    }
                    Ty::Any => {}
                    _ => return Err(invalid("allOf of non-objects", 1)),
                }
            }
            return Ok(Ty::Object(fields));
        }
        let types: Vec<&str> = match v.get("type") {
            Some(Value::String(t)) => alloc::vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            Some(_) => return Err(invalid("invalid type", 1)),
            None if v.get("properties").is_some() || v.get("required").is_some() => {
                alloc::vec!["object"]
            }
            None if v.get("items").is_some() => alloc::vec!["array"],
            None => return Ok(Ty::Any),
        };
        let mut alts = Vec::new();
        for t in types {
            alts.push(match t {
                "string" => Ty::Str,
                "integer" => Ty::Int,
                "number" => Ty::Num,
                "boolean" => Ty::Bool,
                "null" => Ty::Null,
                "object" => self.object(v, depth)?,
                "array" => match v.get("items") {
                    Some(items) => Ty::Array(Some(Box::new(self.ty(items, depth + 1)?))),
                    None => Ty::Array(Some(Box::new(Ty::Any))),
                },
                other => {
                    return Err(invalid(
                        &format!("unknown type {}", crate::json::quoted(other)),
                        1,
                    ));
                }
            });
        }
        Ok(union(alts))
    }

    fn object(&mut self, v: &'a Value, depth: usize) -> Result<Ty, Error> {
        let required: Vec<&str> = match v.get("required") {
            Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let mut fields = Vec::new();
        if let Some(Value::Object(props)) = v.get("properties") {
            for (name, s) in props {
                fields.push(Field {
                    name: name.clone(),
                    required: required.contains(&name.as_str()),
                    ty: self.ty(s, depth + 1)?,
                });
            }
        }
        for r in required {
            if !fields.iter().any(|f| f.name == r) {
                fields.push(Field {
                    name: r.into(),
                    required: true,
                    ty: Ty::Any,
                });
            }
        }
        Ok(Ty::Object(fields))
    }

    fn reference(&mut self, r: &str, depth: usize) -> Result<Ty, Error> {
        let name = r
            .strip_prefix("#/$defs/")
            .map(|n| ("$defs", n))
            .or_else(|| r.strip_prefix("#/definitions/").map(|n| ("definitions", n)));
        let Some((section, name)) = name else {
            return Err(invalid(
                &format!("unsupported $ref {}", crate::json::quoted(r)),
                1,
            ));
        };
        if self.refs.iter().any(|x| x == r) {
            return Err(invalid(
                &format!("recursive $ref {}", crate::json::quoted(r)),
                1,
            ));
        }
        let root = self.root;
        let target = root
            .get(section)
            .and_then(|d| d.get(name))
            .ok_or_else(|| invalid(&format!("unresolved $ref {}", crate::json::quoted(r)), 1))?;
        self.refs.push(r.into());
        let ty = self.ty(target, depth + 1);
        self.refs.pop();
        ty
    }
}
