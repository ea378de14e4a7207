//! The map file as JSON: key order free, unknown keys ignored (§2.1).
//! Strings borrow from the file where they hold no escape.

use alloc::borrow::Cow;
use alloc::vec::Vec;
use core::fmt;

use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};

/// `"key": id` pairs in file order (an object read as a list, so
/// duplicates stay visible and no map is built twice).
#[derive(Debug, Default)]
pub(crate) struct Pairs<'a>(pub(crate) Vec<(Cow<'a, str>, u64)>);

impl<'de: 'a, 'a> Deserialize<'de> for Pairs<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(core::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Pairs<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of string → integer")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut m: M) -> Result<Pairs<'a>, M::Error> {
                let mut out = Vec::with_capacity(m.size_hint().unwrap_or(0));
                while let Some((k, v)) = m.next_entry::<Cow<'de, str>, u64>()? {
                    out.push((k, v));
                }
                Ok(Pairs(out))
            }
        }
        d.deserialize_map(V(core::marker::PhantomData))
    }
}

/// The program object: `{"version": N, "ops": [{"op": NAME, …}]}`.
#[derive(Debug, Deserialize)]
pub(crate) struct RawProgram {
    pub(crate) version: u64,
    #[serde(default)]
    pub(crate) ops: Vec<serde_json::Map<alloc::string::String, serde_json::Value>>,
}

/// The fields leaf-meta reads.
#[derive(Debug, Deserialize)]
pub(crate) struct RawMap<'a> {
    #[serde(borrow, default)]
    pub(crate) version: Option<Cow<'a, str>>,
    #[serde(default)]
    pub(crate) vocab_size: Option<u64>,
    #[serde(borrow, default)]
    pub(crate) vocab: Option<Pairs<'a>>,
    #[serde(borrow, default)]
    pub(crate) merges: Option<Vec<Cow<'a, str>>>,
    #[serde(borrow, default)]
    pub(crate) encoder: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub(crate) pre_tokenizer_pattern: Option<Cow<'a, str>>,
    #[serde(default)]
    pub(crate) pre_tokenizer_program: Option<RawProgram>,
    #[serde(borrow, default)]
    pub(crate) special_tokens: Option<Pairs<'a>>,
    /// v1 maps carry `tokens`: only its presence matters.
    #[serde(default)]
    pub(crate) tokens: Option<IgnoredAny>,
}
