#!/usr/bin/env python3
"""Checks batch fs9/w2a: every case is silent (exit 0 when run unchanged as __main__)
and a probe outside the program (code run before it that only wraps library calls
to observe them, and code run after it on its globals) confirms the harm.

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
path, pre, post = sys.argv[1], sys.argv[2], sys.argv[3]
d = os.path.dirname(os.path.abspath(path))
os.chdir(d)
sys.path.insert(0, d)
sys.argv = [path]
import torch
ns = {"torch": torch}
exec(pre, ns)
g = runpy.run_path(path, run_name="__main__")
ns["g"] = g
exec(post, ns)
print("PROBE_RESULT=%s" % bool(ns["result"]))
"""

PROBES = {
    # embeddings were meant to be frozen: still requires_grad and changed by training
    "s01": ("", (
        "m = g['model']\n"
        "torch.manual_seed(0)\n"
        "ref = g['SentenceClassifier'](g['config'].MODEL, g['cfg']['num_labels'])\n"
        "e = m.bert.embeddings.word_embeddings.weight\n"
        "result = (e.requires_grad\n"
        "          and not torch.equal(e, ref.bert.embeddings.word_embeddings.weight)\n"
        "          and not torch.equal(m.bert.embeddings.position_embeddings.weight,\n"
        "                              ref.bert.embeddings.position_embeddings.weight))"
    )),
    # MLM decoder weight is the tied word embedding: frozen with the encoder, never trained
    "s02": ("", (
        "m = g['model']\n"
        "torch.manual_seed(0)\n"
        "ref = g['build_model'](g['mlm_config'].BERT)\n"
        "dec = m.cls.predictions.decoder.weight\n"
        "result = (dec is m.bert.embeddings.word_embeddings.weight and not dec.requires_grad\n"
        "          and torch.equal(dec, ref.cls.predictions.decoder.weight)\n"
        "          and not torch.equal(m.cls.predictions.transform.dense.weight,\n"
        "                              ref.cls.predictions.transform.dense.weight))"
    )),
    # optimizer.step never runs: every parameter equals its initial value, grads keep growing
    "s03": ("", (
        "m = g['model']\n"
        "torch.manual_seed(0)\n"
        "ref = g['Darknet'](num_classes=4)\n"
        "same = all(torch.equal(a, b) for a, b in zip(m.parameters(), ref.parameters()))\n"
        "has_grad = any(p.grad is not None and p.grad.abs().sum() > 0 for p in m.parameters())\n"
        "result = same and has_grad"
    )),
    # conv layers live in a plain list: not in the optimizer, never updated
    "s04": ("", (
        "m = g['model']\n"
        "ids = {id(p) for grp in g['trainer'].optimizer.param_groups for p in grp['params']}\n"
        "torch.manual_seed(0)\n"
        "ref = g['TextCNN'](500, 24, 8, [3, 4, 5], 2)\n"
        "result = (all(id(c.weight) not in ids for c in m.conv1d)\n"
        "          and all(torch.equal(c.weight, r.weight) for c, r in zip(m.conv1d, ref.conv1d))\n"
        "          and m.conv1d[0].weight.grad is not None\n"
        "          and not torch.equal(m.fc.weight, ref.fc.weight))"
    )),
    # NaN weights after training; the scale fed to the Gaussian model has exact zeros
    "s05": ("", (
        "m = g['model']\n"
        "nan = any(torch.isnan(p).any().item() for p in m.parameters())\n"
        "torch.manual_seed(0)\n"
        "fresh = g['HyperpriorCodec']()\n"
        "images = torch.rand(6, 4, 3, 32, 32)\n"
        "seen = []\n"
        "fresh.y_model.register_forward_hook(lambda mod, inp, out: seen.append(inp[1].detach()) and None)\n"
        "x_hat, y_lik, z_lik = fresh(images[0])\n"
        "loss = g['rate_distortion'](images[0], x_hat, y_lik, z_lik, 0.01)[0]\n"
        "loss.backward()\n"
        "zeros = (seen[0] == 0).any().item()\n"
        "nan_grad = any(p.grad is not None and torch.isnan(p.grad).any().item() for p in fresh.parameters())\n"
        "result = nan and zeros and bool(torch.isfinite(loss)) and nan_grad"
    )),
    # dropout runs in eval mode during gradient-enabled training forwards after the first evaluation
    "s06": ((
        "import torch.nn as nn\n"
        "calls = []\n"
        "_orig = nn.Dropout.forward\n"
        "def _fwd(self, x):\n"
        "    calls.append((self.training, torch.is_grad_enabled()))\n"
        "    return _orig(self, x)\n"
        "nn.Dropout.forward = _fwd\n"
    ), (
        "train_calls = [t for t, grad in calls if grad]\n"
        "result = any(train_calls) and (False in train_calls) and not g['model'].training"
    )),
    # parameters frozen mid-training keep being changed by AdamW.step
    "s07": ((
        "changed = []\n"
        "_orig = torch.optim.AdamW.step\n"
        "def _step(self, *a, **k):\n"
        "    frozen = [(p, p.detach().clone()) for grp in self.param_groups for p in grp['params']\n"
        "              if not p.requires_grad]\n"
        "    out = _orig(self, *a, **k)\n"
        "    changed.append(sum(not torch.equal(p, b) for p, b in frozen))\n"
        "    return out\n"
        "torch.optim.AdamW.step = _step\n"
    ), (
        "result = any(changed) and changed[0] == 0"
    )),
    # accumulated micro-batch gradients are zeroed before they are ever applied
    "s08": ((
        "events = {'applied': None, 'discarded': 0, 'steps': 0}\n"
        "_step, _zero = torch.optim.SGD.step, torch.optim.Optimizer.zero_grad\n"
        "def _grads(opt):\n"
        "    return [torch.zeros_like(p) if p.grad is None else p.grad.detach().clone()\n"
        "            for grp in opt.param_groups for p in grp['params']]\n"
        "def step(self, *a, **k):\n"
        "    events['applied'] = _grads(self); events['steps'] += 1\n"
        "    return _step(self, *a, **k)\n"
        "def zero_grad(self, *a, **k):\n"
        "    now = _grads(self)\n"
        "    before = events['applied'] or [torch.zeros_like(t) for t in now]\n"
        "    if any(not torch.equal(a, b) for a, b in zip(now, before)):\n"
        "        events['discarded'] += 1\n"
        "    return _zero(self, *a, **k)\n"
        "torch.optim.SGD.step = step\n"
        "torch.optim.SGD.zero_grad = zero_grad\n"
    ), (
        "result = events['steps'] > 0 and events['discarded'] >= events['steps']"
    )),
}


