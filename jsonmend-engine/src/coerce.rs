//! Schema-guided repair (spec §9.4): under `lenient`, a declaration changes
//! values by coercion only — R090 number text, R091 boolean text, R092 a
//! scalar where a string is declared, R093 embedded JSON of a declared
//! container type. The text is spliced, so everything else stays as it was.

use alloc::string::String;
use alloc::vec::Vec;

use crate::engine::{Detail, RawRepair};
use crate::rules::Rule;
use crate::schema::{Lit, Ty};
use crate::value::Value;
use crate::verdict::matches;

/// One planned change: the node, its new JSON text, the rule, the token.
struct Change {
    node: *const Value,
    json: String,
    rule: Rule,
    token: String,
}

/// The coercion of `v` towards `ty`, if one applies and then matches.
pub(crate) fn coerce_one(ty: &Ty, v: &Value) -> Option<(String, Rule, String)> {
    if matches(ty, v) {
        return None;
    }
    let wants = |pred: &dyn Fn(&Ty) -> bool| match ty {
        Ty::Union(alts) => alts.iter().any(pred),
        t => pred(t),
    };
    match v {
        Value::String(s) => {
            let t = s.trim();
            if wants(&|t: &Ty| matches!(t, Ty::Num | Ty::Int | Ty::Lit(Lit::Num(..))))
                && crate::engine::is_json_number(t.as_bytes())
            {
                let n = Value::parse(t).ok()?;
                if matches(ty, &n) {
                    return Some((String::from(t), Rule::CoerceNumber, s.clone()));
                }
            }
            if wants(&|t: &Ty| matches!(t, Ty::Bool | Ty::Lit(Lit::Bool(_)))) {
                let b = if t.eq_ignore_ascii_case("true") {
                    Some("true")
                } else if t.eq_ignore_ascii_case("false") {
                    Some("false")
                } else {
                    None
                };
                if let Some(b) = b {
                    return Some((b.into(), Rule::CoerceBoolean, s.clone()));
                }
            }
            if wants(&|t: &Ty| matches!(t, Ty::Object(_) | Ty::Array(_))) {
                if let Ok(inner) = Value::parse(s) {
                    if matches!(inner, Value::Object(_) | Value::Array(_)) && matches(ty, &inner) {
                        return Some((inner.to_json(), Rule::DecodeEmbedded, s.clone()));
                    }
                }
            }
            None
        }
        Value::Number(n) if wants(&|t: &Ty| matches!(t, Ty::Str)) => Some((
            crate::json::quoted(n.as_str()),
            Rule::CoerceString,
            n.as_str().into(),
        )),
        Value::Bool(b) if wants(&|t: &Ty| matches!(t, Ty::Str)) => {
            let t = if *b { "true" } else { "false" };
            Some((crate::json::quoted(t), Rule::CoerceString, t.into()))
        }
        _ => None,
    }
}

/// Walks a value under its declared type (bounded by the declaration's
/// depth) and plans the coercions.
fn plan(ty: &Ty, v: &Value, out: &mut Vec<Change>) {
    if let Some((json, rule, token)) = coerce_one(ty, v) {
        out.push(Change {
            node: v,
            json,
            rule,
            token,
        });
        return;
    }
    match (ty, v) {
        (Ty::Union(alts), v) => {
            if let Some(alt) = alts.iter().find(|a| matches(a, v)) {
                plan(alt, v, out);
            }
        }
        (Ty::Object(fields), Value::Object(pairs)) => {
            for f in fields {
                if let Some((_, member)) = pairs.iter().rev().find(|(k, _)| *k == f.name) {
                    plan(&f.ty, member, out);
                }
            }
        }
        (Ty::Array(Some(item)), Value::Array(items)) => {
            for e in items {
                plan(item, e, out);
            }
        }
        _ => {}
    }
}

/// Applies the coercions of `root` to `text`; returns the new text and the
/// repairs (offsets into `input` when the text is the input, else found by
/// the token's text), or `None` when nothing changes.
pub(crate) fn apply(root: &Ty, text: &str, input: &[u8]) -> Option<(String, Vec<RawRepair>)> {
    let (value, spans) = crate::value_parse::parse_with_spans(text).ok()?;
    let mut changes = Vec::new();
    plan(root, &value, &mut changes);
    if changes.is_empty() {
        return None;
    }
    // Pre-order node list, matching the span order.
    let mut order: Vec<*const Value> = Vec::with_capacity(spans.len());
    let mut stack: Vec<&Value> = alloc::vec![&value];
    while let Some(v) = stack.pop() {
        order.push(v);
        match v {
            Value::Array(items) => stack.extend(items.iter().rev()),
            Value::Object(pairs) => stack.extend(pairs.iter().rev().map(|(_, v)| v)),
            _ => {}
        }
    }
    let mut index: Vec<(usize, usize)> = order
        .iter()
        .enumerate()
        .map(|(i, &p)| (p as usize, i))
        .collect();
    index.sort_unstable();
    let mut placed: Vec<((usize, usize), Change)> = changes
        .into_iter()
        .filter_map(|c| {
            let key = c.node as usize;
            let at = index.binary_search_by_key(&key, |&(p, _)| p).ok()?;
            let i = index.get(at)?.1;
            Some((*spans.get(i)?, c))
        })
        .collect();
    placed.sort_by_key(|(span, _)| span.0);
    let exact = text.as_bytes() == input;
    let mut out = String::with_capacity(text.len() + 16);
    let mut repairs = Vec::new();
    let mut from = 0;
    let mut search = 0;
    for ((start, end), c) in placed {
        out.push_str(text.get(from..start).unwrap_or_default());
        out.push_str(&c.json);
        from = end;
        let offset = if exact {
            start
        } else {
            let hay = input.get(search..).unwrap_or_default();
            let needle = c.token.as_bytes();
            hay.windows(needle.len().max(1))
                .position(|w| w == needle)
                .map_or(search, |p| search + p)
        };
        search = offset;
        repairs.push(RawRepair {
            rule: c.rule,
            offset,
            detail: Detail::Owned(c.token),
        });
    }
    out.push_str(text.get(from..).unwrap_or_default());
    Some((out, repairs))
}
