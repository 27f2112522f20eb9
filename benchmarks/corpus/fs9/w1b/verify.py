#!/usr/bin/env python3
"""Checks the cases of this part.

For every case in cases.json:
  * every expected / fix_site entry points at an existing, non-blank, non-comment line;
  * the program, run with the project venv from its own folder (30 s limit), exits 1 and the
    last non-empty stderr line matches error_regex;
  * a copy of the case with the fix applied at its first fix site exits 0 (the line named as
    the fix site really is where the one-line change fixes it; 90 s limit for this extra run).
Prints one line per case and a total; exit status 0 when every case passes.
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
FIXED_TIMEOUT = 90  # the fixed copy runs every step to the end; extra check, more time

# case -> (file, line, replacement line without indentation)
FIXED_LINES = {
    "e09": ("learner.py", 44, "advantages = (targets - values).detach()"),
    "e10": ("data.py", 29, "patches = volume[:, :, z:z + p, y:y + p, x:x + p].clone()"),
    "e11": ("gaussian_model.py", 43, "scales = torch.log(torch.sqrt(dist2))[..., None].repeat(1, 2)"),
    "e12": ("xbm.py", 30, "return self._embeddings[:size].clone(), self._targets[:size]"),
    "e13": ("train.py", 15, "\"use_kv_cache\": False,"),
    "e14": ("network.py", 45, "flow = flow + self.refiners[level](torch.cat([warped, f1, flow], 1))"),
    "e15": ("registry.py", 2, "\"resnet18\": \"layer4.1\","),
}


def last_nonempty(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def run(entry_path, timeout=TIMEOUT):
    d = os.path.dirname(entry_path)
    try:
        p = subprocess.run([PY, os.path.basename(entry_path)], cwd=d, capture_output=True,
                           text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", "TIMEOUT"


def check_lines(case, case_dir):
    problems = []
    entries = [(f, l) for f, l, _ in case["expected"]] + [tuple(x) for x in case["fix_site"]]
    for f, l in entries:
        path = os.path.join(case_dir, f)
        if not os.path.isfile(path):
            problems.append(f"missing file {f}")
            continue
        lines = open(path).read().splitlines()
        if not (1 <= l <= len(lines)) or not lines[l - 1].strip() or lines[l - 1].strip().startswith("#"):
            problems.append(f"bad line {f}:{l}")
    fix_files = [tuple(x) for x in case["fix_site"]]
    exp_fix = [(f, l) for f, l, r in case["expected"] if r == "fix"]
    if fix_files != exp_fix:
        problems.append("fix_site differs from expected fix entries")
    return problems


def check_fixed(case, case_dir):
    f, l, new = FIXED_LINES[case["name"]]
    if [f, l] != list(case["fix_site"][0]):
        return "fix line table differs from fix_site"
    tmp = tempfile.mkdtemp()
    try:
        dst = os.path.join(tmp, case["name"])
        shutil.copytree(case_dir, dst, ignore=shutil.ignore_patterns("__pycache__"))
        path = os.path.join(dst, f)
        lines = open(path).read().split("\n")
        old = lines[l - 1]
        lines[l - 1] = old[: len(old) - len(old.lstrip())] + new
        open(path, "w").write("\n".join(lines))
        rc, out, err = run(os.path.join(dst, os.path.basename(case["entry"])), FIXED_TIMEOUT)
        if rc != 0:
            return f"fixed copy exits {rc}: {last_nonempty(err)[:120]}"
        return None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    passed = 0
    for case in cases:
        entry = os.path.join(HERE, case["entry"])
        case_dir = os.path.dirname(entry)
        problems = check_lines(case, case_dir)
        rc, out, err = run(entry)
        last = last_nonempty(err)
        if case["error"]:
            if rc != 1:
                problems.append(f"exit {rc}, expected 1")
            if not re.search(case["error_regex"], last):
                problems.append(f"last stderr line does not match: {last[:160]}")
        else:
            if rc != 0:
                problems.append(f"exit {rc}, expected 0")
        if case["kind"] == "bug" and not problems:
            msg = check_fixed(case, case_dir)
            if msg:
                problems.append(msg)
        ok = not problems
        passed += ok
        print(f"{'PASS' if ok else 'FAIL'} {case['name']}" + ("" if ok else ": " + "; ".join(problems)))
    print(f"{passed}/{len(cases)} passed")
    return 0 if passed == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
