#!/usr/bin/env python3
"""Checks batch fs11/w2a: every case is a silent bug (exit 0) whose harm a probe confirms.

For each case in cases.json:
  * each expected / fix_site entry must point at an existing, non-blank line;
  * the entry script is run as a plain program (cwd = its folder, 30 s limit) and must exit 0
    without a traceback;
  * the script is run again in-process through runpy (with optional set-up code installed
    first) and a per-case probe inspects its globals; the probe must confirm the harm.
Usage: python verify.py [--python PY] [--only NAME ...]
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
path, pre, probe = sys.argv[1], sys.argv[2], sys.argv[3]
d = os.path.dirname(os.path.abspath(path))
os.chdir(d)
sys.path.insert(0, d)
sys.argv = [path]
import torch
ns = {"torch": torch, "runpy": runpy}
exec(pre, ns)
g = runpy.run_path(path, run_name="__main__")
ns["g"] = g
exec(probe, ns)
print("PROBE_RESULT=%s" % bool(ns["result"]))
"""

PRE = {
    # record gradients that are zeroed without an optimizer step having consumed them
    "s03": (
        "import torch.optim.optimizer as _oo\n"
        "state = {'discarded': 0}\n"
        "_snap = {}\n"
        "def _post(opt, args, kwargs):\n"
        "    for grp in opt.param_groups:\n"
        "        for p in grp['params']:\n"
        "            _snap[id(p)] = None if p.grad is None else p.grad.clone()\n"
        "_oo.register_optimizer_step_post_hook(_post)\n"
        "_orig_zero = torch.optim.Optimizer.zero_grad\n"
        "def _zero(self, set_to_none=True):\n"
        "    for grp in self.param_groups:\n"
        "        for p in grp['params']:\n"
        "            if p.grad is not None and p.grad.abs().sum() > 0:\n"
        "                s = _snap.get(id(p))\n"
        "                if s is None or not torch.equal(s, p.grad):\n"
        "                    state['discarded'] += 1\n"
        "    return _orig_zero(self, set_to_none)\n"
        "torch.optim.Optimizer.zero_grad = _zero\n"
    ),
    # record the mode of every dropout call made while autograd records (training forwards)
    "s05": (
        "import torch.nn as _nn\n"
        "calls = []\n"
        "_orig_fwd = _nn.Dropout2d.forward\n"
        "def _fwd(self, x):\n"
        "    calls.append((torch.is_grad_enabled(), self.training))\n"
        "    return _orig_fwd(self, x)\n"
        "_nn.Dropout2d.forward = _fwd\n"
    ),
}

