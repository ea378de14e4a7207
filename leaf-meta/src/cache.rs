//! The bounded piece cache (§9.5.1): piece bytes → ids, for pieces of at
//! most [`EncodeState::MAX_PIECE`] bytes. When it holds `capacity` pieces
//! it is cleared (cheap and deterministic). Output never depends on it.

use alloc::vec::Vec;

/// Caller-owned encoder state: the piece cache. A [`LeafMap`] is immutable
/// and shared; each thread (or task) keeps its own `EncodeState`.
///
/// ```
/// # let pin = leaf_meta::MapId::parse("62c2f94fcbdb9b49d51632314e64aa65894496bc39751cb90866049657a262ad").unwrap();
/// # let map = leaf_meta::LeafMap::from_file(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps/qwen2.62c2f94fcbdb.json"), &pin).unwrap();
/// let mut state = leaf_meta::EncodeState::new(4096);
/// let mut ids = Vec::new();
/// map.encode_cached("same words, same words", Default::default(), &mut state, &mut ids)?;
/// // The second `same words` came from the cache: the ids are the same.
/// assert_eq!(ids, map.encode("same words, same words"));
/// # Ok::<(), leaf_meta::SpecialTokenFound>(())
/// ```
///
/// [`LeafMap`]: crate::LeafMap
#[derive(Clone, Debug)]
pub struct EncodeState {
    /// The map the cached ids belong to: another map clears the cache.
    owner: Option<crate::MapId>,
    capacity: usize,
    len: usize,
    /// Slot → entry index + 1 (0 = empty); a power of two ≥ 2 × capacity.
    slots: Vec<u32>,
    /// Per entry: key span in `keys`, ids span in `ids`.
    entries: Vec<(u32, u32, u32, u32)>,
    keys: Vec<u8>,
    ids: Vec<u32>,
}

impl Default for EncodeState {
    /// A cache of [`EncodeState::DEFAULT_CAPACITY`] pieces.
    fn default() -> Self {
        EncodeState::new(EncodeState::DEFAULT_CAPACITY)
    }
}

fn hash(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64 ^ bytes.len() as u64;
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl EncodeState {
    /// The default number of cached pieces.
    ///
    /// ```
    /// use leaf_meta::EncodeState;
    /// assert_eq!(EncodeState::default().capacity(), EncodeState::DEFAULT_CAPACITY);
    /// ```
    pub const DEFAULT_CAPACITY: usize = 32_768;
    /// Longer pieces are never cached.
    ///
    /// ```
    /// # let pin = leaf_meta::MapId::parse("62c2f94fcbdb9b49d51632314e64aa65894496bc39751cb90866049657a262ad").unwrap();
    /// # let map = leaf_meta::LeafMap::from_file(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps/qwen2.62c2f94fcbdb.json"), &pin).unwrap();
    /// let mut state = leaf_meta::EncodeState::default();
    /// let long_word = "x".repeat(leaf_meta::EncodeState::MAX_PIECE + 1);
    /// let mut ids = Vec::new();
    /// // Encoded as usual, but not kept in the cache.
    /// map.encode_cached(&long_word, Default::default(), &mut state, &mut ids)?;
    /// assert_eq!(ids, map.encode(&long_word));
    /// # Ok::<(), leaf_meta::SpecialTokenFound>(())
    /// ```
    pub const MAX_PIECE: usize = 64;

    /// A cache of at most `capacity` pieces (0 disables it).
    ///
    /// ```
    /// let state = leaf_meta::EncodeState::new(0);
    /// assert_eq!(state.capacity(), 0);
    /// ```
    #[must_use]
    pub fn new(capacity: usize) -> Self {
        let slots = if capacity == 0 {
            0
        } else {
            (capacity * 2).next_power_of_two()
        };
        EncodeState {
            owner: None,
            capacity,
            len: 0,
            slots: alloc::vec![0; slots],
            entries: Vec::new(),
            keys: Vec::new(),
            ids: Vec::new(),
        }
    }

    /// The capacity in pieces.
    ///
    /// ```
    /// assert_eq!(leaf_meta::EncodeState::default().capacity(), 32_768);
    /// ```
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Empties the cache.
    ///
    /// ```
    /// # let pin = leaf_meta::MapId::parse("62c2f94fcbdb9b49d51632314e64aa65894496bc39751cb90866049657a262ad").unwrap();
    /// # let map = leaf_meta::LeafMap::from_file(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps/qwen2.62c2f94fcbdb.json"), &pin).unwrap();
    /// let mut s = leaf_meta::EncodeState::new(8);
    /// let (mut before, mut after) = (Vec::new(), Vec::new());
    /// map.encode_cached("cached words", Default::default(), &mut s, &mut before)?;
    /// s.clear();
    /// // Ids never depend on what the cache holds.
    /// map.encode_cached("cached words", Default::default(), &mut s, &mut after)?;
    /// assert_eq!(before, after);
    /// assert_eq!(s.capacity(), 8);
    /// # Ok::<(), leaf_meta::SpecialTokenFound>(())
    /// ```
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = 0);
        self.entries.clear();
        self.keys.clear();
        self.ids.clear();
        self.len = 0;
    }

    /// Makes the cache belong to `map`, clearing it if it held another
    /// map's ids.
    pub(crate) fn bind(&mut self, map: &crate::MapId) {
        if self.owner.as_ref() != Some(map) {
            self.clear();
            self.owner = Some(map.clone());
        }
    }

    /// The cached ids of `piece`, appended to `out`; `false` if absent.
    pub(crate) fn get(&self, piece: &[u8], out: &mut Vec<u32>) -> bool {
        if self.capacity == 0 || piece.len() > Self::MAX_PIECE {
            return false;
        }
        let mask = self.slots.len() - 1;
        let mut at = (hash(piece) as usize) & mask;
        loop {
            let Some(&slot) = self.slots.get(at) else {
                return false;
            };
            if slot == 0 {
                return false;
            }
            if let Some(&(ks, kl, is, il)) = self.entries.get(slot as usize - 1) {
                if self.keys.get(ks as usize..(ks + kl) as usize) == Some(piece) {
                    out.extend_from_slice(
                        self.ids
                            .get(is as usize..(is + il) as usize)
                            .unwrap_or_default(),
                    );
                    return true;
                }
            }
            at = (at + 1) & mask;
        }
    }

    /// Remembers that `piece` encodes to `ids`.
    pub(crate) fn put(&mut self, piece: &[u8], ids: &[u32]) {
        if self.capacity == 0 || piece.len() > Self::MAX_PIECE {
            return;
        }
        if self.len >= self.capacity {
            self.clear();
        }
        let entry = (
            self.keys.len() as u32,
            piece.len() as u32,
            self.ids.len() as u32,
            ids.len() as u32,
        );
        self.keys.extend_from_slice(piece);
        self.ids.extend_from_slice(ids);
        self.entries.push(entry);
        self.len += 1;
        let index = self.entries.len() as u32;
        let mask = self.slots.len() - 1;
        let mut at = (hash(piece) as usize) & mask;
        while let Some(slot) = self.slots.get_mut(at) {
            if *slot == 0 {
                *slot = index;
                return;
            }
            at = (at + 1) & mask;
        }
    }
}
