# The json_repair 0.58.0 test suite through `jsonmend repair` (argv: tests
# dir, jsonmend binary, failure report path); see mod.rs.
import ast, glob, json, subprocess, sys
tests, binary, report = sys.argv[1], sys.argv[2], sys.argv[3]
cases = []
for path in sorted(glob.glob(tests + "/test_*.py")):
    tree = ast.parse(open(path, encoding="utf-8").read())
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq)):
            continue
        call = node.left
        name = getattr(getattr(call, "func", None), "id", None) or getattr(getattr(call, "func", None), "attr", None)
        if not (isinstance(call, ast.Call) and name == "repair_json"):
            continue
        try:
            args = [ast.literal_eval(a) for a in call.args]
            kw = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
            want = ast.literal_eval(node.comparators[0])
        except Exception:
            continue
        if not args or not isinstance(args[0], str):
            continue
        objects = kw.pop("return_objects", False)
        kw.pop("skip_json_loads", None)
        if kw:
            continue
        if not objects:
            if not isinstance(want, str):
                continue
            try:
                want = json.loads(want) if want != "" else ""
            except ValueError:
                continue
        cases.append((path.rsplit("/", 1)[-1], node.lineno, args[0], want))

passed, failures = 0, []
for file, line, text, want in cases:
    p = subprocess.run([binary, "repair"], input=text.encode(), capture_output=True)
    if p.returncode == 0:
        try:
            got = json.loads(p.stdout)
        except ValueError:
            got = ("not JSON", p.stdout.decode(errors="replace"))
    elif p.returncode == 4:
        got = ""
    else:
        got = ("error", p.stderr.decode(errors="replace").strip()[:80])
    if same(got, want):
        passed += 1
    else:
        failures.append(json.dumps({"case": f"{file}:{line}", "input": text, "expected": want, "got": got}, ensure_ascii=False))
open(report, "w", encoding="utf-8").write("\n".join(failures) + "\n")
print(f"json_repair 0.58.0 suite: {passed}/{len(cases)} pass ({100 * passed / max(len(cases), 1):.1f} %); failures in {report}")
