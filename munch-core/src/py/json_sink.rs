//! Where the Python-semantics JSON parser (`json_parse.rs`) puts what it
//! reads: `serde_json` values (what [`crate::decode`] returns for JSON
//! text) or [`BorrowedValue`]s whose strings borrow from the text
//! wherever it holds them verbatim (what [`crate::decode_borrowed`] and
//! the typed decodes read).

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::hash::BuildHasher;
use hashbrown::{DefaultHashBuilder, HashTable};
use serde_json::{Map, Value};

use crate::borrowed::BorrowedValue;

/// A kind of value the parser builds.
pub(crate) trait Sink<'a> {
    /// A value.
    type Value;
    /// An object being filled.
    type Object;

    /// `null`.
    fn null() -> Self::Value;
    /// `true` or `false`.
    fn bool(b: bool) -> Self::Value;
    /// A number as Python reads it: an int, a float, or the `$float`
    /// sentinel object of a NaN or an infinity.
    fn number(v: Value) -> Self::Value;
    /// A string.
    fn string(s: Cow<'a, str>) -> Self::Value;
    /// A list.
    fn array(items: Vec<Self::Value>) -> Self::Value;
    /// An object begins.
    fn begin(&mut self) -> Self::Object;
    /// Adds `key`; a key already there keeps its place and takes the new
    /// value (Python's dict, `json.loads`'s last duplicate).
    fn insert(&mut self, obj: &mut Self::Object, key: Cow<'a, str>, value: Self::Value);
    /// The object, closed inside `depth` containers, as a value.
    fn object(&mut self, obj: Self::Object, depth: usize) -> Self::Value;
}

/// `serde_json` values. An object's members wait in one list shared by
/// all open objects until it closes; then its map is made at its size.
/// Objects that repeat the keys of the object closed before them at
/// their depth (a list of records) are filled in from a map of those
/// keys: the map's hash index is copied, not built by hashing every key
/// again (`serde_json` hashes keys with SipHash).
#[derive(Default)]
pub(crate) struct Owned<'a> {
    members: Vec<(Cow<'a, str>, Value)>,
    /// Per depth: the keys (null values) of a run of objects closed
    /// there with the same distinct keys, and a fingerprint of the keys
    /// of the last object closed there.
    shapes: Vec<(Option<Map<String, Value>>, u64)>,
    hasher: DefaultHashBuilder,
}

impl<'a> Owned<'a> {
    /// The most keys an object's shape is kept for.
    const SHAPE_KEYS: usize = 64;

    /// The map of `depth`'s shape when `members` are its keys in order.
    /// A shape is made when an object has the keys of the object closed
    /// before it at its depth (the same fingerprint): a run of objects
    /// with changing keys makes none.
    fn shape_for(
        &mut self,
        members: &[(Cow<'a, str>, Value)],
        depth: usize,
    ) -> Option<&Map<String, Value>> {
        let n = members.len();
        if self.shapes.len() <= depth {
            self.shapes.resize_with(depth + 1, || (None, 0));
        }
        let hasher = &self.hasher;
        let (shape, last) = self.shapes.get_mut(depth)?;
        let same = |m: &Map<String, Value>| {
            m.len() == n && m.keys().zip(members).all(|(k, (key, _))| k == key)
        };
        if shape.as_ref().is_some_and(same) {
            return shape.as_ref();
        }
        if !(1..=Self::SHAPE_KEYS).contains(&n) {
            return None;
        }
        let print = members.iter().fold(n as u64, |h, (k, _)| {
            h.rotate_left(5) ^ hasher.hash_one(k.as_ref())
        });
        if core::mem::replace(last, print) != print {
            return None;
        }
        let keys: Map<String, Value> = members
            .iter()
            .map(|(k, _)| (String::from(k.as_ref()), Value::Null))
            .collect();
        // Keys distinct: the map of them has one per member.
        *shape = (keys.len() == n).then_some(keys);
        shape.as_ref()
    }
}

impl<'a> Sink<'a> for Owned<'a> {
    type Value = Value;
    /// Where the object's members start in the shared list.
    type Object = usize;

    fn null() -> Value {
        Value::Null
    }
    fn bool(b: bool) -> Value {
        Value::Bool(b)
    }
    fn number(v: Value) -> Value {
        v
    }
    fn string(s: Cow<'a, str>) -> Value {
        Value::String(s.into_owned())
    }
    fn array(items: Vec<Value>) -> Value {
        Value::Array(items)
    }
    fn begin(&mut self) -> usize {
        self.members.len()
    }
    fn insert(&mut self, _: &mut usize, key: Cow<'a, str>, value: Value) {
        self.members.push((key, value));
    }
    fn object(&mut self, start: usize, depth: usize) -> Value {
        let mut members = core::mem::take(&mut self.members);
        let n = members.len().saturating_sub(start);
        let mut map = Map::with_capacity(n);
        match self.shape_for(members.get(start..).unwrap_or_default(), depth) {
            Some(shape) => {
                map.clone_from(shape);
                for (slot, (_, v)) in map.values_mut().zip(members.drain(start..)) {
                    *slot = v;
                }
            }
            None => {
                for (k, v) in members.drain(start..) {
                    map.insert(k.into_owned(), v);
                }
            }
        }
        self.members = members;
        Value::Object(map)
    }
}

/// [`BorrowedValue`]s.
#[derive(Default)]
pub(crate) struct Borrowed;

/// A borrowed object being filled: its members in order, and past
/// [`Members::SCAN`] members an index of their keys, so a repeated key
/// is found without comparing it with every member (an object of many
/// keys stays linear to read).
#[derive(Default)]
pub(crate) struct Members<'a> {
    list: Vec<(Cow<'a, str>, BorrowedValue<'a>)>,
    index: Option<(HashTable<usize>, DefaultHashBuilder)>,
}

impl<'a> Members<'a> {
    /// Members compared one by one before an index is built.
    const SCAN: usize = 16;

    fn insert(&mut self, key: Cow<'a, str>, value: BorrowedValue<'a>) {
        let list = &mut self.list;
        let Some((index, hasher)) = &mut self.index else {
            match list.iter_mut().find(|(k, _)| *k == key) {
                Some((_, slot)) => *slot = value,
                None => {
                    list.push((key, value));
                    if list.len() > Self::SCAN {
                        self.index = Some(Self::index_of(list));
                    }
                }
            }
            return;
        };
        let hash = hasher.hash_one(key.as_ref());
        let key_at = |i: &usize| list.get(*i).map_or("", |(k, _)| k.as_ref());
        match index.find(hash, |i| key_at(i) == key.as_ref()) {
            Some(&i) => {
                if let Some((_, slot)) = list.get_mut(i) {
                    *slot = value;
                }
            }
            None => {
                let at = list.len();
                index.insert_unique(hash, at, |i| hasher.hash_one(key_at(i)));
                list.push((key, value));
            }
        }
    }

    /// An index of the (distinct) keys of `list`.
    fn index_of(
        list: &[(Cow<'a, str>, BorrowedValue<'a>)],
    ) -> (HashTable<usize>, DefaultHashBuilder) {
        let hasher = DefaultHashBuilder::default();
        let mut index = HashTable::with_capacity(list.len() * 2);
        let key_at = |i: &usize| list.get(*i).map_or("", |(k, _)| k.as_ref());
        for (i, (k, _)) in list.iter().enumerate() {
            index.insert_unique(hasher.hash_one(k.as_ref()), i, |i| {
                hasher.hash_one(key_at(i))
            });
        }
        (index, hasher)
    }
}

impl<'a> Sink<'a> for Borrowed {
    type Value = BorrowedValue<'a>;
    type Object = Members<'a>;

    fn null() -> Self::Value {
        BorrowedValue::Null
    }
    fn bool(b: bool) -> Self::Value {
        BorrowedValue::Bool(b)
    }
    fn number(v: Value) -> Self::Value {
        match v {
            Value::Number(n) => BorrowedValue::Number(n),
            other => BorrowedValue::from(other),
        }
    }
    fn string(s: Cow<'a, str>) -> Self::Value {
        BorrowedValue::String(s)
    }
    fn array(items: Vec<Self::Value>) -> Self::Value {
        BorrowedValue::Array(items)
    }
    fn begin(&mut self) -> Self::Object {
        Members::default()
    }
    fn insert(&mut self, obj: &mut Self::Object, key: Cow<'a, str>, value: Self::Value) {
        obj.insert(key, value);
    }
    fn object(&mut self, obj: Self::Object, _: usize) -> Self::Value {
        BorrowedValue::Object(obj.list)
    }
}

#[cfg(test)]
mod tests {
    use super::{Borrowed, Members, Sink};
    use crate::borrowed::BorrowedValue;
    use alloc::borrow::Cow;
    use alloc::format;
    use alloc::vec::Vec;

    /// A repeated key keeps its first place and takes the last value,
    /// whether the object is scanned or indexed.
    #[test]
    fn repeated_keys_keep_their_place() {
        for n in [3usize, Members::SCAN, Members::SCAN + 1, 200] {
            let mut obj = Members::default();
            for round in 0..2u64 {
                for i in 0..n {
                    let v = BorrowedValue::Number((round * 1000 + i as u64).into());
                    Borrowed.insert(&mut obj, Cow::Owned(format!("k{i}")), v);
                }
            }
            let BorrowedValue::Object(list) = Borrowed.object(obj, 0) else {
                panic!("not an object");
            };
            let keys: Vec<&str> = list.iter().map(|(k, _)| k.as_ref()).collect();
            let want: Vec<alloc::string::String> = (0..n).map(|i| format!("k{i}")).collect();
            assert_eq!(keys, want, "{n}");
            for (i, (_, v)) in list.iter().enumerate() {
                assert_eq!(*v, BorrowedValue::Number((1000 + i as u64).into()), "{n}");
            }
        }
    }
}
