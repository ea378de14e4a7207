//! Runs the engine over an input and assembles the result: the fast path,
//! the escaped-document unwrap (R010), several documents (R080), the
//! verdicts and the sorted repair list. No profile is applied here.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use crate::engine::{Detail, Engine, RawRepair, Totals, Track};
use crate::error::{Error, ErrorCode};
use crate::options::{Options, Profile};
use crate::position::Cursor;
use crate::report::{Completeness, Exactness, Repair, Repaired};
use crate::rules::Rule;
use crate::strict::{Check, check};

/// Repairs `input` without applying the profile's refusals (fatal
/// conditions are still errors): what `analyze` and `validate` build on.
///
/// ```
/// use jsonmend_engine::{repair_unchecked, Exactness, Options, Profile};
/// let r = repair_unchecked("[1,2,]", &Options::with_profile(Profile::Strict)).unwrap();
/// assert_eq!(r.text, "[1,2]");
/// assert_eq!(r.exactness, Exactness::Cosmetic);
/// ```
pub fn repair_unchecked<'a>(input: &'a str, opts: &Options) -> Result<Repaired<'a>, Error> {
    run(input.as_bytes(), opts, Some(input))
        .map(|r| match r {
            Run::Borrowed(repaired) => repaired.with_text(Cow::Borrowed(input)),
            Run::Owned(repaired, text) => repaired.with_text(Cow::Owned(text)),
        })
        .map(|r| coerced(r, input.as_bytes(), opts))
}

/// Under `lenient` with a declaration: the coercions of spec §9.4.
fn coerced<'a>(mut r: Repaired<'a>, input: &[u8], opts: &Options) -> Repaired<'a> {
    let Some(schema) = opts
        .schema
        .as_ref()
        .filter(|_| opts.profile == Profile::Lenient)
    else {
        return r;
    };
    let Some((text, raw)) = crate::coerce::apply(&schema.root, &r.text, input) else {
        return r;
    };
    let mut added: Vec<Repair> = raw
        .into_iter()
        .map(|x| {
            let (line, column) = crate::position::line_column(input, x.offset);
            Repair {
                rule: x.rule,
                offset: x.offset,
                line,
                column,
                detail: x.detail.text(input),
            }
        })
        .collect();
    r.repairs.append(&mut added);
    r.repairs
        .sort_by(|a, b| a.offset.cmp(&b.offset).then(a.rule.cmp(&b.rule)));
    if r.repairs.len() > opts.max_repairs {
        r.repairs.truncate(opts.max_repairs);
        r.repairs_truncated = true;
    }
    r.exactness = Exactness::Lossy;
    r.text = Cow::Owned(text);
    r
}

/// [`repair_unchecked`] over bytes (invalid UTF-8 is repaired, R023).
///
/// ```
/// use jsonmend_engine::{repair_bytes_unchecked, Options};
/// let r = repair_bytes_unchecked(b"[\"a\xffb\"]", &Options::default()).unwrap();
/// assert_eq!(r.text, "[\"a\u{FFFD}b\"]");
/// ```
pub fn repair_bytes_unchecked<'a>(input: &'a [u8], opts: &Options) -> Result<Repaired<'a>, Error> {
    // Input that is UTF-8, the usual case, is repaired as the text it is:
    // one check here, and the engine writes pieces of it without checking
    // each (the same result either way).
    if let Ok(text) = core::str::from_utf8(input) {
        return repair_unchecked(text, opts);
    }
    run(input, opts, None).map(|r| coerced(r.over_bytes(input), input, opts))
}

/// A result without its text yet.
pub(crate) struct Verdicts {
    payload: usize,
    synthesized: usize,
    open_paths: Vec<String>,
    exactness: Exactness,
    ambiguous: bool,
    completeness: Completeness,
    repairs: Vec<Repair>,
    repairs_truncated: bool,
    loss_permille: u32,
}

