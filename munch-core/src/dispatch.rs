//! The dispatcher (spec §9, D3, D4): format, encoder ladder, gate.

use alloc::string::String;
use alloc::vec::Vec;
use core::cell::OnceCell;
use serde_json::{Map, Value};

use crate::decode::{DecodeOptions, decode_with};
use crate::encode::{Fail, Payload, gen1, gen1_same, tier1};
use crate::equal::{KeyOrder, first_mismatch, py_eq};
use crate::meta::{Attempt, EncodeMeta, JsonReason, Outcome, Rung};
use crate::options::{Format, Measure, Mode, Options};
use crate::py::json_write::{
    python_json_len, python_json_len_members, to_python_json_depth, write_python_json,
};
use crate::tier1::known_loss::known_loss;
use crate::tier1::schema::{Schema, Transform, is_universal_body_key};
use crate::tier1::schemas;
use crate::tier1::transforms::dependency_cycles::has_empty_cycle;
use crate::tier1::transforms::{self, Reshaped};
use crate::value::{Kind, kind, member};

/// A response as sent: the text and what was chosen.
///
/// ```
/// use munch_core::{Format, Options};
/// let response = serde_json::json!({"files": [{"file": "a.py"}, {"file": "b.py"}]});
/// let out = munch_core::encode("some_tool", &response, &Options { format: Format::Compact, ..Default::default() });
/// assert_eq!(out.meta.encoding, "gen1");
/// assert!(out.text.starts_with("#MUNCH/1 tool=some_tool enc=gen1"));
/// ```
#[derive(Clone, Debug)]
pub struct Encoded {
    /// The MUNCH payload, or the response's Python JSON text.
    pub text: String,
    /// The choice and the sizes.
    pub meta: EncodeMeta,
}

impl Encoded {
    /// Whether the text is a MUNCH payload.
    ///
    /// ```
    /// let r = munch_core::encode("t", &serde_json::json!({"a": 1}), &Default::default());
    /// assert!(!r.is_munch()); // too small to pass the gate
    /// ```
    #[must_use]
    pub fn is_munch(&self) -> bool {
        self.meta.encoding != "json"
    }
}

