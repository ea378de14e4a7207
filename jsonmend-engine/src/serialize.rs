//! `to_json()` of the result types: exactly the protocol result objects, so
//! library, CLI and server cannot drift.

use alloc::string::String;
use core::borrow::BorrowMut;

use crate::error::Error;
use crate::json::write_str;
use crate::report::{Repair, Repaired};

/// An integer to write: sign and magnitude.
pub(crate) struct Int(bool, u64);

impl From<usize> for Int {
    fn from(v: usize) -> Int {
        Int(false, v as u64)
    }
}

impl From<u64> for Int {
    fn from(v: u64) -> Int {
        Int(false, v)
    }
}

impl From<u32> for Int {
    fn from(v: u32) -> Int {
        Int(false, u64::from(v))
    }
}

impl From<i32> for Int {
    fn from(v: i32) -> Int {
        Int(v < 0, u64::from(v.unsigned_abs()))
    }
}

/// Appends an integer in decimal without the formatting machinery: two
/// digits at a time, most significant first (no buffer to check as
/// UTF-8).
pub(crate) fn write_int(out: &mut String, Int(negative, mut v): Int) {
    if negative {
        out.push('-');
    }
    // The pairs below the top one, least significant first (a u64 has
    // at most ten pairs of digits).
    let mut low = [0u8; 10];
    let mut n = 0;
    while v >= 100 {
        if let Some(p) = low.get_mut(n) {
            *p = (v % 100) as u8;
        }
        v /= 100;
        n += 1;
    }
    // (A character at a time: a copy of one or two bytes costs more.)
    let digit = |d: u64| char::from(b'0' + (d % 10) as u8);
    if v >= 10 {
        out.push(digit(v / 10));
    }
    out.push(digit(v));
    for &p in low.get(..n).unwrap_or_default().iter().rev() {
        out.push(digit(u64::from(p) / 10));
        out.push(digit(u64::from(p)));
    }
}

/// A tiny JSON object writer, into its own `String` ([`Obj::new`]) or at
/// the end of a caller's ([`Obj::open`]), so that nested objects and long
/// arrays are written in place, not built apart and copied in.
pub(crate) struct Obj<S: BorrowMut<String> = String> {
    out: S,
    first: bool,
}

impl Obj {
    pub(crate) fn new() -> Obj {
        Obj::open(String::from("{"))
    }
}

impl<'o> Obj<&'o mut String> {
    /// An object written at the end of `out`.
    pub(crate) fn append_to(out: &'o mut String) -> Obj<&'o mut String> {
        out.push('{');
        Obj::open(out)
    }
}

impl<S: BorrowMut<String>> Obj<S> {
    fn open(out: S) -> Obj<S> {
        Obj { out, first: true }
    }

    /// Starts the member `k`: a name of this crate's protocol, written as
    /// it is (no name needs escaping).
    fn key(&mut self, k: &'static str) -> &mut String {
        debug_assert!(k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'));
        let out = self.out.borrow_mut();
        out.push_str(if self.first { "\"" } else { ",\"" });
        self.first = false;
        out.push_str(k);
        out.push_str("\":");
        out
    }

    pub(crate) fn str(mut self, k: &'static str, v: &str) -> Obj<S> {
        write_str(self.key(k), v);
        self
    }

    /// A member whose value is one of this crate's names (a kind, a rule
    /// code, a threshold or severity name), written as it is.
    pub(crate) fn name(mut self, k: &'static str, v: &'static str) -> Obj<S> {
        debug_assert!(v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'));
        let out = self.key(k);
        out.push('"');
        out.push_str(v);
        out.push('"');
        self
    }

    pub(crate) fn opt_str(mut self, k: &'static str, v: Option<&str>) -> Obj<S> {
        let out = self.key(k);
        match v {
            Some(v) => write_str(out, v),
            None => out.push_str("null"),
        }
        self
    }

    pub(crate) fn num(mut self, k: &'static str, v: impl Into<Int>) -> Obj<S> {
        write_int(self.key(k), v.into());
        self
    }

    pub(crate) fn opt_num(mut self, k: &'static str, v: Option<usize>) -> Obj<S> {
        let out = self.key(k);
        match v {
            Some(v) => write_int(out, v.into()),
            None => out.push_str("null"),
        }
        self
    }

    pub(crate) fn bool(mut self, k: &'static str, v: bool) -> Obj<S> {
        self.key(k).push_str(if v { "true" } else { "false" });
        self
    }

    /// A member whose value is already JSON text.
    pub(crate) fn raw(mut self, k: &'static str, json: &str) -> Obj<S> {
        self.key(k).push_str(json);
        self
    }

    /// A member whose value `write` appends.
    pub(crate) fn with(mut self, k: &'static str, write: impl FnOnce(&mut String)) -> Obj<S> {
        write(self.key(k));
        self
    }

    pub(crate) fn end(mut self) -> S {
        self.out.borrow_mut().push('}');
        self.out
    }
}

/// A JSON array of already-serialized items.
pub(crate) fn array<I: IntoIterator<Item = String>>(items: I) -> String {
    let mut out = String::new();
    array_into(&mut out, items, |out, item| out.push_str(&item));
    out
}

/// Appends a JSON array of `items`, each written by `write`.
pub(crate) fn array_into<T>(
    out: &mut String,
    items: impl IntoIterator<Item = T>,
    mut write: impl FnMut(&mut String, T),
) {
    out.push('[');
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write(out, item);
    }
    out.push(']');
}

impl Repair {
    /// The protocol repair object: `code`, `threshold`, `line`, `column`,
    /// `offset`, `severity`, `message`, `ambiguity`.
    ///
    /// ```
    /// let r = jsonmend_engine::repair_text("[1,]").unwrap();
    /// assert_eq!(
    ///     r.repairs[0].to_json(),
    ///     r#"{"code":"R040","threshold":"trailing_comma","line":1,"column":3,"offset":2,"severity":"low","message":"trailing comma; removed","ambiguity":null}"#
    /// );
    /// ```
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(200);
        self.write_json(&mut out);
        out
    }

