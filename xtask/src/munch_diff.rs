//! `cargo xtask munch-diff [N]`: munch-core against the reference
//! encoder and decoder (jcodemunch-mcp 1.108.399) on N generated
//! responses, the way the shared vectors were made.
//!
//! 1. `munch_corpus` writes N responses from the round-trip generator.
//! 2. The reference encodes each for `compact` and `auto` and decodes its
//!    own compact payload, under PYTHONHASHSEED 0 and 1, writing lines in
//!    the vector format (`target/munch-diff-seed{0,1}.jsonl`).
//! 3. The `munch_diff` example checks C1, C2, C2l and C3 on every line
//!    (a line whose payloads differ between the seeds is seed-dependent).
//!
//! The vectors come from CPython 3.13; on a CPython that leaves a bare CR
//! unquoted in `csv.writer` (before 3.11.9 / 3.12.3) the script makes the
//! reference's table writer quote it, as 3.13 does (spec §4).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::munch_ref::{PY_COMPARE, corpus, example, install};
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

/// Runs the reference over the corpus under one hash seed; returns the
/// file it wrote.
fn reference(seed: &str, site: &Path, corpus: &Path) -> Result<PathBuf, String> {
    let script = root().join("target/munch-diff.py");
    std::fs::write(&script, format!("{PY_COMPARE}{SCRIPT}"))
        .map_err(|e| format!("{}: {e}", script.display()))?;
    let lines = root().join(format!("target/munch-diff-seed{seed}.jsonl"));
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
    let n = args.first().map_or("5000", String::as_str);
    let site = install()?;
    let corpus = corpus(n, "munch-diff-input.jsonl")?;
    let seed0 = reference("0", &site, &corpus)?;
    let seed1 = reference("1", &site, &corpus)?;
    step(
        "munch-core against the reference's payloads and decodes",
        example("munch_diff").arg(&seed0).arg(&seed1),
    )
}
