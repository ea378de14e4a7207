//! The repaired value (spec §2.4): numbers keep their decimal text, objects
//! keep order and duplicate keys. Parsing, serialization, equality and drop
//! are iterative, so any nesting depth is safe for the stack.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// A JSON number, kept as its decimal text (big integers never rounded).
///
/// ```
/// let v = jsonmend_engine::Value::parse("[1.50, 18446744073709551616]").unwrap();
/// assert_eq!(v.to_json(), "[1.50,18446744073709551616]");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Number(String);

impl Number {
    /// The number's JSON text.
    ///
    /// ```
    /// let v = jsonmend_engine::Value::parse("12345678901234567890").unwrap();
    /// assert_eq!(v.as_number().unwrap().as_str(), "12345678901234567890");
    /// ```
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The number as `f64` (rounded).
    ///
    /// ```
    /// let v = jsonmend_engine::Value::parse("0.1").unwrap();
    /// assert_eq!(v.as_number().and_then(|n| n.as_f64()), Some(0.1));
    /// ```
    pub fn as_f64(&self) -> Option<f64> {
        self.0.parse().ok()
    }

    /// The number as `i64`, if it is an integer written without fraction or
    /// exponent that fits.
    ///
    /// ```
    /// use jsonmend_engine::Value;
    /// assert_eq!(Value::parse("-7").unwrap().as_number().and_then(|n| n.as_i64()), Some(-7));
    /// assert_eq!(Value::parse("7.0").unwrap().as_number().and_then(|n| n.as_i64()), None);
    /// ```
    pub fn as_i64(&self) -> Option<i64> {
        self.0.parse().ok()
    }

    /// The number as `u64`, as [`Number::as_i64`].
    ///
    /// ```
    /// use jsonmend_engine::Value;
    /// assert_eq!(Value::parse("18446744073709551615").unwrap().as_number().and_then(|n| n.as_u64()), Some(u64::MAX));
    /// ```
    pub fn as_u64(&self) -> Option<u64> {
        self.0.parse().ok()
    }

    /// Whether the value is integral (`10`, `1.0`, `1e2`).
    ///
    /// ```
    /// let v = jsonmend_engine::Value::parse("1e2").unwrap();
    /// assert!(v.as_number().unwrap().is_integral());
    /// ```
    pub fn is_integral(&self) -> bool {
        let t = self.0.trim_start_matches('-');
        let (mantissa, exp) = match t.split_once(['e', 'E']) {
            Some((m, e)) => (m, e.parse::<i64>().unwrap_or(0)),
            None => (t, 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        // The decimal point moves `exp` places; every digit after it must be 0.
        let point = (int.len() as i64).saturating_add(exp);
        int.bytes()
            .chain(frac.bytes())
            .enumerate()
            .all(|(i, d)| (i as i64) < point || d == b'0')
    }

    pub(crate) fn from_text(text: &str) -> Number {
        Number(text.into())
    }
}

/// A JSON value as the engine returns it.
///
/// ```
/// use jsonmend_engine::Value;
/// let v = jsonmend_engine::repair_text("{a: [true, null]}").unwrap().value();
/// let Value::Object(members) = &v else { panic!() };
/// assert_eq!(members[0].0, "a");
/// assert_eq!(members[0].1, Value::Array(vec![Value::Bool(true), Value::Null]));
/// ```
#[derive(Clone, Debug, Default)]
pub enum Value {
    /// `null`.
    #[default]
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number with its decimal text.
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object: ordered pairs, duplicates kept.
    Object(Vec<(String, Value)>),
}

/// Why a text is not strict JSON.
///
/// ```
/// let e = jsonmend_engine::Value::parse("[1, 2,]").unwrap_err();
/// assert_eq!(e.offset, 6);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Byte offset of the first deviation.
    pub offset: usize,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not strict JSON at byte {}", self.offset)
    }
}

impl core::error::Error for ParseError {}

impl Drop for Value {
    fn drop(&mut self) {
        let mut stack: Vec<Value> = Vec::new();
        match self {
            Value::Array(items) if !items.is_empty() => stack.append(items),
            Value::Object(pairs) if !pairs.is_empty() => {
                stack.extend(core::mem::take(pairs).into_iter().map(|(_, v)| v));
            }
            _ => return,
        }
        while let Some(mut v) = stack.pop() {
            match &mut v {
                Value::Array(items) => stack.append(items),
                Value::Object(pairs) => {
                    stack.extend(core::mem::take(pairs).into_iter().map(|(_, v)| v));
                }
                _ => {}
            }
        }
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        let mut stack = alloc::vec![(self, other)];
        while let Some((a, b)) = stack.pop() {
            match (a, b) {
                (Value::Null, Value::Null) => {}
                (Value::Bool(x), Value::Bool(y)) if x == y => {}
                (Value::Number(x), Value::Number(y)) if x == y => {}
                (Value::String(x), Value::String(y)) if x == y => {}
                (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                    stack.extend(x.iter().zip(y));
                }
                (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
                    for ((kx, vx), (ky, vy)) in x.iter().zip(y) {
                        if kx != ky {
                            return false;
                        }
                        stack.push((vx, vy));
                    }
                }
                _ => return false,
            }
        }
        true
    }
}

