//! The MUNCH reference (jcodemunch-mcp 1.108.399 from PyPI) for
//! comparisons: installed without its dependencies (the encoding package
//! needs none) into `target/xtask-python/`.
//!
//! - `cargo xtask munch-vectors [--check]` writes (or checks)
//!   `munch-core/tests/vectors/extra-1.108.399.jsonl`: reference payloads
//!   and decodes for the tier-1 encoders the shared vectors lack (ip1, sa2,
//!   ro1) and for the cases `cargo xtask munch-diff` found munch-core
//!   wrong on, produced by the reference itself from the inputs below.
//! - `cargo xtask munch-pycheck [N]` feeds munch-core's verified payloads
//!   for N generated responses to the reference decoder and requires it to
//!   return exactly each input (spec D3's promise, checked from outside).
//! - `cargo xtask bench munch` times the reference on the document the
//!   criterion bench wrote (`target/munch-bench/search_symbols_5000.json`):
//!   its tier-1 and gen1 encoders and its decoder, median of repeated runs;
//!   then the reference and munch-core in turn, round after round.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{root, step};

const PACKAGE: &str = "jcodemunch-mcp==1.108.399";
const OUTPUT: &str = "munch-core/tests/vectors/extra-1.108.399.jsonl";

/// Installs the reference (once) and returns its folder for `sys.path`.
pub(crate) fn install() -> Result<PathBuf, String> {
    let site = root().join("target/xtask-python/jcodemunch-mcp-1.108.399");
    if !site.join("jcodemunch_mcp").exists() {
        step(
            "install jcodemunch-mcp (reference, no dependencies)",
            Command::new("python3")
                .args(["-m", "pip", "install", "--quiet", "--no-deps", "--target"])
                .arg(&site)
                .arg(PACKAGE),
        )?;
    }
    Ok(site)
}

/// Reference inputs for ip1, sa2 and ro1, and cases `munch-diff` found
/// munch-core wrong on; the script prints one JSON line
/// per case with the reference's compact payload and its decode.
const SCRIPT: &str = r##"
import json, sys, platform
sys.path.insert(0, sys.argv[1])
from jcodemunch_mcp.encoding import encode_response
from jcodemunch_mcp.encoding.decoder import decode

def rows(n, f):
    return [f(i) for i in range(n)]

