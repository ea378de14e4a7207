//! The tool transforms (spec §8): reshaping before the schema encoder and
//! after the schema decoder.

pub(crate) mod dependency_cycles;
pub(crate) mod file_outline;
pub(crate) mod find_references;
pub(crate) mod flat_rows;
mod search_ast;
pub(crate) mod search_text;
mod tectonic_map;

use alloc::string::String;
use serde_json::{Map, Value};

use crate::decode::{Budget, DecodeOptions};
use crate::encode::Fail;
use crate::tier1::schema::Transform;
use crate::value::{Kind, kind};
use flat_rows::FlatRows;

/// A reshaped response: its members, whether it is fo1's batch shape, and
/// (st4, fr2) the rows it was flattened into, kept apart as cells that
/// borrow the response's values (their table's member holds no row);
/// `None` when the tool encodes its response as it is.
pub(crate) type Reshaped<'v> = Option<(Map<String, Value>, bool, Option<FlatRows<'v>>)>;

/// Runs the tool's transform before the schema encoder.
pub(crate) fn encode(t: Transform, response: &Map<String, Value>) -> Result<Reshaped<'_>, Fail> {
    Ok(match t {
        Transform::None | Transform::TectonicMap => None,
        Transform::FindReferences => {
            find_references::encode(response)?.map(|(m, rows)| (m, false, Some(rows)))
        }
        Transform::SearchText => {
            let (m, rows) = search_text::encode(response)?;
            Some((m, false, Some(rows)))
        }
        Transform::SearchAst => Some((search_ast::encode(response)?, false, None)),
        Transform::FileOutline => file_outline::encode_batch(response)?.map(|m| (m, true, None)),
        Transform::DependencyCycles => Some((dependency_cycles::encode(response)?, false, None)),
    })
}

/// The table of a reshaped response whose rows the transform flattened
/// apart, cells in the table's column order (no keys to hash and match:
/// [`FlatRows`]); the decoder reads them back as lists of cells.
pub(crate) fn positional_rows(t: Transform) -> Option<&'static str> {
    match t {
        Transform::SearchText => Some(crate::tier1::schemas::st4::ROWS_KEY),
        Transform::FindReferences => Some(crate::tier1::schemas::fr2::ROWS_KEY),
        _ => None,
    }
}

/// What Python's `for x in (v or [])` walks: a list's items; nothing for
/// null, a string or a dict (their characters and keys are never rows);
/// a number or `true` is not iterable and raises.
pub(crate) fn py_iter(v: Option<&Value>) -> Result<&[Value], Fail> {
    let Some(v) = v else {
        return Ok(&[]);
    };
    match kind(v) {
        Kind::List(items) => Ok(items),
        Kind::Null | Kind::Str(_) | Kind::Dict(_) | Kind::Bool(false) => Ok(&[]),
        Kind::Int(n) if n.as_u64() == Some(0) => Ok(&[]),
        Kind::Float(f) => {
            if f == 0.0 {
                Ok(&[])
            } else {
                Err(Fail::new("value is not iterable"))
            }
        }
        _ => Err(Fail::new("value is not iterable")),
    }
}

/// The values of `keys` in `m` (`None` for a key it lacks), found in one
/// pass over its members: no key is hashed (a match object has a handful
/// of members; `serde_json`'s map hashes with SipHash).
pub(crate) fn pick<'m, const N: usize>(
    m: &'m Map<String, Value>,
    keys: [&str; N],
) -> [Option<&'m Value>; N] {
    let mut out = [None; N];
    for (k, v) in m {
        if let Some(slot) = keys
            .iter()
            .position(|w| *w == k)
            .and_then(|i| out.get_mut(i))
        {
            *slot = Some(v);
        }
    }
    out
}

