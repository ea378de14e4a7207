//! Text → ids (§3): special tokens split out, the rest pre-tokenized and
//! merged; ids → bytes for round trips.

use alloc::vec::Vec;

use crate::bpe::encode_piece;
use crate::cache::EncodeState;
use crate::map::LeafMap;

#[cfg(feature = "std")]
std::thread_local! {
    /// The per-thread piece cache used by [`LeafMap::encode`] and friends.
    static STATE: core::cell::RefCell<EncodeState> = core::cell::RefCell::new(EncodeState::default());
}

/// What to do with special-token text (`<|im_end|>`) found in the input.
///
/// Parsing it (the default, as the reference implementations do) lets text
/// that came from an untrusted source inject control tokens into a model's
/// context: a tool result quoting `<|im_start|>system` becomes a real turn
/// boundary for the model reading the ids. Use `AsText` when the text is
/// untrusted and the ids need not match the reference, or `Reject` to
/// refuse such input.
///
/// ```
/// use leaf_meta::SpecialTokens;
/// assert_eq!(SpecialTokens::default(), SpecialTokens::Parse);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SpecialTokens {
    /// Special-token strings become their ids (reference parity).
    #[default]
    Parse,
    /// Special-token strings are encoded as ordinary text.
    AsText,
    /// Special-token strings are an error.
    Reject,
}

/// Options of [`LeafMap::encode_with`].
///
/// ```
/// let opts = leaf_meta::EncodeOptions { special: leaf_meta::SpecialTokens::AsText, ..Default::default() };
/// assert_ne!(opts, Default::default());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EncodeOptions {
    /// Special-token handling.
    pub special: SpecialTokens,
    /// Apply NFC to each segment between special tokens before
    /// pre-tokenizing (Hugging Face's Qwen2 tokenizer does; the Codec
    /// references do not, so it is off by default). Never applied to the
    /// whole text: `<|im_end|>` followed by U+0338 must not compose.
    #[cfg(feature = "nfc")]
    pub nfc: bool,
}

/// The text holds a special token and [`SpecialTokens::Reject`] is set.
///
/// ```
/// # let e = leaf_meta::SpecialTokenFound { offset: 3 };
/// assert_eq!(e.to_string(), "special token text at byte 3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("special token text at byte {offset}")]
pub struct SpecialTokenFound {
    /// Where it starts.
    pub offset: usize,
}

impl LeafMap {
    /// The special token starting at byte `at` of `text`, longest first.
    fn special_at(&self, text: &[u8], at: usize) -> Option<(usize, u32)> {
        let rest = text.get(at..)?;
        self.specials
            .iter()
            .find(|(bytes, _)| rest.starts_with(bytes))
            .map(|(bytes, id)| (bytes.len(), *id))
    }

