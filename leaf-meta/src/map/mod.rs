//! Loading a pinned tokenizer map (§2, §9.1).

mod program;
mod raw;

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::MapId;
use crate::bpe::TokenTable;
use crate::byte_table::{byte_char, char_byte};
use crate::pretokenize::Program;

/// Why a map was refused.
///
/// ```
/// let bytes = br#"{"version":"2","encoder":"metaspace"}"#;
/// let err = leaf_meta::LeafMap::from_bytes(bytes, &leaf_meta::MapId::of_bytes(bytes)).unwrap_err();
/// assert!(matches!(err, leaf_meta::LoadError::UnsupportedEncoder(_)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The bytes do not hash to the pin.
    #[error("map hash mismatch: expected {expected}, the bytes hash to {actual}")]
    HashMismatch {
        /// The pin given.
        expected: MapId,
        /// The pin of the bytes.
        actual: MapId,
    },
    /// Not JSON, or a field of the wrong type.
    #[error("map is not valid JSON: {0}")]
    Json(String),
    /// A version other than `"2"` (v1 maps carry `tokens`).
    #[error("unsupported map version {0:?} (want \"2\" with vocab and merges)")]
    UnsupportedVersion(String),
    /// An encoder other than `byte_level` (metaspace, identity).
    #[error("unsupported encoder {0:?} (want \"byte_level\")")]
    UnsupportedEncoder(String),
    /// A `pre_tokenizer_program` version other than 1.
    #[error("unsupported pre-tokenizer program version {0}")]
    UnsupportedProgramVersion(u64),
    /// An op the program v1 does not define.
    #[error("unknown pre-tokenizer op {0:?}")]
    UnknownOp(String),
    /// A parameter the op does not take.
    #[error("unknown parameter {param:?} of pre-tokenizer op {op:?}")]
    UnknownOpParameter {
        /// The op.
        op: String,
        /// The parameter.
        param: String,
    },
    /// A program that lacks one of letters, numbers, punct_run, ws_run.
    #[error("pre-tokenizer program lacks the {0} op")]
    IncompleteProgram(&'static str),
    /// A pattern-only map whose pattern is not a known one.
    #[error("unsupported pre-tokenizer pattern (no program, and not a known pattern)")]
    UnsupportedPattern,
    /// Structurally invalid (ids, merges, specials).
    #[error("invalid map: {0}")]
    InvalidMap(String),
    /// Merge `index` breaks the rank = id order the encoder relies on.
    #[error("merge {index} is not consistent with rank = id")]
    MergeRankInconsistent {
        /// The merge's index.
        index: usize,
    },
    /// The file could not be read.
    #[cfg(feature = "std")]
    #[error("cannot read the map file: {0}")]
    Io(String),
}

fn invalid(msg: impl Into<String>) -> LoadError {
    LoadError::InvalidMap(msg.into())
}

/// A loaded, verified tokenizer map: its pin, its vocabulary and merges as
/// a byte-string table, its special tokens and its pre-tokenizer.
///
/// ```
/// # let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps"));
/// let pin = leaf_meta::MapId::parse("sha256:bbbb06e4f44c0317b3282ec98fb07991694ba3d4e82b88d7e77fb44b9209ff32")?;
/// let map = leaf_meta::LeafMap::from_file(dir.join("r50k_base.json"), &pin)?;
/// assert_eq!(map.encode("hello world"), [31373, 995]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct LeafMap {
    pub(crate) id: MapId,
    /// Every vocabulary entry, by bytes.
    pub(crate) table: TokenTable,
    /// Ids below this are byte symbols and merge results: the only ones BPE
    /// may form.
    pub(crate) bpe_limit: u32,
    /// Special tokens: bytes and id, longest first.
    pub(crate) specials: Vec<(Vec<u8>, u32)>,
    /// First bytes of the special tokens.
    pub(crate) special_first: [bool; 256],
    pub(crate) program: Program,
}

/// Decodes a byte-level token string to its bytes.
fn token_bytes(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len());
    push_token_bytes(s, &mut out).then_some(out)
}

