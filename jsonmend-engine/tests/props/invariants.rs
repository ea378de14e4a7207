//! The invariants every repair keeps (spec §2.4), checked by the property
//! tests and the `jsonmend_repair` fuzz target alike.

use jsonmend_engine::{Completeness, ErrorCode, Exactness, Options, repair_bytes_unchecked};

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

/// Checks one input; returns a description of the first broken invariant.
pub(crate) fn check(input: &[u8]) -> Result<(), String> {
    let opts = Options::default();
    let result = repair_bytes_unchecked(input, &opts);
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
