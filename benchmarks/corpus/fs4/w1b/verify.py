#!/usr/bin/env python3
"""Checks every case in cases.json under /work/main/.venv/bin/python.

For each case: the expected lines exist and are code lines; the entry runs from its own
folder within 30 s; error cases exit with status 1, the last non-empty stderr line matches
error_regex and at least one expected line appears as a frame in the traceback; silent and
clean cases exit 0.
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/work/main/.venv/bin/python"
TIMEOUT_S = 30
FRAME_RE = re.compile(r'File "([^"]+)", line (\d+)')


def last_nonempty(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def check(case):
    problems = []
    case_dir = os.path.join(HERE, "cases", case["name"])
    for f, line, role in case["expected"]:
        path = os.path.join(case_dir, f)
        if not os.path.isfile(path):
            problems.append(f"missing file {f}")
            continue
        lines = open(path).read().splitlines()
        if not (1 <= line <= len(lines)) or not lines[line - 1].strip() or lines[line - 1].strip().startswith("#"):
            problems.append(f"{f}:{line} ({role}) is not a code line")
    for f, line in case["fix_site"]:
        if [f, line, "fix"] not in case["expected"]:
            problems.append(f"fix_site {f}:{line} not in expected as role fix")

    entry = os.path.join(HERE, case["entry"])
    try:
        proc = subprocess.run([PY, os.path.basename(entry)], cwd=os.path.dirname(entry),
                              capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return problems + [f"timeout after {TIMEOUT_S}s"]

    if case["error"]:
        if proc.returncode != 1:
            problems.append(f"exit status {proc.returncode}, expected 1")
        last = last_nonempty(proc.stderr)
        if not re.search(case["error_regex"], last):
            problems.append(f"last stderr line does not match: {last[:160]!r}")
        frames = {(os.path.realpath(p), int(n)) for p, n in FRAME_RE.findall(proc.stderr)}
        wanted = {(os.path.realpath(os.path.join(case_dir, f)), line) for f, line, _ in case["expected"]}
        if not frames & wanted:
            problems.append("no expected line appears in the traceback")
    else:
        if proc.returncode != 0:
            problems.append(f"exit status {proc.returncode}, expected 0: {last_nonempty(proc.stderr)[:160]}")
    return problems


def main():
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    only = set(sys.argv[1:])
    passed = total = 0
    for case in cases:
        if only and case["name"] not in only:
            continue
        total += 1
        problems = check(case)
        if problems:
            print(f"FAIL {case['name']}: " + "; ".join(problems))
        else:
            passed += 1
            print(f"PASS {case['name']}")
    print(f"{passed}/{total} passed")
    return 0 if passed == total else 1


if __name__ == "__main__":
    sys.exit(main())
