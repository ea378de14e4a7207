//! The caller-owned savings total and the `_meta` fields a server adds to
//! a JSON response (spec D4): never a global counter.

use alloc::string::String;
use serde_json::{Map, Value};

use crate::meta::EncodeMeta;

/// A running total of `encoding_tokens_saved`, held by the caller (one
/// per session, per server, per test — as the caller decides).
///
/// ```
/// use munch_core::{Format, Options, SavingsTracker, encode};
/// let mut tracker = SavingsTracker::default();
/// let out = encode("t", &serde_json::json!({"a": 1}), &Options { format: Format::Json, ..Default::default() });
/// assert_eq!(tracker.record(&out.meta), 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SavingsTracker {
    total: u64,
}

impl SavingsTracker {
    /// Adds one response's saving; returns the new total.
    ///
    /// ```
    /// use munch_core::{EncodeMeta, SavingsTracker};
    /// let mut tracker = SavingsTracker::default();
    /// let mut meta = munch_core::encode("t", &serde_json::json!([1]), &Default::default()).meta;
    /// meta.encoding_tokens_saved = Some(40);
    /// tracker.record(&meta);
    /// assert_eq!(tracker.record(&meta), 80);
    /// # let _: &EncodeMeta = &meta;
    /// ```
    pub fn record(&mut self, meta: &EncodeMeta) -> u64 {
        let saved = meta.encoding_tokens_saved.unwrap_or(0) as u64;
        self.total = self.total.saturating_add(saved);
        self.total
    }

    /// The total so far.
    ///
    /// ```
    /// assert_eq!(munch_core::SavingsTracker::default().total(), 0);
    /// ```
    #[must_use]
    pub const fn total(&self) -> u64 {
        self.total
    }
}

/// Writes `_meta.encoding`, `_meta.encoding_tokens_saved` (when the meta
/// has it) and `_meta.total_encoding_tokens_saved` (when `total` is given)
/// into a JSON object response, creating `_meta` when missing. The
/// reference adds these after the text is built, so they never reach a
/// MUNCH payload; use this on the JSON form or on the value a server logs.
/// A response that is not an object, or whose `_meta` is not an object,
/// is left unchanged.
///
/// ```
/// use munch_core::{Format, Options, encode, inject_meta};
/// let mut response = serde_json::json!({"a": 1});
/// let out = encode("t", &response, &Options { format: Format::Json, ..Default::default() });
/// inject_meta(&mut response, &out.meta, Some(42));
/// assert_eq!(response["_meta"], serde_json::json!({"encoding": "json", "total_encoding_tokens_saved": 42}));
/// ```
pub fn inject_meta(response: &mut Value, meta: &EncodeMeta, total: Option<u64>) {
    let Value::Object(map) = response else {
        return;
    };
    let slot = map
        .entry(String::from("_meta"))
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(m) = slot else {
        return;
    };
    m.insert("encoding".into(), Value::from(meta.encoding));
    if let Some(saved) = meta.encoding_tokens_saved {
        m.insert("encoding_tokens_saved".into(), Value::from(saved));
    }
    if let Some(total) = total {
        m.insert("total_encoding_tokens_saved".into(), Value::from(total));
    }
}

/// The share of `json` a payload `encoded` long saves (0 when it saves
/// nothing or `json` is empty): what `auto`'s threshold is compared with.
pub(crate) fn saved_ratio(json: usize, encoded: usize) -> f64 {
    if json == 0 {
        return 0.0;
    }
    let r = (json as f64 - encoded as f64) / json as f64;
    if r > 0.0 { r } else { 0.0 }
}