impl Value {
    /// Parses strict JSON (RFC 8259, no lone surrogate escapes), iteratively.
    ///
    /// ```
    /// use jsonmend_engine::Value;
    /// let v = Value::parse(r#"{"a": [1, "x"], "a": null}"#).unwrap();
    /// assert_eq!(v.to_json(), r#"{"a":[1,"x"],"a":null}"#);
    /// assert!(Value::parse("{a:1}").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Value, ParseError> {
        crate::value_parse::parse(text)
    }

    /// The compact JSON text: no whitespace, order and duplicates kept,
    /// minimal escaping (U+2028/U+2029 escaped so the text is one line in
    /// every reader).
    ///
    /// ```
    /// let v = jsonmend_engine::Value::parse("{ \"a\" : \"x\\u2028y\" }").unwrap();
    /// assert_eq!(v.to_json(), "{\"a\":\"x\\u2028y\"}");
    /// ```
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }

    /// Appends the compact JSON text to `out`.
    ///
    /// ```
    /// let mut out = String::from("value: ");
    /// jsonmend_engine::Value::parse("[ 1 ]").unwrap().write_json(&mut out);
    /// assert_eq!(out, "value: [1]");
    /// ```
    pub fn write_json(&self, out: &mut String) {
        enum Step<'a> {
            Value(&'a Value),
            Text(&'static str),
            Key(&'a str),
        }
        let mut stack = alloc::vec![Step::Value(self)];
        while let Some(step) = stack.pop() {
            match step {
                Step::Text(t) => out.push_str(t),
                Step::Key(k) => {
                    crate::json::write_str(out, k);
                    out.push(':');
                }
                Step::Value(v) => match v {
                    Value::Null => out.push_str("null"),
                    Value::Bool(true) => out.push_str("true"),
                    Value::Bool(false) => out.push_str("false"),
                    Value::Number(n) => out.push_str(n.as_str()),
                    Value::String(s) => crate::json::write_str(out, s),
                    Value::Array(items) => {
                        out.push('[');
                        stack.push(Step::Text("]"));
                        for (i, item) in items.iter().enumerate().rev() {
                            stack.push(Step::Value(item));
                            if i > 0 {
                                stack.push(Step::Text(","));
                            }
                        }
                    }
                    Value::Object(pairs) => {
                        out.push('{');
                        stack.push(Step::Text("}"));
                        for (i, (k, v)) in pairs.iter().enumerate().rev() {
                            stack.push(Step::Value(v));
                            stack.push(Step::Key(k));
                            if i > 0 {
                                stack.push(Step::Text(","));
                            }
                        }
                    }
                },
            }
        }
    }

    /// The JSON type name: `null`, `boolean`, `integer` (integral numbers),
    /// `number`, `string`, `array`, `object`.
    ///
    /// ```
    /// use jsonmend_engine::Value;
    /// assert_eq!(Value::parse("2.0").unwrap().type_name(), "integer");
    /// assert_eq!(Value::parse("2.5").unwrap().type_name(), "number");
    /// ```
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(n) if n.is_integral() => "integer",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }

    /// The value of the last member named `key` of an object.
    ///
    /// ```
    /// let v = jsonmend_engine::Value::parse(r#"{"a":1,"a":2}"#).unwrap();
    /// assert_eq!(v.get("a").unwrap().to_json(), "2");
    /// ```
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(pairs) => pairs.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, taken out, if this is one.
    ///
    /// ```
    /// let v = jsonmend_engine::Value::parse(r#""hi""#).unwrap();
    /// assert_eq!(v.into_string().as_deref(), Some("hi"));
    /// ```
    pub fn into_string(mut self) -> Option<String> {
        match &mut self {
            Value::String(s) => Some(core::mem::take(s)),
            _ => None,
        }
    }

    /// The string, if this is one.
    ///
    /// ```
    /// use jsonmend_engine::Value;
    /// assert_eq!(Value::parse(r#""hi""#).unwrap().as_str(), Some("hi"));
    /// assert_eq!(Value::parse("1").unwrap().as_str(), None);
    /// ```
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The number, if this is one.
    ///
    /// ```
    /// let v = jsonmend_engine::Value::parse("1e3").unwrap();
    /// assert_eq!(v.as_number().map(|n| n.as_str()), Some("1e3"));
    /// ```
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The boolean, if this is one.
    ///
    /// ```
    /// assert_eq!(jsonmend_engine::Value::parse("false").unwrap().as_bool(), Some(false));
    /// ```
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
}
