#!/usr/bin/env python3
"""Checks batch fs3/w1a: every case reproduces its reported autograd error under plain Python.

For each case in cases.json:
  * every `expected` entry points at an existing, non-blank, non-comment line;
  * the entry runs (cwd = its folder) with a 30 s limit and exits with status 1;
  * the last non-empty stderr line matches `error_regex`;
  * at least one `expected` line appears as a frame of the traceback.
With --fix-check it also applies the one-line fix at the first fix site (in a temporary
copy of the case) and checks that the program then exits 0.

Usage: python3 verify.py [--python PATH] [--only e01 ...] [--fix-check]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PY = "/work/main/.venv/bin/python"
TIMEOUT_S = 30
FIX_TIMEOUT_S = 180

# case -> (file, line, old substring, new substring) applied to that one line
FIXES = {
    "e01": ("cam.py", 15, "target_layer.register_full_backward_hook(self.save_gradient)",
            "target_layer.register_forward_hook(lambda m, i, o: [o.register_hook("
            "lambda g: self.gradients.insert(0, g.detach()))] and None)"),
    "e02": ("models.py", 57, "h = h.detach()", "h.detach_()"),
    "e03": ("yolo.py", 75, "mi.bias.view(", "mi.bias.data.view("),
    "e04": ("metrics.py", 35, "target.clamp_max_(max=num_classes)",
            "target = target.clamp_max(max=num_classes)"),
    "e05": ("solver.py", 51, "self.optimizer.step()", "pass"),
    "e06": ("longrange.py", 29, "if self._cell_cache is not None and", "if False and"),
    "e07": ("trainer.py", 25, "with parametrize.cached():", "if True:"),
    "e08": ("model.py", 38, "model.prior.log_prob", "Bernoulli(probs=model.prior_probs).log_prob"),
}


def run(py, folder, entry, timeout=TIMEOUT_S):
    try:
        env = dict(os.environ)
        env.setdefault("OMP_NUM_THREADS", "1")
        p = subprocess.run([py, entry], cwd=folder, capture_output=True, text=True,
                           timeout=timeout, env=env)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", "TIMEOUT"


def check_lines(folder, expected):
    problems = []
    for fname, line, role in expected:
        path = os.path.join(folder, fname)
        if not os.path.exists(path):
            problems.append(f"missing file {fname}")
            continue
        lines = open(path).read().splitlines()
        if not (1 <= line <= len(lines)):
            problems.append(f"{fname}:{line} out of range")
            continue
        text = lines[line - 1].strip()
        if not text or text.startswith("#"):
            problems.append(f"{fname}:{line} blank/comment")
    return problems


def check_case(py, case, fix_check):
    folder = os.path.join(HERE, os.path.dirname(case["entry"]))
    entry = os.path.basename(case["entry"])
    problems = check_lines(folder, case["expected"])
    for f, l in case["fix_site"]:
        if [f, l, "fix"] not in [list(e) for e in case["expected"]]:
            problems.append(f"fix site {f}:{l} not in expected")
    t0 = time.time()
    rc, out, err = run(py, folder, entry)
    case["_elapsed"] = time.time() - t0
    if rc is None:
        return problems + ["timeout"]
    want_rc = 1 if case["error"] else 0
    if rc != want_rc:
        problems.append(f"exit status {rc}, expected {want_rc}")
    if case["error"]:
        last = [l for l in err.splitlines() if l.strip()]
        last = last[-1] if last else ""
        if not re.search(case["error_regex"], last):
            problems.append(f"last stderr line does not match: {last[:160]!r}")
        frames = set(re.findall(r'File "([^"]+)", line (\d+)', err))
        hit = any((os.path.join(folder, f), str(l)) in frames for f, l, _ in case["expected"])
        if not hit:
            problems.append("no expected line in the traceback")
    if fix_check and case["name"] in FIXES:
        fname, line, old, new = FIXES[case["name"]]
        with tempfile.TemporaryDirectory() as tmp:
            dst = os.path.join(tmp, case["name"])
            shutil.copytree(folder, dst)
            path = os.path.join(dst, fname)
            lines = open(path).read().split("\n")
            if old not in lines[line - 1]:
                problems.append(f"fix text not found at {fname}:{line}")
            else:
                lines[line - 1] = lines[line - 1].replace(old, new)
                open(path, "w").write("\n".join(lines))
                rc2, _, err2 = run(py, dst, entry, timeout=FIX_TIMEOUT_S)
                if rc2 != 0:
                    tail = [l for l in err2.splitlines() if l.strip()][-1:] or [""]
                    problems.append(f"fixed program exit {rc2}: {tail[0][:160]!r}")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=DEFAULT_PY)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--fix-check", action="store_true")
    args = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    if args.only:
        cases = [c for c in cases if c["name"] in args.only]
    passed = 0
    for case in cases:
        problems = check_case(args.python, case, args.fix_check)
        if problems:
            print(f"FAIL {case['name']}: " + "; ".join(problems))
        else:
            passed += 1
            print(f"PASS {case['name']} ({case['_elapsed']:.1f} s)")
    print(f"{passed}/{len(cases)} passed")
    sys.exit(0 if passed == len(cases) else 1)


if __name__ == "__main__":
    main()
