//! Chunk invariance of watch streams (spec §12.4), shared by the watch
//! tests and the `jsonmend_watch` fuzz target's replay: for any split of
//! an input, `finish` equals one-shot `repair_bytes`, deltas (appends
//! merged) and events equal those of one feed, and the deltas of a
//! complete input build `final.value`.

#![allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::panic,
    reason = "test support"
)]

use jsonmend_engine::{Delta, DeltaOp, Event, Options, Value, Watch, repair_bytes};

/// Everything a stream produced, comparable across splits.
#[derive(Debug, PartialEq)]
pub(crate) struct Outcome {
    pub(crate) deltas: Vec<Delta>,
    pub(crate) events: Vec<Event>,
    /// The `watch.finish` result, or the error object.
    pub(crate) last: Result<String, String>,
    pub(crate) value: Option<Value>,
    pub(crate) complete: bool,
}

/// Feeds `input` cut at `cuts` (increasing offsets).
pub(crate) fn stream(input: &[u8], cuts: &[usize], opts: &Options) -> Outcome {
    stream_read(input, cuts, opts, false)
}

/// [`stream`], the engine's output read as text only (`text`: no step read
/// from the token log), so the log can be checked against the text reader.
pub(crate) fn stream_read(input: &[u8], cuts: &[usize], opts: &Options, text: bool) -> Outcome {
    let mut w = Watch::new(opts.clone());
    if text {
        w = w.reading_text_only();
    }
    let mut deltas = Vec::new();
    let mut events = Vec::new();
    let mut from = 0;
    // A fatal limit makes later feeds return it; they still go in.
    for &cut in cuts.iter().chain(std::iter::once(&input.len())) {
        let cut = cut.clamp(from, input.len());
        if let Ok(p) = w.feed_bytes(&input[from..cut]) {
            deltas.extend(p.deltas.iter().map(|d| d.to_owned()));
            events.extend(p.events);
        }
        from = cut;
    }
    merge(&mut deltas);
    let (last, value, complete) = match w.finish() {
        Ok(f) => {
            // Deltas build the value when the feeds completed the root and
            // the end of input decided nothing more.
            let complete = f.streamed;
            events.extend(f.events.iter().cloned());
            (Ok(f.to_json()), Some(f.result.value()), complete)
        }
        Err(e) => (Err(e.to_json()), None, false),
    };
    Outcome {
        deltas,
        events,
        last,
        value,
        complete,
    }
}

/// Adjacent appends to one path merged.
pub(crate) fn merge(list: &mut Vec<Delta>) {
    let mut out: Vec<Delta> = Vec::new();
    for d in list.drain(..) {
        if let Some(last) = out
            .last_mut()
            .filter(|l| d.op == DeltaOp::Append && l.op == DeltaOp::Append && l.path == d.path)
        {
            let a = Value::parse(&last.text).unwrap().into_string().unwrap();
            let b = Value::parse(&d.text).unwrap().into_string().unwrap();
            last.text = Value::String(a + &b).to_json();
            last.at = d.at;
            continue;
        }
        out.push(d);
    }
    *list = out;
}

/// A value under construction.
enum Node {
    Obj(Vec<(String, Node)>),
    Arr(Vec<Node>),
    Str(String),
    Json(String),
}

fn tokens(path: &str) -> Vec<String> {
    path.split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect()
}

fn node_at<'n>(root: &'n mut Node, toks: &[String]) -> Option<&'n mut Node> {
    let mut n = root;
    for t in toks {
        n = match n {
            Node::Obj(members) => &mut members.iter_mut().rev().find(|(k, _)| k == t)?.1,
            Node::Arr(items) => items.get_mut(t.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(n)
}

fn node(text: &str) -> Node {
    match text {
        "{}" => Node::Obj(Vec::new()),
        "[]" => Node::Arr(Vec::new()),
        t if t.starts_with('"') => Node::Str(Value::parse(t).unwrap().into_string().unwrap()),
        t => Node::Json(t.to_string()),
    }
}

fn write(n: &Node, out: &mut String) {
    match n {
        Node::Obj(m) => {
            out.push('{');
            for (i, (k, v)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_json());
                out.push(':');
                write(v, out);
            }
            out.push('}');
        }
        Node::Arr(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(v, out);
            }
            out.push(']');
        }
        Node::Str(s) => out.push_str(&Value::String(s.clone()).to_json()),
        Node::Json(t) => out.push_str(t),
    }
}

