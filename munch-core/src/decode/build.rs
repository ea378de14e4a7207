//! What table decoding builds: `serde_json` values ([`Owned`]) or values
//! borrowed from the payload ([`Borrowed`]), from one decoding routine.

use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{Map, Number, Value};

use super::cells::{Hint, coerce};
use super::{DecodeOptions, parse_json};
use crate::borrowed::BorrowedValue;
use crate::py::json_parse::parse_borrowed;
use crate::py::number::{float_value, parse_float, parse_int, plain_int};
use crate::value::{SCANNED_KEYS, key_position};

/// A kind of decoded value the table decoders can build.
pub(crate) trait Build<'a> {
    /// A value.
    type Value;
    /// An object being filled.
    type Object;

    /// An empty object for `members` keys.
    fn object(members: usize) -> Self::Object;
    /// Adds `key`, or replaces its value where it is (a `Map` insert).
    fn insert(obj: &mut Self::Object, key: Cow<'a, str>, value: Self::Value);
    /// Adds `key`, known not to be in `obj` yet.
    fn push(obj: &mut Self::Object, key: Cow<'a, str>, value: Self::Value);
    /// Replaces the value of the member at `index` (named `key`).
    fn replace(obj: &mut Self::Object, index: usize, key: &str, value: Self::Value);
    /// `obj[parent][child] = value`, where a `parent` that is not an
    /// object becomes one holding its old value (if not null) as
    /// `_scalar` (gen1's dotted table keys).
    fn nest(obj: &mut Self::Object, parent: &str, child: &str, value: Self::Value);
    /// The object as a value.
    fn object_value(obj: Self::Object) -> Self::Value;
    /// A list.
    fn array(items: Vec<Self::Value>) -> Self::Value;
    /// Cell text converted by its column's type (spec §4 "Cell to value").
    fn cell(raw: Cow<'a, str>, hint: Hint) -> Self::Value;
    /// A `__json.` blob's text: the JSON it holds, or the text as a
    /// string where Python's `json.loads` fails.
    fn json(raw: Cow<'a, str>, opts: &DecodeOptions) -> Self::Value;
    /// Whether `obj` has the member `key`.
    fn contains(obj: &Self::Object, key: &str) -> bool;
    /// Whether `obj` has no member.
    fn is_empty(obj: &Self::Object) -> bool;
    /// What the rows of one table of distinct columns share, made once
    /// per table from its column names in order.
    type Shape;
    /// The [`Build::Shape`] of rows keyed `keys` (distinct).
    fn shape<'k, K: Iterator<Item = &'k str>>(keys: K) -> Self::Shape;
    /// A row object of distinct keys from its `(key, cell text, column
    /// type)` triples, the keys those `shape` was made from, in order.
    fn row<I>(shape: &Self::Shape, cells: I) -> Self::Value
    where
        I: Iterator<Item = (Cow<'a, str>, Cow<'a, str>, Hint)>;
}

/// `serde_json` values (what [`crate::decode`] returns).
pub(crate) struct Owned;

impl<'a> Build<'a> for Owned {
    type Value = Value;
    type Object = Map<String, Value>;

    #[inline]
    fn object(members: usize) -> Self::Object {
        Map::with_capacity(members)
    }
    #[inline]
    fn insert(obj: &mut Self::Object, key: Cow<'a, str>, value: Value) {
        obj.insert(key.into_owned(), value);
    }
    #[inline]
    fn push(obj: &mut Self::Object, key: Cow<'a, str>, value: Value) {
        obj.insert(key.into_owned(), value);
    }
    fn replace(obj: &mut Self::Object, _: usize, key: &str, value: Value) {
        obj.insert(String::from(key), value);
    }
    fn nest(obj: &mut Self::Object, parent: &str, child: &str, value: Value) {
        let slot = obj.entry(String::from(parent)).or_insert(Value::Null);
        if !slot.is_object() {
            let old = core::mem::take(slot);
            let mut wrap = Map::new();
            if !old.is_null() {
                wrap.insert("_scalar".into(), old);
            }
            *slot = Value::Object(wrap);
        }
        if let Value::Object(m) = slot {
            m.insert(child.into(), value);
        }
    }
    #[inline]
    fn object_value(obj: Self::Object) -> Value {
        Value::Object(obj)
    }
    fn array(items: Vec<Value>) -> Value {
        Value::Array(items)
    }
    /// The table's keys, each with a null value. A row is filled in from
    /// it: its hash index is copied, not built by hashing every key of
    /// every row again (`serde_json` hashes keys with SipHash). The row
    /// map is made with room for its keys first and then `clone_from`
    /// the shape: a plain `clone` sizes the entry list to the index's
    /// capacity (14 entries for 8 keys), and that larger memory made the
    /// decode slower than hashing.
    type Shape = Map<String, Value>;
    fn shape<'k, K: Iterator<Item = &'k str>>(keys: K) -> Self::Shape {
        let mut obj = Map::with_capacity(keys.size_hint().0);
        for key in keys {
            obj.insert(String::from(key), Value::Null);
        }
        obj
    }
    #[inline]
    fn row<I>(shape: &Self::Shape, cells: I) -> Value
    where
        I: Iterator<Item = (Cow<'a, str>, Cow<'a, str>, Hint)>,
    {
        let mut obj = Map::with_capacity(shape.len());
        obj.clone_from(shape);
        for (slot, (_, raw, hint)) in obj.values_mut().zip(cells) {
            *slot = coerce(raw, hint.name());
        }
        Value::Object(obj)
    }
    #[inline]
    fn cell(raw: Cow<'a, str>, hint: Hint) -> Value {
        coerce(raw, hint.name())
    }
    fn json(raw: Cow<'a, str>, opts: &DecodeOptions) -> Value {
        parse_json(&raw, opts).unwrap_or_else(|| Value::String(raw.into_owned()))
    }
    fn contains(obj: &Self::Object, key: &str) -> bool {
        crate::value::member(obj, key).is_some()
    }
    fn is_empty(obj: &Self::Object) -> bool {
        obj.is_empty()
    }
}

/// Values borrowed from the payload ([`BorrowedValue`]).
pub(crate) struct Borrowed;

/// A borrowed object being filled: its members, and for objects that take
/// keys one could repeat (the top level), an index of them.
pub(crate) struct Members<'a> {
    pub(crate) list: Vec<(Cow<'a, str>, BorrowedValue<'a>)>,
    index: Option<BTreeMap<String, usize>>,
}

impl<'a> Members<'a> {
    /// The members of an owned object (keys unique), indexed for
    /// inserts.
    pub(crate) fn from_map(map: Map<String, Value>) -> Members<'a> {
        let mut index = BTreeMap::new();
        let mut list = Vec::with_capacity(map.len());
        for (i, (k, v)) in map.into_iter().enumerate() {
            index.insert(k.clone(), i);
            list.push((Cow::Owned(k), BorrowedValue::from(v)));
        }
        Members {
            list,
            index: Some(index),
        }
    }

    /// The most members found by a scan rather than through an index.
    const SCANNED: usize = SCANNED_KEYS;

    /// Where `key` first is, without indexing (a scan of a short list, or
    /// the index if there is one; `None` for a long list without one).
    fn find(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(key).copied(),
            None => key_position(&self.list, |(k, _)| k, key),
        }
    }

    /// Where `key` is, indexing the members first if they are not yet
    /// (more than [`Members::SCANNED`] of them: a short list is scanned).
    pub(crate) fn position(&mut self, key: &str) -> Option<usize> {
        if self.index.is_none() && self.list.len() <= Self::SCANNED {
            return self.find(key);
        }
        let list = &self.list;
        let index = self.index.get_or_insert_with(|| {
            let mut index = BTreeMap::new();
            for (i, (k, _)) in list.iter().enumerate() {
                index.entry(String::from(k.as_ref())).or_insert(i);
            }
            index
        });
        index.get(key).copied()
    }

    #[inline(always)]
    fn add(&mut self, key: Cow<'a, str>, value: BorrowedValue<'a>) {
        if self.index.is_some() {
            self.index_key(&key);
        }
        self.list.push((key, value));
    }

    /// Indexes `key` as the next member's (objects with an index only).
    #[inline(never)]
    fn index_key(&mut self, key: &str) {
        if let Some(index) = &mut self.index {
            index.insert(String::from(key), self.list.len());
        }
    }
}

