#!/usr/bin/env python3
"""Checks the cases in cases.json.

For every case: the expected lines exist and are not blank/comments; the entry runs with the
project venv from its own folder (30 s limit); bug cases that raise must exit 1 with the last
stderr line matching error_regex; silent bug cases must exit 0 without a traceback, and a probe
(run in a second process: optional setup before the program, then a check on its globals)
must confirm the harm; clean cases must exit 0.
"""
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/work/main/.venv/bin/python"
TIMEOUT = 30

HARNESS = r'''
import os, runpy, sys
path, pre, probe = sys.argv[1], sys.argv[2], sys.argv[3]
d = os.path.dirname(os.path.abspath(path))
os.chdir(d)
sys.path.insert(0, d)
sys.argv = [path]
import torch
ns = {"torch": torch, "rec": {}}
exec(pre, ns)
g = runpy.run_path(path, run_name="__main__")
ns["g"] = g
exec(probe, ns)
print("PROBE_RESULT=%s" % bool(ns["result"]))
'''

COMPAT = (
    "for _n in ('nms', 'qnms'):\n"
    "    if not hasattr(torch.ops.torchvision, _n):\n"
    "        torch.library.define(f'torchvision::{_n}', '(Tensor dets, Tensor scores, float iou_threshold) -> Tensor')\n"
)

CASES = {
    # accumulation window: the gradient the optimizer sees holds only the last micro-batch
    "s09": {
        "pre": (
            "import accelerate\n"
            "rec['calls'] = []\n"
            "_orig = accelerate.Accelerator.backward\n"
            "def _bw(self, loss, **kw):\n"
            "    p = self.unwrap_model(self._models[0]).action_head.mlp[0].weight\n"
            "    before = None if p.grad is None else p.grad.clone()\n"
            "    r = _orig(self, loss, **kw)\n"
            "    rec['calls'].append((self.sync_gradients, before, p.grad.clone()))\n"
            "    return r\n"
            "accelerate.Accelerator.backward = _bw\n"
        ),
        "probe": (
            "calls = rec['calls'][:4]\n"
            "contrib = [a - (torch.zeros_like(a) if b is None else b) for _, b, a in calls]\n"
            "accumulated = sum(contrib)\n"
            "at_step = calls[-1][2]\n"
            "result = (len(calls) == 4 and [c[0] for c in calls] == [False, False, False, True]\n"
            "          and all(c.abs().sum() > 0 for c in contrib[:3])\n"
            "          and torch.allclose(at_step, contrib[-1])\n"
            "          and not torch.allclose(at_step, accumulated, rtol=1e-3, atol=1e-6))\n"
        ),
    },
    # LoRA matrices never receive a gradient: B stays exactly zero, A has no grad;
    # the same model with non-reentrant checkpointing does give them gradients
    "s10": {
        "pre": COMPAT,
        "probe": (
            "import torch.nn.functional as F\n"
            "m = g['model']\n"
            "def lora_grads(model):\n"
            "    model.zero_grad(set_to_none=True)\n"
            "    torch.manual_seed(0)\n"
            "    x = torch.randn(4, 3, 32, 32); y = torch.randint(0, 6, (4,))\n"
            "    F.cross_entropy(model(pixel_values=x).logits, y).backward()\n"
            "    return [p.grad for n, p in model.named_parameters() if 'lora_' in n]\n"
            "bs = [p for n, p in m.named_parameters() if 'lora_B' in n]\n"
            "buggy = lora_grads(m)\n"
            "r2 = dict(g['RECIPE']); r2['gradient_checkpointing_kwargs'] = {'use_reentrant': False}\n"
            "fixed = lora_grads(g['build_model'](r2))\n"
            "result = (len(bs) == 6 and all(torch.count_nonzero(b) == 0 for b in bs)\n"
            "          and all(gr is None for gr in buggy)\n"
            "          and all(gr is not None for gr in fixed))\n"
        ),
    },
    # the prompt of task 0 is frozen (requires_grad False) yet changes during later tasks
    "s11": {
        "pre": (
            "import learner as _L\n"
            "rec['snap'] = []\n"
            "_orig = _L.SPrompts.incremental_train\n"
            "def _it(self, data):\n"
            "    r = _orig(self, data)\n"
            "    rec['snap'].append([p.detach().clone() for p in self._network.prompt_pool])\n"
            "    return r\n"
            "_L.SPrompts.incremental_train = _it\n"
        ),
        "probe": (
            "net = g['learner']._network\n"
            "s = rec['snap']\n"
            "p0 = net.prompt_pool[0]\n"
            "result = (len(s) == 3 and not p0.requires_grad\n"
            "          and not torch.allclose(s[0][0], s[1][0])\n"
            "          and not torch.allclose(s[0][0], p0)\n"
            "          and (p0.norm() < s[0][0].norm()))\n"
        ),
    },
    # clipping ran on scaled gradients: the gradient reaching the optimizer is ~1/scale
    # of the correctly clipped (unscaled, then clipped) gradient
    "s12": {
        "pre": (
            "rec['pre_norm'] = []; rec['step_norm'] = []\n"
            "_clip = torch.nn.utils.clip_grad_norm_\n"
            "def _c(params, max_norm, *a, **k):\n"
            "    params = list(params)\n"
            "    n = _clip(params, max_norm, *a, **k)\n"
            "    rec['pre_norm'].append((float(n), float(max_norm)))\n"
            "    return n\n"
            "torch.nn.utils.clip_grad_norm_ = _c\n"
            "def _hook(opt, args, kwargs):\n"
            "    gs = [p.grad for grp in opt.param_groups for p in grp['params'] if p.grad is not None]\n"
            "    rec['step_norm'].append(float(torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(x) for x in gs]))))\n"
            "from torch.optim.optimizer import register_optimizer_step_pre_hook\n"
            "register_optimizer_step_pre_hook(_hook)\n"
        ),
        "probe": (
            "S = g['scaler'].get_scale()\n"
            "pre, mx = rec['pre_norm'][0]\n"
            "correct = min(pre / S, mx)\n"
            "got = rec['step_norm'][0]\n"
            "result = S >= 1024 and len(rec['step_norm']) == 12 and got < 1e-3 * correct\n"
        ),
    },
    # frozen backbone BatchNorm statistics drift once the periodic eval has run
    "s13": {
        "pre": COMPAT + (
            "import strategy as _S\n"
            "_orig = _S.FinetuneStrategy.model_adaptation\n"
            "def _ma(self):\n"
            "    r = _orig(self)\n"
            "    rec['bn'] = {k: v.clone() for k, v in self.model.backbone.state_dict().items() if 'running_mean' in k}\n"
            "    return r\n"
            "_S.FinetuneStrategy.model_adaptation = _ma\n"
        ),
        "probe": (
            "bb = g['strategy'].model.backbone\n"
            "now = {k: v for k, v in bb.state_dict().items() if 'running_mean' in k}\n"
            "changed = [k for k in now if not torch.equal(now[k], rec['bn'][k])]\n"
            "result = (all(not p.requires_grad for p in bb.parameters()) and len(changed) > 0\n"
            "          and bb.bn1.training)\n"
        ),
    },
    # target network: parameters synced, BatchNorm statistics never (still at init)
    "s14": {
        "pre": "",
        "probe": (
            "m = g['model']\n"
            "bn_t = m.q_net_target.q_net[0]; bn_o = m.q_net.q_net[0]\n"
            "result = (torch.count_nonzero(bn_t.running_mean) == 0\n"
            "          and torch.all(bn_t.running_var == 1)\n"
            "          and bn_o.running_mean.abs().max() > 10)\n"
        ),
    },
    # NaN parameters
    "s15": {
        "pre": "",
        "probe": "result = any(torch.isnan(p).any().item() for p in g['model'].parameters())\n",
    },
}


