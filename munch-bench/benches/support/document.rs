//! The bench document as the timing examples read it: its JSON text, its
//! value, and its verified tier-1 (`search_symbols`) and gen1
//! (`get_hotspots`) payloads.
#![allow(dead_code)]

use munch_core::{Format, Mode, Options, encode};

/// The document named on the command line, with its payloads.
pub(crate) struct Document {
    pub(crate) text: String,
    pub(crate) value: serde_json::Value,
    pub(crate) tier1: String,
    pub(crate) gen1: String,
    /// The options the payloads were encoded with (compact, verified).
    pub(crate) opts: Options<'static>,
}

/// Reads the document at the path given as the first argument (`usage`
/// is the panic message without one).
pub(crate) fn from_args(usage: &str) -> Document {
    let path = std::env::args().nth(1).expect(usage);
    let text = std::fs::read_to_string(&path).expect("cannot read the document");
    let value: serde_json::Value = serde_json::from_str(&text).expect("not JSON");
    let opts = Options {
        format: Format::Compact,
        mode: Mode::Verified,
        ..Options::default()
    };
    let tier1 = encode("search_symbols", &value, &opts).text;
    let gen1 = encode("get_hotspots", &value, &opts).text;
    Document {
        text,
        value,
        tier1,
        gen1,
        opts,
    }
}