/// The response without `key`, in order.
pub(crate) fn without(response: &Map<String, Value>, key: &str) -> Map<String, Value> {
    response
        .iter()
        .filter(|(k, _)| k.as_str() != key)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// Runs the inverse transform on a decoded tier-1 object.
pub(crate) fn decode(
    t: Transform,
    batch: bool,
    result: &mut Map<String, Value>,
    opts: &DecodeOptions,
    budget: &mut Budget,
) {
    match t {
        Transform::None => {}
        Transform::FindReferences => find_references::decode(result),
        Transform::SearchText => search_text::decode(result, opts),
        Transform::SearchAst => search_ast::decode(result, opts),
        Transform::FileOutline => {
            if batch {
                file_outline::decode_batch(result, budget);
            }
        }
        Transform::DependencyCycles => dependency_cycles::decode(result),
        Transform::TectonicMap => tectonic_map::decode(result),
    }
}

/// Matches grouped by file in first-seen order (fr2's and st4's
/// regrouping), rendered as `[{file, matches}]`.
#[derive(Default)]
pub(crate) struct FileGroups {
    groups: alloc::vec::Vec<(String, alloc::vec::Vec<Value>)>,
    index: alloc::collections::BTreeMap<String, usize>,
}

impl FileGroups {
    /// Creates the (empty) group of `file` on first sight.
    pub(crate) fn touch(&mut self, file: &str) -> usize {
        let groups = &mut self.groups;
        *self.index.entry(file.into()).or_insert_with(|| {
            groups.push((file.into(), alloc::vec::Vec::new()));
            groups.len() - 1
        })
    }

    /// Adds one match to the group of `file`. A row of the file of the
    /// row before it (flattened groups come a file at a time) is added
    /// without a lookup.
    pub(crate) fn push(&mut self, file: &str, m: Value) {
        if let Some((last, matches)) = self.groups.last_mut() {
            if last == file {
                matches.push(m);
                return;
            }
        }
        let i = self.touch(file);
        if let Some(g) = self.groups.get_mut(i) {
            g.1.push(m);
        }
    }

    /// `[{file, matches}]` in first-seen order.
    pub(crate) fn into_value(self) -> Value {
        let list = self
            .groups
            .into_iter()
            .map(|(file, matches)| {
                let mut g = Map::new();
                g.insert("file".into(), Value::String(file));
                g.insert("matches".into(), Value::Array(matches));
                Value::Object(g)
            })
            .collect();
        Value::Array(list)
    }
}

/// Whether the regrouping of `groups`' flattening (fr2's, st4's) rebuilds
/// them exactly, up to key order, whatever the cells read back as: a
/// list of `{file, matches}` objects, each file a string no other group
/// has (two groups of one file are merged), each list of matches
/// non-empty and each match an object `each_match` accepts. With
/// `empty_first` (fr2, which keeps the files without matches apart and
/// regroups them first), groups whose matches are `[]` may come before
/// all the others.
pub(crate) fn regroups_groups(
    groups: Option<&Value>,
    empty_first: bool,
    each_match: impl Fn(&Map<String, Value>) -> bool,
) -> bool {
    let Some(Value::Array(groups)) = groups else {
        return false;
    };
    let mut files = hashbrown::HashSet::with_capacity(groups.len());
    // Still among the leading groups without matches.
    let mut leading = empty_first;
    groups.iter().all(|group| {
        let Value::Object(g) = group else {
            return false;
        };
        let [Some(Value::String(file)), Some(Value::Array(matches))] = pick(g, ["file", "matches"])
        else {
            return false;
        };
        leading &= matches.is_empty();
        g.len() == 2
            && (leading || !matches.is_empty())
            && files.insert(file.as_str())
            && matches
                .iter()
                .all(|m| matches!(m, Value::Object(m) if each_match(m)))
    })
}

/// Python truthiness.
pub(crate) fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(m) => !m.is_empty(),
    }
}

/// `value or []` iterated as Python iterates it: a list's items, a
/// string's characters, a dict's keys. Other values give nothing (Python
/// raises there).
pub(crate) fn iter_items(v: Option<Value>) -> alloc::vec::Vec<Value> {
    match v {
        Some(Value::Array(items)) => items,
        Some(Value::String(s)) => s.chars().map(|c| Value::String(c.into())).collect(),
        Some(Value::Object(m)) => m.into_iter().map(|(k, _)| Value::String(k)).collect(),
        _ => alloc::vec::Vec::new(),
    }
}
