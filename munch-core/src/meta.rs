//! What the dispatcher says about its choice (spec §9, D3 "Metadata").

use alloc::vec::Vec;
use serde_json::{Map, Value};

use crate::equal::Mismatch;

/// The encoder stack's rungs, in ladder order.
///
/// ```
/// use munch_core::{Attempt, Format, Options, Outcome, Rung};
/// let response = serde_json::json!({"result_count": 1, "query": "main", "results": [
///     {"id": "src/a.py::main#function", "name": "main", "kind": "function",
///      "file": "src/a.py", "line": 3, "score": 0.9, "signature": "def main()", "summary": "entry point"},
/// ]});
/// let out = munch_core::encode("search_symbols", &response, &Options { format: Format::Compact, ..Default::default() });
/// // The first rung's payload decoded to the response: it is used.
/// assert_eq!(out.meta.attempts, [Attempt { rung: Rung::Tier1Reference, outcome: Outcome::Accepted }]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rung {
    /// The tool's tier-1 encoder as the reference writes it.
    Tier1Reference,
    /// Tier-1 with the hazards fixed.
    Tier1Hardened,
    /// gen1 as the reference writes it.
    Gen1Reference,
    /// gen1 with the hazards fixed.
    Gen1Hardened,
}

impl Rung {
    /// `reference` or `hardened`.
    ///
    /// ```
    /// use munch_core::{Layer, Rung};
    /// assert_eq!(Rung::Gen1Reference.layer(), Layer::Reference);
    /// assert_eq!(Rung::Tier1Hardened.layer(), Layer::Hardened);
    /// ```
    #[must_use]
    pub const fn layer(self) -> Layer {
        match self {
            Rung::Tier1Reference | Rung::Gen1Reference => Layer::Reference,
            Rung::Tier1Hardened | Rung::Gen1Hardened => Layer::Hardened,
        }
    }
}

/// Which form of an encoder produced the payload.
///
/// ```
/// use munch_core::{Format, Layer, Options};
/// let response = serde_json::json!({"result_count": 1, "query": "main", "results": [
///     {"id": "src/a.py::main#function", "name": "main", "kind": "function",
///      "file": "src/a.py", "line": 3, "score": 0.9, "signature": "def main()", "summary": "entry point"},
/// ]});
/// let out = munch_core::encode("search_symbols", &response, &Options { format: Format::Compact, ..Default::default() });
/// assert_eq!(out.meta.layer, Some(Layer::Reference));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layer {
    /// Byte-identical to the reference.
    Reference,
    /// The reference's form with hazards fixed (still decodable by it).
    Hardened,
}

/// What one rung gave.
///
/// ```
/// use munch_core::{Format, Options, Outcome};
/// // Tier-1 writes an empty string and a null alike: its decode differs,
/// // so the ladder moves on (to gen1 here).
/// let response = serde_json::json!({"result_count": 1, "query": "q", "results": [
///     {"id": "a", "name": "a", "kind": "function", "file": "a.py", "line": 1,
///      "score": 1.0, "signature": "def a()", "summary": ""},
/// ]});
/// let out = munch_core::encode("search_symbols", &response, &Options { format: Format::Compact, ..Default::default() });
/// assert!(matches!(out.meta.attempts[0].outcome, Outcome::Mismatch(_)));
/// assert_eq!(out.meta.attempts.last().map(|a| &a.outcome), Some(&Outcome::Accepted));
///
/// // Lists in table cells: the gen1 reference form would read them back
/// // as strings, so it is refused unwritten; the hardened form's blob
/// // saves nothing, so `auto` sends JSON without decoding it.
/// let rows = serde_json::json!({"rows": [{"a": [1]}, {"a": [2]}]});
/// let out = munch_core::encode("some_tool", &rows, &Options::default());
/// assert!(!out.is_munch());
/// assert!(matches!(out.meta.attempts[0].outcome, Outcome::Mismatch(_)));
/// assert_eq!(out.meta.attempts[1].outcome, Outcome::Unchecked);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Its payload decodes exactly to the input: used.
    Accepted,
    /// The encoder gave up (the reference raises there).
    EncoderFailed(&'static str),
    /// The hardened form is the reference form (no hazard fired in the
    /// refused reference payload, tier-1 or gen1): skipped, not written.
    SameAsReference,
    /// The payload decodes to something else. A tier-1 rung whose decode
    /// is known to add a member the input lacks (a declared table, st4's
    /// `more_files`) is refused before anything is encoded, with that
    /// member as the mismatch.
    Mismatch(Mismatch),
    /// munch-core reads it back exactly, the Python reference could not.
    PythonUndecodable(&'static str),
    /// `auto`, the ladder's last rung: its payload saves less than the
    /// threshold, so JSON is sent whether it decodes exactly or not, and
    /// it was not decoded (the reason is
    /// [`JsonReason::GateRejected`]). A gen1 payload that its JSON
    /// blobs, string scalars and table cells alone make too long to pass
    /// (counted without writing it: each string's code points or bytes,
    /// less what the legend could take off a cell) is not even written;
    /// then [`EncodeMeta::encoded_bytes`] is that length, a lower bound of
    /// its size.
    ///
    /// Also the gen1 reference rung's, when its payload saves less than
    /// the threshold (written, or found too long that way) and the last
    /// rung's cannot pass either: JSON is sent whatever the two decode to,
    /// so neither is decoded, and the ratio and
    /// [`EncodeMeta::encoded_bytes`] are the reference payload's (or its
    /// lower bound). If the last rung could pass, the reference payload is
    /// written and decoded first, as ever. When the reference payload met
    /// no hazard, the last rung (its hardened form, the same text) is not
    /// written either, and is `Unchecked` too.
    Unchecked,
}

/// One rung and its outcome.
///
/// ```
/// use munch_core::{Format, Options, Rung};
/// let out = munch_core::encode("some_tool", &serde_json::json!({"files": [{"f": "a"}, {"f": "b"}]}),
///     &Options { format: Format::Compact, ..Default::default() });
/// // A tool without a tier-1 schema starts at gen1.
/// assert_eq!(out.meta.attempts[0].rung, Rung::Gen1Reference);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Attempt {
    /// The rung.
    pub rung: Rung,
    /// What it gave.
    pub outcome: Outcome,
}

