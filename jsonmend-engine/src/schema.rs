//! Schema declarations (spec §9): the compact grammar, its canonical text,
//! and the types the verdict checks. Declarations are at most 64 levels
//! deep, so the walks over them are bounded.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{Error, ErrorCode};

/// A literal of an enum-like union.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Lit {
    Str(String),
    /// The JSON text and its value.
    Num(String, f64),
    Bool(bool),
}

/// A declared type.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Ty {
    Str,
    Int,
    Num,
    Bool,
    Null,
    Any,
    Object(Vec<Field>),
    Array(Option<Box<Ty>>),
    Lit(Lit),
    Union(Vec<Ty>),
}

/// A declared object member.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Field {
    pub(crate) name: String,
    pub(crate) required: bool,
    pub(crate) ty: Ty,
}

/// A parsed schema declaration.
///
/// ```
/// use jsonmend_engine::Schema;
/// let s = Schema::parse("{ !query: string, !limit: integer, mode: \"fast\" | \"slow\" | \"fast\" }").unwrap();
/// assert_eq!(s.canonical(), r#"{!query:string,!limit:integer,mode:"fast"|"slow"}"#);
/// assert!(Schema::parse("{!a:strin}").is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Schema {
    pub(crate) root: Ty,
    canonical: String,
}

const MAX_LEN: usize = 64 * 1024;
pub(crate) const MAX_DEPTH: usize = 64;
const MAX_FIELDS: usize = 4096;

pub(crate) fn invalid(detail: &str, column: usize) -> Error {
    Error::new(
        ErrorCode::E020,
        format!("invalid schema: {detail} at column {column}"),
    )
}

impl Schema {
    /// Parses the compact form (`{!query:string,!limit:integer}`); errors
    /// are `E020` with the column.
    ///
    /// ```
    /// use jsonmend_engine::{ErrorCode, Schema};
    /// assert!(Schema::parse("{!q:string}").is_ok());
    /// assert_eq!(Schema::parse("{!q:strin}").unwrap_err().code, ErrorCode::E020);
    /// ```
    pub fn parse(text: &str) -> Result<Schema, Error> {
        if text.len() > MAX_LEN {
            return Err(invalid("declaration longer than 64 KiB", 1));
        }
        let mut p = Compact {
            text,
            pos: 0,
            fields: 0,
        };
        let root = p.union(0)?;
        p.ws();
        if p.pos < text.len() {
            return Err(p.error("unexpected text"));
        }
        Ok(Schema::from_ty(root))
    }

    pub(crate) fn from_ty(root: Ty) -> Schema {
        let mut canonical = String::new();
        write_ty(&root, &mut canonical);
        Schema { root, canonical }
    }

    /// The canonical text: no whitespace, declaration order, bare names
    /// where the grammar allows, duplicate union members removed.
    ///
    /// ```
    /// let s = jsonmend_engine::Schema::parse("{ !q : string , n : integer|integer }").unwrap();
    /// assert_eq!(s.canonical(), "{!q:string,n:integer}");
    /// ```
    pub fn canonical(&self) -> &str {
        &self.canonical
    }
}

struct Compact<'a> {
    text: &'a str,
    pos: usize,
    fields: usize,
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

