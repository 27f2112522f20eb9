#!/usr/bin/env python3
"""Checks every case in cases.json.

Each program is run with the project venv from its own folder (30 s limit):
  * bug/error cases: exit status 1 and the last stderr line matches error_regex;
  * bug/silent cases and clean cases: exit status 0 and no traceback.
OMP_NUM_THREADS=1 is set for the runs (the programs are tiny; this only
keeps them inside the time limit on a busy machine).
Then every case with a probe is re-run in-process (runpy) and the probe inspects
its globals afterwards. For the clean programs the probes check that the program
did what it is meant to do (frozen parts unchanged, all trainable parameters
reached by the optimizer, hooks applied, custom Functions pass gradcheck, ...).

Usage: python3 verify.py [--python PY] [--only NAME ...]
"""
import argparse
import json
import os
import re
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
ns = {"g": g, "torch": torch}
exec(probe, ns)
print("PROBE_RESULT=%s" % bool(ns["result"]))
"""

PROBES = {
    # model is back in train mode after the periodic evaluation; evaluation ran
    "n01": (
        "m = g['model']\n"
        "result = all(x.training for x in m.modules()) and len(g['history']) == 6\n"
        "result = result and all(torch.isfinite(p).all() for p in m.parameters())"
    ),
    # backbone weights and BN running stats untouched, head trained, optimizer holds only the head
    "n02": (
        "from model import LinearProbe\n"
        "torch.manual_seed(0)\n"
        "ref = LinearProbe(5)\n"
        "m = g['model']\n"
        "sb, rb = m.backbone.state_dict(), ref.backbone.state_dict()\n"
        "same_bb = all(torch.equal(sb[k], rb[k]) for k in sb)\n"
        "head_moved = not torch.equal(m.head[1].weight, ref.head[1].weight)\n"
        "opt_ids = {id(p) for grp in g['optimizer'].param_groups for p in grp['params']}\n"
        "result = same_bb and head_moved and opt_ids == {id(p) for p in m.head.parameters()}"
    ),
    # 3 optimizer steps per epoch (4 + 4 + 2 micro-batches); the leftover group is averaged
    # over its own size, i.e. equals the gradient of the mean of its two batch losses
    "n03": (
        "import torch.nn.functional as F\n"
        "from data import ToySegments\n"
        "m = g['model']; data = ToySegments()\n"
        "w = g['class_weights'](g['config']['class_counts'])\n"
        "batches = list(data.loader(16))\n"
        "nb = len(batches)\n"
        "m.zero_grad()\n"
        "for idx in (8, 9):\n"
        "    x, y = batches[idx]\n"
        "    (F.cross_entropy(m(x), y, weight=w) / g['group_size'](idx, nb, 4)).backward()\n"
        "acc = [p.grad.clone() for p in m.parameters()]\n"
        "m.zero_grad()\n"
        "l = sum(F.cross_entropy(m(batches[i][0]), batches[i][1], weight=w) for i in (8, 9)) / 2\n"
        "l.backward()\n"
        "ref = [p.grad.clone() for p in m.parameters()]\n"
        "result = g['updates'] == 9 and all(torch.allclose(a, b, atol=1e-6) for a, b in zip(acc, ref))"
    ),
    # every parameter, including the grown blocks, is in the rebuilt optimizer and was trained
    "n04": (
        "m = g['model']; opt = g['optimizer']\n"
        "opt_ids = {id(p) for grp in opt.param_groups for p in grp['params']}\n"
        "result = len(m.blocks) == 3 and opt_ids == {id(p) for p in m.parameters()}\n"
        "result = result and all(p.grad is not None for p in m.parameters())\n"
        "result = result and all(len(opt.state[p]) > 0 for p in m.parameters())"
    ),
    # teacher frozen, not in the optimizer, an average distinct from the student
    "n05": (
        "s = g['student']; t = g['teacher'].module; opt = g['optimizer']\n"
        "opt_ids = {id(p) for grp in opt.param_groups for p in grp['params']}\n"
        "result = all(not p.requires_grad and p.grad is None and id(p) not in opt_ids for p in t.parameters())\n"
        "result = result and all(p.grad is not None for p in s.parameters())\n"
        "result = result and any(not torch.equal(a, b) for a, b in zip(s.parameters(), t.parameters()))\n"
        "result = result and g['teacher'].updates == 30"
    ),
    # both networks trained and finite
    "n06": (
        "ps = list(g['netG'].parameters()) + list(g['netD'].parameters())\n"
        "result = all(p.grad is not None and torch.isfinite(p).all() for p in ps)"
    ),
    # grads written back for every parameter, finite
    "n07": (
        "m = g['model']\n"
        "result = all(p.grad is not None and torch.isfinite(p.grad).all() for p in m.parameters())"
    ),
    # the custom Functions are correct
    "n08": (
        "from functions import GradReverse, LogCosh\n"
        "from torch.autograd import gradcheck\n"
        "x = torch.randn(6, 3, dtype=torch.double, requires_grad=True)\n"
        "ok1 = gradcheck(LogCosh.apply, (x,))\n"
        "y = GradReverse.apply(x, 0.7)\n"
        "gr, = torch.autograd.grad(y.sum(), x)\n"
        "ok2 = torch.allclose(gr, torch.full_like(x, -0.7))\n"
        "ok3 = torch.allclose(LogCosh.apply(x), torch.log(torch.cosh(x)))\n"
        "result = ok1 and ok2 and ok3"
    ),
    # the gradient hooks clamped every model gradient; aux heads trained
    "n09": (
        "m = g['model']; c = g['cfg']['clip']\n"
        "result = all(p.grad is not None and p.grad.abs().max() <= c for p in m.parameters())\n"
        "result = result and all(p.grad is not None for p in g['aux'].parameters())\n"
        "result = result and set(g['logger'].norms) == {'fc', 'aux_stage2'}"
    ),
    # checkpointing enabled, every parameter in one of the two groups, finite
    "n10": (
        "m = g['model']\n"
        "result = m.is_activation_checkpointing and m.bert.encoder.layer[0].gradient_checkpointing\n"
        "result = result and all(torch.isfinite(p).all() for p in m.parameters())"
    ),
    # finite weights, no skipped steps, scheduler advanced every step
    "n11": (
        "m = g['model']\n"
        "result = g['skipped'] == 0 and all(torch.isfinite(p).all() for p in m.parameters())"
    ),
    # the swapped stem conv is in the optimizer and was trained
    "n12": (
        "m = g['model']; opt = g['trainer'].optimizers[0]\n"
        "opt_ids = {id(p) for grp in opt.param_groups for p in grp['params']}\n"
        "conv = m.model.conv1[0]\n"
        "result = conv.in_channels == 1 and opt_ids == {id(p) for p in m.parameters()}\n"
        "result = result and len(opt.state[conv.weight]) > 0"
    ),
}


def last_nonempty(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


ENV = dict(os.environ, OMP_NUM_THREADS="1")


def run(cmd, cwd):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S, env=ENV)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or "", e.stderr or ""


def check(case, py):
    problems = []
    script = os.path.join(HERE, case["entry"])
    if not os.path.isfile(script):
        return ["missing entry"]
    cwd = os.path.dirname(script)
    case_dir = cwd
    for f, n, _role in case["expected"]:
        lines = open(os.path.join(case_dir, f)).read().split("\n")
        if not (1 <= n <= len(lines)) or not lines[n - 1].strip() or lines[n - 1].strip().startswith("#"):
            problems.append(f"expected line {f}:{n} is blank/comment/out of range")

    rc, out, err = run([py, os.path.basename(script)], cwd)
    if rc is None:
        return problems + [f"timed out after {TIMEOUT_S}s"]
    if case["kind"] == "bug" and case["error"]:
        if rc != 1:
            problems.append(f"expected exit 1, got {rc}")
        if not re.search(case["error_regex"], last_nonempty(err)):
            problems.append(f"last stderr line does not match: {last_nonempty(err)[:200]!r}")
    else:
        if rc != 0:
            problems.append(f"expected exit 0, got {rc}: {last_nonempty(err)[:200]!r}")
        if "Traceback (most recent call last)" in err:
            problems.append("printed a traceback")

    probe = PROBES.get(case["name"])
    if probe is not None and not problems:
        rc, out, err = run([py, "-c", HARNESS, script, probe], cwd)
        if rc is None:
            problems.append(f"probe run timed out after {TIMEOUT_S}s")
        elif "PROBE_RESULT=True" not in out:
            problems.append(f"probe failed (rc={rc}): {last_nonempty(err)[:200]!r}")
    elif case["kind"] == "bug" and not case["error"] and probe is None:
        problems.append("silent case without a probe")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=DEFAULT_PY)
    ap.add_argument("--only", nargs="*")
    a = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    if a.only:
        cases = [c for c in cases if c["name"] in a.only]
    passed = 0
    for c in cases:
        problems = check(c, a.python)
        if problems:
            print(f"FAIL {c['name']}: " + "; ".join(problems))
        else:
            passed += 1
            print(f"PASS {c['name']}")
        sys.stdout.flush()
    print(f"{passed}/{len(cases)} passed")
    sys.exit(0 if passed == len(cases) else 1)


if __name__ == "__main__":
    main()