    /// Appends the repair object to `out` (no intermediate strings).
    pub(crate) fn write_json(&self, out: &mut String) {
        out.push_str("{\"code\":\"");
        out.push_str(self.rule.code());
        out.push_str("\",\"threshold\":\"");
        out.push_str(self.rule.threshold());
        out.push_str("\",\"line\":");
        write_int(out, self.line.into());
        out.push_str(",\"column\":");
        write_int(out, self.column.into());
        out.push_str(",\"offset\":");
        write_int(out, self.offset.into());
        out.push_str(",\"severity\":\"");
        out.push_str(self.rule.severity().as_str());
        out.push_str("\",\"message\":");
        let mut message = String::with_capacity(64);
        self.write_message(&mut message);
        write_str(out, &message);
        out.push_str(",\"ambiguity\":");
        match self.rule.ambiguity() {
            Some(a) => {
                out.push('"');
                out.push_str(a);
                out.push('"');
            }
            None => out.push_str("null"),
        }
        out.push('}');
    }
}

impl Repaired<'_> {
    /// The `repairs` array as JSON text.
    ///
    /// ```
    /// let r = jsonmend_engine::repair_text("[1,]").unwrap();
    /// assert!(r.repairs_json().starts_with(r#"[{"code":"R040","#));
    /// ```
    pub fn repairs_json(&self) -> String {
        let mut out = String::with_capacity(2 + 180 * self.repairs.len());
        self.write_repairs(&mut out);
        out
    }

    /// Appends the `repairs` array.
    pub(crate) fn write_repairs(&self, out: &mut String) {
        out.reserve(2 + 180 * self.repairs.len());
        array_into(out, &self.repairs, |out, r| r.write_json(out));
    }

    /// The protocol `repair` result: `text`, `exactness`, `ambiguous`,
    /// `completeness`, `repairs`, `repairs_truncated`.
    ///
    /// ```
    /// let r = jsonmend_engine::repair_text("{\"a\":1}").unwrap();
    /// assert_eq!(
    ///     r.to_json(),
    ///     r#"{"text":"{\"a\":1}","exactness":"exact","ambiguous":false,"completeness":"complete","repairs":[],"repairs_truncated":false}"#
    /// );
    /// ```
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(self.text.len() + 128);
        self.members(Obj::append_to(&mut out)).end();
        out
    }

    /// Writes the `repair` result's members into `o` (left open for more).
    pub(crate) fn members<S: BorrowMut<String>>(&self, o: Obj<S>) -> Obj<S> {
        o.str("text", &self.text)
            .str("exactness", self.exactness.as_str())
            .bool("ambiguous", self.ambiguous)
            .str("completeness", self.completeness.as_str())
            .with("repairs", |out| self.write_repairs(out))
            .bool("repairs_truncated", self.repairs_truncated)
    }
}

impl Error {
    /// The protocol error object: `code`, `message`, `exit`, `offset`,
    /// `line`, `column`, `rule`, and `retry_hint` for the codes that have one.
    ///
    /// ```
    /// let e = jsonmend_engine::repair_text("   ").unwrap_err();
    /// assert_eq!(
    ///     e.to_json(),
    ///     r#"{"code":"E001","message":"empty input","exit":4,"offset":null,"line":null,"column":null,"rule":null,"retry_hint":"Your previous reply was not usable JSON: the reply was empty. Send the JSON value. Reply with only the corrected JSON."}"#
    /// );
    /// ```
    pub fn to_json(&self) -> String {
        let placed = self.offset.is_some();
        let mut o = Obj::new()
            .str("code", self.code.as_str())
            .str("message", &self.message)
            .num("exit", self.code.exit())
            .opt_num("offset", self.offset)
            .opt_num("line", placed.then_some(self.line))
            .opt_num("column", placed.then_some(self.column))
            .opt_str("rule", self.rule.map(|r| r.code()));
        if let Some(hint) = &self.retry_hint {
            o = o.str("retry_hint", hint);
        }
        o.end()
    }
}

#[cfg(test)]
mod tests {
    use super::{Int, write_int};
    use alloc::string::{String, ToString};

    /// Every number of digits, each side of every power of ten, and the
    /// extremes, as `Display` writes them.
    #[test]
    fn integers_are_written_as_display_writes_them() {
        let mut cases: alloc::vec::Vec<u64> = alloc::vec![0, 1, u64::MAX, u64::MAX - 1];
        let mut p = 1u64;
        while let Some(next) = p.checked_mul(10) {
            cases.extend([p - 1, p, p + 1, next / 2 + 7]);
            p = next;
        }
        cases.extend([p - 1, p, p + 1]);
        for v in cases {
            let mut out = String::new();
            write_int(&mut out, Int::from(v));
            assert_eq!(out, v.to_string());
        }
        for v in [i32::MIN, -1_000_000, -10, -9, -1, 0, 42, i32::MAX] {
            let mut out = String::from("x");
            write_int(&mut out, Int::from(v));
            assert_eq!(out, alloc::format!("x{v}"));
        }
    }
}
