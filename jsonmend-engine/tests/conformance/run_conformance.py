#!/usr/bin/env python3
"""Run the jsonmend conformance corpus against a built `jsonmend` binary.

Routes: `proto` (every case through one `jsonmend serve --stdio` process per
case group) and `cli` (one-shot `repair` cases: stdout is the protocol `text`
plus LF, the exit code is 0 or the error's `exit`). Python 3.8+, standard
library only; Linux, macOS and Windows.

    python3 run_conformance.py [path/to/jsonmend] [cases.jsonl]
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def matches(expect, got, path, errors):
    if expect == "$any":
        return
    if isinstance(expect, dict):
        if not isinstance(got, dict):
            errors.append(f"{path}: expected an object, got {got!r}")
            return
        for k, v in expect.items():
            if k not in got:
                errors.append(f"{path}/{k}: missing")
            else:
                matches(v, got[k], f"{path}/{k}", errors)
    elif isinstance(expect, list):
        prefix = bool(expect) and expect[0] == "$prefix"
        items = expect[1:] if prefix else expect
        if not isinstance(got, list) or (len(got) < len(items) if prefix else len(got) != len(items)):
            errors.append(f"{path}: expected {len(items)} items, got {got!r}")
            return
        for i, (a, b) in enumerate(zip(items, got)):
            matches(a, b, f"{path}/{i}", errors)
    elif isinstance(expect, bool) or expect is None or isinstance(expect, str):
        if expect != got or type(expect) is not type(got):
            errors.append(f"{path}: expected {expect!r}, got {got!r}")
    elif isinstance(expect, (int, float)):
        if isinstance(got, bool) or not isinstance(got, (int, float)) or float(expect) != float(got):
            errors.append(f"{path}: expected {expect!r}, got {got!r}")
    elif expect != got:
        errors.append(f"{path}: expected {expect!r}, got {got!r}")


def serve(binary, lines):
    payload = "".join(line + "\n" for line in lines).encode("utf-8", "surrogatepass")
    out = subprocess.run([binary, "serve", "--stdio"], input=payload, capture_output=True, check=False)
    return [json.loads(l) for l in out.stdout.decode("utf-8").splitlines() if l.strip()]


def cli(binary, params):
    if "text" not in params:
        return None
    args = [binary, "repair"]
    for key, value in params.items():
        if key == "text":
            continue
        if key == "profile":
            args += ["--profile", value]
        elif key == "schema":
            args += ["--schema", value]
        elif key == "max_loss":
            args += ["--max-loss", str(value)]
        elif key == "skip_prose":
            if value is False:
                args.append("--no-skip-prose")
        else:
            return None
    out = subprocess.run(args, input=params["text"].encode("utf-8", "surrogatepass"),
                         capture_output=True, check=False)
    return out.stdout.decode("utf-8"), out.returncode


USAGE = "usage: run_conformance.py [path/to/jsonmend] [cases.jsonl]"


def main():
    if any(a in ("-h", "--help") for a in sys.argv[1:]):
        print(__doc__.strip())
        return 0
    if len(sys.argv) > 3:
        print(USAGE, file=sys.stderr)
        return 2
    binary = sys.argv[1] if len(sys.argv) > 1 else "jsonmend"
    cases_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "cases.jsonl")
    try:
        subprocess.run([binary, "--version"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"run_conformance.py: cannot run {binary!r} ({e})\n{USAGE}", file=sys.stderr)
        return 2
    with open(cases_path, encoding="utf-8") as f:
        cases = [json.loads(l) for l in f if l.strip()]
    failures = []
    for case in cases:
        cid = case["id"]
        if "raw" in case:
            lines, expects = [case["raw"]], [case["expect"]]
        elif "steps" in case:
            lines = [json.dumps({"id": i, "method": s["method"], "params": s.get("params")})
                     for i, s in enumerate(case["steps"])]
            expects = [s["expect"] for s in case["steps"]]
        else:
            lines = [json.dumps({"id": 0, "method": case["method"], "params": case["params"]})]
            expects = [dict(case["expect"], id=0)]
        replies = serve(binary, lines)
        if len(replies) != len(expects):
            failures.append(f"{cid}: {len(replies)} replies for {len(lines)} requests")
            continue
        for i, (want, got) in enumerate(zip(expects, replies)):
            errors = []
            matches(want, got, "", errors)
            if errors:
                failures.append(f"{cid} [{i}]: {'; '.join(errors)}")
        if case.get("method") == "repair" and "cli" in case.get("routes", ["lib", "proto", "cli"]):
            got = cli(binary, case["params"])
            if got is not None:
                reply = replies[0]
                want = (reply["result"]["text"] + "\n", 0) if reply.get("ok") else ("", reply["error"]["exit"])
                if got != want:
                    failures.append(f"{cid} [cli]: {got!r} != {want!r}")
    print(f"conformance: {len(cases)} cases, {len(failures)} failures")
    for f in failures:
        print("  " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