CASES = [
  ("get_impact_preview/basic", "get_impact_preview", {
    "repo": "acme/webshop",
    "symbol": {"id": "src/webshop/util/retry.py::retry#function", "name": "retry", "kind": "function",
               "file": "src/webshop/util/retry.py", "line": 12},
    "affected_files": 3, "affected_symbol_count": 4,
    "affected_symbols": rows(4, lambda i: {"id": "src/webshop/services/billing/invoice.py::f%d#function" % i,
        "name": "f%d" % i, "kind": "function", "file": "src/webshop/services/billing/invoice.py",
        "line": 10 * i + 1, "depth": 1 + i % 2}),
    "affected_by_file": {"src/webshop/services/billing/invoice.py": 4},
    "call_chains": [["retry", "f0"], ["retry", "f1", "f3"]],
    "_meta": {"timing_ms": 4.5}}),
  ("get_impact_preview/empty", "get_impact_preview", {
    "repo": "acme/webshop", "affected_files": 0, "affected_symbol_count": 0, "affected_symbols": [],
    "_meta": {"timing_ms": 0.4, "verdict": {"status": "empty"}}}),
  ("search_ast/todo_and_magic", "search_ast", {
    "total_matches": 3, "repo": "acme/webshop", "category": "smells", "pattern": "todo_fixme",
    "description": "TODO/FIXME markers", "truncated": False,
    "matches": [
      {"file": "src/webshop/api/orders.py", "line": 14, "end_line": 14, "column": 4, "language": "python",
       "pattern": "todo_fixme", "severity": "low", "snippet": "# TODO: paginate", "enclosing_symbol":
       "src/webshop/api/orders.py::list_orders#function", "symbol_kind": "function", "symbol_complexity": 3,
       "marker": "TODO"},
      {"file": "src/webshop/api/orders.py", "line": 40, "end_line": 40, "column": 8, "language": "python",
       "pattern": "magic_number", "severity": "medium", "snippet": "retries = 17", "enclosing_symbol":
       "src/webshop/api/orders.py::create_order#function", "symbol_kind": "function", "symbol_complexity": 7,
       "value": 17},
      {"file": "src/webshop/api/users.py", "line": 3, "end_line": 5, "column": 0, "language": "python",
       "pattern": "todo_fixme", "severity": "low", "snippet": "# FIXME, later", "enclosing_symbol": "",
       "symbol_kind": "", "symbol_complexity": None}],
    "severity_counts": {"low": 2, "medium": 1}, "patterns_run": ["todo_fixme", "magic_number"],
    "_meta": {"elapsed_ms": 12, "files_scanned": 40, "files_with_matches": 2,
              "languages_scanned": ["python", "go"], "timing_ms": 12.5}}),
  ("search_ast/float_elapsed", "search_ast", {
    "total_matches": 0, "repo": "acme/webshop", "category": "smells", "matches": [],
    "_meta": {"elapsed_ms": 1.5, "timing_ms": 2}}),
  ("get_repo_outline/basic", "get_repo_outline", {
    "repo": "acme/webshop", "indexed_at": "2026-11-30T10:00:00Z", "file_count": 120, "symbol_count": 900,
    "languages": {"python": 100, "go": 20}, "directories": {"src/webshop/": 100, "tests/": 20},
    "symbol_kinds": {"function": 500, "class": 80},
    "most_imported_files": [{"file": "src/webshop/util/retry.py", "importers": 12}],
    "most_central_symbols": [{"id": "src/webshop/util/retry.py::retry#function", "score": 0.91}],
    "staleness_warning": "index is 2 days old", "_meta": {"timing_ms": 5.0, "is_stale": True}}),
  ("get_repo_outline/minimal", "get_repo_outline", {
    "repo": "acme/webshop", "file_count": 0, "symbol_count": 0, "_meta": {"timing_ms": 0.1}}),
  # A null warning the decode loses (a U+2028 in `repo` ends the scalar
  # line, a `#` starts the next): the contract check reads the missing key
  # as None, which keeps the payload.
  ("get_repo_outline/null_warning_lost", "get_repo_outline", {
    "repo": "acme/web\u2028#", "low_warning": None}),
  # float() strips neither U+001C-U+001F: the float-typed scalar stays a string.
  ("search_text/separator_timing", "search_text", {
    "repo": "acme/webshop", "results": [], "_meta": {"timing_ms": "\n0\x1f"}}),  # The warning check decodes the payload, and the reference decoder raises
  # on an empty dc2 cycle and on a CSV cell over 131,072 characters: JSON.
  ("get_dependency_cycles/empty_cycle_with_warning", "get_dependency_cycles", {
    "repo": "acme/webshop", "cycle_count": 2, "cycles": [["a.py", "b.py"], []],
    "negative_evidence": 714}),
  ("gen1/long_cell_with_warning", "get_hotspots", {
    "rows": [{"a": "x" * 140000, "b": 1}, {"a": "y", "b": 2}], "warning": "w"}),
  # ... but only where its CSV reader reads the cell: a U+2028 in the table's
  # key splits the `__tables` scalar (its `splitlines`), no table is declared,
  # no block is read, and the warning survives: MUNCH.
  ("gen1/long_cell_in_undeclared_table", "get_hotspots", {
    "\u2028rows": [{"a": "x" * 140000, "b": 1}, {"a": "y", "b": 2}], "warning": "w"}),  # The warning check compares ints and floats exactly, as Python does: a
  # column read back as floats changes 2**64 + 1 and 2**53 + 1 (JSON).
  ("gen1/warning_big_int_as_float", "get_hotspots", {
    "warning": {"scores": [{"s": 18446744073709551617}, {"s": 1.5}]}}),
  ("gen1/warning_2_53_plus_1_as_float", "get_hotspots", {
    "warning": {"scores": [{"s": 9007199254740993}, {"s": 1.5}]}}),
  # A legend literal with a CR is cut there, and the rest of the line,
  # `@0`, sets `order[-1]` (the highest handle) to "" as Python indexes.
  ("search_text/legend_cr_at_zero", "search_text", {
    "repo": "acme/webshop", "results": [
      {"file": "src/lib/|\r@0", "matches": [{"line": 3, "text": "x"}, {"line": 4, "text": "y"}]},
      {"file": "other.py", "matches": [{"line": 1, "text": "z"}]}]}),
  # `@-1` after one entry falls off Python's list: the reference's legend
  # read raises, so its warning check sends JSON (munch-core's decoder skips
  # that line, spec D1.2).
  ("search_text/legend_cr_off_the_list_warning", "search_text", {
    "repo": "acme/webshop", "warning": "w", "results": [
      {"file": "src/lib/|\r@-1", "matches": [{"line": 3, "text": "x"}, {"line": 4, "text": "y"}]},
      {"file": "other.py", "matches": [{"line": 1, "text": "z"}]}]}),
  # fo1 batches run `dict(sym)` over each entry's symbols, as Python
  # iterates them: a string's characters raise, a dict's keys make `{}` only
  # when empty, a list of pairs makes a dict.
  ("get_file_outline/batch_symbols_string", "get_file_outline", {
    "repo": "acme/webshop", "results": [{"file": "a.py", "language": "python", "symbols": "\n"}]}),
  ("get_file_outline/batch_symbols_empty_key", "get_file_outline", {
    "repo": "acme/webshop", "results": [{"file": "a.py", "language": "python", "symbols": {"": 1}}]}),
  ("get_file_outline/batch_symbol_pairs", "get_file_outline", {
    "repo": "acme/webshop", "results": [{"file": "a.py", "language": "python",
      "symbols": [[["name", "f"], ["kind", "function"], [3, "x"], "ps", {"line": 1, "x": 2}], ""]}]}),
  # A match that is a float makes no fr2 row, like any match that is no
  # dict (munch-core holds the float as a `$float` object).
  ("find_references/float_match", "find_references", {
    "repo": "acme/webshop", "references": [
      {"file": "src/a.py", "matches": [{"specifier": "x", "match_type": "import"}, float("-inf")]},
      {"file": "src/b.py", "matches": []}]}),
]

