//! `cargo xtask munch-diff [N] [--seed S]`: munch-core against the
//! reference encoder and decoder (jcodemunch-mcp 1.108.399) on three
//! corpora of generated responses, the way the shared vectors were made.
//!
//! 1. The corpora: `generated`, from the round-trip generator (the
//!    `munch_corpus` example), rich in hazards; `mutated`, the reference
//!    vectors' inputs with random edits, realistic shapes of every tier-1
//!    tool; `grown` (N/10 responses), their tables grown to hundreds of
//!    rows of path-like cells, for the legend at scale. All vary with the
//!    seed S (default 1).
//! 2. The reference encodes each response for `compact` and `auto` and
//!    decodes its own compact payload, under PYTHONHASHSEED 0 and 1,
//!    writing lines in the vector format
//!    (`target/munch-diff-<corpus>-seed{0,1}.jsonl`).
//! 3. The `munch_diff` example (with `arbitrary-precision`, as the vectors
//!    need) checks C1, C2, C2s, C2l, C3 and C4 on every line (a line whose
//!    payloads differ between the seeds is seed-dependent), and writes its
//!    verified payloads, which the reference decoder must read back to
//!    exactly each input (as `munch-pycheck` does).
//!
//! The vectors come from CPython 3.13; on a CPython that leaves a bare CR
//! unquoted in `csv.writer` (before 3.11.9 / 3.12.3) the script makes the
//! reference's table writer quote it, as 3.13 does (spec §4).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::munch_ref::{PY_COMPARE, corpus, example, install, reference_decodes};
use crate::util::{root, step};

/// The reference run (after `PY_COMPARE`).
const SCRIPT: &str = r##"
sys.path.insert(0, sys.argv[1])
from jcodemunch_mcp.encoding import encode_response
from jcodemunch_mcp.encoding.decoder import decode

if sys.version_info < (3, 11, 9) or (3, 12) <= sys.version_info < (3, 12, 3):
    # The writer quotes a field holding any character of its line
    # terminator: each row is written alone with "\n\r" and ends in "\n".
    import csv, io
    from jcodemunch_mcp.encoding import format as _fmt, generic as _gen, schema_driven as _sd
    def write_table(tag, rows):
        out = []
        for row in rows:
            buf = io.StringIO()
            csv.writer(buf, lineterminator="\n\r").writerow([tag, *(_fmt.encode_scalar(c) for c in row)])
            out.append(buf.getvalue()[:-2] + "\n")
        return "".join(out).rstrip("\n")
    _fmt.write_table = _gen.write_table = _sd.write_table = write_table

def sentinel(v):
    if isinstance(v, float) and not math.isfinite(v):
        return {"$float": "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")}
    if isinstance(v, dict):
        return {k: sentinel(x) for k, x in v.items()}
    if isinstance(v, list):
        return [sentinel(x) for x in v]
    return v

def text(p):
    return p if isinstance(p, str) else json.dumps(p, separators=(",", ":"))

for n, line in enumerate(open(sys.argv[2])):
    case = json.loads(line)
    tool, inp = case["tool"], unsentinel(case["input"])
    c, mc = encode_response(tool, inp, "compact")
    a, ma = encode_response(tool, inp, "auto")
    rec = {"name": "generated/%d" % n, "tool": tool, "input": sentinel(inp),
           "compact": c if isinstance(c, str) else None, "auto": text(a),
           "meta_compact": mc, "meta_auto": ma, "auto_is_munch": isinstance(a, str),
           "decoded": None, "roundtrip_equal": False}
    if isinstance(c, str):
        try:
            d = decode(c)
            rec["decoded"] = sentinel(d)
            rec["roundtrip_equal"] = same(inp, d)
        except Exception as e:
            rec["decode_error"] = repr(e)
    print(json.dumps(rec))
"##;

/// What the corpus scripts start with: `python3 SCRIPT FILES N SEED`
/// reads the (tool, input) of every line of the comma-separated vector
/// FILES, and seeds `rng`; the script prints N responses.
const PY_BASES: &str = r##"
import json, random, sys
files, n, seed = sys.argv[1].split(","), int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
bases = []
for f in files:
    for line in open(f):
        if line.strip():
            v = json.loads(line)
            bases.append((v["tool"], v["input"]))
"##;

