//! Dispatcher settings (spec D4): format, mode, threshold, size measure,
//! key-order policy.

use core::fmt;

use crate::equal::KeyOrder;
use crate::py::json_parse::DEFAULT_DEPTH_LIMIT;

/// The output format a caller asks for.
///
/// ```
/// use munch_core::Format;
/// assert_eq!(Format::parse(" Adaptive "), Some(Format::Auto));
/// assert_eq!(Format::parse("ENCODED"), Some(Format::Compact));
/// assert_eq!(Format::parse("raw"), Some(Format::Json));
/// assert_eq!(Format::parse("yaml"), None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Format {
    /// MUNCH when it saves at least the threshold, else JSON (`auto`,
    /// `adaptive`). The default.
    #[default]
    Auto,
    /// MUNCH whenever an encoding is accepted (`compact`, `encoded`).
    Compact,
    /// Always JSON (`json`, `raw`).
    Json,
}

impl Format {
    /// Parses a format name or alias, trimmed of whitespace and in any
    /// case; `None` for anything else (callers then use their default).
    ///
    /// ```
    /// assert_eq!(munch_core::Format::parse("Compact"), Some(munch_core::Format::Compact));
    /// ```
    #[must_use]
    pub fn parse(name: &str) -> Option<Format> {
        let name = crate::unicode::strip_space(name);
        let is = |w: &str| name.eq_ignore_ascii_case(w);
        if is("auto") || is("adaptive") {
            Some(Format::Auto)
        } else if is("compact") || is("encoded") {
            Some(Format::Compact)
        } else if is("json") || is("raw") {
            Some(Format::Json)
        } else {
            None
        }
    }
}

/// Which encoder stack runs.
///
/// ```
/// assert_eq!(munch_core::Mode::default(), munch_core::Mode::Verified);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Every payload is decoded and compared with the input before it is
    /// used; on a difference the next rung of the ladder runs (spec D3).
    #[default]
    Verified,
    /// The reference dispatcher as it is, losses included (spec D2).
    Reference,
}

/// How sizes are counted for the gate and the savings figure.
///
/// ```
/// use munch_core::{Format, Measure, Options};
/// let words = |s: &str| s.split([' ', ',', '\n']).filter(|w| !w.is_empty()).count();
/// let opts = Options { format: Format::Compact, measure: Measure::Tokens(&words), ..Default::default() };
/// let response = serde_json::json!({"files": [{"file": "a.py"}, {"file": "b.py"}]});
/// let out = munch_core::encode("some_tool", &response, &opts);
/// assert!(out.meta.encoding_tokens_saved.is_some());
/// ```
#[derive(Clone, Copy, Default)]
pub enum Measure<'a> {
    /// The reference's count: code points of the payload against the
    /// length of the ASCII Python JSON. The default.
    #[default]
    PythonCodePoints,
    /// UTF-8 bytes of the payload against UTF-8 bytes of compact JSON
    /// without `\u` escapes.
    Utf8Bytes,
    /// A caller's token counter applied to both texts.
    Tokens(&'a dyn Fn(&str) -> usize),
}

impl fmt::Debug for Measure<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Measure::PythonCodePoints => "PythonCodePoints",
            Measure::Utf8Bytes => "Utf8Bytes",
            Measure::Tokens(_) => "Tokens(..)",
        })
    }
}

/// Encoder settings.
///
/// ```
/// use munch_core::{Format, Options};
/// let opts = Options { format: Format::Compact, ..Options::default() };
/// assert_eq!(opts.threshold, 0.15);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Options<'a> {
    /// The output format.
    pub format: Format,
    /// Verified (default) or reference.
    pub mode: Mode,
    /// The least saving ratio for MUNCH in `auto` (default 0.15).
    pub threshold: f64,
    /// How sizes are counted.
    pub measure: Measure<'a>,
    /// Whether verification also compares object key order.
    pub key_order: KeyOrder,
    /// Deepest JSON nesting accepted (default 1,000).
    pub depth_limit: usize,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            format: Format::Auto,
            mode: Mode::Verified,
            threshold: DEFAULT_THRESHOLD,
            measure: Measure::PythonCodePoints,
            key_order: KeyOrder::Any,
            depth_limit: DEFAULT_DEPTH_LIMIT,
        }
    }
}

/// The reference's default gate threshold.
///
/// ```
/// assert_eq!(munch_core::Options::default().threshold, munch_core::DEFAULT_THRESHOLD);
/// ```
pub const DEFAULT_THRESHOLD: f64 = 0.15;

#[cfg(feature = "std")]
impl Options<'_> {
    /// Defaults overridden by `JCODEMUNCH_DEFAULT_FORMAT` (a format alias;
    /// unknown values ignored) and `JCODEMUNCH_ENCODING_THRESHOLD` (Python
    /// `float()`; unparsable keeps 0.15; the value becomes `max(0, x)`, so
    /// NaN and negatives give 0). The encoder never reads the environment
    /// by itself.
    ///
    /// ```
    /// let opts = munch_core::Options::from_env();
    /// assert!(opts.threshold >= 0.0);
    /// ```
    #[must_use]
    pub fn from_env() -> Self {
        let mut opts = Options::default();
        if let Ok(v) = std::env::var("JCODEMUNCH_DEFAULT_FORMAT") {
            if let Some(f) = Format::parse(&v) {
                opts.format = f;
            }
        }
        if let Ok(v) = std::env::var("JCODEMUNCH_ENCODING_THRESHOLD") {
            if let Some(x) = crate::py::number::parse_float(&v) {
                opts.threshold = if x > 0.0 { x } else { 0.0 };
            }
        }
        opts
    }
}
