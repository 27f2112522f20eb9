#!/usr/bin/env python3
"""Runs every case of this part and checks it reproduces.

Error cases: exit status 1, last non-empty stderr line matches error_regex.
Every expected/fix_site entry must point at an existing, non-blank line.
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/work/main/.venv/bin/python"
TIMEOUT_S = 30


def check_lines(case):
    folder = os.path.join(HERE, "cases", case["name"])
    for entry in list(case["expected"]) + [[f, l, "fix"] for f, l in case["fix_site"]]:
        path = os.path.join(folder, entry[0])
        if not os.path.exists(path):
            return f"missing file {entry[0]}"
        lines = open(path).read().splitlines()
        line = entry[1]
        if not (1 <= line <= len(lines)) or not lines[line - 1].strip() or lines[line - 1].strip().startswith("#"):
            return f"bad line {entry[0]}:{line}"
    return None


def run_case(case):
    problem = check_lines(case)
    if problem:
        return False, problem
    entry = os.path.join(HERE, case["entry"])
    try:
        proc = subprocess.run([PY, os.path.basename(entry)], cwd=os.path.dirname(entry),
                              capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return False, "timeout"
    if case["error"]:
        if proc.returncode != 1:
            return False, f"exit {proc.returncode}, expected 1"
        lines = [l for l in proc.stderr.splitlines() if l.strip()]
        last = lines[-1] if lines else ""
        if not re.search(case["error_regex"], last):
            return False, f"last stderr line did not match: {last[:160]}"
        return True, last[:100]
    if proc.returncode != 0:
        return False, f"exit {proc.returncode}, expected 0"
    return True, "exit 0"


def main():
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    only = set(sys.argv[1:])
    passed = total = 0
    for case in cases:
        if only and case["name"] not in only:
            continue
        total += 1
        ok, msg = run_case(case)
        passed += ok
        print(f"{'PASS' if ok else 'FAIL'} {case['name']}: {msg}", flush=True)
    print(f"{passed}/{total} passed")
    sys.exit(0 if passed == total else 1)


if __name__ == "__main__":
    main()