/// Why JSON was sent.
///
/// ```
/// use munch_core::{Format, JsonReason, Options};
/// let v = serde_json::json!({"a": 1});
/// let out = munch_core::encode("t", &v, &Options { format: Format::Json, ..Default::default() });
/// assert_eq!(out.meta.reason, Some(JsonReason::FormatJson));
/// let out = munch_core::encode("t", &serde_json::json!({"error": "boom"}), &Default::default());
/// assert_eq!(out.meta.reason, Some(JsonReason::ErrorKey));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JsonReason {
    /// The caller asked for JSON.
    FormatJson,
    /// The response is not an object.
    NotObject,
    /// The response has an `error` key.
    ErrorKey,
    /// Reference mode: the encoder raised.
    EncoderFailed,
    /// Reference mode: a universal key did not survive the round trip.
    ContractFailed,
    /// Verified mode: no rung was accepted.
    NoVerifiedEncoding,
    /// `auto`: the saving ratio was under the threshold.
    GateRejected {
        /// The measured ratio (for a gen1 payload left unwritten, see
        /// [`Outcome::Unchecked`], the ratio its lower bound leaves: an
        /// upper bound).
        ratio: f64,
    },
    /// The response nests deeper than the depth limit.
    DepthLimit,
}

/// The dispatcher's metadata.
///
/// ```
/// use munch_core::{Format, Options};
/// let response = serde_json::json!({"result_count": 1, "query": "main", "results": [
///     {"id": "src/a.py::main#function", "name": "main", "kind": "function",
///      "file": "src/a.py", "line": 3, "score": 0.9, "signature": "def main()", "summary": "entry point"},
/// ]});
/// let out = munch_core::encode("search_symbols", &response, &Options { format: Format::Compact, ..Default::default() });
/// assert_eq!(out.meta.encoding, "ss1");
/// assert_eq!(out.meta.encoded_bytes, Some(out.text.len()));
/// assert!(out.meta.json_bytes.is_some() && out.meta.encoding_tokens_saved.is_some());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct EncodeMeta {
    /// The tier-1 id, `gen1` or `json`.
    pub encoding: &'static str,
    /// The layer of the payload (MUNCH only).
    pub layer: Option<Layer>,
    /// Why JSON was sent (JSON only).
    pub reason: Option<JsonReason>,
    /// One outcome per rung tried (verified mode).
    pub attempts: Vec<Attempt>,
    /// Size of the JSON form.
    pub json_bytes: Option<usize>,
    /// Size of the payload (a lower bound of it for a gen1 payload left
    /// unwritten, see [`Outcome::Unchecked`]).
    pub encoded_bytes: Option<usize>,
    /// Tokens saved (bytes ÷ 4, or exact with a token counter).
    pub encoding_tokens_saved: Option<usize>,
}

impl EncodeMeta {
    pub(crate) const fn json(reason: JsonReason) -> EncodeMeta {
        EncodeMeta {
            encoding: "json",
            layer: None,
            reason: Some(reason),
            attempts: Vec::new(),
            json_bytes: None,
            encoded_bytes: None,
            encoding_tokens_saved: None,
        }
    }

    /// The reference's meta object: `encoding` and whichever of
    /// `json_bytes`, `encoded_bytes`, `encoding_tokens_saved` are set.
    ///
    /// ```
    /// let r = munch_core::encode("t", &serde_json::json!([1]), &Default::default());
    /// assert_eq!(r.meta.to_value(), serde_json::json!({"encoding": "json"}));
    /// ```
    #[must_use]
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("encoding".into(), Value::from(self.encoding));
        for (k, v) in [
            ("json_bytes", self.json_bytes),
            ("encoded_bytes", self.encoded_bytes),
            ("encoding_tokens_saved", self.encoding_tokens_saved),
        ] {
            if let Some(v) = v {
                m.insert(k.into(), Value::from(v));
            }
        }
        Value::Object(m)
    }
}
