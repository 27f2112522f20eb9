#!/usr/bin/env python3
"""Checks every case in cases.json.

For each case:
  * every expected / fix_site entry names an existing, non-blank, non-comment line;
  * the entry script runs (cwd = its folder, 30 s limit) under the project python;
  * error cases: exit status 1 and the last non-empty stderr line matches error_regex;
  * error cases: a copy with the documented one-line fix applied runs to exit 0
    (proves the named fix site is the cause).
Prints one line per case and a total; exit status 0 only if all pass.
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

# case -> (file, line, replacement text for that line) applied to a temporary copy
FIXES = {
    "e09": ("model.py", 106, "        x = x + x_conv"),
    "e10": ("attention_augmented_conv.py", 60, "        q = q * dkh ** -0.5"),
    "e11": ("model.py", 27, "        context = torch.cat((context[:, :-3], extra), dim=1)"),
    "e12": ("model.py", 20, "            x = F.dropout(x, p=self.drop_rate, inplace=False, training=self.training)"),
    "e13": ("config.py", 11, "    \"checkpoint_use_reentrant\": False,"),
}


def run(entry, cwd):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    p = subprocess.run([PY, os.path.basename(entry)], cwd=cwd, capture_output=True, text=True,
                       timeout=TIMEOUT, env=env)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    return p.returncode, (lines[-1] if lines else "")


def check_lines(case, folder):
    problems = []
    entries = [(f, l) for f, l, _ in case["expected"]] + [tuple(x) for x in case["fix_site"]]
    for f, l in entries:
        path = os.path.join(folder, f)
        if not os.path.exists(path):
            problems.append(f"missing file {f}")
            continue
        src = open(path).read().splitlines()
        if l < 1 or l > len(src) or not src[l - 1].strip() or src[l - 1].strip().startswith("#"):
            problems.append(f"bad line {f}:{l}")
    return problems


def main():
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    passed = 0
    for case in cases:
        name = case["name"]
        entry = os.path.join(HERE, case["entry"])
        folder = os.path.dirname(entry)
        problems = check_lines(case, folder)
        try:
            rc, last = run(entry, folder)
        except subprocess.TimeoutExpired:
            rc, last = None, "timeout"
        if case["error"]:
            if rc != 1:
                problems.append(f"exit {rc}, expected 1")
            if not re.search(case["error_regex"], last):
                problems.append(f"last stderr line did not match: {last[:160]}")
            if name in FIXES:
                tmp = tempfile.mkdtemp()
                try:
                    copy = os.path.join(tmp, name)
                    shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("__pycache__"))
                    f, l, text = FIXES[name]
                    path = os.path.join(copy, f)
                    src = open(path).read().splitlines()
                    src[l - 1] = text
                    open(path, "w").write("\n".join(src) + "\n")
                    frc, flast = run(os.path.join(copy, os.path.basename(entry)), copy)
                    if frc != 0:
                        problems.append(f"fixed copy exit {frc}: {flast[:160]}")
                except subprocess.TimeoutExpired:
                    problems.append("fixed copy timeout")
                finally:
                    shutil.rmtree(tmp, ignore_errors=True)
            else:
                problems.append("no fix check")
        else:
            if rc != 0:
                problems.append(f"exit {rc}, expected 0")
        status = "PASS" if not problems else "FAIL"
        passed += not problems
        print(f"{status} {name}" + ("" if not problems else ": " + "; ".join(problems)))
    print(f"{passed}/{len(cases)} passed")
    return 0 if passed == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