impl Verdicts {
    fn with_text(self, text: Cow<'_, str>) -> Repaired<'_> {
        Repaired {
            text,
            exactness: self.exactness,
            ambiguous: self.ambiguous,
            completeness: self.completeness,
            repairs: self.repairs,
            repairs_truncated: self.repairs_truncated,
            loss_permille: self.loss_permille,
            payload: self.payload,
            synthesized: self.synthesized,
            open_paths: self.open_paths,
        }
    }
}

enum Run {
    Borrowed(Verdicts),
    Owned(Verdicts, String),
}

impl Run {
    /// The result over a byte input (a borrowed text is the input itself,
    /// invalid UTF-8 replaced).
    fn over_bytes(self, input: &[u8]) -> Repaired<'_> {
        match self {
            Run::Borrowed(repaired) => {
                let text = core::str::from_utf8(input).map_or_else(
                    |_| Cow::Owned(String::from_utf8_lossy(input).into_owned()),
                    Cow::Borrowed,
                );
                repaired.with_text(text)
            }
            Run::Owned(repaired, text) => repaired.with_text(Cow::Owned(text)),
        }
    }
}

/// `text`: the input as text, when it came as text.
fn run(input: &[u8], opts: &Options, text: Option<&str>) -> Result<Run, Error> {
    let utf8_known = text.is_some();
    if let Some(done) = precheck(input, opts, utf8_known)? {
        return Ok(done);
    }
    let escaped = escaped_document(input);
    let unescaped;
    let (src, shift) = match escaped {
        Some(at) => {
            unescaped = unescape_one_level(input.get(at..).unwrap_or_default());
            (unescaped.as_slice(), at)
        }
        None => (input, 0),
    };
    let mut engine: Engine<'_> = Engine::new(src, opts.max_depth, opts.skip_prose);
    engine.max_repairs = opts.max_repairs;
    engine.fast_lane = !opts.general_path_only;
    engine.utf8_known = utf8_known && shift == 0;
    engine.src_str = text.filter(|_| escaped.is_none()).unwrap_or_default();
    engine.run().map_err(|e| shifted(e, input, shift))?;
    assemble(input, engine, shift, escaped.is_some(), opts)
}

/// An engine error at its source offset, placed in the input.
pub(crate) fn shifted(e: Error, input: &[u8], shift: usize) -> Error {
    match e.offset {
        Some(off) if shift > 0 => e.at(input, off + shift),
        _ => e,
    }
}

/// [`repair_bytes_unchecked`] for a watch stream: `engine` ran over its
/// whole source (`input`, or `input` from `shift` unescaped one level when
/// `escaped`) in steps, or stopped with an error; the result is assembled
/// exactly as for the whole input at once.
pub(crate) fn finish_stream<'a, T: Track>(
    input: &'a [u8],
    engine: Result<Engine<'_, T>, Error>,
    shift: usize,
    escaped: bool,
    opts: &Options,
) -> Result<Repaired<'a>, Error> {
    let run = match precheck(input, opts, false)? {
        Some(done) => done,
        None => {
            let engine = engine.map_err(|e| shifted(e, input, shift))?;
            assemble(input, engine, shift, escaped, opts)?
        }
    };
    Ok(coerced(run.over_bytes(input), input, opts))
}

/// [`finish_stream`] for an engine whose run recorded a truncation
/// (R070–R076): the input ends inside a value, so it is not strict JSON,
/// and the strict check of all of it that [`precheck`] starts with cannot
/// succeed. (The limits it checks first, `E041` and `E040`, failed the
/// stream already; a truncated input is not empty.)
pub(crate) fn finish_truncated<'a, T: Track>(
    input: &'a [u8],
    engine: Engine<'_, T>,
    shift: usize,
    escaped: bool,
    opts: &Options,
) -> Result<Repaired<'a>, Error> {
    let run = assemble(input, engine, shift, escaped, opts)?;
    Ok(coerced(run.over_bytes(input), input, opts))
}

/// What is decided before the engine runs: `E041`, `E001`, and strict
/// input (returned unchanged) or too deep (`E040`).
fn precheck(input: &[u8], opts: &Options, utf8_known: bool) -> Result<Option<Run>, Error> {
    if input.len() > opts.max_input {
        return Err(Error::new(
            ErrorCode::E041,
            alloc::format!("input larger than {} bytes", opts.max_input),
        ));
    }
    if input
        .iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
    {
        return Err(Error::new(ErrorCode::E001, "empty input"));
    }
    match check(input, opts.max_depth, utf8_known) {
        Check::Valid(dups) => {
            let raw: Vec<RawRepair> = dups
                .into_iter()
                .map(|(offset, s, e)| RawRepair {
                    rule: Rule::DuplicateKey,
                    offset,
                    detail: Detail::Owned(
                        String::from_utf8_lossy(&crate::keys::key_text(
                            input.get(s..e).unwrap_or_default(),
                        ))
                        .into_owned(),
                    ),
                })
                .collect();
            let totals = Totals {
                count: raw.len(),
                ambiguous: !raw.is_empty(),
                ..Totals::default()
            };
            let v = verdicts(
                input,
                input,
                raw,
                totals,
                opts,
                false,
                false,
                0,
                input.len(),
            );
            Ok(Some(Run::Borrowed(v)))
        }
        Check::TooDeep(at) => Err(Error::new(
            ErrorCode::E040,
            alloc::format!("nesting deeper than {} levels", opts.max_depth),
        )
        .at(input, at)),
        Check::Invalid(_) => Ok(None),
    }
}