/// Encodes a tool response as a jcodemunch server would send it.
///
/// ```
/// use munch_core::{Format, Options, decode, encode};
/// let response = serde_json::json!({
///     "result_count": 2, "query": "main",
///     "results": [
///         {"id": "src/app/main.py::main#function", "name": "main", "kind": "function",
///          "file": "src/app/main.py", "line": 3, "score": 0.9, "signature": "def main()", "summary": ""},
///         {"id": "src/app/cli.py::main#function", "name": "main", "kind": "function",
///          "file": "src/app/cli.py", "line": 9, "score": 0.5, "signature": "def main()", "summary": "entry"},
///     ],
/// });
/// let out = encode("search_symbols", &response, &Options { format: Format::Compact, ..Default::default() });
/// assert!(out.text.starts_with("#MUNCH/1 tool=search_symbols"));
/// assert!(munch_core::exact_eq(&decode(&out.text)?, &response, Default::default()));
/// # Ok::<(), munch_core::DecodeError>(())
/// ```
#[must_use]
pub fn encode(tool: &str, response: &Value, opts: &Options<'_>) -> Encoded {
    // The JSON text: the one the token count was taken of, or written
    // with room made for it once its size is known (in code points of
    // ASCII text, its bytes; in UTF-8 bytes, at most them).
    let json = |meta: EncodeMeta, written: Option<String>| {
        let text = written.unwrap_or_else(|| {
            let mut text = String::with_capacity(meta.json_bytes.unwrap_or(0));
            write_python_json(response, &mut text);
            text
        });
        Encoded { text, meta }
    };
    if opts.format == Format::Json {
        return json(EncodeMeta::json(JsonReason::FormatJson), None);
    }
    let Kind::Dict(map) = kind(response) else {
        return json(EncodeMeta::json(JsonReason::NotObject), None);
    };
    let schema = schemas::by_tool(tool);
    // What a gen1 rung finds, kept for the other (`gen1::Kept`).
    let mut kept = gen1::Kept::default();
    // `auto`'s gate for a gen1 first rung of the verified ladder: the size
    // walk is made when the rung asks (with the tables it measured), and
    // kept.
    let walked: OnceCell<Sizes<'_, '_>> = OnceCell::new();
    let walk = |tables: &[(&str, usize, usize)]| {
        walked
            .get_or_init(|| Sizes::new(response, map, opts, tables))
            .json
    };
    let gate = (opts.format == Format::Auto && opts.mode == Mode::Verified)
        .then(|| first_gate(opts, &walk))
        .flatten();
    let first = first_rung(tool, schema, map, opts, &mut kept, gate.as_ref());
    let measured = first
        .as_ref()
        .and_then(|r| r.as_ref().ok())
        .map_or(&[][..], |p| p.measured.as_slice());
    let mut sizes = walked
        .into_inner()
        .unwrap_or_else(|| Sizes::new(response, map, opts, measured));
    if member(map, "error").is_some() {
        let mut meta = EncodeMeta::json(JsonReason::ErrorKey);
        meta.json_bytes = Some(sizes.json);
        return json(meta, sizes.text.take());
    }
    let chosen = match opts.mode {
        Mode::Reference => reference(tool, schema, map, opts, sizes.hint, first),
        Mode::Verified => {
            if sizes.depth > opts.depth_limit {
                Err((JsonReason::DepthLimit, Vec::new()))
            } else {
                verified(tool, schema, map, response, opts, &sizes, (first, kept))
            }
        }
    };
    let (payload, layer, attempts, counted) = match chosen {
        Ok(x) => x,
        Err((reason, attempts)) => {
            let mut meta = EncodeMeta::json(reason);
            meta.json_bytes = Some(sizes.json);
            meta.attempts = attempts;
            return json(meta, sizes.text.take());
        }
    };
    let encoded = counted.unwrap_or_else(|| sizes.of(&payload.text));
    if opts.format == Format::Auto {
        let ratio = sizes.ratio(encoded);
        if ratio < opts.threshold {
            let mut meta = EncodeMeta::json(JsonReason::GateRejected { ratio });
            meta.json_bytes = Some(sizes.json);
            meta.encoded_bytes = Some(encoded);
            meta.attempts = attempts;
            return json(meta, sizes.text.take());
        }
    }
    let meta = EncodeMeta {
        encoding: payload.enc,
        layer,
        reason: None,
        attempts,
        json_bytes: Some(sizes.json),
        encoded_bytes: Some(encoded),
        encoding_tokens_saved: Some(sizes.saved(encoded)),
    };
    Encoded {
        text: payload.text,
        meta,
    }
}

/// `auto`'s gate for a gen1 rung (`gen1::Gate`), sizes in code points or
/// bytes only: `json` gives the response's JSON length, given the tables
/// the rung measured.
fn first_gate<'g>(opts: &Options<'_>, json: &'g gen1::JsonOf<'g>) -> Option<gen1::Gate<'g>> {
    let ascii = match opts.measure {
        Measure::PythonCodePoints => true,
        Measure::Utf8Bytes => false,
        Measure::Tokens(_) => return None,
    };
    Some(gen1::Gate {
        threshold: opts.threshold,
        json,
        measured: None,
        ascii,
    })
}

/// The first encoding either mode makes (the verified ladder's first
/// rung, the reference dispatcher's only one), encoded ahead of the size
/// walk when it can count its tables' JSON length as it reads them (gen1,
/// or a tier-1 schema without a transform; sizes in code points or
/// bytes): the walk then skips those tables. Nothing changes but the
/// order of the work: the depth limit and the `error` key are still
/// decided before it is used.
fn first_rung<'v>(
    tool: &str,
    schema: Option<&Schema>,
    map: &'v Map<String, Value>,
    opts: &Options<'_>,
    kept: &mut gen1::Kept<'v>,
    gate: Option<&gen1::Gate<'_>>,
) -> Option<Result<Payload<'v>, Fail>> {
    if member(map, "error").is_some() {
        return None;
    }
    let ascii = match opts.measure {
        Measure::PythonCodePoints => true,
        Measure::Utf8Bytes => false,
        Measure::Tokens(_) => return None,
    };
    let Some(schema) = schema else {
        // The verified ladder refuses a gen1 reference rung with a known
        // loss before it is written.
        let stop = opts.mode == Mode::Verified;
        let shared = gen1::Shared {
            gate,
            kept: Some(kept),
        };
        return Some(gen1::encode(tool, map, false, 0, Some(ascii), stop, shared));
    };
    let s = Some(schema).filter(|s| s.transform == Transform::None)?;
    let verified = opts.mode == Mode::Verified;
    // The verified ladder refuses a tier-1 rung with a known loss unencoded.
    if verified && known_loss(s, map).is_some() {
        return None;
    }
    // Tier-1 rows are checked as they are written only for the verified
    // ladder, and only when key order is not compared; it also stops the
    // encoder at a cell or row it is known to lose.
    let check = verified && opts.key_order == KeyOrder::Any;
    let how = (0, Some(ascii), check, verified);
    Some(tier1::encode_reshaped(tool, s, map, &None, false, how))
}

