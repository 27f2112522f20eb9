#!/usr/bin/env python3
"""Checks every case in cases.json.

For each case:
  * every `expected` line exists and is a non-blank, non-comment source line;
  * the program, run with the project's Python from its own folder (30 s limit),
    exits with status 1 and its last stderr line matches `error_regex`
    (plus `stderr_regex` against the whole stderr where given);
  * at least one expected line appears as a frame of the traceback;
  * for version-counter errors, the `saved` line appears in the anomaly-mode
    "Traceback of forward call";
  * the one-line fix in `fix_patch`, applied to a temporary copy, makes the
    program exit 0 (the stated fix site is really the fix).

Usage: python3 verify.py [--python PY] [--only e01 ...]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PY = "/work/main/.venv/bin/python"
TIMEOUT_S = 30
FIX_TIMEOUT_S = 120  # the fixed programs train to the end, which takes longer on a loaded machine
FRAME_RE = re.compile(r'File "([^"]+)", line (\d+)')

ANOMALY = r"""
import os, runpy, sys
path = sys.argv[1]
sys.argv = [path]
sys.path.insert(0, os.path.dirname(path))
import torch
torch.autograd.set_detect_anomaly(True)
runpy.run_path(path, run_name="__main__")
"""


def run(cmd, cwd, timeout=TIMEOUT_S):
    for _ in range(2):  # one retry if the machine is loaded and the run times out
        try:
            p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
            return p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired:
            continue
    return None, "", ""


def last_line(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def frames(text, root):
    out = set()
    for f, n in FRAME_RE.findall(text):
        rp = os.path.realpath(f)
        if rp.startswith(root + os.sep):
            out.add((os.path.relpath(rp, root), int(n)))
    return out


def check(case, py):
    problems = []
    entry = os.path.join(HERE, case["entry"])
    folder = os.path.dirname(entry)
    root = os.path.realpath(folder)
    for f, n, role in case["expected"]:
        path = os.path.join(folder, f)
        if not os.path.isfile(path):
            problems.append(f"missing file {f}")
            continue
        lines = open(path).read().split("\n")
        if not (1 <= n <= len(lines)) or not lines[n - 1].strip() or lines[n - 1].strip().startswith("#"):
            problems.append(f"{f}:{n} ({role}) is not a code line")
    for f, n in case["fix_site"]:
        if [f, n, "fix"] not in [list(e) for e in case["expected"]]:
            problems.append(f"fix_site {f}:{n} not in expected with role fix")

    rc, out, err = run([py, os.path.basename(entry)], folder)
    if rc is None:
        return problems + ["timed out"]
    if case["error"]:
        if rc != 1:
            problems.append(f"exit status {rc}, expected 1")
        last = last_line(err)
        if not re.search(case["error_regex"], last):
            problems.append(f"last stderr line does not match: {last[:160]!r}")
        if case.get("stderr_regex") and not re.search(case["stderr_regex"], err):
            problems.append("stderr_regex not found in stderr")
        named = {(f, n) for f, n, _ in case["expected"]}
        if not (frames(err, root) & named):
            problems.append("no expected line in the traceback")
        if "modified by an inplace operation" in case["error_regex"]:
            _, _, err2 = run([py, "-c", ANOMALY, entry], folder)
            i = err2.find("Traceback of forward call that caused the error:")
            fwd = frames(err2[i:], root) if i >= 0 else set()
            for f, n, role in case["expected"]:
                if role == "saved" and (f, n) not in fwd:
                    problems.append(f"saved line {f}:{n} not in anomaly forward trace")
    else:
        if rc != 0:
            problems.append(f"exit status {rc}, expected 0")

    patch = case.get("fix_patch")
    if patch:
        tmp = tempfile.mkdtemp(prefix=f"verify_{case['name']}_")
        try:
            dst = os.path.join(tmp, case["name"])
            shutil.copytree(folder, dst, ignore=shutil.ignore_patterns("__pycache__"))
            target = os.path.join(dst, patch["file"])
            src = open(target).read()
            if src.count(patch["old"]) != 1:
                problems.append("fix_patch 'old' text not found exactly once")
            else:
                open(target, "w").write(src.replace(patch["old"], patch["new"]))
                rc3, _, err3 = run([py, os.path.basename(entry)], dst, FIX_TIMEOUT_S)
                if rc3 != 0:
                    problems.append(f"fixed program exits {rc3}: {last_line(err3)[:160]!r}")
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=DEFAULT_PY if os.path.exists(DEFAULT_PY) else sys.executable)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    passed = total = 0
    for case in cases:
        if args.only and case["name"] not in args.only:
            continue
        total += 1
        problems = check(case, args.python)
        ok = not problems
        passed += ok
        print(f"{'PASS' if ok else 'FAIL'} {case['name']} ({case['kind']}, {'error' if case['error'] else 'no error'})")
        for p in problems:
            print(f"     - {p}")
    print(f"{passed}/{total} passed")
    sys.exit(0 if passed == total else 1)


if __name__ == "__main__":
    main()