/// The result of an engine that ran to the end of its source.
fn assemble<T: Track>(
    input: &[u8],
    mut engine: Engine<'_, T>,
    shift: usize,
    escaped: bool,
    opts: &Options,
) -> Result<Run, Error> {
    if shift > 0 || escaped {
        for r in &mut engine.repairs {
            r.offset += shift;
        }
        engine.note_weighted(Rule::EscapedDocument, 0, Detail::None, 1);
        if let Some(r) = engine.repairs.last_mut() {
            r.offset = shift;
        }
    }
    if engine.docs.is_empty() {
        return no_document(input, &engine, opts);
    }
    let docs = core::mem::take(&mut engine.docs);
    engine.holes.sort_unstable();
    let text = if docs.len() == 1 && engine.holes.is_empty() {
        let (s, e) = docs.first().copied().unwrap_or((0, 0));
        if s == 0 {
            let mut out = core::mem::take(&mut engine.out);
            out.truncate(e);
            out.into_string()
        } else {
            String::from(engine.out.text(s, e))
        }
    } else if docs.len() == 1 {
        let (s, e) = docs.first().copied().unwrap_or((0, 0));
        let mut out = String::with_capacity(e - s);
        engine.copy_without_holes(s, e, &mut out);
        out
    } else {
        let at = engine.doc_in.get(1).copied().unwrap_or(0) + shift;
        // The wrapping array is one more level: the output must still parse
        // under the same limit.
        if engine.max_seen_depth >= opts.max_depth {
            return Err(Error::new(
                ErrorCode::E040,
                alloc::format!("nesting deeper than {} levels", opts.max_depth),
            )
            .at(input, at));
        }
        engine.note_weighted(Rule::MultipleDocuments, at, Detail::None, docs.len());
        let total: usize = docs.iter().map(|(s, e)| e - s + 1).sum();
        let mut out = String::with_capacity(total + 2);
        out.push('[');
        for (i, &(s, e)) in docs.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            engine.copy_without_holes(s, e, &mut out);
        }
        out.push(']');
        out
    };
    let start = engine.doc_in.first().copied().unwrap_or(0) + shift;
    let end = engine.payload_end.map_or(input.len(), |p| p + shift);
    let payload = end.saturating_sub(start);
    let raw = core::mem::take(&mut engine.repairs);
    let mut v = verdicts(
        input,
        engine.src,
        raw,
        engine.totals,
        opts,
        engine.truncated,
        engine.content,
        engine.synthesized,
        payload,
    );
    v.open_paths = core::mem::take(&mut engine.open_paths);
    if text.as_bytes() == input && v.exactness != Exactness::Exact {
        // Cannot happen for input the validator rejected; kept honest.
        return Ok(Run::Owned(v, text));
    }
    Ok(Run::Owned(v, text))
}

/// No document found: E002/E003, or under `lenient` the whole text as a
/// string (R081).
fn no_document<T: Track>(
    input: &[u8],
    engine: &Engine<'_, T>,
    opts: &Options,
) -> Result<Run, Error> {
    if opts.profile == Profile::Lenient {
        let lossy = String::from_utf8_lossy(input);
        let text = crate::json::quoted(lossy.trim());
        let mut raw = engine.repairs.clone();
        raw.retain(|r| !matches!(r.rule, Rule::LeadingProse | Rule::TrailingProse));
        raw.push(RawRepair {
            rule: Rule::ProseAsString,
            offset: 0,
            detail: Detail::None,
        });
        let mut totals = engine.totals;
        totals.count = raw.len();
        totals.lossy = true;
        totals.loss_weight += input.len();
        let v = verdicts(
            input,
            engine.src,
            raw,
            totals,
            opts,
            false,
            true,
            0,
            input.len(),
        );
        return Ok(Run::Owned(v, text));
    }
    if engine.saw_wrapper {
        return Err(Error::new(
            ErrorCode::E003,
            "no value could be recovered: a wrapper without a value",
        ));
    }
    Err(Error::new(ErrorCode::E002, "no JSON value found"))
}