def sentinels(v):
  """Non-finite floats as munch-core's `{"$float": ...}` objects."""
  if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
    return {"$float": "nan" if v != v else ("inf" if v > 0 else "-inf")}
  if isinstance(v, dict):
    return {k: sentinels(x) for k, x in v.items()}
  if isinstance(v, list):
    return [sentinels(x) for x in v]
  return v

for name, tool, inp in CASES:
    payload, meta = encode_response(tool, inp, "compact")
    line = {"name": name, "tool": tool, "input": sentinels(inp),
            "compact": payload if meta["encoding"] != "json" else None,
            "decoded": sentinels(decode(payload)) if meta["encoding"] != "json" else None,
            "python": platform.python_version(), "reference_version": "1.108.399"}
    print(json.dumps(line, sort_keys=False))
"##;

pub(crate) fn vectors(args: &[String]) -> Result<(), String> {
    let check = args.iter().any(|a| a == "--check");
    let site = install()?;
    let out = Command::new("python3")
        .env("PYTHONHASHSEED", "0")
        .args(["-c", SCRIPT])
        .arg(&site)
        .output()
        .map_err(|e| format!("python3: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "reference run failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let path = root().join(OUTPUT);
    if check {
        // The Python version is recorded per line; compare without it.
        let strip = |t: &str| -> String {
            t.lines()
                .map(|l| l.split("\"python\":").next().unwrap_or(l).to_string())
                .collect::<Vec<_>>()
                .join("\n")
        };
        let current =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        if strip(&current) != strip(&String::from_utf8_lossy(&out.stdout)) {
            return Err(format!("{OUTPUT} differs from the reference's output"));
        }
        eprintln!("xtask: {OUTPUT} matches the reference");
        return Ok(());
    }
    std::fs::write(&path, &out.stdout).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("xtask: wrote {OUTPUT}");
    Ok(())
}

/// Times the reference's encoders and decoder on the bench document;
/// returns (criterion group, median ns) rows.
const TIMING: &str = r##"
import json, sys, time, statistics
sys.path.insert(0, sys.argv[1])
from jcodemunch_mcp.encoding import generic
from jcodemunch_mcp.encoding.schemas import registry
from jcodemunch_mcp.encoding.decoder import decode
resp = json.load(open(sys.argv[2]))
def median(f, n=9):
    f()
    t = []
    for _ in range(n):
        a = time.perf_counter_ns(); f(); t.append(time.perf_counter_ns() - a)
    return statistics.median(t)
ss1 = registry.for_tool("search_symbols")
p1, _ = ss1.encode("search_symbols", resp)
p2, _ = generic.encode("get_hotspots", resp)
rows = {
  "encode_tier1": median(lambda: ss1.encode("search_symbols", resp)),
  "decode_tier1": median(lambda: decode(p1)),
  "decode_gen1": median(lambda: decode(p2)),
}
# One round of the paired timing leaves out the slowest call.
if len(sys.argv) < 4:
    rows["encode_gen1"] = median(lambda: generic.encode("get_hotspots", resp))
for k, v in rows.items():
    print(k, v)
"##;

/// The bench document the criterion bench wrote.
pub(crate) fn bench_document() -> Result<PathBuf, String> {
    let doc = root().join("target/munch-bench/search_symbols_5000.json");
    if doc.exists() {
        Ok(doc)
    } else {
        Err(format!(
            "{} is missing (the criterion bench writes it)",
            doc.display()
        ))
    }
}

pub(crate) fn time_reference() -> Result<Vec<(String, f64)>, String> {
    let doc = bench_document()?;
    let site = install()?;
    eprintln!(
        "xtask: ── timing the Python reference (jcodemunch-mcp 1.108.399) on the same document"
    );
    reference_round(&site, &doc, false)
}

/// One run of the reference's timing script (`round`: without gen1
/// encoding, the slowest call).
fn reference_round(site: &Path, doc: &Path, round: bool) -> Result<Vec<(String, f64)>, String> {
    let mut cmd = Command::new("python3");
    cmd.env("PYTHONHASHSEED", "0")
        .args(["-c", TIMING])
        .arg(site)
        .arg(doc);
    if round {
        cmd.arg("round");
    }
    timings(&mut cmd, "reference timing")
}

/// The `group median_ns` lines a timing command prints.
pub(crate) fn timings(cmd: &mut Command, what: &str) -> Result<Vec<(String, f64)>, String> {
    let out = cmd.output().map_err(|e| format!("{what}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{what} failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let (k, v) = l.split_once(' ')?;
            Some((k.to_string(), v.trim().parse().ok()?))
        })
        .collect())
}

/// One group of the paired timing: the peer's and munch-core's median per
/// round, in ns.
pub(crate) struct Paired {
    pub(crate) group: String,
    pub(crate) peer: Peer,
    pub(crate) reference: Vec<f64>,
    pub(crate) ours: Vec<f64>,
}

/// Who a paired group is timed against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Peer {
    /// jcodemunch-mcp, run right before munch-core in each round.
    Reference,
    /// `serde_json` on the same value or text, in munch-core's timing
    /// process.
    SerdeJson,
    /// The `serde_json::Value` the decode returns, cloned and dropped:
    /// what building that value costs without reading any text.
    ValueClone,
}

