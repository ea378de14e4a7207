//! Map pins: `sha256:` + the lowercase hex SHA-256 of the exact map bytes
//! (§2.2, §9.1.2).

use alloc::string::String;
use core::fmt;

/// The canonical pin of a tokenizer map: `sha256:` + 64 lowercase hex
/// digits of the SHA-256 of the map's exact bytes.
///
/// ```
/// use leaf_meta::MapId;
///
/// let id = MapId::parse("SHA256:62C2F94FCBDB9B49D51632314E64AA65894496BC39751CB90866049657A262AD")?;
/// assert_eq!(id.as_str(), "sha256:62c2f94fcbdb9b49d51632314e64aa65894496bc39751cb90866049657a262ad");
/// assert_eq!(MapId::parse(&id.as_str()[7..])?, id); // bare hex
/// assert!(MapId::parse("sha256:xyz").is_err());
/// # Ok::<(), leaf_meta::MapIdError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MapId(String);

/// A string that is not a SHA-256 pin.
///
/// ```
/// let err = leaf_meta::MapId::parse("md5:abc").unwrap_err();
/// assert_eq!(err.to_string(), "not a sha256 map id: \"md5:abc\" (want sha256:<64 hex digits>)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a sha256 map id: {given:?} (want sha256:<64 hex digits>)")]
pub struct MapIdError {
    /// The string given.
    pub given: String,
}

impl MapId {
    /// Parses `sha256:<64 hex>` (prefix in any case) or bare 64-hex, hex
    /// in either case, into the canonical form.
    ///
    /// # Errors
    /// [`MapIdError`] for anything else (other algorithms, wrong length,
    /// non-hex).
    ///
    /// ```
    /// assert!(leaf_meta::MapId::parse("not-a-hash").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<MapId, MapIdError> {
        let err = || MapIdError {
            given: String::from(text),
        };
        let hex = match text.get(..7) {
            Some(prefix) if prefix.eq_ignore_ascii_case("sha256:") => {
                text.get(7..).ok_or_else(err)?
            }
            _ => text,
        };
        if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(err());
        }
        let mut id = String::with_capacity(71);
        id.push_str("sha256:");
        id.extend(hex.chars().map(|c| c.to_ascii_lowercase()));
        Ok(MapId(id))
    }

    /// The pin of `bytes` (for tooling; loading requires a pin).
    ///
    /// ```
    /// let id = leaf_meta::MapId::of_bytes(b"abc");
    /// assert_eq!(id.as_str(), "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    /// ```
    #[must_use]
    pub fn of_bytes(bytes: &[u8]) -> MapId {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut id = String::with_capacity(71);
        id.push_str("sha256:");
        for b in crate::sha256::digest(bytes) {
            for nibble in [b >> 4, b & 15] {
                id.push(char::from(
                    HEX.get(usize::from(nibble)).copied().unwrap_or(b'0'),
                ));
            }
        }
        MapId(id)
    }

    /// The canonical text, `sha256:<64 lowercase hex>`.
    ///
    /// ```
    /// let id = leaf_meta::MapId::of_bytes(b"");
    /// assert!(id.as_str().starts_with("sha256:e3b0c442"));
    /// ```
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for MapId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for MapId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MapId({})", self.0)
    }
}

impl core::str::FromStr for MapId {
    type Err = MapIdError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        MapId::parse(s)
    }
}