/// Appends the bytes of a byte-level token string; `false` if a character
/// is outside the byte table.
fn push_token_bytes(s: &str, out: &mut Vec<u8>) -> bool {
    for c in s.chars() {
        match char_byte(c) {
            Some(b) => out.push(b),
            None => return false,
        }
    }
    true
}

/// `<|` + one or more of `[A-Za-z0-9_-]` + `|>`.
fn looks_special(s: &str) -> bool {
    s.strip_prefix("<|")
        .and_then(|r| r.strip_suffix("|>"))
        .is_some_and(|mid| {
            !mid.is_empty()
                && mid
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        })
}

impl LeafMap {
    /// Loads a map from its exact bytes, which must hash to `pin`.
    ///
    /// # Errors
    /// [`LoadError`]: a hash mismatch, invalid JSON, an unsupported map
    /// (version, encoder, program, pattern) or a structural defect.
    ///
    /// ```
    /// # let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps"));
    /// let bytes = std::fs::read(dir.join("r50k_base.json"))?;
    /// let pin = leaf_meta::MapId::parse("sha256:bbbb06e4f44c0317b3282ec98fb07991694ba3d4e82b88d7e77fb44b9209ff32")?;
    /// let map = leaf_meta::LeafMap::from_bytes(&bytes, &pin)?;
    /// assert_eq!(map.vocab_size(), 50257);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_bytes(bytes: &[u8], pin: &MapId) -> Result<LeafMap, LoadError> {
        let parse = || -> Result<raw::RawMap<'_>, LoadError> {
            serde_json::from_slice(bytes).map_err(|e| LoadError::Json(e.to_string()))
        };
        // With std, hash and parse on two threads; the pin is still checked
        // first, so a wrong pin is reported even for bytes that are not JSON.
        #[cfg(feature = "std")]
        let (actual, raw) = std::thread::scope(|s| {
            let hashing = s.spawn(|| MapId::of_bytes(bytes));
            let raw = parse();
            (
                hashing.join().unwrap_or_else(|_| MapId::of_bytes(bytes)),
                raw,
            )
        });
        #[cfg(not(feature = "std"))]
        let (actual, raw) = (MapId::of_bytes(bytes), parse());
        if &actual != pin {
            return Err(LoadError::HashMismatch {
                expected: pin.clone(),
                actual,
            });
        }
        Self::build(raw?, actual)
    }

    /// Reads and loads a map file.
    ///
    /// # Errors
    /// [`LoadError::Io`] if the file cannot be read; otherwise as
    /// [`LeafMap::from_bytes`].
    ///
    /// ```
    /// # let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps"));
    /// let pin = leaf_meta::MapId::parse("62c2f94fcbdb9b49d51632314e64aa65894496bc39751cb90866049657a262ad")?;
    /// let map = leaf_meta::LeafMap::from_file(dir.join("qwen2.62c2f94fcbdb.json"), &pin)?;
    /// assert_eq!(map.id(), &pin);
    /// // Another map's bytes do not load under this pin.
    /// assert!(leaf_meta::LeafMap::from_file(dir.join("r50k_base.json"), &pin).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "std")]
    pub fn from_file(path: impl AsRef<std::path::Path>, pin: &MapId) -> Result<LeafMap, LoadError> {
        let bytes = std::fs::read(path.as_ref())
            .map_err(|e| LoadError::Io(alloc::format!("{}: {e}", path.as_ref().display())))?;
        LeafMap::from_bytes(&bytes, pin)
    }

    fn build(raw: raw::RawMap<'_>, id: MapId) -> Result<LeafMap, LoadError> {
        if raw.tokens.is_some() && raw.vocab.is_none() {
            return Err(LoadError::UnsupportedVersion("1".to_string()));
        }
        let version = raw.version.as_deref().unwrap_or("");
        if version != "2" {
            return Err(LoadError::UnsupportedVersion(version.to_string()));
        }
        match raw.encoder.as_deref() {
            Some("byte_level") => {}
            other => {
                return Err(LoadError::UnsupportedEncoder(
                    other.unwrap_or("").to_string(),
                ));
            }
        }
        let program = match raw.pre_tokenizer_program {
            Some(p) if p.version != 1 => {
                return Err(LoadError::UnsupportedProgramVersion(p.version));
            }
            Some(p) if !p.ops.is_empty() => program::from_ops(&p.ops)?,
            _ => raw
                .pre_tokenizer_pattern
                .as_deref()
                .and_then(Program::from_pattern)
                .ok_or(LoadError::UnsupportedPattern)?,
        };
        let vocab = raw.vocab.ok_or_else(|| invalid("no vocab"))?.0;
        let merges = raw.merges.ok_or_else(|| invalid("no merges"))?;
        let size = usize::try_from(raw.vocab_size.ok_or_else(|| invalid("no vocab_size"))?)
            .map_err(|_| invalid("vocab_size"))?;
        if vocab.len() != size {
            return Err(invalid(alloc::format!(
                "vocab_size {size} but {} entries",
                vocab.len()
            )));
        }
        let arena: usize = vocab.iter().map(|(k, _)| k.len()).sum();
        let mut table = TokenTable::with_ids(size, arena);
        let mut seen = alloc::vec![false; size];
        let mut bytes: Vec<u8> = Vec::new();
        for (key, id) in &vocab {
            let idx = usize::try_from(*id)
                .ok()
                .filter(|&i| i < size)
                .ok_or_else(|| invalid(alloc::format!("id {id} of {key:?} outside 0..{size}")))?;
            if core::mem::replace(seen.get_mut(idx).ok_or_else(|| invalid("id"))?, true) {
                return Err(invalid(alloc::format!("duplicate id {id}")));
            }
            bytes.clear();
            if !push_token_bytes(key, &mut bytes) {
                return Err(invalid(alloc::format!(
                    "{key:?} uses a character outside the byte table"
                )));
            }
            if !table.insert(*id as u32, &bytes) {
                return Err(invalid(alloc::format!("duplicate token {key:?}")));
            }
        }
        // Byte symbols: ids 0–255 in table order.
        for b in 0..=255u8 {
            let want = crate::byte_table::byte_id(b);
            if table.get(&[b]) != Some(want) {
                return Err(invalid(alloc::format!(
                    "byte symbol {:?} missing or not id {want}",
                    byte_char(b)
                )));
            }
        }
        // Merges: merge i joins two tokens into the token with id 256 + i.
        let bpe_limit =
            u32::try_from(256 + merges.len()).map_err(|_| invalid("too many merges"))?;
        let mut joined = Vec::new();
        for (i, merge) in merges.iter().enumerate() {
            let mut parts = merge.split(' ');
            let (Some(a), Some(b), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(invalid(alloc::format!(
                    "merge {i} {merge:?} is not two symbols"
                )));
            };
            joined.clear();
            let ok_a = push_token_bytes(a, &mut joined);
            let split = joined.len();
            let ok_b = push_token_bytes(b, &mut joined);
            if !ok_a || !ok_b {
                return Err(invalid(alloc::format!(
                    "merge {i} uses a character outside the byte table"
                )));
            }
            let (left, right) = joined.split_at(split);
            if left.is_empty()
                || right.is_empty()
                || table.get(left).is_none()
                || table.get(right).is_none()
            {
                return Err(invalid(alloc::format!(
                    "merge {i} {merge:?} has an operand missing from vocab"
                )));
            }
            match table.get(&joined) {
                Some(id) if id as usize == 256 + i => {}
                Some(_) => return Err(LoadError::MergeRankInconsistent { index: i }),
                None => {
                    return Err(invalid(alloc::format!(
                        "merge {i} {merge:?} yields no vocab token"
                    )));
                }
            }
        }
        // Specials: `special_tokens`, plus `<|…|>` vocab keys.
        let mut specials: Vec<(Vec<u8>, u32)> = Vec::new();
        for (key, id) in raw.special_tokens.map(|p| p.0).unwrap_or_default() {
            let id = u32::try_from(id).map_err(|_| invalid("special id"))?;
            if let Some(bytes) = token_bytes(&key) {
                if let Some(vid) = table.get(&bytes) {
                    if vid != id {
                        return Err(invalid(alloc::format!(
                            "special {key:?} is {id} but vocab says {vid}"
                        )));
                    }
                }
            }
            specials.push((key.as_bytes().to_vec(), id));
        }
        for (key, id) in &vocab {
            if looks_special(key) && !specials.iter().any(|(k, _)| k.as_slice() == key.as_bytes()) {
                specials.push((key.as_bytes().to_vec(), *id as u32));
            }
        }
        specials.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(&b.0)));
        let mut special_first = [false; 256];
        for (bytes, _) in &specials {
            if let Some(&b) = bytes.first() {
                if let Some(slot) = special_first.get_mut(usize::from(b)) {
                    *slot = true;
                }
            }
        }
        let map = LeafMap {
            id,
            table,
            bpe_limit,
            specials,
            special_first,
            program,
        };
        map.split_check(&merges)?;
        Ok(map)
    }

    /// §9.1.6: for each merge producing `t` from `(a, b)`, merging `t`'s
    /// bytes with only the tokens ranked before `t` ends at `[a, b]`.
    fn split_check(&self, merges: &[alloc::borrow::Cow<'_, str>]) -> Result<(), LoadError> {
        // With std, the merges are checked in parallel chunks; the first
        // failing index (in merge order) is reported either way.
        #[cfg(feature = "std")]
        {
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
            if threads > 1 && merges.len() > 4096 {
                let chunk = merges.len().div_ceil(threads);
                let results: Vec<Result<(), LoadError>> = std::thread::scope(|s| {
                    let handles: Vec<_> = merges
                        .chunks(chunk)
                        .enumerate()
                        .map(|(k, part)| s.spawn(move || self.split_check_range(part, k * chunk)))
                        .collect();
                    handles
                        .into_iter()
                        .map(|h| {
                            h.join().unwrap_or(Err(LoadError::InvalidMap(
                                "check thread failed".to_string(),
                            )))
                        })
                        .collect()
                });
                return results.into_iter().collect();
            }
        }
        self.split_check_range(merges, 0)
    }

    /// [`LeafMap::split_check`] for `merges`, the first of which is merge
    /// number `first`.
    fn split_check_range(
        &self,
        merges: &[alloc::borrow::Cow<'_, str>],
        first: usize,
    ) -> Result<(), LoadError> {
        let mut ids = Vec::new();
        for (k, merge) in merges.iter().enumerate() {
            let i = first + k;
            let rank = 256 + i as u32;
            let t = self.table.bytes(rank);
            ids.clear();
            crate::bpe::encode_piece(&self.table, t, rank, &mut ids);
            // t = a + b: the first id must be exactly `a`'s bytes.
            let a_len = merge.split_once(' ').map_or(0, |(a, _)| a.chars().count());
            let ok = match ids.as_slice() {
                [a, b] => {
                    let (a_bytes, b_bytes) = (self.table.bytes(*a), self.table.bytes(*b));
                    a_bytes.len() == a_len && a_bytes.len() + b_bytes.len() == t.len()
                }
                _ => false,
            };
            if !ok {
                return Err(LoadError::MergeRankInconsistent { index: i });
            }
        }
        Ok(())
    }

    /// The map's pin.
    ///
    /// ```
    /// # let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps"));
    /// let pin = leaf_meta::MapId::parse("sha256:bbbb06e4f44c0317b3282ec98fb07991694ba3d4e82b88d7e77fb44b9209ff32")?;
    /// let map = leaf_meta::LeafMap::from_file(dir.join("r50k_base.json"), &pin)?;
    /// assert_eq!(map.id(), &pin);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn id(&self) -> &MapId {
        &self.id
    }

    /// The number of ids (`vocab_size`).
    ///
    /// ```
    /// # let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps"));
    /// let pin = leaf_meta::MapId::parse("sha256:bbbb06e4f44c0317b3282ec98fb07991694ba3d4e82b88d7e77fb44b9209ff32")?;
    /// let map = leaf_meta::LeafMap::from_file(dir.join("r50k_base.json"), &pin)?;
    /// assert_eq!(map.vocab_size(), 50257);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn vocab_size(&self) -> usize {
        self.table.len()
    }
}
