#!/usr/bin/env python3
"""Runs every case of this part and checks it against cases.json.

For each case: every expected / fix_site line must exist and be a non-blank,
non-comment source line; the entry script is run with the project's Python
from its own folder (30 s limit); error cases must exit with status 1 and
their last non-empty stderr line must match error_regex; other cases must
exit 0.

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
    folder = os.path.join(HERE, os.path.dirname(case["entry"]))
    problems = []
    locs = [(f, l) for f, l, _ in case["expected"]] + [tuple(x) for x in case["fix_site"]]
    for f, l in locs:
        path = os.path.join(folder, f)
        if not os.path.isfile(path):
            problems.append(f"missing file {f}")
            continue
        lines = open(path).read().split("\n")
        if not 1 <= l <= len(lines):
            problems.append(f"{f}:{l} out of range")
            continue
        text = lines[l - 1].strip()
        if not text or text.startswith("#"):
            problems.append(f"{f}:{l} blank or comment")
    return problems


def run_case(case, python):
    entry = os.path.join(HERE, case["entry"])
    folder = os.path.dirname(entry)
    try:
        p = subprocess.run([python, os.path.basename(entry)], cwd=folder, capture_output=True,
                           text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return False, "timeout"
    err_lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    last = err_lines[-1] if err_lines else ""
    if case["error"]:
        if p.returncode != 1:
            return False, f"exit {p.returncode}, expected 1; last stderr: {last[:200]}"
        if not re.search(case["error_regex"], last):
            return False, f"regex mismatch; last stderr: {last[:200]}"
        return True, f"exit 1, {last[:90]}"
    if p.returncode != 0:
        return False, f"exit {p.returncode}, expected 0; last stderr: {last[:200]}"
    return True, "exit 0"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=DEFAULT_PY)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    if args.only:
        cases = [c for c in cases if c["name"] in args.only]
    passed = 0
    for case in cases:
        problems = check_lines(case)
        ok, msg = run_case(case, args.python)
        if problems:
            ok, msg = False, "; ".join(problems)
        passed += ok
        print(f"{'PASS' if ok else 'FAIL'} {case['name']}: {msg}")
    print(f"{passed}/{len(cases)} passed")
    sys.exit(0 if passed == len(cases) else 1)


if __name__ == "__main__":
    main()
