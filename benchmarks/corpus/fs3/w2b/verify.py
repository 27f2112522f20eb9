#!/usr/bin/env python3
"""Checks every case of this part: plain run (exit status, last stderr line),
and for silent bugs a probe run in-process that proves the harm.
Each run may use at most 30 s of CPU time (user + sys); wall clock is only
capped loosely because the shared machine this was written on is overloaded.

Usage: python3 verify.py [--python PY] [--only NAME ...]
"""
import argparse
import json
import os
import re
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PY = "/work/main/.venv/bin/python"
TIME_LIMIT_S = 30      # CPU seconds (user + sys) per run, program and children
WALL_TIMEOUT_S = 240   # hard wall-clock stop; the shared machine is often heavily loaded

# Runs the entry with runpy; snapshots every parameter handed to an optimizer
# (at optimizer construction) so probes can tell whether training moved it.
HARNESS = r"""
import os, runpy, sys
entry, probe = sys.argv[1], sys.argv[2]
d = os.path.dirname(os.path.abspath(entry))
os.chdir(d)
sys.path.insert(0, d)
sys.argv = [entry]
import torch
SNAP = {}
_orig_init = torch.optim.Optimizer.__init__
def _init(self, params, defaults, *a, **k):
    _orig_init(self, params, defaults, *a, **k)
    for grp in self.param_groups:
        for p in grp["params"]:
            SNAP[id(p)] = p.detach().clone()
torch.optim.Optimizer.__init__ = _init
g = runpy.run_path(entry, run_name="__main__")
def unchanged(p):
    return id(p) in SNAP and torch.equal(p.detach(), SNAP[id(p)])
def has_nan(module):
    return any(torch.isnan(p).any().item() for p in module.parameters())
ns = {"g": g, "torch": torch, "SNAP": SNAP, "unchanged": unchanged, "has_nan": has_nan}
exec(probe, ns)
print("PROBE_RESULT=%s" % bool(ns["result"]))
"""

PROBES = {
    # loss rebuilt as a new leaf: no model parameter ever moves
    "s09": (
        "m = g['model']\n"
        "result = all(unchanged(p) for p in m.parameters())\n"
    ),
    # nan_to_num hides the forward NaN, the backward still makes NaN weights
    "s10": (
        "result = has_nan(g['model'])\n"
    ),
    # context embeddings go through numpy: u_embeddings never changes, v does
    "s11": (
        "m = g['w2v'].model\n"
        "result = unchanged(m.u_embeddings.weight) and not unchanged(m.v_embeddings.weight)\n"
    ),
    # custom Function backward differs from the gradient of a plain add
    "s12": (
        "import torch.nn.functional as F\n"
        "m = g['model']\n"
        "torch.manual_seed(1)\n"
        "x = torch.randn(16, 12); y = torch.randint(0, 4, (16,))\n"
        "def grads(fused):\n"
        "    for b in m.blocks: b.fused_add = fused\n"
        "    m.zero_grad(set_to_none=True)\n"
        "    F.cross_entropy(m(x), y).backward()\n"
        "    return [p.grad.clone() for p in m.parameters()]\n"
        "a = grads(True); b = grads(False)\n"
        "result = any(not torch.allclose(u, v, atol=1e-6) for u, v in zip(a, b))\n"
    ),
    # after one more training pass the meters still hold every iteration's graph
    "s13": (
        "tr = g['trainer']\n"
        "loader = tr.loaders[0]\n"
        "tr.cycle_dataset(loader)\n"
        "def count(fn, name):\n"
        "    seen, stack, n = set(), [fn], 0\n"
        "    while stack:\n"
        "        f = stack.pop()\n"
        "        if f is None or id(f) in seen: continue\n"
        "        seen.add(id(f))\n"
        "        n += type(f).__name__ == name\n"
        "        stack.extend(nf for nf, _ in f.next_functions)\n"
        "    return n\n"
        "meters = tr.stats[loader.name]\n"
        "s_loss = meters['Loss/total'].sum\n"
        "s_iou = meters['Stats/top_iou'].sum\n"
        "result = (torch.is_tensor(s_loss) and s_loss.grad_fn is not None\n"
        "          and count(s_loss.grad_fn, 'MseLossBackward0') >= len(loader)\n"
        "          and count(s_iou.grad_fn, 'MaxBackward0') >= len(loader))\n"
    ),
    # the vision tower is set trainable and sits in the optimizer, yet never moves
    "s14": (
        "vt = g['model'].vision_tower\n"
        "ps = list(vt.parameters())\n"
        "result = (all(p.requires_grad for p in ps) and all(id(p) in SNAP for p in ps)\n"
        "          and all(p.grad is None and unchanged(p) for p in ps))\n"
    ),
    # masking after the loss leaves NaN gradients: NaN weights
    "s15": (
        "result = has_nan(g['model'])\n"
    ),
}


def last_nonempty(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def run(cmd, cwd):
    """Returns (rc, stdout, stderr, cpu_seconds); rc is None when a limit was hit."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=WALL_TIMEOUT_S)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or "")
        rc = None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if cpu > TIME_LIMIT_S:
        rc = None
    return rc, out, err, cpu


def check_lines(case):
    problems = []
    folder = os.path.join(HERE, os.path.dirname(case["entry"]))
    for f, n, *_ in case["expected"] + [list(x) + ["fix"] for x in case["fix_site"]]:
        path = os.path.join(folder, f)
        if not os.path.isfile(path):
            problems.append(f"missing file {f}")
            continue
        lines = open(path).read().split("\n")
        if not 1 <= n <= len(lines) or not lines[n - 1].strip() or lines[n - 1].strip().startswith("#"):
            problems.append(f"bad line {f}:{n}")
    return problems


def check_case(case, py):
    problems = check_lines(case)
    entry = os.path.join(HERE, case["entry"])
    cwd = os.path.dirname(entry)
    rc, out, err, wall = run([py, os.path.basename(entry)], cwd)
    if rc is None:
        return problems + [f"over the limit ({wall:.1f}s CPU, {TIME_LIMIT_S}s allowed)"], wall
    if case["error"]:
        if rc != 1:
            problems.append(f"expected exit 1, got {rc}")
        last = last_nonempty(err)
        if not re.search(case["error_regex"], last):
            problems.append(f"last stderr line does not match: {last[:160]!r}")
        return problems, wall
    if rc != 0:
        problems.append(f"expected exit 0, got {rc}: {last_nonempty(err)[:160]!r}")
        return problems, wall
    if "Traceback (most recent call last)" in err:
        problems.append("printed a traceback")
    if case["kind"] == "bug":
        probe = PROBES.get(case["name"])
        if probe is None:
            return problems + ["no probe"], wall
        rc2, out2, err2, wall2 = run([py, "-c", HARNESS, entry, probe], cwd)
        wall += wall2
        if rc2 is None:
            problems.append(f"probe over the limit ({wall2:.1f}s CPU)")
        elif "PROBE_RESULT=True" not in out2:
            problems.append(f"probe did not confirm the harm (rc={rc2}): {last_nonempty(err2)[:160]!r}")
    return problems, wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=DEFAULT_PY)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    if args.only:
        cases = [c for c in cases if c["name"] in args.only]
    passed = 0
    for case in cases:
        problems, wall = check_case(case, args.python)
        status = "PASS" if not problems else "FAIL"
        passed += not problems
        print(f"{status} {case['name']} ({wall:.1f}s CPU)" + ("" if not problems else ": " + "; ".join(problems)))
    print(f"{passed}/{len(cases)} passed")
    sys.exit(0 if passed == len(cases) else 1)


if __name__ == "__main__":
    main()
