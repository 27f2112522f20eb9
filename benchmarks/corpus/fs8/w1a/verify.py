#!/usr/bin/env python3
"""Checks every case in cases.json under plain Python.

For each case: every expected/fix_site line exists and is not blank or a comment;
the entry runs from its own folder (30 s limit); error cases must exit 1 with the
last non-empty stderr line matching error_regex, and at least one expected line
must appear as a frame in the traceback.

Usage: python verify.py [--python PATH] [--only NAME ...]
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PY = "/work/main/.venv/bin/python"
TIMEOUT_S = 30


def check_lines(case):
    folder = os.path.join(HERE, "cases", case["name"])
    problems = []
    refs = [tuple(e[:2]) for e in case["expected"]] + [tuple(f) for f in case["fix_site"]]
    for rel, line in refs:
        path = os.path.join(folder, rel)
        if not os.path.isfile(path):
            problems.append(f"missing file {rel}")
            continue
        lines = open(path).read().splitlines()
        if not 1 <= line <= len(lines):
            problems.append(f"{rel}:{line} out of range")
            continue
        text = lines[line - 1].strip()
        if not text or text.startswith("#"):
            problems.append(f"{rel}:{line} blank or comment")
    fixes = [tuple(e[:2]) for e in case["expected"] if e[2] == "fix"]
    if fixes != [tuple(f) for f in case["fix_site"]]:
        problems.append("fix roles differ from fix_site")
    return problems


def run_case(py, case):
    entry = os.path.join(HERE, case["entry"])
    folder = os.path.dirname(entry)
    try:
        proc = subprocess.run([py, os.path.basename(entry)], cwd=folder, capture_output=True,
                              text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return False, "timeout"
    stderr_lines = [l for l in proc.stderr.splitlines() if l.strip()]
    last = stderr_lines[-1] if stderr_lines else ""
    if case["error"]:
        if proc.returncode != 1:
            return False, f"exit {proc.returncode}, expected 1"
        if not re.search(case["error_regex"], last):
            return False, f"last stderr line does not match: {last[:200]}"
        frames = set()
        for m in re.finditer(r'File "([^"]+)", line (\d+)', proc.stderr):
            p = os.path.realpath(m.group(1))
            if p.startswith(os.path.realpath(folder) + os.sep):
                frames.add((os.path.relpath(p, os.path.realpath(folder)), int(m.group(2))))
        if not any((e[0], e[1]) in frames for e in case["expected"]):
            return False, "no expected line appears in the traceback"
        return True, "raised as expected"
    if proc.returncode != 0:
        return False, f"exit {proc.returncode}, expected 0"
    return True, "exit 0"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=DEFAULT_PY if os.path.exists(DEFAULT_PY) else sys.executable)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    if args.only:
        cases = [c for c in cases if c["name"] in args.only]
    passed = 0
    for case in cases:
        problems = check_lines(case)
        if problems:
            ok, msg = False, "; ".join(problems)
        else:
            ok, msg = run_case(args.python, case)
        passed += ok
        print(f"{'PASS' if ok else 'FAIL'} {case['name']}: {msg}", flush=True)
    print(f"{passed}/{len(cases)} passed")
    sys.exit(0 if passed == len(cases) else 1)


if __name__ == "__main__":
    main()
