//! JSON text to a `serde_json::Value` without serde_json's recursion limit
//! of 128: results nest as deep as the engine allows (1,024 by default).

use serde::Deserialize;

pub(crate) fn parse(text: &str) -> Result<serde_json::Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let v = serde_json::Value::deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}
