#!/usr/bin/env python3
"""Runs every case of this batch and checks it behaves as cases.json says.

error cases:  exit status 1 and the last stderr line matches error_regex.
silent bugs:  exit status 0 and a probe, run in the same process after the
              program (with its module globals as `g`), confirms the harm.
clean cases:  exit status 0.
Also checks that every expected / fix_site line exists and is not blank.
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/work/main/.venv/bin/python"
TIMEOUT = 30

HARNESS = r"""
import os, runpy, sys
path, probe = sys.argv[1], sys.argv[2]
d = os.path.dirname(os.path.abspath(path))
os.chdir(d)
sys.path.insert(0, d)
sys.argv = [path]
import torch
g = runpy.run_path(path, run_name="__main__")
if probe:
    ns = {"g": g, "torch": torch}
    exec(probe, ns)
    print("PROBE_RESULT=%s" % bool(ns["result"]))
"""

PROBES = {
    # unlocked blocks are trainable and in the optimizer, yet never got a gradient or an update
    "s01": (
        "v = g['model'].visual\n"
        "opt = g['optimizer']\n"
        "blk = [p for b in v.transformer.resblocks[-2:] for p in b.parameters()]\n"
        "result = (len(blk) > 0 and all(p.requires_grad for p in blk)\n"
        "          and all(p.grad is None for p in blk)\n"
        "          and all(len(opt.state.get(p, {})) == 0 for p in blk)\n"
        "          and v.proj.grad is not None)\n"
    ),
    # the frozen backbone BatchNorms ran in training mode and updated their running stats
    "s02": (
        "m = g['trainer'].model\n"
        "bns = [x for x in m.backbone.modules() if isinstance(x, torch.nn.BatchNorm2d)]\n"
        "result = len(bns) > 0 and all(int(b.num_batches_tracked) > 0 for b in bns)\n"
    ),
    # block weights get gradients but are not in the optimizer, so never updated
    "s03": (
        "m = g['model']\n"
        "ids = {id(p) for grp in g['optimizer'].param_groups for p in grp['params']}\n"
        "blk = [p for b in m.blocks for p in b.parameters()]\n"
        "result = (len(blk) > 0 and all(id(p) not in ids for p in blk)\n"
        "          and all(p.grad is not None and p.grad.abs().sum() > 0 for p in blk))\n"
    ),
    # the 'frozen' encoder's parameters still require grad and Adam stepped every one of them
    "s04": (
        "enc_mod = g['model'].encoder_net.encoder\n"
        "opt = g['optimizer']\n"
        "enc = list(enc_mod.parameters())\n"
        "result = (getattr(enc_mod, 'requires_grad', None) is False\n"
        "          and all(p.requires_grad for p in enc)\n"
        "          and all(len(opt.state.get(p, {})) > 0 for p in enc)\n"
        "          and any(p.grad is not None and p.grad.abs().sum() > 0 for p in enc))\n"
    ),
    # the patch never moved from zero: its gradient was zero everywhere
    "s05": (
        "p = g['patch'].patch\n"
        "result = bool((p == 0).all()) and p.grad is not None and bool((p.grad == 0).all())\n"
    ),
    # the custom Function's backward is not the derivative of its forward
    "s06": (
        "import ops\n"
        "x = torch.randn(4, 3, dtype=torch.double, requires_grad=True)\n"
        "ok = torch.autograd.gradcheck(lambda t: ops.MulConstant.apply(t, 0.4), (x,), raise_exception=False)\n"
        "result = not ok\n"
    ),
    # the gradient penalty has a graph but is not part of the graph d_loss.backward() ran
    "s07": (
        "gp, d_loss = g['gradient_penalty'], g['d_loss']\n"
        "seen, stack, found = set(), [d_loss.grad_fn], False\n"
        "while stack:\n"
        "    fn = stack.pop()\n"
        "    if fn is None or fn in seen:\n"
        "        continue\n"
        "    seen.add(fn)\n"
        "    if fn is gp.grad_fn:\n"
        "        found = True\n"
        "    stack.extend(nf for nf, _ in fn.next_functions)\n"
        "result = gp.requires_grad and gp.grad_fn is not None and not found\n"
    ),
}


def check_lines(case):
    folder = os.path.join(HERE, os.path.dirname(case["entry"]))
    problems = []
    for item in list(case["expected"]) + [list(x) + ["fix_site"] for x in case["fix_site"]]:
        f, line = item[0], item[1]
        path = os.path.join(folder, f)
        if not os.path.exists(path):
            problems.append(f"missing file {f}")
            continue
        lines = open(path).read().splitlines()
        if not (1 <= line <= len(lines)) or not lines[line - 1].strip() or lines[line - 1].strip().startswith("#"):
            problems.append(f"bad line {f}:{line}")
    fixes = [[e[0], e[1]] for e in case["expected"] if e[2] == "fix"]
    if fixes != [list(x) for x in case["fix_site"]]:
        problems.append("fix_site differs from expected role fix")
    return problems


def run_case(case):
    path = os.path.join(HERE, case["entry"])
    probe = PROBES.get(case["name"], "") if (case["kind"] == "bug" and not case["error"]) else ""
    try:
        proc = subprocess.run([PY, "-c", HARNESS, path, probe], cwd=os.path.dirname(path),
                              capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return False, f"timeout after {TIMEOUT}s"
    problems = check_lines(case)
    err_lines = [l for l in proc.stderr.splitlines() if l.strip()]
    last = err_lines[-1] if err_lines else ""
    if case["error"]:
        if proc.returncode != 1:
            problems.append(f"exit {proc.returncode}, expected 1")
        if not re.search(case["error_regex"], last):
            problems.append(f"last stderr line does not match: {last!r}")
    else:
        if proc.returncode != 0:
            problems.append(f"exit {proc.returncode}, expected 0: {last!r}")
        if probe and "PROBE_RESULT=True" not in proc.stdout:
            problems.append("probe did not confirm the harm")
    return not problems, "; ".join(problems) or "ok"


def main():
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    only = set(sys.argv[1:])
    passed = total = 0
    for case in cases:
        if only and case["name"] not in only:
            continue
        total += 1
        ok, msg = run_case(case)
        passed += ok
        print(f"{'PASS' if ok else 'FAIL'} {case['name']}: {msg}", flush=True)
    print(f"{passed}/{total} passed")
    sys.exit(0 if passed == total else 1)


if __name__ == "__main__":
    main()