/// The mutation corpus (after `PY_BASES`).
const MUTATE: &str = r##"
# Realistic responses: the reference vectors' inputs with random edits
# (values replaced by clean or hazardous ones or wrapped in a list or dict,
# keys dropped, added or given hazardous prefixes, rows repeated, dropped
# or shuffled; now and then under another tool's name), in the corpus
# format {"tool", "input"}.
PIECES = ["src/", "app/", "main.py", "@", "@1", "@@", "0", "7", "12", "\\", "/", ",", '"', "\n", "\r",
          " ", "\u00a0", "\u2028", "T", "F", "", "\u00b2", "\u00e9", "\u001f", "=", ":", "|", "#", "a",
          "::f#function", "\t", "'", "[", "{", "None", "1.5", "-", "e5", "nan", "\u3000",
          # The rest of what Python's str.splitlines breaks at.
          "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2029", "\r\n"]
CLEAN = ["src/webshop/api/orders.py", "src/webshop/models/order.py", "tests/unit/test_orders.py",
         "Order", "create_order", "function", "class", "method", "python", "go", "named", "default",
         "src/webshop/util/retry.py::retry#function", "webshop.models.order", "acme/webshop", ""]
KEYS = ["file", "id", "name", "kind", "line", "score", "warning", "low_warning", "negative_evidence",
        "extra", "a.b", "@x", "note", "details", "depth", "summary", "_meta", "hint"]
HAZARD_KEYS = ["a.b", "@x", "k=v", " sp", "x y", "\u00e9", "_meta", "__tables", "t,x", "", "1", "@1", "\u2028",
               "\x85", "\x1e", "\x0c", "\u2029"]
strings = []
def collect(v):
    if isinstance(v, str): strings.append(v)
    elif isinstance(v, dict):
        for k, x in v.items(): collect(x)
    elif isinstance(v, list):
        for x in v: collect(x)
for _, b in bases: collect(b)

def new_string(clean):
    r = rng.random()
    if not clean and r < 0.0004:
        # Past the reference reader's CSV field limit (131,072 characters).
        return "x" * 131073 + rng.choice(PIECES)
    if clean or r < 0.5:
        return rng.choice(CLEAN + strings[: 2000]) if rng.random() < 0.7 else rng.choice(CLEAN) + str(rng.randint(0, 99))
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 4)))

def new_scalar(clean):
    r = rng.randrange(9 if not clean else 6)
    return [None, True, False, rng.randint(-50, 5000), rng.randint(0, 400) / 8, new_string(clean),
            {"$float": "nan"}, 18446744073709551617, -0.0][r]

def mutate(v, p, clean, depth=0):
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            if rng.random() < p / 3:
                continue  # drop key
            if rng.random() < p / 8:
                k = rng.choice(HAZARD_KEYS) + k
            out[k] = mutate(x, p, clean, depth + 1)
        if rng.random() < p / 3:
            out[rng.choice(KEYS)] = new_scalar(clean) if rng.random() < 0.8 else [new_scalar(clean)]
        return out
    if isinstance(v, list):
        items = [mutate(x, p, clean, depth + 1) for x in v]
        if items and rng.random() < p:
            items.append(mutate(rng.choice(v), p, clean, depth + 1))
        if items and rng.random() < p / 2:
            items.pop(rng.randrange(len(items)))
        if rng.random() < p / 4:
            rng.shuffle(items)
        return items
    if rng.random() < p / 6:
        return rng.choice([[v], {"v": v}, {}, [], {"$float": "inf"}, "", None])
    if rng.random() < p:
        if isinstance(v, str):
            return new_string(clean) if rng.random() < 0.8 else new_scalar(clean)
        if isinstance(v, bool) or v is None:
            return new_scalar(clean)
        if isinstance(v, int):
            return rng.choice([v + rng.randint(-3, 3), -v, 0, float(v), str(v), None])
        if isinstance(v, float):
            return rng.choice([v * 2, round(v, 1), int(v), 1e16, 0.0001, None, str(v)])
    return v

out = sys.stdout
for i in range(n):
    tool, base = rng.choice(bases)
    if rng.random() < 0.1:
        tool = rng.choice(bases)[0]  # another tool's name over this shape
    p = rng.choice([0.02, 0.05, 0.1, 0.25, 0.4, 0.6])
    clean = rng.random() < 0.5
    out.write(json.dumps({"tool": tool, "input": mutate(base, p, clean)}) + "\n")
"##;

/// The grown corpus (after `PY_BASES`).
const GROW: &str = r##"
# Legend-heavy responses: the reference vectors' tables grown to 20-400
# rows, the copied rows' strings replaced by paths (and path::symbol ids)
# over a small directory tree, so that the legend's candidates, selection
# and first-match order are exercised at scale.
bases = [b for b in bases if len(json.dumps(b[1])) < 20000]
DIRS = ["src/", "src/webshop/", "src/webshop/api/", "src/webshop/api/handlers/", "src/webshop/models/",
        "tests/", "tests/unit/", "frontend/src/components/", "frontend/src/components/cart/", "lib/", "a/", "ab/", "abc/"]
