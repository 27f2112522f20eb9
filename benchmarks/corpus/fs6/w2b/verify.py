#!/usr/bin/env python3
"""Checks every case in cases.json under /work/main/.venv/bin/python.

Each case is run from its own folder (30 s limit): error cases must exit 1 with
the last stderr line matching error_regex; silent bugs must exit 0 and a probe,
run in-process after the program (runpy, with its globals as g), must confirm
the harm; clean programs must exit 0. Every expected line must be a non-blank,
non-comment source line.
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
ns = {"g": g, "torch": torch}
exec(probe, ns)
print("PROBE_RESULT=%s" % bool(ns["result"]))
"""

PROBES = {
    # loss-owned parameters are outside the optimizer: they get gradients but keep their initial values
    "s09": (
        "from model import create_model\n"
        "from losses import MotLoss\n"
        "opt = g['opt']\n"
        "torch.manual_seed(0); create_model(opt); ref = MotLoss(opt)\n"
        "ids = {id(p) for grp in g['optimizer'].param_groups for p in grp['params']}\n"
        "L = g['trainer'].loss\n"
        "result = (id(L.classifier.weight) not in ids and id(L.s_det) not in ids\n"
        "          and L.classifier.weight.grad is not None and L.classifier.weight.grad.abs().sum() > 0\n"
        "          and torch.equal(L.classifier.weight, ref.classifier.weight)\n"
        "          and torch.equal(L.s_det, ref.s_det) and torch.equal(L.s_id, ref.s_id))"
    ),
    # gates never change and get no gradient, although they would receive a non-zero one if learnable
    "s10": (
        "import torch.nn.functional as F\n"
        "from axialnet import AxialAttention_dynamic\n"
        "m = g['model']\n"
        "att = [a for a in m.modules() if isinstance(a, AxialAttention_dynamic)]\n"
        "init = AxialAttention_dynamic.GATES\n"
        "unchanged = all(getattr(a, n).grad is None and abs(getattr(a, n).item() - v) < 1e-7\n"
        "                for a in att for n, v in init.items())\n"
        "for a in att:\n"
        "    for n in init: getattr(a, n).requires_grad_(True)\n"
        "torch.manual_seed(3)\n"
        "x = torch.rand(2, 3, 16, 16); y = (x.mean(1) > 0.5).long()\n"
        "F.cross_entropy(m(x), y).backward()\n"
        "would_learn = all(getattr(a, n).grad is not None and getattr(a, n).grad.abs().item() > 0 for a in att for n in init)\n"
        "result = len(att) == 2 and unchanged and would_learn"
    ),
    # the gradient applied after scaler.step has norm clip/scale, far below min(true norm, clip)
    "s11": (
        "import copy\n"
        "t = g['trainer']\n"
        "torch.manual_seed(1)\n"
        "x = torch.randint(0, 64, (8, 16)); y = torch.randint(0, 64, (8, 16))\n"
        "t.model.eval()\n"
        "ref = copy.deepcopy(t.model)\n"
        "with torch.autocast('cpu', dtype=torch.bfloat16):\n"
        "    _, loss = ref(x, y)\n"
        "loss.backward()\n"
        "true_norm = torch.norm(torch.stack([p.grad.norm() for p in ref.parameters() if p.grad is not None])).item()\n"
        "t._run_batch(x, y)\n"
        "applied = torch.norm(torch.stack([p.grad.norm() for p in t.model.parameters() if p.grad is not None])).item()\n"
        "clip = t.config.grad_norm_clip\n"
        "result = t.config.use_amp and applied < 1e-3 * min(true_norm, clip)"
    ),
    # after the unfreeze epoch the encoder is still frozen and its weights never moved
    "s12": (
        "import lightning as L\n"
        "from models import AudioNTT2020\n"
        "cfg = g['cfg']\n"
        "L.seed_everything(cfg['seed'], verbose=False)\n"
        "ref = AudioNTT2020(n_mels=cfg['n_mels'], d=cfg['feature_d'])\n"
        "enc = g['encoder']\n"
        "same = all(torch.equal(a, b) for a, b in zip(enc.parameters(), ref.parameters()))\n"
        "frozen = not any(p.requires_grad for p in enc.parameters())\n"
        "result = g['trainer'].current_epoch > cfg['warmup_epochs'] and same and frozen"
    ),
    # unfrozen encoder layers 2-3 require grad but never get one and never change; the head does change
    "s13": (
        "from model import build_model\n"
        "torch.manual_seed(0); ref = build_model(g['cfg'])\n"
        "m = g['model']\n"
        "k = g['cfg']['layers_to_freeze']\n"
        "layers, rlayers = m.transformer_model.encoder.layer[k:], ref.transformer_model.encoder.layer[k:]\n"
        "stuck = all(p.requires_grad and p.grad is None and torch.equal(p, q)\n"
        "            for l, rl in zip(layers, rlayers) for p, q in zip(l.parameters(), rl.parameters()))\n"
        "head_moved = not torch.equal(m.classifier.weight, ref.classifier.weight)\n"
        "result = len(layers) > 0 and stuck and head_moved"
    ),
    # rel_h/rel_w are not in the optimizer and are replaced by fresh random tensors on every forward
    "s14": (
        "from attention import AttentionConv\n"
        "m = g['model']\n"
        "ids = {id(p) for grp in g['optimizer'].param_groups for p in grp['params']}\n"
        "att = [a for a in m.modules() if isinstance(a, AttentionConv)]\n"
        "outside = all(id(a.rel_h) not in ids and id(a.rel_w) not in ids for a in att)\n"
        "before = att[0].rel_h.detach().clone()\n"
        "m.eval()\n"
        "with torch.no_grad(): m(torch.randn(1, 3, 32, 32))\n"
        "result = len(att) > 0 and outside and not torch.equal(att[0].rel_h, before)"
    ),
    # prompt components get no gradient and keep their initial values; the prompt weights' linear does train
    "s15": (
        "from model import PromptIR\n"
        "torch.manual_seed(0); ref = PromptIR(decoder=True)\n"
        "net = g['trainer'].net\n"
        "stuck = all(getattr(net, n).prompt_param.grad is None\n"
        "            and torch.equal(getattr(net, n).prompt_param, getattr(ref, n).prompt_param)\n"
        "            for n in ('prompt2', 'prompt3'))\n"
        "result = stuck and net.prompt3.linear_layer.weight.grad is not None\n"
        "result = result and not torch.equal(net.prompt3.linear_layer.weight, ref.prompt3.linear_layer.weight)"
    ),
}