impl<'a> Build<'a> for Borrowed {
    type Value = BorrowedValue<'a>;
    type Object = Members<'a>;

    fn object(members: usize) -> Self::Object {
        Members {
            list: Vec::with_capacity(members),
            index: None,
        }
    }
    fn insert(obj: &mut Self::Object, key: Cow<'a, str>, value: Self::Value) {
        match obj.position(&key) {
            Some(i) => {
                if let Some(slot) = obj.list.get_mut(i) {
                    slot.1 = value;
                }
            }
            None => obj.add(key, value),
        }
    }
    #[inline(always)]
    fn push(obj: &mut Self::Object, key: Cow<'a, str>, value: Self::Value) {
        obj.add(key, value);
    }
    fn replace(obj: &mut Self::Object, index: usize, _: &str, value: Self::Value) {
        if let Some(slot) = obj.list.get_mut(index) {
            slot.1 = value;
        }
    }
    fn nest(obj: &mut Self::Object, parent: &str, child: &str, value: Self::Value) {
        let at = match obj.position(parent) {
            Some(i) => i,
            None => {
                obj.add(Cow::Owned(String::from(parent)), BorrowedValue::Null);
                obj.list.len() - 1
            }
        };
        let Some((_, slot)) = obj.list.get_mut(at) else {
            return;
        };
        if !matches!(slot, BorrowedValue::Object(_)) {
            let old = core::mem::replace(slot, BorrowedValue::Null);
            let mut wrap = Vec::new();
            if !old.is_null() {
                wrap.push((Cow::Borrowed("_scalar"), old));
            }
            *slot = BorrowedValue::Object(wrap);
        }
        if let BorrowedValue::Object(members) = slot {
            let child = Cow::Owned(String::from(child));
            match members.iter_mut().find(|(k, _)| *k == child) {
                Some((_, v)) => *v = value,
                None => members.push((child, value)),
            }
        }
    }
    fn object_value(obj: Self::Object) -> Self::Value {
        BorrowedValue::Object(obj.list)
    }
    fn array(items: Vec<Self::Value>) -> Self::Value {
        BorrowedValue::Array(items)
    }
    /// Collected from an iterator of known length, each member is written
    /// straight into the list (pushed one by one, each was assembled on
    /// the stack and copied in; 4 % slower in interleaved A/B). A string
    /// cell is made in the member itself: through [`Self::cell`] it was
    /// built on the stack in pieces and copied out in wider loads, which
    /// stalled on every cell.
    type Shape = ();
    fn shape<'k, K: Iterator<Item = &'k str>>(_: K) -> Self::Shape {}
    #[inline(always)]
    fn row<I>(_: &Self::Shape, cells: I) -> Self::Value
    where
        I: Iterator<Item = (Cow<'a, str>, Cow<'a, str>, Hint)>,
    {
        BorrowedValue::Object(
            cells
                .map(|(key, raw, hint)| match hint {
                    Hint::Str if !raw.is_empty() => (key, BorrowedValue::String(raw)),
                    _ => (key, Self::cell(raw, hint)),
                })
                .collect(),
        )
    }
    /// Numbers are made here from the parsed `i64`/`f64`, not taken out
    /// of a returned `Value` (copying it out stalled on its halves).
    #[inline(always)]
    fn cell(raw: Cow<'a, str>, hint: Hint) -> Self::Value {
        if raw.is_empty() {
            return BorrowedValue::Null;
        }
        match hint {
            Hint::Bool => BorrowedValue::Bool(raw == "T"),
            Hint::Float => match parse_float(&raw) {
                Some(x) => match Number::from_f64(x) {
                    Some(n) => BorrowedValue::Number(n),
                    None => BorrowedValue::from(float_value(x)),
                },
                None => BorrowedValue::String(raw),
            },
            Hint::Int => match plain_int(&raw) {
                Some(v) => BorrowedValue::Number(Number::from(v)),
                None => match parse_int(&raw) {
                    Some(v) => BorrowedValue::from(v),
                    None => BorrowedValue::String(raw),
                },
            },
            _ => BorrowedValue::String(raw),
        }
    }
    /// JSON in text borrowed from the payload borrows from it too; text
    /// unquoted into a buffer of its own is parsed into owned values.
    fn json(raw: Cow<'a, str>, opts: &DecodeOptions) -> Self::Value {
        match raw {
            Cow::Borrowed(s) => parse_borrowed(s, opts.depth_limit)
                .unwrap_or(BorrowedValue::String(Cow::Borrowed(s))),
            Cow::Owned(s) => match parse_json(&s, opts) {
                Some(v) => BorrowedValue::from(v),
                None => BorrowedValue::String(Cow::Owned(s)),
            },
        }
    }
    fn contains(obj: &Self::Object, key: &str) -> bool {
        obj.find(key).is_some()
    }
    fn is_empty(obj: &Self::Object) -> bool {
        obj.list.is_empty()
    }
}

