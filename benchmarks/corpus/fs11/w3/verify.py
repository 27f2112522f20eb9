#!/usr/bin/env python3
"""Runs every case of this part and checks it against cases.json.

Clean cases: the program must exit 0 with no traceback on stderr. A few clean cases
also get an in-process probe (runpy, then inspect the program's globals) that confirms
the idiom really behaved correctly.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/work/main/.venv/bin/python"
TIMEOUT_S = 30
ENV = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")

HARNESS = r"""
import os, runpy, sys
path, probe = sys.argv[1], sys.argv[2]
d = os.path.dirname(path)
os.chdir(d)
sys.path.insert(0, d)
sys.argv = [path]
import torch
g = runpy.run_path(path, run_name="__main__")
ns = {"g": g, "torch": torch}
exec(probe, ns)
print("PROBE_RESULT=%s" % bool(ns["result"]))
"""

PROBES = {
    # frozen backbone: no frozen parameter ever received a gradient
    "n04": ("m = g['model']\n"
            "frozen = [p for n, p in m.named_parameters() if n.split('.')[0] in g['CONFIG']['freeze']]\n"
            "result = len(frozen) > 0 and all((not p.requires_grad) and p.grad is None for p in frozen)"),
    # rebuilt optimizer holds exactly the parameters of the widened model
    "n12": ("m, opt = g['model'], g['optimizer']\n"
            "ids = {id(p) for grp in opt.param_groups for p in grp['params']}\n"
            "result = ids == {id(p) for p in m.parameters()} and m.fc1.out_features == 32"),
}


def run_plain(case):
    path = os.path.join(HERE, case["entry"])
    try:
        r = subprocess.run([PY, os.path.basename(path)], cwd=os.path.dirname(path),
                           capture_output=True, text=True, timeout=TIMEOUT_S, env=ENV)
    except subprocess.TimeoutExpired:
        return False, "timeout"
    lines = [l for l in r.stderr.splitlines() if l.strip()]
    last = lines[-1] if lines else ""
    if case["error"]:
        import re
        ok = r.returncode == 1 and re.search(case["error_regex"], last) is not None
        return ok, f"rc={r.returncode} last={last[:120]!r}"
    ok = r.returncode == 0 and "Traceback" not in r.stderr
    return ok, f"rc={r.returncode}"


def run_probe(case, probe):
    path = os.path.join(HERE, case["entry"])
    try:
        r = subprocess.run([PY, "-c", HARNESS, path, probe], capture_output=True, text=True,
                           timeout=TIMEOUT_S, env=ENV)
    except subprocess.TimeoutExpired:
        return False, "probe timeout"
    return "PROBE_RESULT=True" in r.stdout, "probe " + ("ok" if "PROBE_RESULT=True" in r.stdout
                                                       else r.stderr.strip()[-200:])


def main():
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    passed = 0
    for case in cases:
        ok, info = run_plain(case)
        if ok and case["name"] in PROBES:
            ok, pinfo = run_probe(case, PROBES[case["name"]])
            info += "; " + pinfo
        passed += ok
        print(f"{'PASS' if ok else 'FAIL'}  {case['name']}  {info}", flush=True)
    print(f"{passed}/{len(cases)} passed")
    return 0 if passed == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
