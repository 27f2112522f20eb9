#!/usr/bin/env python3
"""Runs every case of this part and checks it against cases.json.

Error cases: exit status 1 and the last non-empty stderr line matches error_regex.
Every expected / fix_site entry must point at an existing, non-blank line.
"""
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = "/work/main/.venv/bin/python"
TIMEOUT_S = 30


def check_lines(case):
    folder = os.path.join(HERE, "cases", case["name"])
    entries = [(f, n) for f, n, _ in case["expected"]] + [tuple(x) for x in case["fix_site"]]
    for f, n in entries:
        path = os.path.join(folder, f)
        if not os.path.exists(path):
            return f"missing file {f}"
        lines = open(path).read().splitlines()
        if not (1 <= n <= len(lines)) or not lines[n - 1].strip() or lines[n - 1].strip().startswith("#"):
            return f"bad line {f}:{n}"
    fixes = [(f, n) for f, n, r in case["expected"] if r == "fix"]
    if not fixes or fixes != [tuple(x) for x in case["fix_site"]]:
        return "fix roles do not match fix_site"
    return None


def run_case(case):
    entry = os.path.join(HERE, case["entry"])
    t0 = time.time()
    try:
        p = subprocess.run([PYTHON, os.path.basename(entry)], cwd=os.path.dirname(entry),
                           capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return False, f"timeout after {TIMEOUT_S}s"
    dt = time.time() - t0
    err_lines = [l for l in p.stderr.splitlines() if l.strip()]
    last = err_lines[-1] if err_lines else ""
    if case["error"]:
        if p.returncode != 1:
            return False, f"exit {p.returncode} (expected 1); last stderr: {last[:200]}"
        if not re.search(case["error_regex"], last):
            return False, f"regex mismatch: {last[:200]}"
        return True, f"exit 1, error matched ({dt:.1f}s)"
    if p.returncode != 0:
        return False, f"exit {p.returncode} (expected 0); last stderr: {last[:200]}"
    return True, f"exit 0 ({dt:.1f}s)"


def main():
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    only = set(sys.argv[1:])
    passed = total = 0
    for case in cases:
        if only and case["name"] not in only:
            continue
        total += 1
        problem = check_lines(case)
        if problem:
            ok, msg = False, problem
        else:
            ok, msg = run_case(case)
        passed += ok
        print(f"{'PASS' if ok else 'FAIL'} {case['name']}: {msg}", flush=True)
    print(f"total: {passed}/{total} passed")
    sys.exit(0 if passed == total else 1)


if __name__ == "__main__":
    main()