/// The payload chosen, its layer, the attempts, and its size if it was
/// already counted; or why JSON is sent.
type Chosen<'v> = Result<
    (
        Payload<'v>,
        Option<crate::meta::Layer>,
        Vec<Attempt>,
        Option<usize>,
    ),
    (JsonReason, Vec<Attempt>),
>;

/// The reference dispatcher's steps 4–5 (`first`: its encoding, if
/// [`first_rung`] made it).
fn reference<'v>(
    tool: &str,
    schema: Option<&Schema>,
    map: &'v Map<String, Value>,
    opts: &Options<'_>,
    hint: usize,
    first: Option<Result<Payload<'v>, Fail>>,
) -> Chosen<'v> {
    let payload = first
        .unwrap_or_else(|| match schema {
            Some(s) => tier1::encode(tool, s, map, false, hint, None, false),
            None => gen1::encode(tool, map, false, hint, None, false, Default::default()),
        })
        .map_err(|_| (JsonReason::EncoderFailed, Vec::new()))?;
    let contract: Vec<(&String, &Value)> = map
        .iter()
        .filter(|(k, _)| !k.starts_with('_') && is_universal_body_key(k))
        .collect();
    if !contract.is_empty() {
        // Where the reference decoder raises (its CSV reader meets a cell
        // over the field limit, an empty dc2 cycle), its check fails
        // whatever ours would say.
        let raises = (payload.long_cell && long_field_read(&payload.text, schema))
            || (payload.enc == "dc2" && has_empty_cycle(map))
            || legend_read_raises(&payload.text, schema);
        let back = decode_with(&payload.text, &own_payload(opts, hint));
        let kept = !raises
            && match &back {
                // Python's `back.get(k) == v`: a key the decode lacks reads
                // as None, which a null keeps.
                Ok(Value::Object(b)) => contract
                    .iter()
                    .all(|(k, v)| b.get(*k).map_or(v.is_null(), |d| py_eq(d, v))),
                _ => false,
            };
        if !kept {
            return Err((JsonReason::ContractFailed, Vec::new()));
        }
    }
    Ok((payload, None, Vec::new(), None))
}

/// Whether the reference decoder's CSV reader meets a field over its limit
/// in `payload`: only in the blocks it reads (a gen1 payload whose table
/// declarations it cannot parse reads none).
fn long_field_read(payload: &str, schema: Option<&Schema>) -> bool {
    let blocks = match schema {
        Some(s) => crate::decode::tier1::blocks_read(payload, s),
        None => crate::decode::gen1::blocks_read(payload),
    };
    blocks.iter().any(|b| crate::format::csv::has_long_field(b))
}

/// Whether the reference decoder raises reading `payload`'s legend: a line
/// break in a legend literal can leave a line whose handle falls off
/// Python's list (`@-1` after one entry).
fn legend_read_raises(payload: &str, schema: Option<&Schema>) -> bool {
    match schema {
        Some(_) => crate::decode::tier1::parts(payload).legend.raises,
        None => crate::decode::gen1::parts(payload).0.raises,
    }
}

