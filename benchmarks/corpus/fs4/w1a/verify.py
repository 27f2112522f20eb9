#!/usr/bin/env python3
"""Checks every case in cases.json.

For each case: the expected/fix_site lines exist and are code lines; the entry program,
run from its own folder with the project venv (30 s limit), exits with status 1 and its
last non-empty stderr line matches error_regex; then a copy of the case with the one-line
fix applied at one fix site runs to completion (exit 0).
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

# one-line fixes applied at one fix site: (file, line, old, new)
FIXES = {
    "e01": ("train.py", 18, '"layer4.1.bn2"', '"layer4"'),
    "e02": ("train.py", 28, "L.Trainer(", "L.Trainer(inference_mode=False,"),
    "e03": ("train.py", 16, '{"use_reentrant": True}', '{"use_reentrant": False}'),
    "e04": ("a3c.py", 58, "torch.from_numpy(R)", "torch.from_numpy(R).float()"),
    "e05": ("train.py", 60, "spk_rec, _ = forward_pass(", "reset(net); spk_rec, _ = forward_pass("),
    "e06": ("model.py", 67, "mi.bias.view(", "mi.bias.data.view("),
    "e07": ("train.py", 30, "model(inputs)", "model(inputs, use_cache=False)"),
    "e08": ("losses.py", 6, "torch.abs(target_outputs)", "torch.abs(target_outputs) + 1e-8"),
}


def last_line(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def run(entry_path):
    try:
        env = dict(os.environ, OMP_NUM_THREADS="1")
        p = subprocess.run([PY, os.path.basename(entry_path)], cwd=os.path.dirname(entry_path),
                           capture_output=True, text=True, timeout=TIMEOUT, env=env)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timeout"


def check(case):
    problems = []
    folder = os.path.join(HERE, "cases", case["name"])
    for f, n, _role in case["expected"]:
        lines = open(os.path.join(folder, f)).read().split("\n")
        if not (1 <= n <= len(lines)) or not lines[n - 1].strip() or lines[n - 1].strip().startswith("#"):
            problems.append(f"bad expected line {f}:{n}")
    exp = {(f, n) for f, n, _ in case["expected"]}
    for f, n in case["fix_site"]:
        if (f, n) not in exp:
            problems.append(f"fix site {f}:{n} not in expected")
    rc, out, err = run(os.path.join(HERE, case["entry"]))
    want = 1 if case["error"] else 0
    if rc != want:
        problems.append(f"exit status {rc}, expected {want}: {last_line(err)[:160]!r}")
    if case["error"] and not re.search(case["error_regex"], last_line(err)):
        problems.append(f"last stderr line does not match: {last_line(err)[:160]!r}")
    fix = FIXES.get(case["name"])
    if fix:
        f, n, old, new = fix
        if [f, n] not in case["fix_site"]:
            problems.append("fix check is not at a fix site")
        tmp = tempfile.mkdtemp()
        try:
            dst = os.path.join(tmp, case["name"])
            shutil.copytree(folder, dst)
            path = os.path.join(dst, f)
            lines = open(path).read().split("\n")
            if old not in lines[n - 1]:
                problems.append(f"fix text not found at {f}:{n}")
            lines[n - 1] = lines[n - 1].replace(old, new, 1)
            open(path, "w").write("\n".join(lines))
            rc2, _, err2 = run(os.path.join(dst, os.path.basename(case["entry"])))
            if rc2 != 0:
                problems.append(f"fixed copy exited {rc2}: {last_line(err2)[:160]!r}")
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
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
        print(f"{'ok  ' if not problems else 'FAIL'} {case['name']}")
        for p in problems:
            print(f"     - {p}")
        passed += not problems
    print(f"{passed}/{total} passed")
    sys.exit(0 if passed == total else 1)


if __name__ == "__main__":
    main()
