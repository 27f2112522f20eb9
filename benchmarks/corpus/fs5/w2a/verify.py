#!/usr/bin/env python3
"""Checks the w2a cases: exit status, expected lines, and a probe that proves each silent harm.

Usage: python3 verify.py [--python /work/main/.venv/bin/python] [--only s01 ...]
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PY = "/work/main/.venv/bin/python"
TIMEOUT_S = 30

# Runs a case in-process: optional setup (hooks/patches) before it, probe after it.
HARNESS = r"""
import os, runpy, sys
path, setup, probe = sys.argv[1], sys.argv[2], sys.argv[3]
d = os.path.dirname(os.path.abspath(path))
os.chdir(d)
sys.path.insert(0, d)
sys.argv = [path]
import torch
S = {"torch": torch}
exec(setup, S)
g = runpy.run_path(path, run_name="__main__")
ns = {"g": g, "S": S, "torch": torch}
exec(probe, ns)
print("PROBE_RESULT=%s" % bool(ns["result"]))
"""

SETUP = {
    "s01": (
        "import compat\n"
        "from transformers import BertForMaskedLM\n"
        "calls = []\n"
        "_orig = BertForMaskedLM.forward\n"
        "def _fwd(self, *a, **k):\n"
        "    calls.append((self.training, torch.is_grad_enabled()))\n"
        "    return _orig(self, *a, **k)\n"
        "BertForMaskedLM.forward = _fwd\n"
    ),
    "s04": (
        "from torch.optim.optimizer import register_optimizer_step_pre_hook\n"
        "rec = {'clip': [], 'step': []}\n"
        "_clip = torch.nn.utils.clip_grad_norm_\n"
        "def clip(parameters, max_norm, *a, **k):\n"
        "    parameters = list(parameters)\n"
        "    n = _clip(parameters, max_norm, *a, **k)\n"
        "    rec['clip'].append((float(n), float(max_norm)))\n"
        "    return n\n"
        "torch.nn.utils.clip_grad_norm_ = clip\n"
        "def pre(opt, args, kwargs):\n"
        "    gs = [p.grad for grp in opt.param_groups for p in grp['params'] if p.grad is not None]\n"
        "    rec['step'].append(float(torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(x) for x in gs]))))\n"
        "register_optimizer_step_pre_hook(pre)\n"
    ),
}

PROBES = {
    # training forwards (grad enabled) that ran with the model in eval mode
    "s01": (
        "calls = S['calls']\n"
        "bad = [c for c in calls if c[1] and not c[0]]\n"
        "good = [c for c in calls if c[1] and c[0]]\n"
        "result = len(bad) > 0 and len(good) > 0\n"
    ),
    # frozen (requires_grad=False) encoder BN layers ended in training mode and their running stats moved
    "s02": (
        "import torch.nn as nn\n"
        "net = g['net']\n"
        "bns = [m for m in net.encoder.modules() if isinstance(m, nn.BatchNorm2d)]\n"
        "result = (len(bns) > 0 and all(not m.weight.requires_grad for m in bns)\n"
        "          and all(m.training for m in bns)\n"
        "          and all(m.running_mean.abs().sum().item() > 0 for m in bns))\n"
    ),
    # the domain gradient reaching the extractor points the same way as the un-reversed gradient
    "s03": (
        "import torch.nn.functional as F\n"
        "P = g['params']\n"
        "ext, disc = g['extractor'], g['discriminator']\n"
        "c = g['domain_constant'](P.epochs - 1, P.steps_per_epoch - 1, P.steps_per_epoch, P.epochs)\n"
        "torch.manual_seed(0)\n"
        "x = torch.randn(16, 3, 28, 28); lab = torch.randint(0, 2, (16,))\n"
        "def grad(grl):\n"
        "    ext.zero_grad(); disc.zero_grad()\n"
        "    f = ext(x)\n"
        "    out = disc(f, c) if grl else disc.fc2(F.relu(disc.fc1(f)))\n"
        "    F.cross_entropy(out, lab).backward()\n"
        "    return ext.conv1.weight.grad.flatten().clone()\n"
        "g_rev, g_plain = grad(True), grad(False)\n"
        "cos = F.cosine_similarity(g_rev, g_plain, dim=0).item()\n"
        "result = c < 0 and cos > 0.99\n"
    ),
    # the gradient the optimizer stepped with is orders of magnitude below min(true norm, max_norm)
    "s04": (
        "rec = S['rec']\n"
        "scale = g['scaler'].get_scale()\n"
        "pairs = list(zip(rec['clip'], rec['step']))\n"
        "result = (scale > 1 and len(pairs) > 0 and\n"
        "          all(st < 1e-3 * min(cn / scale, mx) for (cn, mx), st in pairs))\n"
    ),
    # the face term has no graph; the same term without no_grad does give the adapter a gradient
    "s05": (
        "from models.infer import run_inference\n"
        "ad, fl = g['image_adapter'], g['face_loss']\n"
        "enc, _, unet, _ = g['load_models'](3)\n"
        "ac = torch.cumprod(1 - torch.linspace(1e-4, 0.02, 100), dim=0)\n"
        "torch.manual_seed(0); imgs = torch.rand(2, 3, 16, 16) * 2 - 1\n"
        "torch.manual_seed(1); v1 = fl(imgs, run_inference(imgs, enc, ad, unet, ac, 4))\n"
        "ad.zero_grad(set_to_none=True)\n"
        "torch.manual_seed(1); v2 = fl(imgs, run_inference.__wrapped__(imgs, enc, ad, unet, ac, 4))\n"
        "v2.backward()\n"
        "gn = sum(p.grad.abs().sum().item() for p in ad.parameters() if p.grad is not None)\n"
        "result = (not v1.requires_grad) and v1.item() > 0 and gn > 0\n"
    ),
    "s06": "result = any(torch.isnan(p).any().item() for p in g['model'].parameters())\n",
    # scale/shift get gradients but are in no optimizer group and still hold their initial values
    "s07": (
        "m, opt = g['model'], g['optimizer']\n"
        "held = {id(p) for grp in opt.param_groups for p in grp['params']}\n"
        "ss = m.scale_shift\n"
        "gen = torch.Generator().manual_seed(g['ARGS']['seed'])\n"
        "batches = [g['random_batch'](4, 5, g['ARGS']['num_elements'], gen) for _ in range(g['ARGS']['batches_per_epoch'])]\n"
        "std, mean = g['compute_average_interaction_stats'](batches)\n"
        "others = [p for n, p in m.named_parameters() if not n.startswith('scale_shift')]\n"
        "result = (id(ss.scale) not in held and id(ss.shift) not in held\n"
        "          and all(id(p) in held for p in others)\n"
        "          and ss.scale.grad is not None and ss.scale.grad.abs().item() > 0\n"
        "          and ss.scale.item() == torch.tensor(std).item() and ss.shift.item() == torch.tensor(mean).item())\n"
    ),
    # with lr=0, two identical training steps leave twice the single-step gradient in .grad
    "s08": (
        "t = g['trainer']; m = t.model\n"
        "for grp in t.optimizer.param_groups: grp['lr'] = 0.0\n"
        "m.zero_grad(set_to_none=True)\n"
        "batch = g['build_batches'](1, 4, 16, 128, torch.Generator().manual_seed(9))[0]\n"
        "p = [p for n, p in m.named_parameters() if 'lora_B' in n][0]\n"
        "t.training_step(batch)\n"
        "g1 = None if p.grad is None else p.grad.clone()\n"
        "t.training_step(batch)\n"
        "g2 = p.grad\n"
        "result = (g1 is not None and g2 is not None and g1.abs().sum().item() > 0\n"
        "          and torch.allclose(g2, 2 * g1, rtol=1e-4, atol=1e-8))\n"
    ),
}


def last_nonempty(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def run(cmd, cwd, retries=1):
    for _ in range(retries + 1):
        rc, out, err = _run_once(cmd, cwd)
        if rc is not None:
            break
    return rc, out, err


def _run_once(cmd, cwd):
    try:
        env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S, env=env)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or "", e.stderr or ""


def check_case(case, py):
    import re
    problems = []
    entry = os.path.join(HERE, case["entry"])
    cwd = os.path.dirname(entry)
    if not os.path.isfile(entry):
        return ["missing entry"]
    for f, line, role in case["expected"]:
        path = os.path.join(cwd, f)
        if not os.path.isfile(path):
            problems.append(f"missing file {f}")
            continue
        lines = open(path).read().splitlines()
        if not (1 <= line <= len(lines)) or not lines[line - 1].strip() or lines[line - 1].strip().startswith("#"):
            problems.append(f"bad expected line {f}:{line}")
    fix_lines = [[f, l] for f, l, r in case["expected"] if r == "fix"]
    if fix_lines != case["fix_site"]:
        problems.append("fix_site does not match the fix lines of expected")

    rc, out, err = run([py, os.path.basename(entry)], cwd)
    if rc is None:
        return problems + ["timeout"]
    if case["error"]:
        if rc != 1:
            problems.append(f"exit status {rc}, expected 1")
        elif case["error_regex"] and not re.search(case["error_regex"], last_nonempty(err)):
            problems.append(f"last stderr line does not match: {last_nonempty(err)!r}")
        return problems
    if rc != 0 or "Traceback" in err:
        return problems + [f"exit status {rc}: {last_nonempty(err)}"]
    if case["kind"] == "bug":
        rc, out, err = run([py, "-c", HARNESS, entry, SETUP.get(case["name"], ""), PROBES[case["name"]]], cwd)
        if rc is None:
            problems.append("probe timeout")
        elif "PROBE_RESULT=True" not in out:
            problems.append(f"probe did not confirm the harm (rc={rc}): {last_nonempty(err) or last_nonempty(out)}")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=DEFAULT_PY if os.path.exists(DEFAULT_PY) else sys.executable)
    ap.add_argument("--only", nargs="*")
    a = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    if a.only:
        cases = [c for c in cases if c["name"] in a.only]
    passed = 0
    for case in cases:
        problems = check_case(case, a.python)
        if problems:
            print(f"FAIL {case['name']}: " + "; ".join(problems))
        else:
            passed += 1
            print(f"PASS {case['name']}")
    print(f"{passed}/{len(cases)} passed")
    sys.exit(0 if passed == len(cases) else 1)


if __name__ == "__main__":
    main()