/// The verified ladder (spec D3).
fn verified<'v>(
    tool: &str,
    schema: Option<&Schema>,
    map: &'v Map<String, Value>,
    response: &Value,
    opts: &Options<'_>,
    sizes: &Sizes<'_, 'v>,
    (mut first, mut kept): (Option<Result<Payload<'v>, Fail>>, gen1::Kept<'v>),
) -> Chosen<'v> {
    let hint = sizes.hint;
    let rungs: &[Rung] = if schema.is_some() {
        &[
            Rung::Tier1Reference,
            Rung::Tier1Hardened,
            Rung::Gen1Reference,
            Rung::Gen1Hardened,
        ]
    } else {
        &[Rung::Gen1Reference, Rung::Gen1Hardened]
    };
    let dec = own_payload(opts, hint);
    // `auto`'s gate, for the last rung (`gen1::Gate`): sizes in code
    // points or bytes only, each container member's length as the size
    // walk counted it.
    let json = |_: &[(&str, usize, usize)]| sizes.json;
    let gate = first_gate(opts, &json).map(|g| gen1::Gate {
        measured: Some(&sizes.members),
        ..g
    });
    let gate = gate.as_ref().filter(|_| opts.format == Format::Auto);
    // A member the tier-1 decode always returns and the response lacks:
    // both tier-1 rungs are refused unencoded.
    let mut loss = schema.and_then(|s| known_loss(s, map));
    // The tool's transform, run once for both tier-1 rungs.
    let mut reshaped: Option<Result<Reshaped<'v>, Fail>> = None;
    // Tier-1 rows are checked as they are written (`check` then reads
    // what the encoder found) when key order is not compared.
    let inline = opts.key_order == KeyOrder::Any;
    let mut attempts = Vec::new();
    let mut last_reference: Option<String> = None;
    // The tier-1 reference rung's payload met no hazard: the hardened
    // form would be the same text (spec D3: the rung may be skipped).
    let mut tier1_same = false;
    // The same for gen1: a refused reference payload that met no hazard
    // is the hardened payload (`gen1_same.rs`).
    let mut gen1_same = false;
    // `auto`: a gen1 reference payload the gate refuses, left unchecked
    // until the last rung shows whether it could pass (its size kept, and
    // whether the hardened payload would be the same text).
    let mut deferred: Option<(Payload<'v>, usize, bool)> = None;
    let tier1_rung =
        |hardened: bool, reshaped: &mut Option<Result<Reshaped<'v>, Fail>>, s: &Schema| {
            let owned = reshaped.get_or_insert_with(|| transforms::encode(s.transform, map));
            let owned = owned.as_ref().map_err(Clone::clone)?;
            tier1::encode_reshaped(tool, s, map, owned, hardened, (hint, None, inline, true))
        };
    for &rung in rungs {
        if let (Rung::Tier1Reference | Rung::Tier1Hardened, Some(m)) = (rung, &loss) {
            let outcome = Outcome::Mismatch(m.clone());
            attempts.push(Attempt { rung, outcome });
            continue;
        }
        if (rung == Rung::Tier1Hardened && tier1_same) || (rung == Rung::Gen1Hardened && gen1_same)
        {
            let outcome = Outcome::SameAsReference;
            attempts.push(Attempt { rung, outcome });
            last_reference = None;
            continue;
        }
        // A reference payload under the gate whose hardened form is the
        // same text: that cannot pass either, and JSON is sent unchecked.
        let same = rung == Rung::Gen1Hardened && deferred.as_ref().is_some_and(|d| d.2);
        if let Some((reference, encoded, _)) = deferred.take_if(|_| same) {
            attempts.push(Attempt {
                rung: Rung::Gen1Reference,
                outcome: Outcome::Unchecked,
            });
            attempts.push(Attempt {
                rung,
                outcome: Outcome::Unchecked,
            });
            let layer = Some(Rung::Gen1Reference.layer());
            return Ok((reference, layer, attempts, Some(encoded)));
        }
        let made: Result<Payload<'v>, Fail> = match (rung, schema) {
            (Rung::Tier1Reference, Some(s)) => match first.take() {
                Some(p) => p,
                None => tier1_rung(false, &mut reshaped, s),
            },
            (Rung::Tier1Hardened, Some(s)) => tier1_rung(true, &mut reshaped, s),
            // Without a schema, gen1 is the first rung.
            // (`auto`: not written when its blobs and cells alone save
            // too little; see `deferred`.)
            (Rung::Gen1Reference, _) => first.take().unwrap_or_else(|| {
                let kept = Some(&mut kept);
                let shared = gen1::Shared { gate, kept };
                gen1::encode(tool, map, false, hint, None, true, shared)
            }),
            _ => {
                // `auto`'s last rung is not written when its JSON blobs
                // and table cells alone save too little.
                let last = Some(&rung) == rungs.last();
                let gate = gate.filter(|_| last);
                let kept = Some(&mut kept);
                gen1::encode(
                    tool,
                    map,
                    true,
                    hint,
                    None,
                    false,
                    gen1::Shared { gate, kept },
                )
            }
        };
        if let Some((mut reference, mut encoded, _)) = deferred.take() {
            // The last rung, after a reference payload under the gate:
            // unless this payload could pass it, JSON is sent whatever
            // either decodes to, and neither is decoded.
            let passes = match &made {
                Ok(q) if q.unwritten.is_none() && q.text != reference.text => {
                    sizes.ratio(sizes.of(&q.text)) >= opts.threshold
                }
                _ => false,
            };
            let reference_rung = Rung::Gen1Reference;
            let layer = Some(reference_rung.layer());
            if !passes {
                attempts.push(Attempt {
                    rung: reference_rung,
                    outcome: Outcome::Unchecked,
                });
                attempts.push(Attempt {
                    rung,
                    outcome: Outcome::Unchecked,
                });
                return Ok((reference, layer, attempts, Some(encoded)));
            }
            // It could: the reference payload is decoded first, as ever
            // (written now if the gate refused it unwritten).
            if reference.unwritten.is_some() {
                let kept = Some(&mut kept);
                let shared = gen1::Shared { gate: None, kept };
                if let Ok(p) = gen1::encode(tool, map, false, hint, None, true, shared) {
                    encoded = sizes.of(&p.text);
                    reference = p;
                }
            }
            let outcome = match &reference.loss {
                Some(m) => Outcome::Mismatch(m.clone()),
                None => check(
                    &reference,
                    reference_rung,
                    (map, None),
                    response,
                    opts,
                    &dec,
                ),
            };
            let accepted = outcome == Outcome::Accepted;
            attempts.push(Attempt {
                rung: reference_rung,
                outcome,
            });
            if accepted {
                return Ok((reference, layer, attempts, Some(encoded)));
            }
        }
        let outcome = match made {
            Err(Fail(why)) => Outcome::EncoderFailed(why),
            Ok(Payload {
                loss: Some(m),
                tables,
                ..
            }) => {
                if rung == Rung::Gen1Reference {
                    kept.keep(tables);
                }
                // A cell both tier-1 forms lose: the hardened rung too.
                if rung == Rung::Tier1Reference {
                    loss = Some(m.clone());
                }
                Outcome::Mismatch(m)
            }
            // `auto`: a reference payload unwritten (too long) waits for
            // the last rung, as one written too long does.
            Ok(mut p)
                if p.unwritten.is_some()
                    && rung == Rung::Gen1Reference
                    && Some(&rung) != rungs.last() =>
            {
                kept.keep(core::mem::take(&mut p.tables));
                let least = p.unwritten.unwrap_or(0);
                deferred = Some((p, least, false));
                continue;
            }
            Ok(p) if p.unwritten.is_some() => {
                attempts.push(Attempt {
                    rung,
                    outcome: Outcome::Unchecked,
                });
                let least = p.unwritten;
                return Ok((p, Some(rung.layer()), attempts, least));
            }
            Ok(mut p) => {
                let hardened = rung.layer() == crate::meta::Layer::Hardened;
                // `auto`: JSON is sent if this payload decodes exactly
                // (the gate), and if the last rung cannot pass either.
                if rung == Rung::Gen1Reference
                    && opts.format == Format::Auto
                    && Some(&rung) != rungs.last()
                {
                    let encoded = sizes.of(&p.text);
                    if sizes.ratio(encoded) < opts.threshold {
                        let same = gen1_same::hardened_same(&p);
                        kept.keep(core::mem::take(&mut p.tables));
                        deferred = Some((p, encoded, same));
                        continue;
                    }
                }
                if hardened && last_reference.as_deref() == Some(p.text.as_str()) {
                    Outcome::SameAsReference
                } else {
                    // The last rung's payload under `auto`'s threshold:
                    // JSON is sent whether it decodes exactly or not.
                    if Some(&rung) == rungs.last() && opts.format == Format::Auto {
                        let encoded = sizes.of(&p.text);
                        if sizes.ratio(encoded) < opts.threshold {
                            attempts.push(Attempt {
                                rung,
                                outcome: Outcome::Unchecked,
                            });
                            return Ok((p, Some(rung.layer()), attempts, Some(encoded)));
                        }
                    }
                    // (A tier-1 rung's reshaping of the input, if any.)
                    let flat = reshaped.as_ref().and_then(|r| r.as_ref().ok());
                    let flat = flat
                        .and_then(Option::as_ref)
                        .map(|(m, _, rows)| (m, rows.as_ref()));
                    let outcome = check(&p, rung, (map, flat), response, opts, &dec);
                    if outcome == Outcome::Accepted {
                        attempts.push(Attempt { rung, outcome });
                        return Ok((p, Some(rung.layer()), attempts, None));
                    }
                    if rung == Rung::Gen1Reference {
                        gen1_same = gen1_same::hardened_same(&p);
                        kept.keep(core::mem::take(&mut p.tables));
                    }
                    if !hardened {
                        tier1_same = rung == Rung::Tier1Reference && !p.hazard;
                        last_reference = Some(p.text);
                    }
                    outcome
                }
            }
        };
        if rung.layer() == crate::meta::Layer::Hardened {
            last_reference = None;
        }
        attempts.push(Attempt { rung, outcome });
    }
    // (A reference payload under the gate is always followed by the last
    // rung; if it were not, JSON would be sent whatever it decodes to.)
    if let Some((reference, encoded, _)) = deferred {
        attempts.push(Attempt {
            rung: Rung::Gen1Reference,
            outcome: Outcome::Unchecked,
        });
        return Ok((
            reference,
            Some(Rung::Gen1Reference.layer()),
            attempts,
            Some(encoded),
        ));
    }
    Err((JsonReason::NoVerifiedEncoding, attempts))
}