PROBES = {
    # backbone frozen by no_grad has no gradient, yet its weights moved (decoupled weight decay)
    "s01": (
        "from model import SECONDNet\n"
        "m = g['model']\n"
        "torch.manual_seed(0)\n"
        "ref = SECONDNet(g['MODEL_CFG'])\n"
        "pairs = list(zip(m.backbone_3d.parameters(), ref.backbone_3d.parameters()))\n"
        "result = (all(p.grad is None for p, _ in pairs)\n"
        "          and all(not torch.equal(p, q) for p, q in pairs if p.dim() > 1))\n"
    ),
    # LSTM cell weights get gradients but are not in the optimizer and never change
    "s02": (
        "from meta_optimizer import MetaOptimizer\n"
        "mo, opt = g['meta_optimizer'], g['optimizer']\n"
        "ids = {id(p) for grp in opt.param_groups for p in grp['params']}\n"
        "lstm = [p for c in mo.lstms for p in c.parameters()]\n"
        "torch.manual_seed(0)\n"
        "ref = MetaOptimizer(7, 2, 10)\n"
        "ref_lstm = [p for c in ref.lstms for p in c.parameters()]\n"
        "result = (len(lstm) > 0 and all(id(p) not in ids for p in lstm)\n"
        "          and all(torch.equal(a, b) for a, b in zip(lstm, ref_lstm))\n"
        "          and any(p.grad is not None and p.grad.abs().sum() > 0 for p in lstm))\n"
    ),
    "s03": "result = state['discarded'] > 0\n",
    # the post-accumulate hook clamps the parameters themselves (LayerNorm weights start at 1.0)
    "s04": (
        "m = g['model']\n"
        "clip = g['TRAIN_CONFIG']['max_grad_value']\n"
        "result = (m.bert.embeddings.LayerNorm.weight.max().item() < 2 * clip\n"
        "          and max(p.abs().max().item() for p in m.parameters()) < 2 * clip)\n"
    ),
    "s05": "result = any(grad_on and not training for grad_on, training in calls)\n",
    # gradient after GradScaler unscale must equal the unscaled gradient; here it is ~1/scale
    "s06": (
        "tr = g['trainer']\n"
        "data = {'pose_shift': torch.zeros(1, 2)}\n"
        "def grads(enabled):\n"
        "    torch.manual_seed(123)\n"
        "    tr.optimizer.zero_grad(set_to_none=True)\n"
        "    scaler = torch.amp.GradScaler('cpu', enabled=enabled, init_scale=2.0 ** 16)\n"
        "    with torch.autocast('cpu', dtype=torch.bfloat16, enabled=True):\n"
        "        loss = tr.train_step(data)\n"
        "    scaler.scale(loss).backward()\n"
        "    if enabled:\n"
        "        scaler.unscale_(tr.optimizer)\n"
        "    return tr.model.sigma_net[0].weight.grad.clone()\n"
        "a, b = grads(True), grads(False)\n"
        "result = ((a - b).norm() / b.norm()).item() > 0.5\n"
    ),
    "s07": "result = any(torch.isnan(p).any().item() for p in g['model'].parameters())\n",
    # backbone frozen in __init__ ends up trainable and its weights moved
    "s08": (
        "from lightning.pytorch import seed_everything\n"
        "from module import LinearProbe\n"
        "m = g['model']\n"
        "seed_everything(0, verbose=False)\n"
        "ref = LinearProbe()\n"
        "result = (all(p.requires_grad for p in m.backbone.parameters())\n"
        "          and any(not torch.equal(p, q) for p, q in\n"
        "                  zip(m.backbone.parameters(), ref.backbone.parameters())))\n"
    ),
}


def check_lines(case):
    folder = os.path.join(HERE, "cases", case["name"])
    entries = [(f, l) for f, l, _ in case["expected"]] + [tuple(x) for x in case["fix_site"]]
    for f, l in entries:
        p = os.path.join(folder, f)
        if not os.path.exists(p):
            return f"missing file {f}"
        lines = open(p).read().splitlines()
        if l < 1 or l > len(lines) or not lines[l - 1].strip() or lines[l - 1].strip().startswith("#"):
            return f"bad line {f}:{l}"
    fixes = {(f, l) for f, l, r in case["expected"] if r == "fix"}
    if fixes != {tuple(x) for x in case["fix_site"]}:
        return "fix_site does not match role fix entries"
    return None


def run_case(py, case):
    path = os.path.join(HERE, case["entry"])
    cwd = os.path.dirname(path)
    err = check_lines(case)
    if err:
        return False, err
    try:
        r = subprocess.run([py, os.path.basename(path)], cwd=cwd, capture_output=True, text=True,
                           timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return False, "timeout"
    if r.returncode != 0 or "Traceback" in r.stderr:
        return False, f"exit {r.returncode}: {r.stderr.strip().splitlines()[-1:] }"
    name = case["name"]
    try:
        r = subprocess.run([py, "-c", HARNESS, path, PRE.get(name, ""), PROBES[name]], cwd=cwd,
                           capture_output=True, text=True, timeout=TIMEOUT_S * 2)
    except subprocess.TimeoutExpired:
        return False, "probe timeout"
    if "PROBE_RESULT=True" not in r.stdout:
        tail = (r.stdout + r.stderr).strip().splitlines()[-3:]
        return False, f"probe failed: {tail}"
    return True, "exit 0, harm confirmed by probe"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=DEFAULT_PY)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    if args.only:
        cases = [c for c in cases if c["name"] in args.only]
    ok = 0
    for case in cases:
        passed, msg = run_case(args.python, case)
        ok += passed
        print(f"{'PASS' if passed else 'FAIL'} {case['name']}: {msg}")
    print(f"{ok}/{len(cases)} passed")
    sys.exit(0 if ok == len(cases) else 1)


if __name__ == "__main__":
    main()
