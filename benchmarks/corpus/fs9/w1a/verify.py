#!/usr/bin/env python3
"""Checks every case in cases.json.

For each case it runs the entry script with /work/main/.venv/bin/python from the
case's own folder (30 s limit) and checks:
  * every expected / fix_site entry names an existing, non-blank, non-comment line;
  * error cases exit with status 1, the last non-empty stderr line matches
    error_regex, and at least one expected line is a frame of the traceback;
  * version-counter errors are re-run under torch.autograd.set_detect_anomaly and
    every expected line with role "saved" must be a frame of the anomaly
    "Traceback of forward call";
  * silent bugs / clean programs (none in this part) must exit 0.
Prints one line per case and a total; exit status 0 only if all pass.
"""
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/work/main/.venv/bin/python"
TIMEOUT_S = 30

ANOMALY_HARNESS = r"""
import os, runpy, sys
path = os.path.abspath(sys.argv[1])
d = os.path.dirname(path)
os.chdir(d)
sys.path.insert(0, d)
sys.argv = [path]
import torch
torch.autograd.set_detect_anomaly(True)
runpy.run_path(path, run_name="__main__")
"""

FRAME_RE = re.compile(r'File "([^"]+)", line (\d+)')


def last_nonempty(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def frames(text):
    return {(os.path.realpath(f), int(n)) for f, n in FRAME_RE.findall(text)}


def run(cmd, cwd):
    t0 = time.time()
    try:
        env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S,
                           env=env)
        return p.returncode, p.stdout, p.stderr, time.time() - t0
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or "", e.stderr or "", time.time() - t0


def check(case):
    problems = []
    entry = os.path.join(HERE, case["entry"])
    cwd = os.path.dirname(entry)
    if not os.path.isfile(entry):
        return [f"missing entry {case['entry']}"], 0.0

    def key(f, n):
        return (os.path.realpath(os.path.join(cwd, f)), n)

    for item in list(case["expected"]) + [[f, n, "fix_site"] for f, n in case["fix_site"]]:
        f, n = item[0], item[1]
        path = os.path.join(cwd, f)
        if not os.path.isfile(path):
            problems.append(f"file missing: {f}")
            continue
        lines = open(path).read().split("\n")
        if not 1 <= n <= len(lines):
            problems.append(f"line out of range: {f}:{n}")
            continue
        text = lines[n - 1].strip()
        if not text or text.startswith("#"):
            problems.append(f"blank/comment line: {f}:{n}")
    fix_lines = {(f, n) for f, n in case["fix_site"]}
    fix_roles = {(f, n) for f, n, r in case["expected"] if r == "fix"}
    if fix_lines != fix_roles:
        problems.append("fix_site and role-fix entries differ")

    rc, out, err, wall = run([PY, os.path.basename(entry)], cwd)
    if rc is None:
        return problems + [f"timed out after {TIMEOUT_S}s"], wall

    if case["error"]:
        if rc != 1:
            problems.append(f"expected exit status 1, got {rc}")
        last = last_nonempty(err)
        if not re.search(case["error_regex"], last):
            problems.append(f"last stderr line does not match: {last[:200]!r}")
        named = {key(f, n) for f, n, _ in case["expected"]}
        if not (frames(err) & named):
            problems.append("no expected line appears in the traceback")
        if "modified by an inplace operation" in case["error_regex"]:
            rc2, _, err2, _ = run([PY, "-c", ANOMALY_HARNESS, entry], cwd)
            marker = "Traceback of forward call that caused the error:"
            i = err2.find(marker)
            chunk = err2[i:] if i >= 0 else ""
            j = chunk.find("(Triggered internally")
            if j > 0:
                chunk = chunk[:j]
            fwd = frames(chunk)
            if not fwd:
                problems.append("anomaly mode printed no forward traceback")
            for f, n, role in case["expected"]:
                if role == "saved" and key(f, n) not in fwd:
                    problems.append(f"saved line {f}:{n} not in anomaly forward trace")
    else:
        if rc != 0:
            problems.append(f"expected exit status 0, got {rc}: {last_nonempty(err)[:200]!r}")
    return problems, wall


def main():
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    only = set(sys.argv[1:])
    failures = total = 0
    for case in cases:
        if only and case["name"] not in only:
            continue
        total += 1
        problems, wall = check(case)
        print(f"{'ok  ' if not problems else 'FAIL'} {case['name']:<5} {case['kind']:<5} "
              f"error={case['error']!s:<5} {wall:5.1f}s")
        for p in problems:
            print(f"       - {p}")
        failures += bool(problems)
    print(f"\n{total - failures}/{total} cases passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
