#!/usr/bin/env python3
"""Checks the cases in cases.json: exit status, error regex, and for silent bugs a probe.

Each case runs under /work/main/.venv/bin/python from its own folder (30 s limit).
Silent cases are then re-run in-process through runpy and a probe inspects the
program's globals afterwards to prove the harm.
Usage: python verify.py [--only NAME ...]
"""
import argparse
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
    # the clones' optimizer holds the target model's tensors: fitting a clone again leaves its weights unchanged
    "s09": (
        "import numpy as np\n"
        "res = []\n"
        "for sm in g['shadow_models'].get_shadow_models():\n"
        "    before = [p.detach().clone() for p in sm.model.parameters()]\n"
        "    x = np.random.randn(8, 3, 16, 16).astype(np.float32)\n"
        "    y = np.random.randint(0, 4, size=8).astype(np.int64)\n"
        "    sm.fit(x, y, batch_size=8, nb_epochs=1)\n"
        "    got_grad = any(p.grad is not None and p.grad.abs().sum() > 0 for p in sm.model.parameters())\n"
        "    same = all(torch.equal(a, p) for a, p in zip(before, sm.model.parameters()))\n"
        "    res.append(got_grad and same)\n"
        "result = len(res) > 0 and all(res)"
    ),
    # BiFPN fusion weights got gradients but are still at their initial ones
    "s10": (
        "b = g['model'].bifpn\n"
        "ws = [b.p4_w1, b.p3_w1, b.p4_w2, b.p5_w2]\n"
        "result = all(torch.equal(w.detach(), torch.ones_like(w)) for w in ws) and "
        "all(w.grad is not None and w.grad.abs().sum() > 0 for w in ws)"
    ),
    # the LSTM that evolves the GCN weight never receives a gradient nor an optimizer step
    "s11": (
        "lstm = g['model'].recurrent.recurrent_layer\n"
        "opt = g['optimizer']\n"
        "result = all(p.grad is None for p in lstm.parameters()) and "
        "all(len(opt.state.get(p, {})) == 0 for p in lstm.parameters())"
    ),
    # memory keys/values are not parameters of the student: never optimized
    "s12": (
        "st = g['trainer'].student\n"
        "mem = st.memory\n"
        "ids = {id(p) for p in st.parameters()}\n"
        "result = id(mem.keys) not in ids and id(mem.values) not in ids and "
        "not mem.keys.requires_grad and not mem.values.requires_grad"
    ),
    # NaN parameters after training
    "s13": "result = any(torch.isnan(p).any().item() for p in g['module'].parameters())",
    # uncertainty weights received gradients but were never stepped
    "s14": (
        "L = g['trainer'].loss\n"
        "result = (torch.allclose(L.s_det.detach(), torch.tensor([-1.85])) and "
        "torch.allclose(L.s_id.detach(), torch.tensor([-1.05])) and "
        "L.s_det.grad is not None and L.s_det.grad.abs().sum() > 0)"
    ),
    # BERT pooler (used by BertForMultipleChoice) gets gradients but is in no param group: still at its init
    "s15": (
        "from transformers import BertForMultipleChoice\n"
        "m, opt = g['model'], g['optimizer']\n"
        "torch.manual_seed(42)\n"
        "ref = BertForMultipleChoice(m.config)\n"
        "ids = {id(p) for gr in opt.param_groups for p in gr['params']}\n"
        "pool = list(m.bert.pooler.parameters())\n"
        "result = (all(id(p) not in ids for p in pool) and "
        "all(p.grad is not None and p.grad.abs().sum() > 0 for p in pool) and "
        "all(torch.equal(a, b) for a, b in zip(pool, ref.bert.pooler.parameters())) and "
        "not torch.equal(m.classifier.weight, ref.classifier.weight))"
    ),
}


def last_line(text):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[-1] if lines else ""


def run(cmd, cwd):
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT, env=env)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timeout"


def check(case):
    entry = os.path.join(HERE, case["entry"])
    folder = os.path.dirname(entry)
    for f, line, _ in case["expected"]:
        path = os.path.join(HERE, "cases", case["name"], f)
        src = open(path).read().split("\n")
        text = src[line - 1].strip() if 0 < line <= len(src) else ""
        if not text or text.startswith("#"):
            return False, "bad expected line %s:%d" % (f, line)
    rc, out, err = run([PY, entry], folder)
    if rc is None:
        return False, "timeout"
    if case["error"]:
        if rc != 1:
            return False, "exit %s, expected 1" % rc
        if not re.search(case["error_regex"], last_line(err)):
            return False, "stderr last line: %s" % last_line(err)
        return True, "raises as reported"
    if rc != 0:
        return False, "exit %s: %s" % (rc, last_line(err))
    if case["kind"] == "clean":
        return True, "exit 0"
    probe = PROBES[case["name"]]
    rc, out, err = run([PY, "-c", HARNESS, entry, probe], folder)
    if rc != 0:
        return False, "probe run failed: %s" % last_line(err)
    if "PROBE_RESULT=True" not in out:
        return False, "probe did not confirm the harm"
    return True, "exit 0, harm confirmed by probe"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    if args.only:
        cases = [c for c in cases if c["name"] in args.only]
    ok = 0
    for case in cases:
        passed, msg = check(case)
        ok += passed
        print("%-4s %s  %s" % (case["name"], "PASS" if passed else "FAIL", msg), flush=True)
    print("%d/%d passed" % (ok, len(cases)))
    return 0 if ok == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
