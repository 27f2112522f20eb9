#!/usr/bin/env python3
"""Checks every case in cases.json under /work/main/.venv/bin/python.

Error cases: exit status 1, last stderr line matches error_regex, every expected
line exists and is code, at least one expected line is a frame of the traceback,
and for version-counter errors every `saved` line appears in the anomaly-mode
"Traceback of forward call".
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/work/main/.venv/bin/python"
TIMEOUT = 30
FRAME_RE = re.compile(r'File "([^"]+)", line (\d+)')
ANOMALY = r"""
import runpy, sys, torch
torch.autograd.set_detect_anomaly(True)
sys.argv = [sys.argv[1]]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def run(cmd, cwd):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", ""


def last_line(text):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return lines[-1] if lines else ""


def frames(text):
    return {(os.path.realpath(f), int(n)) for f, n in FRAME_RE.findall(text)}


def check(case):
    problems = []
    entry = os.path.join(HERE, case["entry"])
    cwd = os.path.dirname(entry)
    for f, n, role in case["expected"]:
        path = os.path.join(cwd, f)
        if not os.path.isfile(path):
            problems.append(f"missing {f}")
            continue
        lines = open(path).read().split("\n")
        if not (1 <= n <= len(lines)) or not lines[n - 1].strip() or lines[n - 1].strip().startswith("#"):
            problems.append(f"expected line {f}:{n} is not code")
    for f, n in case["fix_site"]:
        if [f, n, "fix"] not in case["expected"]:
            problems.append(f"fix_site {f}:{n} not in expected with role fix")
    rc, out, err = run([PY, os.path.basename(entry)], cwd)
    if rc is None:
        return problems + ["timed out"]
    if case["error"]:
        if rc != 1:
            problems.append(f"exit status {rc}, expected 1")
        if not re.search(case["error_regex"], last_line(err)):
            problems.append(f"last stderr line does not match: {last_line(err)[:160]!r}")
        named = {(os.path.realpath(os.path.join(cwd, f)), n) for f, n, _ in case["expected"]}
        if not (frames(err) & named):
            problems.append("no expected line in the traceback")
        if "modified by an inplace operation" in case["error_regex"]:
            _, _, err2 = run([PY, "-c", ANOMALY, os.path.basename(entry)], cwd)
            i = err2.find("Traceback of forward call that caused the error:")
            fwd = frames(err2[i:err2.find("(Triggered internally", i)]) if i >= 0 else set()
            for f, n, role in case["expected"]:
                if role == "saved" and (os.path.realpath(os.path.join(cwd, f)), n) not in fwd:
                    problems.append(f"saved line {f}:{n} not in anomaly forward trace")
    else:
        if rc != 0:
            problems.append(f"exit status {rc}, expected 0")
    return problems


def main():
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    passed = 0
    for case in cases:
        problems = check(case)
        print(f"{'ok  ' if not problems else 'FAIL'} {case['name']}")
        for p in problems:
            print(f"     - {p}")
        passed += not problems
    print(f"\n{passed}/{len(cases)} passed")
    sys.exit(0 if passed == len(cases) else 1)


if __name__ == "__main__":
    main()
