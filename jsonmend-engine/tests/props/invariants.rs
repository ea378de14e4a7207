//! The invariants every repair keeps (spec §2.4), checked by the property
//! tests and the `jsonmend_repair` fuzz target alike.

use jsonmend_engine::{
    Completeness, ErrorCode, Exactness, Options, Repaired, repair_bytes_unchecked, repair_unchecked,
};

/// Whether `text` is strict JSON (RFC 8259, no lone surrogate escapes).
pub(crate) fn is_strict(text: &str) -> bool {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let ok = serde::de::IgnoredAny::deserialize_ok(&mut de);
    ok && de.end().is_ok()
}

trait DeserializeOk {
    fn deserialize_ok(de: &mut serde_json::Deserializer<serde_json::de::StrRead<'_>>) -> bool;
}

impl DeserializeOk for serde::de::IgnoredAny {
    fn deserialize_ok(de: &mut serde_json::Deserializer<serde_json::de::StrRead<'_>>) -> bool {
        <serde::de::IgnoredAny as serde::Deserialize>::deserialize(de).is_ok()
    }
}

/// The input as text repairs as the same bytes did (`result`): the engine
/// writes pieces of a text source unchecked, and copies non-ASCII runs
/// whole.
pub(crate) fn same_as_text(
    input: &[u8],
    opts: &Options,
    result: &Result<Repaired<'_>, jsonmend_engine::Error>,
) -> Result<(), String> {
    let Ok(as_text) = core::str::from_utf8(input) else {
        return Ok(());
    };
    let b = repair_unchecked(as_text, opts);
    let same = match (result, &b) {
        (Ok(a), Ok(b)) => a.text == b.text && a.repairs == b.repairs,
        (Err(a), Err(b)) => a == b,
        _ => false,
    };
    if same {
        return Ok(());
    }
    Err(format!(
        "text and bytes differ: {:?} vs {:?}",
        result.as_ref().map(|r| &r.text),
        b.map(|r| r.text.into_owned())
    ))
}

/// Checks one input; returns a description of the first broken invariant.
pub(crate) fn check(input: &[u8]) -> Result<(), String> {
    let opts = Options::default();
    let result = repair_bytes_unchecked(input, &opts);
    same_as_text(input, &opts, &result)?;
    let r = match result {
        Ok(r) => r,
        Err(e) => {
            return match e.code {
                ErrorCode::E001 | ErrorCode::E002 | ErrorCode::E003 | ErrorCode::E040 => Ok(()),
                other => Err(format!("unexpected error {other}: {e}")),
            };
        }
    };
    let text = r.text.as_ref();
    // I1: strict JSON (serde_json rejects lone surrogate escapes and NaN).
    if !is_strict(text) {
        return Err(format!("I1: output is not strict JSON: {text:?}"));
    }
    // I4: exact iff the text is the input.
    let same = text.as_bytes() == input;
    if same != (r.exactness == Exactness::Exact) {
        return Err(format!(
            "I4: exactness {:?} but same={same}: {text:?}",
            r.exactness
        ));
    }
    // I5: a non-exact text has no surrounding whitespace.
    if r.exactness != Exactness::Exact && text.trim() != text {
        return Err(format!("I5: surrounding whitespace: {text:?}"));
    }
    if r.completeness != Completeness::Complete && r.exactness != Exactness::Lossy {
        return Err(format!("truncation must be lossy: {text:?}"));
    }
    // I3: repairing the output changes nothing.
    let again = repair_bytes_unchecked(text.as_bytes(), &opts)
        .map_err(|e| format!("I3: output does not repair: {e}: {text:?}"))?;
    if again.exactness != Exactness::Exact || again.text != text {
        return Err(format!(
            "I3: output repaired again to {:?}: {text:?}",
            again.text
        ));
    }
    Ok(())
}
