"""Run every case under plain Python and check that it reproduces as stated in cases.json."""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = "/work/main/.venv/bin/python"
TIMEOUT = 30


def last_line(text):
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def run_case(case):
    entry = os.path.join(HERE, case["entry"])
    folder = os.path.dirname(entry)
    try:
        proc = subprocess.run([PYTHON, os.path.basename(entry)], cwd=folder, capture_output=True,
                              text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return False, "timeout"
    want_rc = 1 if case["error"] else 0
    if proc.returncode != want_rc:
        return False, f"exit {proc.returncode}, expected {want_rc}: {last_line(proc.stderr)[:200]}"
    if case["error"]:
        line = last_line(proc.stderr)
        if not re.search(case["error_regex"], line):
            return False, f"last stderr line does not match: {line[:200]}"
        return True, line[:100]
    return True, "exit 0"


def main():
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    passed = 0
    for case in cases:
        ok, msg = run_case(case)
        passed += ok
        print(f"{'PASS' if ok else 'FAIL'} {case['name']}: {msg}", flush=True)
    print(f"{passed}/{len(cases)} passed")
    sys.exit(0 if passed == len(cases) else 1)


if __name__ == "__main__":
    main()
