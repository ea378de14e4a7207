//! Each case in each format: minified JSON, MUNCH (auto, verified), GCX1
//! (per-tool layout where one exists, else generic) and TOON.

use std::fmt;

use gcx_wire::encode::{Mode, encode_any, encode_bench};

use crate::corpus::{Case, Group};
use crate::gcx_check;

/// A payload format of the scorecard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Minified JSON: Go `json.Marshal` for Gortex cases (what Gortex
    /// sends and measures), compact in input order otherwise.
    Json,
    /// MUNCH/1 through munch-core's `auto` dispatcher (verified).
    Munch,
    /// GCX1: the Gortex bench layout for Gortex tools, `EncodeAny` else.
    Gcx1,
    /// TOON through the `toon-format` crate (the outside reference).
    Toon,
    /// The smallest payload (cl100k, then bytes) among those known to
    /// decode back to the input, JSON included.
    Best,
}

impl Format {
    /// The encoded formats, in column order.
    pub const ENCODED: [Format; 4] = [Format::Json, Format::Munch, Format::Gcx1, Format::Toon];
    /// Every column.
    pub const ALL: [Format; 5] = [
        Format::Json,
        Format::Munch,
        Format::Gcx1,
        Format::Toon,
        Format::Best,
    ];

    /// The name used in tables and in `--json`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Munch => "munch",
            Format::Gcx1 => "gcx1",
            Format::Toon => "toon",
            Format::Best => "best",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One case in one format.
#[derive(Clone, Debug)]
pub struct Payload {
    /// The format.
    pub format: Format,
    /// The payload text (empty when the format refused the case).
    pub text: String,
    /// Whether it decodes back to the input; `None` where we do not decode
    /// the format (JSON, TOON).
    pub roundtrip: Option<bool>,
    /// What a reader of the table should know (fallback rung, dropped
    /// wrapper keys, refusal).
    pub note: Option<String>,
}

fn payload(format: Format, text: String, roundtrip: Option<bool>) -> Payload {
    Payload {
        format,
        text,
        roundtrip,
        note: None,
    }
}

/// The case's minified JSON.
fn json(case: &Case, value: &serde_json::Value) -> Payload {
    let text = if case.group == Group::Gortex {
        match gcx_wire::json::parse(case.json.as_bytes()) {
            Ok(v) => {
                let mut out = Vec::new();
                gcx_wire::json::write_go_json(&v, &mut out);
                String::from_utf8_lossy(&out).into_owned()
            }
            Err(_) => String::new(),
        }
    } else {
        serde_json::to_string(value).unwrap_or_default()
    };
    payload(Format::Json, text, None)
}

fn munch(case: &Case, value: &serde_json::Value) -> Payload {
    let out = munch_core::encode(&case.tool, value, &munch_core::Options::default());
    let roundtrip = munch_core::decode(&out.text)
        .is_ok_and(|d| munch_core::exact_eq(&d, value, munch_core::KeyOrder::Any));
    let mut p = payload(Format::Munch, out.text, Some(roundtrip));
    p.note = Some(match out.meta.reason {
        Some(reason) => format!("sent as JSON: {reason:?}"),
        None => {
            let layer = out
                .meta
                .layer
                .map(|l| format!(" ({l:?})"))
                .unwrap_or_default();
            format!("{}{}", out.meta.encoding, layer.to_lowercase())
        }
    });
    p
}

fn gcx1(case: &Case) -> Payload {
    let input = case.json.as_bytes();
    let (encoded, dropped) = if case.group == Group::Gortex {
        let dropped = gcx_wire::json::parse(input)
            .map(|v| gcx_check::bench_dropped_keys(&v))
            .unwrap_or_default();
        (encode_bench(&case.tool, input, Mode::Strict), dropped)
    } else {
        (encode_any(&case.tool, input, Mode::Strict), Vec::new())
    };
    match encoded {
        Ok(bytes) => {
            let rt = gcx_check::roundtrip(input, &bytes, &dropped);
            let mut p = payload(
                Format::Gcx1,
                String::from_utf8_lossy(&bytes).into_owned(),
                Some(rt),
            );
            if !dropped.is_empty() {
                p.note = Some(format!("bench layout drops {}", dropped.join(", ")));
            }
            p
        }
        Err(e) => {
            // No payload, nothing to decode: the table says `refused`.
            let mut p = payload(Format::Gcx1, String::new(), None);
            p.note = Some(format!("refused: {e}"));
            p
        }
    }
}

fn toon(value: &serde_json::Value) -> Payload {
    match toon_format::encode_default(value) {
        Ok(text) => payload(Format::Toon, text, None),
        Err(e) => {
            let mut p = payload(Format::Toon, String::new(), None);
            p.note = Some(format!("refused: {e}"));
            p
        }
    }
}

/// The case in every encoded format ([`Format::ENCODED`] order).
///
/// # Errors
/// When the case is not JSON.
pub fn encode(case: &Case) -> Result<Vec<Payload>, serde_json::Error> {
    let value: serde_json::Value = serde_json::from_str(&case.json)?;
    Ok(vec![
        json(case, &value),
        munch(case, &value),
        gcx1(case),
        toon(&value),
    ])
}