/// A tier-1 rung's reshaping of the input: its members, and the rows it
/// flattened apart (st4, fr2).
type Flattening<'a> = (
    &'a Map<String, Value>,
    Option<&'a transforms::flat_rows::FlatRows<'a>>,
);

/// Acceptance (spec D3): an exact decode, and readable by the reference.
fn check(
    p: &Payload<'_>,
    rung: Rung,
    (map, reshaped): (&Map<String, Value>, Option<Flattening<'_>>),
    response: &Value,
    opts: &Options<'_>,
    dec: &DecodeOptions,
) -> Outcome {
    // Fast path: a transform-free tier-1 payload compared cell by cell,
    // its rows while they were written (then only its scalars are left)
    // or here.
    if opts.key_order == KeyOrder::Any && matches!(rung, Rung::Tier1Reference | Rung::Tier1Hardened)
    {
        if let Some(schema) = schemas::by_id(p.enc) {
            let checked = p.checked.as_ref().is_some_and(|rows| {
                crate::decode::tier1_check::scalars_of_checked(&p.text, rows, schema, map, dec)
            });
            let plain = (!checked)
                .then(|| {
                    crate::decode::tier1_check::plain_check(&p.text, schema, map, &p.tables, dec)
                })
                .flatten();
            // A cell found to differ is the mismatch: no decode needed.
            if let Some(Err(Some(m))) = plain {
                return Outcome::Mismatch(m);
            }
            let same = checked
                || plain == Some(Ok(()))
                || reshaped.is_some_and(|(flat, rows)| {
                    crate::decode::tier1_check::verify_regrouped(
                        &p.text, schema, map, flat, rows, dec,
                    ) == Some(true)
                });
            if same {
                return if p.long_cell {
                    Outcome::PythonUndecodable("CSV field over 131,072 characters")
                } else {
                    Outcome::Accepted
                };
            }
            // Rows checked as they were written: where the scalar block
            // differs is found without decoding the tables.
            let scalars = p.checked.as_ref().and_then(|_| {
                crate::decode::tier1_check::scalar_mismatch(&p.text, schema, map, dec)
            });
            if let Some(m) = scalars {
                return Outcome::Mismatch(m);
            }
        }
    }
    if opts.key_order == KeyOrder::Any && matches!(rung, Rung::Gen1Reference | Rung::Gen1Hardened) {
        let same = match crate::decode::gen1_check::verify_found(&p.text, map, &p.tables, dec) {
            // A cell found to differ is the mismatch: no decode needed.
            Some(Err(Some(m))) => return Outcome::Mismatch(m),
            Some(checked) => checked.is_ok(),
            None => crate::decode::gen1_check::verify_plain(&p.text, map, dec) == Some(true),
        };
        if same {
            return if p.long_cell {
                Outcome::PythonUndecodable("CSV field over 131,072 characters")
            } else {
                Outcome::Accepted
            };
        }
    }
    let back = match decode_with(&p.text, dec) {
        Ok(v) => v,
        Err(_) => return Outcome::PythonUndecodable("payload does not decode"),
    };
    if let Some(m) = first_mismatch(response, &back, opts.key_order) {
        return Outcome::Mismatch(m);
    }
    if matches!(rung, Rung::Tier1Reference | Rung::Tier1Hardened)
        && p.enc == "dc2"
        && has_empty_cycle(map)
    {
        return Outcome::PythonUndecodable("empty dc2 files cell");
    }
    if p.long_cell {
        return Outcome::PythonUndecodable("CSV field over 131,072 characters");
    }
    Outcome::Accepted
}

/// Decoder settings for reading back our own payloads: the caller's depth
/// limit, and an allowance of at least twice the input's JSON size (a
/// payload that decodes to its input never needs more; one that would is
/// wrong anyway and must not exhaust memory on the way).
fn own_payload(opts: &Options<'_>, json_size: usize) -> DecodeOptions {
    let defaults = DecodeOptions::default();
    DecodeOptions {
        depth_limit: opts.depth_limit,
        expansion_floor: defaults.expansion_floor.max(json_size.saturating_mul(2)),
        ..defaults
    }
}

/// Size counting per [`Measure`].
struct Sizes<'a, 'm> {
    json: usize,
    /// The response's nesting depth (found on the same walk: each walk
    /// over a large response pays its cache misses again).
    depth: usize,
    measure: Measure<'a>,
    /// A payload capacity hint in bytes (the JSON size when it is known).
    hint: usize,
    /// The JSON length and depth of each member that is a container, as
    /// the walk counted them (sizes in code points or bytes): what a
    /// JSON blob of it would hold, for `auto`'s gate.
    members: Vec<(&'m str, usize, usize)>,
    /// The JSON text, when the size is its tokens (counted of the text):
    /// the text sent if JSON is.
    text: Option<String>,
}

impl<'a, 'm> Sizes<'a, 'm> {
    /// The sizes of `response` (the dict `map`), the members in `measured`
    /// taken from there.
    fn new(
        response: &Value,
        map: &'m Map<String, Value>,
        opts: &Options<'a>,
        measured: &[(&str, usize, usize)],
    ) -> Sizes<'a, 'm> {
        let mut members = Vec::new();
        let mut text = None;
        let mut walk = |ascii: bool| {
            let counted = python_json_len_members(map, ascii, measured, |k, len, d| {
                if d > 0 {
                    members.push((k, len, d));
                }
            });
            debug_assert_eq!(counted, python_json_len(response, ascii));
            counted
        };
        let (json, depth) = match opts.measure {
            Measure::PythonCodePoints => walk(true),
            Measure::Utf8Bytes => walk(false),
            Measure::Tokens(count) => {
                let (written, depth) = to_python_json_depth(response);
                let tokens = count(&written);
                text = Some(written);
                (tokens, depth)
            }
        };
        let hint = if matches!(opts.measure, Measure::Tokens(_)) {
            0
        } else {
            json
        };
        Sizes {
            json,
            depth,
            measure: opts.measure,
            hint,
            members,
            text,
        }
    }

    fn of(&self, payload: &str) -> usize {
        match self.measure {
            // An ASCII payload (the usual case) has a code point per byte:
            // checking that is cheaper than counting.
            Measure::PythonCodePoints if payload.is_ascii() => payload.len(),
            Measure::PythonCodePoints => payload.chars().count(),
            Measure::Utf8Bytes => payload.len(),
            Measure::Tokens(count) => count(payload),
        }
    }

    fn ratio(&self, encoded: usize) -> f64 {
        crate::savings::saved_ratio(self.json, encoded)
    }

    fn saved(&self, encoded: usize) -> usize {
        let diff = self.json.saturating_sub(encoded);
        match self.measure {
            Measure::Tokens(_) => diff,
            _ => diff / 4,
        }
    }
}

#[cfg(test)]
mod tests;
