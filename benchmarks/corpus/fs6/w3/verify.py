#!/usr/bin/env python3
"""Checker for part w3 of batch fs6.

Runs every case in cases.json with the project venv's python from the case's
own folder (30 s limit each, one intra-op thread so that a loaded machine does
not oversubscribe its CPUs) and checks:
  * error cases: exit status 1 and the last non-empty stderr line matches error_regex;
  * silent bug cases: exit status 0 and the per-case probe in PROBES confirms the harm;
  * clean cases: exit status 0 and no traceback on stderr;
  * every expected/fix_site entry points at an existing, non-blank, non-comment line.
Prints one line per case and a total; exit status 0 only when all pass.

Usage: python3 verify.py [--python PATH] [--only NAME ...]
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

# Per-case probes for silent bug cases (none in this part: all cases are clean).
PROBES = {}


def last_nonempty(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def check_lines(case):
    problems = []
    folder = os.path.dirname(os.path.join(HERE, case["entry"]))
    refs = [(e[0], e[1]) for e in case.get("expected", [])] + [(f[0], f[1]) for f in case.get("fix_site", [])]
    for fname, line in refs:
        path = os.path.join(folder, fname)
        if not os.path.isfile(path):
            problems.append(f"missing file {fname}")
            continue
        lines = open(path).read().split("\n")
        if not (1 <= line <= len(lines)):
            problems.append(f"line out of range {fname}:{line}")
            continue
        text = lines[line - 1].strip()
        if not text or text.startswith("#"):
            problems.append(f"blank/comment line {fname}:{line}")
    return problems


def run_case(case, py):
    script = os.path.join(HERE, case["entry"])
    cwd = os.path.dirname(script)
    if not os.path.isfile(script):
        return [f"missing entry {case['entry']}"]
    problems = check_lines(case)
    try:
        env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
        p = subprocess.run([py, os.path.basename(script)], cwd=cwd, capture_output=True,
                           text=True, timeout=TIMEOUT_S, env=env)
    except subprocess.TimeoutExpired:
        return problems + [f"timed out after {TIMEOUT_S}s"]
    last = last_nonempty(p.stderr)
    if case["kind"] == "bug" and case["error"]:
        if p.returncode != 1:
            problems.append(f"expected exit 1, got {p.returncode}")
        if not case.get("error_regex") or not re.search(case["error_regex"], last):
            problems.append(f"last stderr line does not match: {last[:200]!r}")
    else:
        if p.returncode != 0:
            problems.append(f"expected exit 0, got {p.returncode}: {last[:200]!r}")
        if "Traceback (most recent call last)" in p.stderr:
            problems.append("traceback on stderr")
        if case["kind"] == "clean":
            if case["expected"] or case["fix_site"] or case["source"] is not None:
                problems.append("clean case must have expected=[], fix_site=[], source=null")
        else:
            probe = PROBES.get(case["name"])
            if probe is None:
                problems.append("no probe for silent case")
            elif not probe(case, py, cwd):
                problems.append("probe did not confirm the harm")
    return problems


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
        problems = run_case(case, args.python)
        if problems:
            print(f"FAIL {case['name']}: " + "; ".join(problems))
        else:
            passed += 1
            print(f"PASS {case['name']}")
    print(f"{passed}/{len(cases)} passed")
    sys.exit(0 if passed == len(cases) else 1)


if __name__ == "__main__":
    main()