def last_line(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def run(cmd, cwd):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timeout"


def check(case):
    problems = []
    for f, line, role in case["expected"]:
        path = os.path.join(HERE, f)
        if not os.path.isfile(path):
            problems.append(f"missing {f}")
            continue
        lines = open(path).read().split("\n")
        if not (1 <= line <= len(lines)) or not lines[line - 1].strip() or lines[line - 1].strip().startswith("#"):
            problems.append(f"bad line {f}:{line}")
    for f, line in case["fix_site"]:
        if [f, line, "fix"] not in case["expected"]:
            problems.append(f"fix_site {f}:{line} not an expected fix line")

    entry = os.path.join(HERE, case["entry"])
    cwd = os.path.dirname(entry)
    rc, out, err = run([PY, os.path.basename(entry)], cwd)
    if rc is None:
        return problems + [f"timed out after {TIMEOUT}s"]
    if case["error"]:
        if rc != 1:
            problems.append(f"expected exit 1, got {rc}")
        if not re.search(case["error_regex"], last_line(err)):
            problems.append(f"last stderr line does not match: {last_line(err)[:150]!r}")
        return problems
    if rc != 0:
        problems.append(f"expected exit 0, got {rc}: {last_line(err)[:150]!r}")
    if "Traceback (most recent call last)" in err:
        problems.append("printed a traceback")
    if case["kind"] == "bug":
        probe = PROBES.get(case["name"])
        if probe is None:
            return problems + ["no probe"]
        rc2, out2, err2 = run([PY, "-c", HARNESS, entry, probe], cwd)
        if rc2 is None:
            problems.append("probe run timed out")
        elif "PROBE_RESULT=True" not in out2:
            problems.append(f"probe did not confirm the harm: rc={rc2} {last_line(out2 + err2)[:150]!r}")
    return problems


def main():
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    only = set(sys.argv[1:])
    passed = total = 0
    for case in cases:
        if only and case["name"] not in only:
            continue
        total += 1
        problems = check(case)
        status = "PASS" if not problems else "FAIL"
        passed += not problems
        print(f"{status} {case['name']}" + ("" if not problems else ": " + "; ".join(problems)), flush=True)
    print(f"{passed}/{total} passed")
    return 0 if passed == total else 1


if __name__ == "__main__":
    sys.exit(main())
