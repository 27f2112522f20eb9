#!/usr/bin/env python3
"""Checks batch fs12/w3 (cases.json + cases/).

For every case:
  * each `expected` entry points at an existing, non-blank line;
  * the entry script is run under plain Python (cwd = its folder, one thread);
  * error cases must raise an error whose last stderr line matches `error_regex`;
  * clean cases must exit 0 without a traceback, within the time budget, and a
    probe run (instrumentation installed first, script run in-process via runpy)
    must show that every parameter meant to train (held by an optimizer and
    requiring grad at some optimizer step) received a finite gradient at some
    step, never a non-finite one, ends finite, and changed.

Usage: python verify.py [--only NAME ...]
Prints one line per case and a final ALL OK or the failures.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TIME_BUDGET_S = 20.0
TIMEOUT_S = 120

PROBE = r"""
import json, os, runpy, sys
path = sys.argv[1]
d = os.path.dirname(path)
os.chdir(d)
sys.path.insert(0, d)
sys.argv = [path]
import torch
from torch.optim.optimizer import register_optimizer_step_pre_hook

records = {}
n_steps = [0]
_orig_add = torch.optim.Optimizer.add_param_group

def _add(self, group):
    _orig_add(self, group)
    for p in self.param_groups[-1]["params"]:
        if id(p) not in records:
            records[id(p)] = {"p": p, "init": p.detach().clone(), "trainable": False,
                              "grad": False, "nonfinite": False, "shape": tuple(p.shape)}

torch.optim.Optimizer.add_param_group = _add

def _pre(opt, args, kwargs):
    n_steps[0] += 1
    for g in opt.param_groups:
        for p in g["params"]:
            r = records.get(id(p))
            if r is None:
                continue
            if p.requires_grad:
                r["trainable"] = True
            if p.grad is not None:
                r["grad"] = True
                if not torch.isfinite(p.grad).all():
                    r["nonfinite"] = True

register_optimizer_step_pre_hook(_pre)
runpy.run_path(path, run_name="__main__")

bad = []
n_train = 0
for r in records.values():
    if not r["trainable"]:
        continue
    n_train += 1
    p = r["p"].detach()
    if not r["grad"]:
        bad.append("no grad %s" % (r["shape"],))
    elif r["nonfinite"]:
        bad.append("non-finite grad %s" % (r["shape"],))
    elif not torch.isfinite(p).all():
        bad.append("non-finite value %s" % (r["shape"],))
    elif torch.equal(p, r["init"]):
        bad.append("unchanged %s" % (r["shape"],))
print("PROBE_RESULT=" + json.dumps({"steps": n_steps[0], "params": len(records),
                                     "trainable": n_train, "bad": bad[:10]}))
"""


def env():
    e = dict(os.environ)
    e["OMP_NUM_THREADS"] = "1"
    e["MKL_NUM_THREADS"] = "1"
    e["PYTHONDONTWRITEBYTECODE"] = "1"
    return e


def check_lines(case):
    problems = []
    case_dir = os.path.dirname(os.path.join(HERE, case["entry"]))
    for item in case["expected"] + [[f, l, "fix"] for f, l in case["fix_site"]]:
        f, line = item[0], item[1]
        p = os.path.join(case_dir, f)
        if not os.path.isfile(p):
            problems.append("missing file %s" % f)
            continue
        lines = open(p).read().splitlines()
        if not (1 <= line <= len(lines)) or not lines[line - 1].strip():
            problems.append("blank or missing line %s:%d" % (f, line))
    return problems


def run_plain(entry):
    path = os.path.join(HERE, entry)
    t0 = time.time()
    proc = subprocess.run([sys.executable, os.path.basename(path)], cwd=os.path.dirname(path),
                          capture_output=True, text=True, timeout=TIMEOUT_S, env=env())
    return proc, time.time() - t0


def run_probe(entry):
    path = os.path.join(HERE, entry)
    proc = subprocess.run([sys.executable, "-c", PROBE, path], cwd=os.path.dirname(path),
                          capture_output=True, text=True, timeout=TIMEOUT_S, env=env())
    for line in proc.stdout.splitlines():
        if line.startswith("PROBE_RESULT="):
            return proc, json.loads(line[len("PROBE_RESULT="):])
    return proc, None


def check_case(case):
    problems = check_lines(case)
    proc, dt = run_plain(case["entry"])
    info = "%.1fs" % dt
    if case["kind"] == "clean" or not case["error"]:
        if proc.returncode != 0 or "Traceback" in proc.stderr:
            problems.append("exit %d: %s" % (proc.returncode, proc.stderr.strip().splitlines()[-1:]))
        if dt > TIME_BUDGET_S:
            problems.append("too slow (%.1fs)" % dt)
    else:
        last = [l for l in proc.stderr.splitlines() if l.strip()][-1:] or [""]
        if proc.returncode == 0 or not re.search(case["error_regex"], last[0]):
            problems.append("expected error not raised: %r" % last[0])
    if case["kind"] == "clean":
        if case["expected"] or case["fix_site"] or case["source"] is not None:
            problems.append("clean case must have no expected/fix_site/source")
        pproc, res = run_probe(case["entry"])
        if res is None:
            problems.append("probe failed: %s" % pproc.stderr.strip().splitlines()[-1:])
        else:
            info += " steps=%d trainable=%d/%d" % (res["steps"], res["trainable"], res["params"])
            if res["steps"] == 0 or res["trainable"] == 0:
                problems.append("no optimizer step or no trainable parameter seen")
            if res["bad"]:
                problems.append("parameters: %s" % res["bad"])
    else:
        problems.append("bug cases are not part of this batch part")
    return problems, info


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    names = [c["name"] for c in cases]
    failures = []
    if len(set(names)) != len(names):
        failures.append("duplicate case names")
    for case in cases:
        if args.only and case["name"] not in args.only:
            continue
        try:
            problems, info = check_case(case)
        except subprocess.TimeoutExpired:
            problems, info = ["timeout"], ""
        status = "ok" if not problems else "FAIL " + "; ".join(problems)
        print("%s %-5s %s %s" % (case["name"], case["kind"], status, info), flush=True)
        if problems:
            failures.append(case["name"])
    if failures:
        print("FAILURES: " + ", ".join(failures))
        sys.exit(1)
    print("ALL OK")


if __name__ == "__main__":
    main()