FILES = ["orders.py", "users.py", "order.py", "index.ts", "api.ts", "x.py", "retry.py", "__init__.py", "o.py"]
def path():
    d = rng.choice(DIRS)
    if rng.random() < 0.3:
        d += rng.choice(DIRS)
    return d + rng.choice(FILES)
def vary(v):
    if isinstance(v, str):
        r = rng.random()
        if "/" in v or r < 0.3:
            p = path()
            if "::" in v:
                p += "::" + rng.choice(["f", "g", "Order", "create_order"]) + "#" + rng.choice(["function", "class", "method"])
            return p
        return v
    if isinstance(v, dict):
        return {k: vary(x) for k, x in v.items()}
    if isinstance(v, list):
        return [vary(x) for x in v]
    return v
def grow(v):
    if isinstance(v, dict):
        return {k: grow(x) for k, x in v.items()}
    if isinstance(v, list):
        items = [grow(x) for x in v]
        if items and all(isinstance(x, dict) for x in items) and rng.random() < 0.8:
            target = rng.choice([20, 60, 150, 400])
            while len(items) < target:
                items.append(vary(rng.choice(v)))
        return items
    return v
for i in range(n):
    tool, base = rng.choice(bases)
    print(json.dumps({"tool": tool, "input": grow(base)}))
"##;

/// Writes a corpus of `n` responses made by `script` (over the reference
/// vectors' inputs) to `target/<name>`.
fn from_vectors(script: &str, n: &str, seed: &str, name: &str) -> Result<PathBuf, String> {
    let path = root().join("target").join(name).with_extension("py");
    std::fs::write(&path, format!("{PY_BASES}{script}"))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let script = path;
    let vectors = ["jcodemunch-1.108.399.jsonl", "extra-1.108.399.jsonl"]
        .map(|f| {
            root()
                .join("munch-core/tests/vectors")
                .join(f)
                .display()
                .to_string()
        })
        .join(",");
    let corpus = root().join("target").join(name);
    let file = std::fs::File::create(&corpus).map_err(|e| format!("{}: {e}", corpus.display()))?;
    step(
        &format!("corpus {name}"),
        Command::new("python3")
            .arg(&script)
            .args([vectors.as_str(), n, seed])
            .stdout(file),
    )?;
    Ok(corpus)
}

/// Runs the reference over a corpus under one hash seed; returns the file
/// it wrote.
fn reference(seed: &str, site: &Path, corpus: &Path) -> Result<PathBuf, String> {
    let script = root().join("target/munch-diff.py");
    std::fs::write(&script, format!("{PY_COMPARE}{SCRIPT}"))
        .map_err(|e| format!("{}: {e}", script.display()))?;
    let stem = corpus
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let lines = root().join(format!("target/{stem}-seed{seed}.jsonl"));
    let file = std::fs::File::create(&lines).map_err(|e| format!("{}: {e}", lines.display()))?;
    step(
        &format!("reference encoder and decoder, PYTHONHASHSEED={seed}"),
        Command::new("python3")
            .env("PYTHONHASHSEED", seed)
            .arg(&script)
            .arg(site)
            .arg(corpus)
            .stdout(file),
    )?;
    Ok(lines)
}

pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let n = args
        .first()
        .filter(|a| !a.starts_with("--"))
        .map_or("5000", String::as_str);
    let seed = args
        .iter()
        .position(|a| a == "--seed")
        .and_then(|i| args.get(i + 1))
        .map_or("1", String::as_str);
    let site = install()?;
    // Grown responses are large: a tenth as many.
    let grown = (n.parse::<usize>().unwrap_or(5000) / 10).max(1).to_string();
    let corpora = [
        corpus(n, seed, "munch-diff-generated.jsonl")?,
        from_vectors(MUTATE, n, seed, "munch-diff-mutated.jsonl")?,
        from_vectors(GROW, &grown, seed, "munch-diff-grown.jsonl")?,
    ];
    let mut failed = Vec::new();
    for corpus in &corpora {
        let seed0 = reference("0", &site, corpus)?;
        let seed1 = reference("1", &site, corpus)?;
        let name = format!("munch-core against the reference on {}", corpus.display());
        let verified = corpus.with_extension("verified.jsonl");
        if let Err(e) = step(
            &name,
            example("munch_diff", "arbitrary-precision")
                .arg(&seed0)
                .arg(&seed1)
                .arg("--payloads")
                .arg(&verified),
        ) {
            failed.push(e);
        }
        if let Err(e) = reference_decodes(&site, &verified) {
            failed.push(e);
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(failed.join("; "))
    }
}
