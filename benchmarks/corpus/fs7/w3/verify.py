#!/usr/bin/env python3
"""Checker for part w3 of batch fs7 (correct programs only).

For every case in cases.json:
  * runs the entry under plain Python from its own folder (30 s limit) and
    requires exit status 0 with no traceback on stderr;
  * re-runs it in-process (runpy, run_name="__main__") and applies a sanity
    probe to the objects it leaves behind: every floating-point parameter and
    buffer of the trained model(s) is finite, plus a few case-specific checks.

Usage: python3 verify.py [--python PY] [--only NAME ...]
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PY = "/work/main/.venv/bin/python"
TIMEOUT_S = 30

HARNESS = r"""
import os, runpy, sys
path, probe = sys.argv[1], sys.argv[2]
d = os.path.dirname(path)
os.chdir(d)
sys.path.insert(0, d)
sys.argv = [path]
import torch
g = runpy.run_path(path, run_name="__main__")
def finite(*mods):
    return all(torch.isfinite(t).all().item() for m in mods
               for t in list(m.parameters()) + list(m.buffers()) if t.is_floating_point())
ns = {"g": g, "torch": torch, "finite": finite}
exec(probe, ns)
print("PROBE_RESULT=%s" % bool(ns["result"]))
"""

PROBES = {
    "n02": "result = finite(g['model'])",
    "n03": ("s, t = g['student'], g['teacher'].module\n"
            "result = (finite(s, t) and all(not p.requires_grad and p.grad is None for p in t.parameters())\n"
            "          and any(not torch.equal(a, b) for a, b in zip(s.parameters(), t.parameters())))"),
    "n04": ("m = g['net'].model\n"
            "head = {id(p) for p in m.get_classifier().parameters()}\n"
            "result = (finite(m) and all(p.grad is None for p in m.parameters() if id(p) not in head)\n"
            "          and all(p.grad is not None for p in m.get_classifier().parameters()))"),
    "n05": "result = finite(g['model'])",
    "n06": "result = finite(g['model']) and all(p.grad is not None for p in g['model'].parameters())",
    "n07": "result = finite(g['model'])",
    "n08": "result = finite(g['netG'], g['netD'])",
    "n09": "result = finite(g['model'])",
    "n10": "result = finite(g['model'])",
    "n11": "result = finite(g['model'])",
    "n12": "result = finite(g['trainer'].model) and len(g['trainer'].model.feature_grad_norms) == 16",
}


def run(cmd, cwd):
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S, env=env)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timeout"


def check(case, py):
    entry = os.path.join(HERE, case["entry"])
    cwd = os.path.dirname(entry)
    rc, out, err = run([py, entry], cwd)
    if rc is None:
        return False, "timeout"
    if rc != 0 or "Traceback (most recent call last)" in err:
        last = [l for l in err.splitlines() if l.strip()]
        return False, "exit %s: %s" % (rc, last[-1] if last else "")
    probe = PROBES.get(case["name"])
    if probe is None:
        return True, "exit 0"
    rc, out, err = run([py, "-c", HARNESS, entry, probe], cwd)
    if rc != 0 or "PROBE_RESULT=True" not in out:
        last = [l for l in err.splitlines() if l.strip()]
        return False, "probe failed (exit %s) %s" % (rc, last[-1] if last else "")
    return True, "exit 0, probe ok"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=DEFAULT_PY)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    if args.only:
        cases = [c for c in cases if c["name"] in args.only]
    passed = 0
    for c in cases:
        assert c["kind"] == "clean" and c["expected"] == [] and c["source"] is None
        ok, msg = check(c, args.python)
        passed += ok
        print("%-4s %s  %s" % (c["name"], "PASS" if ok else "FAIL", msg), flush=True)
    print("%d/%d passed" % (passed, len(cases)))
    sys.exit(0 if passed == len(cases) else 1)


if __name__ == "__main__":
    main()
