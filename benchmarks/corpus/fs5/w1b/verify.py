#!/usr/bin/env python3
"""Checks every case in cases.json.

For each case:
  * every `expected` entry points at an existing, non-blank, non-comment line;
  * the entry script is run from its own folder with the venv python (30 s limit);
  * error cases: exit status 1, the last non-empty stderr line matches error_regex,
    and at least one expected line appears as a frame in the traceback;
  * the fix is applied to the fix_site line in a temporary copy of the case and
    the copy must then exit 0 (shows that the fix site really fixes it; 90 s limit).

Usage: python3 verify.py [--python PY] [--only NAME ...] [--no-fix-check]
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
FIX_TIMEOUT_S = 90  # the fixed copies run to the end; allow for a loaded machine

# (file relative to the case folder, exact text on the first fix_site line, replacement)
FIXES = {
    "e09": ("cam.py",
            "layer.register_full_backward_hook(self._save_gradient),",
            "layer.register_forward_hook(lambda m, i, o: [o.register_hook("
            "lambda g: setattr(self, 'gradients', g.detach()))] and None),"),
    "e10": ("vocab.py", "@torch.inference_mode()", "@torch.no_grad()"),
    "e11": ("comm.py", "return grad, None, None, None, None",
            "return grad, None, None, None, None, None"),
    "e12": ("gan.py", "r1 = r1_penalty(real_pred, real)",
            "r1 = r1_penalty(self.discriminator(real), real)"),
    "e13": ("snn.py", "self.state = s",
            "self.state = LIFState(s.v.detach(), s.i.detach())"),
    "e14": ("ppo.py", "logits, value = self.model(obs)",
            "with torch.no_grad(): logits, value = self.model(obs)"),
    "e15": ("attention.py",
            "return checkpoint(self._forward, (x, context), self.parameters(), self.checkpoint)",
            "return checkpoint(self._forward, (x, context), "
            "[p for p in self.parameters() if p.requires_grad], self.checkpoint)"),
}


def run(py, script, cwd, timeout=TIMEOUT_S):
    try:
        p = subprocess.run([py, os.path.basename(script)], cwd=cwd, capture_output=True,
                           text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timeout"


def last_line(text):
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1] if lines else ""


def check_lines(case, case_dir):
    problems = []
    for f, line, role in case["expected"]:
        path = os.path.join(case_dir, f)
        if not os.path.exists(path):
            problems.append(f"missing file {f}")
            continue
        src = open(path).read().splitlines()
        if line < 1 or line > len(src):
            problems.append(f"{f}:{line} out of range")
            continue
        text = src[line - 1].strip()
        if not text or text.startswith("#"):
            problems.append(f"{f}:{line} ({role}) is blank or a comment")
    fix_lines = {(f, l) for f, l, r in case["expected"] if r == "fix"}
    if fix_lines != {tuple(x) for x in case["fix_site"]}:
        problems.append("fix_site and role-fix lines differ")
    return problems


def in_traceback(case, case_dir, stderr):
    frames = set()
    for m in re.finditer(r'File "([^"]+)", line (\d+)', stderr):
        frames.add((os.path.realpath(m.group(1)), int(m.group(2))))
    for f, line, _ in case["expected"]:
        if (os.path.realpath(os.path.join(case_dir, f)), line) in frames:
            return True
    return False


def fix_check(py, case, case_dir):
    name = case["name"]
    f, old, new = FIXES[name]
    fix_file, fix_line = case["fix_site"][0]
    if fix_file != f:
        return f"fix file {f} is not the first fix_site {fix_file}"
    with tempfile.TemporaryDirectory() as tmp:
        dst = os.path.join(tmp, name)
        shutil.copytree(case_dir, dst, ignore=shutil.ignore_patterns("__pycache__"))
        path = os.path.join(dst, f)
        src = open(path).read().splitlines(keepends=True)
        line = src[fix_line - 1]
        if old not in line:
            return f"fix text not found on {f}:{fix_line}"
        src[fix_line - 1] = line.replace(old, new)
        open(path, "w").write("".join(src))
        rc, _, err = run(py, case["entry"], dst, FIX_TIMEOUT_S)
        if rc != 0:
            return f"fixed copy exits {rc}: {last_line(err)[:160]}"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=DEFAULT_PY)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--no-fix-check", action="store_true")
    args = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    if args.only:
        cases = [c for c in cases if c["name"] in args.only]
    passed = 0
    for case in cases:
        entry = os.path.join(HERE, case["entry"])
        case_dir = os.path.dirname(entry)
        problems = check_lines(case, case_dir)
        rc, out, err = run(args.python, entry, case_dir)
        if case["error"]:
            if rc != 1:
                problems.append(f"exit status {rc}, expected 1")
            last = last_line(err)
            if not re.search(case["error_regex"], last):
                problems.append(f"last stderr line does not match: {last[:160]!r}")
            if not in_traceback(case, case_dir, err):
                problems.append("no expected line in the traceback")
        else:
            if rc != 0:
                problems.append(f"exit status {rc}, expected 0")
        if not args.no_fix_check and case["kind"] == "bug" and case["name"] in FIXES:
            msg = fix_check(args.python, case, case_dir)
            if msg:
                problems.append(msg)
        ok = not problems
        passed += ok
        print(f"{case['name']}: {'PASS' if ok else 'FAIL'}"
              + ("" if ok else "  " + "; ".join(problems)), flush=True)
    print(f"total: {passed}/{len(cases)} passed")
    return 0 if passed == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