    /// The ids of `text` with the default options (reference parity).
    ///
    /// ```
    /// # let pin = leaf_meta::MapId::parse("62c2f94fcbdb9b49d51632314e64aa65894496bc39751cb90866049657a262ad").unwrap();
    /// # let map = leaf_meta::LeafMap::from_file(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps/qwen2.62c2f94fcbdb.json"), &pin).unwrap();
    /// assert_eq!(map.encode("Hello, world!"), [9707, 11, 1879, 0]);
    /// ```
    #[must_use]
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut out = Vec::new();
        // `Parse` never fails.
        let _ = self.encode_into(text, EncodeOptions::default(), &mut out);
        out
    }

    /// The ids of `text` under `options`.
    ///
    /// # Errors
    /// [`SpecialTokenFound`] under [`SpecialTokens::Reject`].
    ///
    /// ```
    /// # let pin = leaf_meta::MapId::parse("62c2f94fcbdb9b49d51632314e64aa65894496bc39751cb90866049657a262ad").unwrap();
    /// # let map = leaf_meta::LeafMap::from_file(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps/qwen2.62c2f94fcbdb.json"), &pin).unwrap();
    /// use leaf_meta::{EncodeOptions, SpecialTokens};
    /// let opts = EncodeOptions { special: SpecialTokens::Reject, ..Default::default() };
    /// assert!(map.encode_with("<|im_end|>", opts).is_err());
    /// ```
    pub fn encode_with(
        &self,
        text: &str,
        options: EncodeOptions,
    ) -> Result<Vec<u32>, SpecialTokenFound> {
        let mut out = Vec::new();
        self.encode_into(text, options, &mut out)?;
        Ok(out)
    }

    /// Appends the ids of `text` to `out`.
    ///
    /// # Errors
    /// As for [`LeafMap::encode_with`].
    ///
    /// ```
    /// # let pin = leaf_meta::MapId::parse("62c2f94fcbdb9b49d51632314e64aa65894496bc39751cb90866049657a262ad").unwrap();
    /// # let map = leaf_meta::LeafMap::from_file(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps/qwen2.62c2f94fcbdb.json"), &pin).unwrap();
    /// let mut ids = vec![9707];
    /// // Appended: what `out` held stays.
    /// map.encode_into(", world!", Default::default(), &mut ids)?;
    /// assert_eq!(ids, map.encode("Hello, world!"));
    /// # Ok::<(), leaf_meta::SpecialTokenFound>(())
    /// ```
    pub fn encode_into(
        &self,
        text: &str,
        options: EncodeOptions,
        out: &mut Vec<u32>,
    ) -> Result<(), SpecialTokenFound> {
        #[cfg(feature = "std")]
        {
            let cached = STATE.with(|state| match state.try_borrow_mut() {
                Ok(mut state) => Some(self.encode_impl(text, options, Some(&mut state), out)),
                Err(_) => None,
            });
            if let Some(result) = cached {
                return result;
            }
        }
        self.encode_impl(text, options, None, out)
    }

    /// [`LeafMap::encode_into`] with a caller-owned piece cache (the
    /// `no_std` way to cache; with `std`, `encode` keeps one per thread).
    /// The ids never depend on the cache's state.
    ///
    /// # Errors
    /// As for [`LeafMap::encode_with`].
    ///
    /// ```
    /// # let pin = leaf_meta::MapId::parse("62c2f94fcbdb9b49d51632314e64aa65894496bc39751cb90866049657a262ad").unwrap();
    /// # let map = leaf_meta::LeafMap::from_file(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps/qwen2.62c2f94fcbdb.json"), &pin).unwrap();
    /// let mut state = leaf_meta::EncodeState::new(1024);
    /// let mut ids = Vec::new();
    /// map.encode_cached("hello", Default::default(), &mut state, &mut ids)?;
    /// assert_eq!(ids, map.encode("hello"));
    /// # Ok::<(), leaf_meta::SpecialTokenFound>(())
    /// ```
    pub fn encode_cached(
        &self,
        text: &str,
        options: EncodeOptions,
        state: &mut EncodeState,
        out: &mut Vec<u32>,
    ) -> Result<(), SpecialTokenFound> {
        self.encode_impl(text, options, Some(state), out)
    }

    fn encode_impl(
        &self,
        text: &str,
        options: EncodeOptions,
        mut state: Option<&mut EncodeState>,
        out: &mut Vec<u32>,
    ) -> Result<(), SpecialTokenFound> {
        if let Some(cache) = state.as_deref_mut() {
            cache.bind(&self.id);
        }
        let bytes = text.as_bytes();
        let mut start = 0;
        if options.special != SpecialTokens::AsText {
            let mut at = 0;
            while at < bytes.len() {
                let first = bytes.get(at).copied().unwrap_or(0);
                let hit = if self
                    .special_first
                    .get(usize::from(first))
                    .copied()
                    .unwrap_or(false)
                {
                    self.special_at(bytes, at)
                } else {
                    None
                };
                match hit {
                    Some((len, id)) => {
                        if options.special == SpecialTokens::Reject {
                            return Err(SpecialTokenFound { offset: at });
                        }
                        self.encode_normalized(
                            text.get(start..at).unwrap_or_default(),
                            options,
                            state.as_deref_mut(),
                            out,
                        );
                        out.push(id);
                        at += len;
                        start = at;
                    }
                    None => at += 1,
                }
            }
        }
        self.encode_normalized(text.get(start..).unwrap_or_default(), options, state, out);
        Ok(())
    }

    /// A segment between special tokens, normalized first if asked.
    fn encode_normalized(
        &self,
        segment: &str,
        options: EncodeOptions,
        state: Option<&mut EncodeState>,
        out: &mut Vec<u32>,
    ) {
        #[cfg(feature = "nfc")]
        if options.nfc {
            use unicode_normalization::UnicodeNormalization;
            let normalized: alloc::string::String = segment.nfc().collect();
            return self.encode_segment(&normalized, state, out);
        }
        let _ = options;
        self.encode_segment(segment, state, out);
    }

    /// Pre-tokenizes and merges text without special tokens.
    fn encode_segment(
        &self,
        segment: &str,
        mut state: Option<&mut EncodeState>,
        out: &mut Vec<u32>,
    ) {
        self.program.split(segment, |piece| {
            let piece = piece.as_bytes();
            // A whole token needs no cache.
            if let Some(id) = self.table.get(piece).filter(|&id| id < self.bpe_limit) {
                out.push(id);
                return;
            }
            match state.as_deref_mut() {
                Some(cache) => {
                    if cache.get(piece, out) {
                        return;
                    }
                    let start = out.len();
                    encode_piece(&self.table, piece, self.bpe_limit, out);
                    cache.put(piece, out.get(start..).unwrap_or_default());
                }
                None => encode_piece(&self.table, piece, self.bpe_limit, out),
            }
        });
    }

    /// The bytes of `ids` (special tokens as their text); unknown ids are
    /// skipped.
    ///
    /// ```
    /// # let pin = leaf_meta::MapId::parse("62c2f94fcbdb9b49d51632314e64aa65894496bc39751cb90866049657a262ad").unwrap();
    /// # let map = leaf_meta::LeafMap::from_file(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps/qwen2.62c2f94fcbdb.json"), &pin).unwrap();
    /// assert_eq!(map.decode(&map.encode("héllo")), "héllo".as_bytes());
    /// ```
    #[must_use]
    pub fn decode(&self, ids: &[u32]) -> Vec<u8> {
        let mut out = Vec::new();
        for &id in ids {
            out.extend_from_slice(self.table.bytes(id));
        }
        out
    }
}