/// How the rows of one table are built: where each column goes
/// ([`Slots`]) and, when the column names are distinct, the shape every
/// row is made from ([`Build::Shape`]).
pub(crate) struct RowPlan<'a, B: Build<'a>> {
    pub(crate) slots: Slots,
    pub(crate) shape: B::Shape,
}

impl<'a, B: Build<'a>> RowPlan<'a, B> {
    /// The plan of a table whose columns are named `names`.
    pub(crate) fn new<'n>(names: impl Iterator<Item = &'n str> + Clone) -> Self {
        RowPlan {
            slots: Slots::new(names.clone()),
            shape: B::shape(names),
        }
    }
}

/// Where each column of a table goes in a row object: a column whose name
/// an earlier column already has replaces that member's value (a `Map`
/// insert keeps the first position and the last value).
pub(crate) struct Slots {
    /// Per column: `None` for a new member, `Some(i)` to replace member `i`.
    repeat: Vec<Option<usize>>,
    /// Distinct names.
    pub(crate) members: usize,
}

impl Slots {
    pub(crate) fn new<'n>(names: impl Iterator<Item = &'n str>) -> Slots {
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        let mut repeat = Vec::new();
        for name in names {
            let next = seen.len();
            match seen.get(name) {
                Some(&i) => repeat.push(Some(i)),
                None => {
                    seen.insert(name, next);
                    repeat.push(None);
                }
            }
        }
        Slots {
            repeat,
            members: seen.len(),
        }
    }

    /// Puts column `i`'s cell, converted by `hint`, in `row`.
    #[inline(always)]
    pub(crate) fn put_cell<'a, B: Build<'a>>(
        &self,
        row: &mut B::Object,
        i: usize,
        key: Cow<'a, str>,
        raw: Cow<'a, str>,
        hint: Hint,
    ) {
        self.put::<B>(row, i, key, B::cell(raw, hint));
    }

    /// Puts column `i`'s value in `row`.
    #[inline]
    pub(crate) fn put<'a, B: Build<'a>>(
        &self,
        row: &mut B::Object,
        i: usize,
        key: Cow<'a, str>,
        value: B::Value,
    ) {
        if self.members == self.repeat.len() {
            return B::push(row, key, value);
        }
        match self.repeat.get(i).copied().flatten() {
            Some(at) => B::replace(row, at, key.as_ref(), value),
            None => B::push(row, key, value),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Build, Hint, Owned};
    use alloc::borrow::Cow;
    use serde_json::json;

    /// A row filled in from its table's shape is the map inserting its
    /// cells one by one would make: the same keys in the same order, each
    /// cell converted by its column's type, and the shape left as it was.
    #[test]
    fn owned_rows_from_a_shape_equal_rows_inserted() {
        let keys = ["name", "line", "score", "zeta", "a"];
        let shape = Owned::shape(keys.iter().copied());
        let hints = [Hint::Str, Hint::Int, Hint::Float, Hint::Str, Hint::Bool];
        for cells in [["f", "10", "0.5", "", "1"], ["g", "x", "nan", "z", "0"]] {
            let triples = || {
                keys.iter()
                    .zip(cells)
                    .zip(hints)
                    .map(|((k, c), h)| (Cow::Borrowed(*k), Cow::Borrowed(c), h))
            };
            let row = Owned::row(&shape, triples());
            let mut inserted = serde_json::Map::new();
            for (k, c, h) in triples() {
                inserted.insert(k.into_owned(), Owned::cell(c, h));
            }
            assert_eq!(row, serde_json::Value::Object(inserted.clone()));
            let order: alloc::vec::Vec<&String> = inserted.keys().collect();
            assert_eq!(row.as_object().map(|m| m.keys().collect()), Some(order));
        }
        assert!(shape.values().all(serde_json::Value::is_null));
        assert_eq!(
            Owned::row(&Owned::shape([].into_iter()), core::iter::empty()),
            json!({})
        );
    }
}