def last_line(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def run(cmd, cwd):
    t0 = time.time()
    try:
        env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT, env=env)
        return p.returncode, p.stdout, p.stderr, time.time() - t0
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or "", e.stderr or "", time.time() - t0


def check(case):
    problems = []
    folder = os.path.join(HERE, "cases", case["name"])
    entry = os.path.join(HERE, case["entry"])
    for f, n, role in case["expected"]:
        path = os.path.join(folder, f)
        if not os.path.isfile(path):
            problems.append(f"missing file {f}")
            continue
        lines = open(path).read().split("\n")
        if not 1 <= n <= len(lines) or not lines[n - 1].strip() or lines[n - 1].strip().startswith("#"):
            problems.append(f"bad expected line {f}:{n}")
    for f, n in case["fix_site"]:
        if [f, n, "fix"] not in case["expected"]:
            problems.append(f"fix_site {f}:{n} not in expected with role fix")
    rc, out, err, wall = run([PY, os.path.basename(entry)], os.path.dirname(entry))
    if rc is None:
        return problems + [f"timed out after {TIMEOUT}s"], wall
    if case["kind"] == "bug" and case["error"]:
        if rc != 1:
            problems.append(f"expected exit 1, got {rc}")
        if not re.search(case["error_regex"], last_line(err)):
            problems.append(f"last stderr line does not match: {last_line(err)[:160]!r}")
    else:
        if rc != 0:
            problems.append(f"expected exit 0, got {rc}: {last_line(err)[:160]!r}")
        if "Traceback (most recent call last)" in err:
            problems.append("printed a traceback")
    if case["kind"] == "bug" and not case["error"]:
        spec = CASES.get(case["name"])
        if spec is None:
            problems.append("no probe")
        else:
            rc2, out2, err2, _ = run([PY, "-c", HARNESS, entry, spec["pre"], spec["probe"]],
                                     os.path.dirname(entry))
            if "PROBE_RESULT=True" not in out2:
                problems.append(f"probe failed (rc={rc2}): {last_line(out2 + err2)[:200]!r}")
    return problems, wall


def main():
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    only = set(sys.argv[1:])
    failed = 0
    total = 0
    for case in cases:
        if only and case["name"] not in only:
            continue
        total += 1
        problems, wall = check(case)
        print(f"{'ok  ' if not problems else 'FAIL'} {case['name']} {case['kind']:<5} {wall:5.1f}s")
        for p in problems:
            print(f"       - {p}")
        failed += bool(problems)
    print(f"\n{total - failed}/{total} passed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