/// munch-core's groups timed against `serde_json`, and the timer line of
/// their peer.
const VERSUS_SERDE: &[(&str, &str)] = &[
    ("encode_tier1", "serde_json_serialize"),
    ("encode_gen1", "serde_json_serialize_gen1"),
    ("decode_tier1", "serde_json_parse"),
    ("decode_tier1_borrowed", "serde_json_parse"),
    ("decode_tier1_typed", "serde_json_parse_typed"),
];

/// munch-core's groups timed beside a clone of what they build: the group,
/// the timer line of its own time in that pairing, and the clone's line.
const VERSUS_CLONE: &[(&str, &str, &str)] = &[(
    "decode_tier1",
    "decode_tier1_beside_clone",
    "value_clone_tier1",
)];

/// Adds one round's pair to its group.
fn push_pair(paired: &mut Vec<Paired>, group: &str, peer: Peer, (r, ns): (f64, f64)) {
    match paired
        .iter_mut()
        .find(|p| p.group == group && p.peer == peer)
    {
        Some(p) => {
            p.reference.push(r);
            p.ours.push(ns);
        }
        None => paired.push(Paired {
            group: group.to_string(),
            peer,
            reference: vec![r],
            ours: vec![ns],
        }),
    }
}

/// Builds one of `munch-bench`'s examples (release): its binary.
pub(crate) fn bench_example(name: &str) -> Result<PathBuf, String> {
    step(
        &format!("build munch-bench's {name}"),
        crate::util::cargo().args([
            "build",
            "--release",
            "-q",
            "-p",
            "munch-bench",
            "--example",
            name,
        ]),
    )?;
    Ok(root().join("target/release/examples").join(name))
}

/// Times the reference and munch-core (`munch-bench`'s `timer` example)
/// in turn, `rounds` times, on the bench document: each ratio is taken
/// from two timings made one right after the other, so a change of load
/// during the run moves both sides of it.
pub(crate) fn time_paired(rounds: usize) -> Result<Vec<Paired>, String> {
    let doc = bench_document()?;
    let site = install()?;
    let timer = bench_example("timer")?;
    eprintln!("xtask: ── the reference and munch-core in turn, {rounds} rounds");
    let mut paired: Vec<Paired> = Vec::new();
    for _ in 0..rounds {
        let reference = reference_round(&site, &doc, true)?;
        let ours = timings(Command::new(&timer).arg(&doc), "munch-core timing")?;
        for (group, ns) in &ours {
            // The borrowed and typed decodes' peer is the reference's
            // decode (its only one: to Python dicts); so is the clone of
            // the decoded value (how many times faster than the reference
            // merely building a `serde_json::Value` result is).
            let peer = group
                .strip_suffix("_borrowed")
                .or_else(|| group.strip_suffix("_typed"))
                .map(String::from)
                .or_else(|| {
                    group
                        .strip_prefix("value_clone_")
                        .map(|t| format!("decode_{t}"))
                })
                .unwrap_or_else(|| group.clone());
            if let Some(&(_, r)) = reference.iter().find(|(g, _)| *g == peer) {
                push_pair(&mut paired, group, Peer::Reference, (r, *ns));
            }
        }
        let time = |name: &str| ours.iter().find(|(g, _)| g == name).map(|x| x.1);
        for (group, peer) in VERSUS_SERDE {
            if let (Some(ns), Some(r)) = (time(group), time(peer)) {
                push_pair(&mut paired, group, Peer::SerdeJson, (r, ns));
            }
        }
        for (group, line, clone) in VERSUS_CLONE {
            if let (Some(ns), Some(r)) = (time(line), time(clone)) {
                push_pair(&mut paired, group, Peer::ValueClone, (r, ns));
            }
        }
    }
    Ok(paired)
}