/// The offset of a backslash-escaped document (`\"…` or `{\"…`) at the
/// leading position, if there is one.
pub(crate) fn escaped_document(input: &[u8]) -> Option<usize> {
    let skip = |mut i: usize| {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = input.get(i) {
            i += 1;
        }
        i
    };
    let at = skip(0);
    let escaped_quote = |i: usize| input.get(i) == Some(&b'\\') && input.get(i + 1) == Some(&b'"');
    match input.get(at) {
        Some(b'\\') if escaped_quote(at) => Some(at),
        Some(b'{' | b'[') if escaped_quote(skip(at + 1)) => Some(at),
        _ => None,
    }
}

/// One level of backslash escaping removed.
fn unescape_one_level(src: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(src.len());
    let mut i = 0;
    while let Some(&b) = src.get(i) {
        if b == b'\\' {
            match src.get(i + 1) {
                Some(b'"') => out.push(b'"'),
                Some(b'\\') => out.push(b'\\'),
                Some(b'/') => out.push(b'/'),
                Some(b'n') => out.push(b'\n'),
                Some(b't') => out.push(b'\t'),
                Some(b'r') => out.push(b'\r'),
                Some(&other) => {
                    out.push(b'\\');
                    out.push(other);
                }
                None => out.push(b'\\'),
            }
            i += 2;
        } else {
            out.push(b);
            i += 1;
        }
    }
    out
}

/// Sorts the repairs, places them, and computes the verdicts.
#[allow(clippy::too_many_arguments)]
fn verdicts(
    input: &[u8],
    src: &[u8],
    mut raw: Vec<RawRepair>,
    totals: Totals,
    opts: &Options,
    truncated: bool,
    content: bool,
    synthesized: usize,
    payload: usize,
) -> Verdicts {
    raw.sort_by(|a, b| a.offset.cmp(&b.offset).then(a.rule.cmp(&b.rule)));
    let exactness = if totals.lossy {
        Exactness::Lossy
    } else if totals.cosmetic {
        Exactness::Cosmetic
    } else {
        Exactness::Exact
    };
    let denominator = (payload + synthesized).max(1);
    let loss_permille = if totals.loss_weight == 0 {
        0
    } else {
        (totals.loss_weight * 1000).div_ceil(denominator).min(1000) as u32
    };
    let repairs_truncated = totals.count > opts.max_repairs;
    raw.truncate(opts.max_repairs);
    let mut cursor = Cursor::default();
    let repairs = raw
        .into_iter()
        .map(|r| {
            cursor.advance(input, r.offset);
            Repair {
                rule: r.rule,
                offset: r.offset,
                line: cursor.line,
                column: cursor.column,
                detail: r.detail.text(src),
            }
        })
        .collect();
    let completeness = if !truncated {
        Completeness::Complete
    } else if content {
        Completeness::Partial
    } else {
        Completeness::Empty
    };
    Verdicts {
        payload,
        synthesized,
        open_paths: Vec::new(),
        exactness,
        ambiguous: totals.ambiguous,
        completeness,
        repairs,
        repairs_truncated,
        loss_permille,
    }
}

/// Spec §19's work units of the repair engine on `input`: the general
/// path (the strict validator in front of it is one linear pass), input
/// bytes examined plus output bytes written or taken back. `None` when the
/// engine stops with an error. Only with the `work-counter` feature.
///
/// ```
/// let n = jsonmend_engine::engine_work(b"{a: 1,}", &Default::default()).unwrap();
/// assert!(n <= 8 * 7 + 4096);
/// ```
#[cfg(feature = "work-counter")]
#[doc(hidden)]
pub fn engine_work(input: &[u8], opts: &Options) -> Option<usize> {
    let mut engine: Engine<'_> = Engine::new(input, opts.max_depth, opts.skip_prose);
    engine.max_repairs = opts.max_repairs;
    engine.fast_lane = !opts.general_path_only;
    engine.run().ok()?;
    Some(engine.work.get() + engine.out.len())
}