impl Compact<'_> {
    fn column(&self) -> usize {
        self.text
            .get(..self.pos)
            .map_or(1, |t| t.chars().count() + 1)
    }

    fn error(&self, detail: &str) -> Error {
        invalid(detail, self.column())
    }

    fn peek(&self) -> Option<char> {
        self.text.get(self.pos..).and_then(|t| t.chars().next())
    }

    fn ws(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() {
                self.pos += c.len_utf8();
            } else {
                break;
            }
        }
    }

    fn eat(&mut self, c: char) -> bool {
        self.ws();
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn union(&mut self, depth: usize) -> Result<Ty, Error> {
        if depth > MAX_DEPTH {
            return Err(self.error("nesting deeper than 64 levels"));
        }
        let mut alts = alloc::vec![self.alt(depth)?];
        while self.eat('|') {
            let alt = self.alt(depth)?;
            if !alts.contains(&alt) {
                alts.push(alt);
            }
        }
        Ok(if alts.len() == 1 {
            alts.pop().unwrap_or(Ty::Any)
        } else {
            Ty::Union(alts)
        })
    }

    fn ident(&mut self) -> Option<&str> {
        let start = self.pos;
        match self.peek() {
            Some(c) if is_ident_start(c) => {}
            _ => return None,
        }
        while let Some(c) = self.peek() {
            if is_ident(c) {
                self.pos += c.len_utf8();
            } else {
                break;
            }
        }
        self.text.get(start..self.pos)
    }

    /// A JSON string or number token at `pos`, parsed by the strict parser.
    fn json_token(&mut self, string: bool) -> Result<crate::Value, Error> {
        let rest = self.text.get(self.pos..).unwrap_or_default();
        let len = if string {
            let mut esc = false;
            let mut end = None;
            for (i, c) in rest.char_indices().skip(1) {
                if esc {
                    esc = false;
                } else if c == '\\' {
                    esc = true;
                } else if c == '"' {
                    end = Some(i + 1);
                    break;
                }
            }
            end.ok_or_else(|| self.error("unterminated string"))?
        } else {
            rest.find(|c: char| !(c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E')))
                .unwrap_or(rest.len())
        };
        let token = rest.get(..len).unwrap_or_default();
        let v = crate::Value::parse(token).map_err(|_| self.error("invalid literal"))?;
        self.pos += len;
        Ok(v)
    }

    fn alt(&mut self, depth: usize) -> Result<Ty, Error> {
        self.ws();
        match self.peek() {
            Some('{') => {
                self.pos += 1;
                let mut fields: Vec<Field> = Vec::new();
                if self.eat('}') {
                    return Ok(Ty::Object(fields));
                }
                loop {
                    self.ws();
                    let required = self.eat('!');
                    self.ws();
                    let name = match self.peek() {
                        Some('"') => match self.json_token(true)?.into_string() {
                            Some(s) => s,
                            None => return Err(self.error("invalid field name")),
                        },
                        _ => match self.ident() {
                            Some(n) => n.into(),
                            None => return Err(self.error("expected a field name")),
                        },
                    };
                    if !self.eat(':') {
                        return Err(self.error("expected ':'"));
                    }
                    let ty = self.union(depth + 1)?;
                    self.fields += 1;
                    if self.fields > MAX_FIELDS {
                        return Err(self.error("more than 4096 fields"));
                    }
                    fields.push(Field { name, required, ty });
                    if self.eat(',') {
                        continue;
                    }
                    if self.eat('}') {
                        return Ok(Ty::Object(fields));
                    }
                    return Err(self.error("expected ',' or '}'"));
                }
            }
            Some('[') => {
                self.pos += 1;
                if self.eat(']') {
                    return Ok(Ty::Array(None));
                }
                let item = self.union(depth + 1)?;
                if !self.eat(']') {
                    return Err(self.error("expected ']'"));
                }
                Ok(Ty::Array(Some(Box::new(item))))
            }
            Some('"') => match self.json_token(true)?.into_string() {
                Some(s) => Ok(Ty::Lit(Lit::Str(s))),
                None => Err(self.error("invalid literal")),
            },
            Some(c) if c == '-' || c.is_ascii_digit() => {
                match self.json_token(false)?.as_number() {
                    Some(n) => {
                        let f = n.as_f64().unwrap_or(0.0);
                        Ok(Ty::Lit(Lit::Num(n.as_str().into(), f)))
                    }
                    None => Err(self.error("invalid literal")),
                }
            }
            _ => {
                let at = self.pos;
                let word = self.ident().map(String::from);
                match word.as_deref() {
                    Some("string") => Ok(Ty::Str),
                    Some("integer") => Ok(Ty::Int),
                    Some("number") => Ok(Ty::Num),
                    Some("boolean") => Ok(Ty::Bool),
                    Some("null") => Ok(Ty::Null),
                    Some("any") => Ok(Ty::Any),
                    Some("true") => Ok(Ty::Lit(Lit::Bool(true))),
                    Some("false") => Ok(Ty::Lit(Lit::Bool(false))),
                    Some(w) => {
                        self.pos = at;
                        Err(self.error(&format!("unknown type {}", crate::json::quoted(w))))
                    }
                    None => Err(self.error("expected a type")),
                }
            }
        }
    }
}

fn write_name(name: &str, out: &mut String) {
    let mut chars = name.chars();
    let bare = chars.next().is_some_and(is_ident_start) && chars.all(is_ident);
    let reserved = false;
    if bare && !reserved {
        out.push_str(name);
    } else {
        crate::json::write_str(out, name);
    }
}

/// Appends the canonical text of `ty`.
pub(crate) fn write_ty(ty: &Ty, out: &mut String) {
    match ty {
        Ty::Str => out.push_str("string"),
        Ty::Int => out.push_str("integer"),
        Ty::Num => out.push_str("number"),
        Ty::Bool => out.push_str("boolean"),
        Ty::Null => out.push_str("null"),
        Ty::Any => out.push_str("any"),
        Ty::Lit(Lit::Str(s)) => crate::json::write_str(out, s),
        Ty::Lit(Lit::Num(t, _)) => out.push_str(t),
        Ty::Lit(Lit::Bool(b)) => out.push_str(if *b { "true" } else { "false" }),
        Ty::Array(None) => out.push_str("[]"),
        Ty::Array(Some(item)) => {
            out.push('[');
            write_ty(item, out);
            out.push(']');
        }
        Ty::Object(fields) => {
            out.push('{');
            for (i, f) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if f.required {
                    out.push('!');
                }
                write_name(&f.name, out);
                out.push(':');
                write_ty(&f.ty, out);
            }
            out.push('}');
        }
        Ty::Union(alts) => {
            for (i, a) in alts.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                write_ty(a, out);
            }
        }
    }
}

/// The canonical text of one type.
pub(crate) fn ty_text(ty: &Ty) -> String {
    let mut s = String::new();
    write_ty(ty, &mut s);
    s
}