/// Python helpers the comparison scripts share: `unsentinel` reads the
/// `{"$float": …}` form of NaN and the infinities, `same` compares
/// type-exact (int ≠ float ≠ bool, NaN = NaN, key order ignored).
pub(crate) const PY_COMPARE: &str = r##"
import json, math, sys

def unsentinel(v):
    if isinstance(v, dict):
        if len(v) == 1 and "$float" in v and v["$float"] in ("nan", "inf", "-inf"):
            return float(v["$float"])
        return {k: unsentinel(x) for k, x in v.items()}
    if isinstance(v, list):
        return [unsentinel(x) for x in v]
    return v

def same(a, b):
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b

"##;

/// Decodes every payload of the corpus with the reference and compares it
/// with the input (`same`).
const PYCHECK: &str = r##"
sys.path.insert(0, sys.argv[1])
from jcodemunch_mcp.encoding.decoder import decode

checked = munch = bad = 0
for line in open(sys.argv[2]):
    case = json.loads(line)
    want = unsentinel(case["input"])
    for key in ("compact", "auto"):
        text = case[key]
        checked += 1
        if not text.startswith("#MUNCH/"):
            continue
        munch += 1
        try:
            got = decode(text)
        except Exception as e:
            got = "<raised %r>" % e
        if not same(want, got):
            bad += 1
            if bad <= 5:
                print("MISMATCH", case["tool"], key, repr(text)[:300], "\n  want", repr(want)[:300], "\n  got ", repr(got)[:300])
print("%d payloads, %d MUNCH, %d decoded differently by the reference" % (checked, munch, bad))
sys.exit(1 if bad else 0)
"##;

/// `cargo run` of a munch-core example (release, with `features`),
/// arguments to follow.
pub(crate) fn example(name: &str, features: &str) -> Command {
    let mut cmd = crate::util::cargo();
    cmd.args([
        "run",
        "--quiet",
        "--release",
        "-p",
        "munch-core",
        "--example",
    ])
    .arg(name);
    if !features.is_empty() {
        cmd.args(["--features", features]);
    }
    cmd.arg("--");
    cmd
}

/// Writes munch-core's generated responses and verified payloads for `n`
/// cases (the `munch_corpus` example, generator seed `seed`) to
/// `target/<name>`.
pub(crate) fn corpus(n: &str, seed: &str, name: &str) -> Result<PathBuf, String> {
    let corpus = root().join("target").join(name);
    let out = example("munch_corpus", "")
        .args([n, seed])
        .output()
        .map_err(|e| format!("cargo run: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "munch_corpus failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    std::fs::write(&corpus, &out.stdout).map_err(|e| format!("{}: {e}", corpus.display()))?;
    Ok(corpus)
}

pub(crate) fn pycheck(args: &[String]) -> Result<(), String> {
    let n = args.first().map_or("3000", String::as_str);
    let site = install()?;
    let corpus = corpus(n, "0", "munch-pycheck.jsonl")?;
    reference_decodes(&site, &corpus)
}

/// The reference decoder on every payload of a `munch_corpus`-format file
/// must return exactly its input.
pub(crate) fn reference_decodes(site: &Path, corpus: &Path) -> Result<(), String> {
    let script = root().join("target/munch-pycheck.py");
    std::fs::write(&script, format!("{PY_COMPARE}{PYCHECK}"))
        .map_err(|e| format!("{}: {e}", script.display()))?;
    step(
        "reference decoder on munch-core's verified payloads",
        Command::new("python3")
            .env("PYTHONHASHSEED", "0")
            .arg(&script)
            .arg(site)
            .arg(corpus),
    )
}
