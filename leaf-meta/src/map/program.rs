//! Reading `pre_tokenizer_program` v1 ops from the map (§3.4, §9.1.4).

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::LoadError;
use crate::pretokenize::{Lead, Op, Program};

fn param_names(op: &Map<String, Value>, allowed: &[&str], name: &str) -> Result<(), LoadError> {
    for key in op.keys().filter(|k| k.as_str() != "op") {
        if !allowed.contains(&key.as_str()) {
            return Err(LoadError::UnknownOpParameter {
                op: name.to_string(),
                param: key.clone(),
            });
        }
    }
    Ok(())
}

fn flag(op: &Map<String, Value>, key: &str, name: &str) -> Result<bool, LoadError> {
    match op.get(key) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(LoadError::InvalidMap(alloc::format!(
            "op {name}: {key} must be a bool"
        ))),
    }
}

/// Builds the program from its ops; refuses unknown ops and parameters and
/// programs that could stall (lacking letters, numbers, punct_run or
/// ws_run).
pub(crate) fn from_ops(ops: &[Map<String, Value>]) -> Result<Program, LoadError> {
    let mut out = Vec::with_capacity(ops.len());
    for op in ops {
        let name = op.get("op").and_then(Value::as_str).unwrap_or_default();
        let parsed = match name {
            "literals" | "literals_ci" => {
                param_names(op, &["patterns"], name)?;
                let patterns = op
                    .get("patterns")
                    .and_then(Value::as_array)
                    .map(|ps| {
                        ps.iter()
                            .filter_map(Value::as_str)
                            .map(String::from)
                            .collect::<Vec<_>>()
                    })
                    .filter(|ps| !ps.is_empty())
                    .ok_or_else(|| {
                        LoadError::InvalidMap(alloc::format!("op {name}: patterns must be strings"))
                    })?;
                Op::Literals {
                    patterns,
                    ci: name == "literals_ci",
                }
            }
            "letters" => {
                param_names(op, &["lead_other", "lead_space"], name)?;
                let lead = match (flag(op, "lead_other", name)?, flag(op, "lead_space", name)?) {
                    (true, true) => {
                        return Err(LoadError::InvalidMap("op letters: two leads".to_string()));
                    }
                    (true, false) => Lead::Other,
                    (false, true) => Lead::Space,
                    (false, false) => Lead::None,
                };
                Op::Letters { lead }
            }
            "numbers" => {
                param_names(op, &["max_run", "lead_space"], name)?;
                let max_run = match op.get("max_run") {
                    None => None,
                    Some(v) => Some(
                        v.as_u64()
                            .filter(|&n| n > 0)
                            .and_then(|n| usize::try_from(n).ok())
                            .ok_or_else(|| {
                                LoadError::InvalidMap(
                                    "op numbers: max_run must be a positive integer".to_string(),
                                )
                            })?,
                    ),
                };
                Op::Numbers {
                    max_run,
                    lead_space: flag(op, "lead_space", name)?,
                }
            }
            "punct_run" => {
                param_names(op, &["lead_space", "trailing_newlines"], name)?;
                Op::PunctRun {
                    lead_space: flag(op, "lead_space", name)?,
                    trailing_newlines: flag(op, "trailing_newlines", name)?,
                }
            }
            "newline_block" => {
                param_names(op, &[], name)?;
                Op::NewlineBlock
            }
            "trailing_ws" => {
                param_names(op, &[], name)?;
                Op::TrailingWs
            }
            "ws_run" => {
                param_names(op, &[], name)?;
                Op::WsRun
            }
            other => return Err(LoadError::UnknownOp(other.to_string())),
        };
        out.push(parsed);
    }
    for (needed, present) in [
        (
            "letters",
            out.iter().any(|o| matches!(o, Op::Letters { .. })),
        ),
        (
            "numbers",
            out.iter().any(|o| matches!(o, Op::Numbers { .. })),
        ),
        (
            "punct_run",
            out.iter().any(|o| matches!(o, Op::PunctRun { .. })),
        ),
        ("ws_run", out.iter().any(|o| matches!(o, Op::WsRun))),
    ] {
        if !present {
            return Err(LoadError::IncompleteProgram(needed));
        }
    }
    Ok(Program { ops: out })
}