/// The value the deltas build.
pub(crate) fn apply(deltas: &[Delta]) -> Result<Value, String> {
    let mut root: Option<Node> = None;
    for d in deltas {
        let toks = tokens(&d.path);
        match d.op {
            DeltaOp::Add if toks.is_empty() => root = Some(node(&d.text)),
            DeltaOp::Set if toks.is_empty() && d.text.len() > 2 => {
                root = Some(
                    match &Value::parse(&d.text).map_err(|e| format!("{e:?}"))? {
                        Value::Array(items) => {
                            Node::Arr(items.iter().map(|v| Node::Json(v.to_json())).collect())
                        }
                        v => Node::Json(v.to_json()),
                    },
                );
            }
            DeltaOp::Add => {
                let (last, parent) = toks.split_last().unwrap();
                let p = node_at(root.as_mut().ok_or("no root")?, parent)
                    .ok_or_else(|| format!("no parent for {}", d.path))?;
                match p {
                    Node::Obj(m) => m.push((last.clone(), node(&d.text))),
                    Node::Arr(items) => {
                        if last.parse::<usize>().ok() != Some(items.len()) {
                            return Err(format!("add at {} to {} items", d.path, items.len()));
                        }
                        items.push(node(&d.text));
                    }
                    _ => return Err(format!("add under a scalar at {}", d.path)),
                }
            }
            DeltaOp::Append => {
                let n = node_at(root.as_mut().ok_or("no root")?, &toks)
                    .ok_or_else(|| format!("append to missing {}", d.path))?;
                let Node::Str(s) = n else {
                    return Err(format!("append to a non-string at {}", d.path));
                };
                s.push_str(&Value::parse(&d.text).unwrap().into_string().unwrap());
            }
            DeltaOp::Set if toks.is_empty() => root = Some(node(&d.text)),
            DeltaOp::Set => {
                let n = node_at(root.as_mut().ok_or("no root")?, &toks)
                    .ok_or_else(|| format!("set of missing {}", d.path))?;
                *n = node(&d.text);
            }
            DeltaOp::Close | DeltaOp::Reopen => {
                node_at(root.as_mut().ok_or("no root")?, &toks)
                    .ok_or_else(|| format!("{:?} of missing {}", d.op, d.path))?;
            }
        }
    }
    let mut text = String::new();
    write(&root.ok_or("no root")?, &mut text);
    Value::parse(&text).map_err(|e| format!("{e:?} in {text}"))
}

/// One-shot `repair_bytes` as a `watch.finish`-comparable result.
pub(crate) fn one_shot(input: &[u8], opts: &Options) -> Result<String, String> {
    repair_bytes(input, opts)
        .map(|r| r.to_json())
        .map_err(|e| e.to_json())
}

/// The first place two lists differ, as an error.
fn first_difference<T: PartialEq + std::fmt::Debug>(
    what: &str,
    cuts: &[usize],
    split: &[T],
    whole: &[T],
) -> Result<(), String> {
    if split == whole {
        return Ok(());
    }
    let i = split
        .iter()
        .zip(whole)
        .position(|(a, b)| a != b)
        .unwrap_or(split.len().min(whole.len()));
    Err(format!(
        "cuts {cuts:?}: {what} {i}: {:?} != {:?}",
        split.get(i),
        whole.get(i)
    ))
}

/// Checks one split against one feed and one-shot repair.
pub(crate) fn check_split(input: &[u8], cuts: &[usize], opts: &Options) -> Result<(), String> {
    let whole = stream(input, &[], opts);
    let split = stream(input, cuts, opts);
    // `final` is the repair result plus `value`.
    let expect = one_shot(input, opts);
    let got_final = whole.last.clone().map(|j| {
        let start = j.find("\"final\":").map_or(0, |i| i + 8);
        let end = j.find(",\"value\":").unwrap_or(j.len());
        format!("{}}}", &j[start..end])
    });
    if got_final != expect {
        return Err(format!("final {got_final:?} != repair {expect:?}"));
    }
    // `final.value` is written from the text in one pass: the same JSON
    // as the parsed value's.
    if let (Ok(j), Some(v)) = (&whole.last, &whole.value) {
        let member = format!(",\"value\":{}}},\"events\":", v.to_json());
        if !j.contains(&member) {
            return Err(format!("final.value of {j:?} is not {}", v.to_json()));
        }
    }
    if split.last != whole.last {
        return Err(format!(
            "cuts {cuts:?}: finish {:?} != {:?}",
            split.last, whole.last
        ));
    }
    first_difference("delta", cuts, &split.deltas, &whole.deltas)?;
    first_difference("event", cuts, &split.events, &whole.events)?;
    // The token log reads steps as the text reader does.
    for (cuts, logged) in [(cuts, &split), (&[][..], &whole)] {
        let text = stream_read(input, cuts, opts, true);
        first_difference("logged delta", cuts, &logged.deltas, &text.deltas)?;
        first_difference("logged event", cuts, &logged.events, &text.events)?;
    }
    if whole.complete {
        let built = apply(&whole.deltas)?;
        if Some(&built) != whole.value.as_ref() {
            return Err(format!(
                "deltas build {} but final.value is {:?}",
                built.to_json(),
                whole.value.as_ref().map(Value::to_json)
            ));
        }
    }
    Ok(())
}

/// A fuzz input as chunk boundaries and the input: the first byte picks
/// the chunk size (1–16 bytes), and its high bit pads the input with 1,100
/// blanks, so the single feed reads the input in batches far from the end
/// of what arrived (strings whole and all) while the chunked one reads it
/// a token at a time.
pub(crate) fn cuts_from(data: &[u8]) -> Option<(Vec<usize>, Vec<u8>)> {
    let (&k, input) = data.split_first()?;
    let step = usize::from(k % 16) + 1;
    let mut input = input.to_vec();
    if k & 0x80 != 0 {
        input.resize(input.len() + 1100, b' ');
    }
    Some(((step..input.len()).step_by(step).collect(), input))
}
