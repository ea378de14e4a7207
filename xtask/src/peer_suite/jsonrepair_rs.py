# The jsonrepair-rs 0.2.6 test cases (`ok(input, expected)`, `err(input)` in
# tests/repair_tests.rs and tests/fixtures/parity_cases.json) through
# `jsonmend repair` under the adam2go pass rules (argv: crate source dir,
# jsonmend binary, failure report path); see mod.rs.
import json, re, subprocess, sys
src_dir, binary, report = sys.argv[1], sys.argv[2], sys.argv[3]

def lit(s, i):
    """A Rust string literal at s[i:] (after blanks): (text, end) or None."""
    while i < len(s) and s[i] in " \t\r\n":
        i += 1
    m = re.match(r'r(#*)"', s[i:])
    if m:
        hashes = m.group(1)
        start = i + m.end()
        end = s.find('"' + hashes, start)
        return (s[start:end], end + 1 + len(hashes)) if end >= 0 else None
    if i >= len(s) or s[i] != '"':
        return None
    out, j = [], i + 1
    while j < len(s):
        c = s[j]
        if c == '"':
            return "".join(out), j + 1
        if c != "\\":
            out.append(c); j += 1; continue
        e = s[j + 1]
        if e == "\n":
            j += 2
            while j < len(s) and s[j] in " \t\r\n":
                j += 1
            continue
        simple = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "0": "\0"}
        if e in simple:
            out.append(simple[e]); j += 2; continue
        if e == "x":
            out.append(chr(int(s[j + 2:j + 4], 16))); j += 4; continue
        if e == "u":
            close = s.index("}", j)
            out.append(chr(int(s[j + 3:close].replace("_", ""), 16))); j = close + 1; continue
        return None
    return None

def after(s, i, ch):
    while i < len(s) and s[i] in " \t\r\n":
        i += 1
    return i + 1 if s[i:i + 1] == ch else None

cases = []
text = open(src_dir + "/tests/repair_tests.rs", encoding="utf-8").read()
for m in re.finditer(r"(?<![\w.])(ok|err)\(", text):
    kind, i = m.group(1), m.end()
    a = lit(text, i)
    if not a:
        continue
    line = text.count("\n", 0, m.start()) + 1
    if kind == "err":
        j = after(text, a[1], ")")
        if j:
            cases.append((f"repair_tests.rs:{line}", a[0], None))
        continue
    j = after(text, a[1], ",")
    b = lit(text, j) if j else None
    if b and after(text, after(text, b[1], ",") or b[1], ")"):
        cases.append((f"repair_tests.rs:{line}", a[0], b[0]))
for c in json.load(open(src_dir + "/tests/fixtures/parity_cases.json"))["cases"]:
    cases.append((f"parity_cases.json:{c['name']}", c["input"], c["expected"]))

REFUSED = object()
passed, counted, skipped, failures = 0, 0, 0, []
for name, inp, expected in cases:
    if expected is None:
        want = REFUSED
    else:
        try:
            want = json.loads(expected)
        except ValueError:
            skipped += 1
            continue
    counted += 1
    p = subprocess.run([binary, "repair"], input=inp.encode("utf-8", "surrogatepass"), capture_output=True)
    if p.returncode == 0:
        try:
            got = json.loads(p.stdout)
        except ValueError:
            got = ("not JSON", p.stdout.decode(errors="replace"))
        ok = want is not REFUSED and same(got, want)
    else:
        got = ("refused", p.returncode, p.stderr.decode(errors="replace").strip()[:100])
        ok = want is REFUSED
    if ok:
        passed += 1
    else:
        failures.append(json.dumps({"case": name, "input": inp, "expected": "refused" if want is REFUSED else want, "got": got}, ensure_ascii=False))
open(report, "w", encoding="utf-8").write("\n".join(failures) + "\n")
print(f"jsonrepair-rs 0.2.6 suite: {passed}/{counted} pass ({100 * passed / max(counted, 1):.1f} %), {skipped} skipped (expected output not JSON); failures in {report}")
