#!/usr/bin/env python3
"""Checks every case in cases.json.

For each case:
  * every `expected` entry points at an existing, non-blank, non-comment line;
  * the entry script runs (cwd = its folder, 30 s limit) under plain Python;
  * error cases: exit status 1, the last non-empty stderr line matches
    `error_regex`, and at least one expected line appears as a traceback frame;
  * the one-line fix in `fix_apply` ([file, line, old, new]) is applied to a
    copy of the case, which must then exit 0 (60 s limit: it trains to the end).
Prints one line per case and a total; exit status 0 when all pass.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/work/main/.venv/bin/python"
TIMEOUT = 30
FIX_TIMEOUT = 60
FRAME_RE = re.compile(r'File "([^"]+)", line (\d+)')


def last_nonempty(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def run(entry, timeout=TIMEOUT):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", OMP_NUM_THREADS="1")
    p = subprocess.run([PY, os.path.basename(entry)], cwd=os.path.dirname(entry),
                       capture_output=True, text=True, timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr


def check_case(c):
    case_dir = os.path.join(HERE, "cases", c["name"])
    entry = os.path.join(HERE, c["entry"])
    for f, line, role in c["expected"]:
        lines = open(os.path.join(case_dir, f)).read().splitlines()
        if line < 1 or line > len(lines):
            return False, f"{f}:{line} out of range"
        text = lines[line - 1].strip()
        if not text or text.startswith("#"):
            return False, f"{f}:{line} blank or comment"
    for f, line in c["fix_site"]:
        if [f, line, "fix"] not in c["expected"]:
            return False, f"fix site {f}:{line} not in expected"
    try:
        rc, out, err = run(entry)
    except subprocess.TimeoutExpired:
        return False, "timeout"
    if c["error"]:
        if rc != 1:
            return False, f"exit {rc}, expected 1"
        last = last_nonempty(err)
        if not re.search(c["error_regex"], last):
            return False, f"last stderr line does not match: {last[:120]}"
        frames = {(os.path.realpath(f), int(n)) for f, n in FRAME_RE.findall(err)}
        exp = {(os.path.realpath(os.path.join(case_dir, f)), l) for f, l, _ in c["expected"]}
        if not frames & exp:
            return False, "no expected line in traceback"
    elif rc != 0:
        return False, f"exit {rc}, expected 0"
    fa = c.get("fix_apply")
    if fa:
        f, line, old, new = fa
        tmp = tempfile.mkdtemp(prefix="fixcheck_")
        try:
            dst = os.path.join(tmp, c["name"])
            shutil.copytree(case_dir, dst, ignore=shutil.ignore_patterns("__pycache__"))
            path = os.path.join(dst, f)
            lines = open(path).read().split("\n")
            if old not in lines[line - 1]:
                return False, f"fix text not found at {f}:{line}"
            lines[line - 1] = lines[line - 1].replace(old, new, 1)
            open(path, "w").write("\n".join(lines))
            fixed_entry = os.path.join(dst, os.path.relpath(entry, case_dir))
            try:
                rc2, _, err2 = run(fixed_entry, timeout=FIX_TIMEOUT)
            except subprocess.TimeoutExpired:
                return False, "fixed copy timed out"
            if rc2 != 0:
                return False, f"fixed copy exit {rc2}: {last_nonempty(err2)[:120]}"
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return True, "ok"


def main():
    only = set(sys.argv[1:])
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    passed = total = 0
    for c in cases:
        if only and c["name"] not in only:
            continue
        total += 1
        ok, msg = check_case(c)
        passed += ok
        print(f"{'PASS' if ok else 'FAIL'} {c['name']}: {msg}", flush=True)
    print(f"{passed}/{total} passed")
    sys.exit(0 if passed == total else 1)


if __name__ == "__main__":
    main()
