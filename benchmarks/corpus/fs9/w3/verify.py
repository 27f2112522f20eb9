#!/usr/bin/env python3
"""Checks batch fs9/w3: every program exits 0 under plain Python, then a probe
run in-process (runpy) after the program confirms its state is sound."""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/work/main/.venv/bin/python"
TIMEOUT = 30
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

FINITE = "def finite(m):\n    return all(torch.isfinite(p).all().item() for p in m.parameters())\n"

PROBES = {
    "n01": FINITE + (
        "a = g['agent']\n"
        "result = (finite(a.actor) and finite(a.critic)\n"
        "          and all(p.requires_grad for p in a.critic.parameters())\n"
        "          and not any(p.requires_grad for p in a.critic_targ.parameters())\n"
        "          and not torch.equal(a.actor.pi[0].weight, a.actor_targ.pi[0].weight))"
    ),
    "n02": FINITE + (
        "m = g['model']\n"
        "result = finite(m) and all(p.requires_grad for p in m.parameters())"
    ),
    "n03": FINITE + (
        "from model import LinearProbe\n"
        "m = g['model']\n"
        "torch.manual_seed(0)\n"
        "ref = LinearProbe(m.head[1].out_features)\n"
        "sd, rd = m.backbone.state_dict(), ref.backbone.state_dict()\n"
        "result = (finite(m) and all(torch.equal(sd[k], rd[k]) for k in sd)\n"
        "          and not torch.equal(m.head[1].weight, ref.head[1].weight))"
    ),
    "n04": FINITE + (
        "from modeling import BertForTagging\n"
        "m = g['model']\n"
        "torch.manual_seed(0)\n"
        "ref = BertForTagging(m.bert.config, 5)\n"
        "e, re_ = m.bert.embeddings.state_dict(), ref.bert.embeddings.state_dict()\n"
        "l0 = m.bert.encoder.layer[0].attention.self.query.weight\n"
        "r0 = ref.bert.encoder.layer[0].attention.self.query.weight\n"
        "result = (finite(m) and all(torch.equal(e[k], re_[k]) for k in e)\n"
        "          and not torch.equal(l0, r0)\n"
        "          and len(g['trainer'].optimizer.param_groups) == 4)"
    ),
    "n05": FINITE + (
        "m, opt = g['model'], g['optimizer']\n"
        "scales = {round(pg.get('lr_scale', 1.0), 6) for pg in opt.param_groups}\n"
        "result = finite(m) and len(scales) > 2 and m.grad_checkpointing"
    ),
    "n06": FINITE + "result = finite(g['model']) and g['updates'] == 8",
    "n07": FINITE + (
        "result = (finite(g['model']) and g['trainer'].scaler.get_scale() > 0\n"
        "          and g['logger'].history[-1] < g['logger'].history[0])"
    ),
    "n08": (
        "from functional import swish, pairwise_sq_dist\n"
        "torch.manual_seed(0)\n"
        "x = torch.randn(5, 4, dtype=torch.double, requires_grad=True)\n"
        "y = torch.randn(3, 4, dtype=torch.double, requires_grad=True)\n"
        "ok1 = torch.autograd.gradcheck(lambda t: swish(t, 1.5), (x,))\n"
        "ok2 = torch.autograd.gradcheck(pairwise_sq_dist, (x, y))\n"
        "d = pairwise_sq_dist(x, y)\n"
        "ok3 = torch.allclose(d, torch.cdist(x, y) ** 2)\n"
        "result = ok1 and ok2 and ok3"
    ),
    "n09": FINITE + (
        "from nets import SmallCNN\n"
        "cfg = g['CONFIG']\n"
        "torch.manual_seed(0)\n"
        "SmallCNN(cfg['student_widths'])\n"
        "ref = SmallCNN(cfg['teacher_widths'])\n"
        "t = g['distiller'].teacher.state_dict(); r = ref.state_dict()\n"
        "mon = g['monitor']\n"
        "result = (finite(g['distiller']) and all(torch.equal(t[k], r[k]) for k in t)\n"
        "          and len(mon.norms['layer1']) == cfg['steps'])"
    ),
    "n10": FINITE + (
        "mt = g['mt']\n"
        "result = (finite(mt.student) and finite(mt.teacher)\n"
        "          and all(p.grad is None and not p.requires_grad for p in mt.teacher.parameters())\n"
        "          and not torch.equal(mt.teacher.cls.weight, mt.student.cls.weight))"
    ),
    "n11": FINITE + (
        "m = g['model']\n"
        "result = finite(m) and m.decoder.weight is m.embed.weight"
    ),
    "n12": FINITE + (
        "heads = g['heads']\n"
        "result = (finite(g['trunk']) and finite(heads)\n"
        "          and all(p.grad is not None for p in heads.parameters()))"
    ),
}


def last_line(text):
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip() if lines else ""


def check(case):
    entry = os.path.join(HERE, case["entry"])
    folder = os.path.dirname(entry)
    try:
        p = subprocess.run([PY, entry], cwd=folder, capture_output=True, text=True,
                           timeout=TIMEOUT, env=ENV)
    except subprocess.TimeoutExpired:
        return False, "timeout"
    want = 1 if case["error"] else 0
    if p.returncode != want:
        return False, f"exit {p.returncode}, wanted {want}: {last_line(p.stderr)}"
    if case["error"]:
        if not re.search(case["error_regex"], last_line(p.stderr)):
            return False, f"stderr mismatch: {last_line(p.stderr)}"
        return True, "raised as expected"
    if "Traceback" in p.stderr:
        return False, "traceback in stderr"
    probe = PROBES.get(case["name"])
    if probe is None:
        return True, "exit 0"
    try:
        q = subprocess.run([PY, "-c", HARNESS, entry, probe], cwd=folder, capture_output=True,
                           text=True, timeout=TIMEOUT, env=ENV)
    except subprocess.TimeoutExpired:
        return False, "probe timeout"
    if "PROBE_RESULT=True" not in q.stdout:
        return False, f"probe failed: {last_line(q.stderr) or last_line(q.stdout)}"
    return True, "exit 0, probe ok"


def main():
    with open(os.path.join(HERE, "cases.json")) as f:
        cases = json.load(f)
    only = set(sys.argv[1:])
    passed = total = 0
    for case in cases:
        if only and case["name"] not in only:
            continue
        total += 1
        ok, msg = check(case)
        passed += ok
        print(f"{'PASS' if ok else 'FAIL'} {case['name']} ({case['kind']}): {msg}", flush=True)
    print(f"{passed}/{total} passed")
    return 0 if passed == total else 1


if __name__ == "__main__":
    sys.exit(main())