def last_nonempty(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def check_lines(case):
    folder = os.path.join(HERE, os.path.dirname(case["entry"]))
    problems = []
    for entry in case["expected"] + [[f, l, "fix"] for f, l in case["fix_site"]]:
        f, line = entry[0], entry[1]
        p = os.path.join(folder, f)
        if not os.path.exists(p):
            problems.append(f"missing file {f}")
            continue
        lines = open(p).read().splitlines()
        if line < 1 or line > len(lines) or not lines[line - 1].strip() or lines[line - 1].strip().startswith("#"):
            problems.append(f"bad line {f}:{line}")
    return problems


def run_case(py, case):
    path = os.path.join(HERE, case["entry"])
    problems = check_lines(case)
    pre, post = PROBES.get(case["name"], ("", "result = True"))
    try:
        env = dict(os.environ, OMP_NUM_THREADS="1")
        proc = subprocess.run([py, "-c", HARNESS, path, pre, post], capture_output=True, text=True,
                              timeout=TIMEOUT_S, cwd=os.path.dirname(path), env=env)
    except subprocess.TimeoutExpired:
        return False, "timeout"
    if case["error"]:
        if proc.returncode != 1:
            problems.append(f"exit {proc.returncode}, expected 1")
    else:
        if proc.returncode != 0:
            problems.append(f"exit {proc.returncode}: {last_nonempty(proc.stderr)}")
        elif "PROBE_RESULT=True" not in proc.stdout:
            problems.append("probe did not confirm the harm")
    return not problems, "; ".join(problems) or "ok"


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
        ok, msg = run_case(args.python, case)
        passed += ok
        print(f"{'PASS' if ok else 'FAIL'} {case['name']}: {msg}", flush=True)
    print(f"{passed}/{len(cases)} passed")
    return 0 if passed == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
