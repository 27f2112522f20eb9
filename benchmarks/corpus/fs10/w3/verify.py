#!/usr/bin/env python3
"""Checker for part w3: every case is a clean program that must exit 0 under plain Python.

Each case is run from its own folder with /work/main/.venv/bin/python (30 s limit).
A clean case passes when it exits 0 and stderr holds no traceback.
"""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/work/main/.venv/bin/python"
TIMEOUT_S = 30


def run_case(case):
    entry = os.path.join(HERE, case["entry"])
    t0 = time.time()
    try:
        proc = subprocess.run([PY, os.path.basename(entry)], cwd=os.path.dirname(entry),
                              capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return False, "timeout", time.time() - t0
    dt = time.time() - t0
    lines = [l for l in proc.stderr.splitlines() if l.strip()]
    last = lines[-1] if lines else ""
    if case["kind"] == "clean":
        ok = proc.returncode == 0 and "Traceback (most recent call last)" not in proc.stderr
        return ok, f"rc={proc.returncode}", dt
    want_rc = 1 if case["error"] else 0
    if proc.returncode != want_rc:
        return False, f"rc={proc.returncode} (want {want_rc}) last={last!r}", dt
    return True, f"rc={proc.returncode}", dt


def main():
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    only = set(sys.argv[1:])
    passed = total = 0
    for case in cases:
        if only and case["name"] not in only:
            continue
        total += 1
        ok, info, dt = run_case(case)
        passed += ok
        print(f"{'PASS' if ok else 'FAIL'}  {case['name']:4s}  {case['kind']:5s}  {info}  {dt:.1f}s", flush=True)
    print(f"{passed}/{total} passed")
    sys.exit(0 if passed == total else 1)


if __name__ == "__main__":
    main()
