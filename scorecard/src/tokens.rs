//! Token counters: cl100k and o200k through `bpe-openai` (ranks embedded,
//! equal to tiktoken's ordinary encoding), qwen2 through `leaf-meta` and the
//! pinned map bundled with it.

use std::path::Path;

use leaf_meta::{LeafMap, MapId};

/// The bundled qwen2 map (leaf-meta's current pin).
pub const QWEN2_MAP: &str = "leaf-meta/tests/maps/qwen2.62c2f94fcbdb.json";
/// Its pin.
pub const QWEN2_PIN: &str =
    "sha256:62c2f94fcbdb9b49d51632314e64aa65894496bc39751cb90866049657a262ad";

/// The sizes of one payload.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// UTF-8 bytes.
    pub bytes: usize,
    /// OpenAI `cl100k_base` tokens.
    pub cl100k: usize,
    /// OpenAI `o200k_base` tokens.
    pub o200k: usize,
    /// Qwen2 tokens.
    pub qwen2: usize,
}

/// The metrics of [`Counts`], in table order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// UTF-8 bytes.
    Bytes,
    /// `cl100k_base` tokens.
    Cl100k,
    /// `o200k_base` tokens.
    O200k,
    /// Qwen2 tokens.
    Qwen2,
}

impl Metric {
    /// All metrics.
    pub const ALL: [Metric; 4] = [Metric::Bytes, Metric::Cl100k, Metric::O200k, Metric::Qwen2];

    /// The column name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Metric::Bytes => "bytes",
            Metric::Cl100k => "cl100k",
            Metric::O200k => "o200k",
            Metric::Qwen2 => "qwen2",
        }
    }

    /// Parses a column name.
    #[must_use]
    pub fn parse(name: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.name() == name)
    }

    /// This metric of `c`.
    #[must_use]
    pub fn of(self, c: &Counts) -> usize {
        match self {
            Metric::Bytes => c.bytes,
            Metric::Cl100k => c.cl100k,
            Metric::O200k => c.o200k,
            Metric::Qwen2 => c.qwen2,
        }
    }
}

/// The three tokenizers, loaded once.
pub struct Counter {
    qwen2: LeafMap,
}

impl Counter {
    /// Loads the qwen2 map from the workspace `root`.
    ///
    /// # Errors
    /// When the map is missing or does not match its pin.
    pub fn load(root: &Path) -> Result<Counter, Box<dyn std::error::Error>> {
        let pin = MapId::parse(QWEN2_PIN)?;
        let qwen2 = LeafMap::from_file(root.join(QWEN2_MAP), &pin)?;
        Ok(Counter { qwen2 })
    }

    /// Counts `text` in every metric.
    #[must_use]
    pub fn count(&self, text: &str) -> Counts {
        Counts {
            bytes: text.len(),
            cl100k: bpe_openai::cl100k_base().count(text),
            o200k: bpe_openai::o200k_base().count(text),
            qwen2: self.qwen2.encode(text).len(),
        }
    }
}
