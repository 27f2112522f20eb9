#!/usr/bin/env python3
"""Checks every case in cases.json: exit status, error regex (errors), and for silent
bugs a probe run outside the program (in a separate harness process) that proves the harm.
Usage: python verify.py [--only NAME ...]"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/work/main/.venv/bin/python"
TIMEOUT = 30

# Runs the case in-process with runpy, then the probe.  The probe gets `g` (the program's
# globals), `torch`, and `run_fixed()`, which copies the case folder, applies the case's
# one-line fix there and runs that copy, returning its globals.
HARNESS = r'''
import json, os, runpy, shutil, sys, tempfile
path, probe, fix_json = sys.argv[1], sys.argv[2], sys.argv[3]
case_dir = os.path.dirname(os.path.abspath(path))
fix = json.loads(fix_json)

def _purge(d):
    for k, m in list(sys.modules.items()):
        f = getattr(m, "__file__", None) or ""
        if f and os.path.abspath(f).startswith(d + os.sep):
            del sys.modules[k]

def _run(d, entry):
    _purge(case_dir)
    for p in list(sys.path):
        if p in (case_dir,) or p.startswith(tempfile.gettempdir() + os.sep + "fixcase"):
            sys.path.remove(p)
    os.chdir(d)
    sys.path.insert(0, d)
    sys.argv = [entry]
    out = runpy.run_path(os.path.join(d, entry), run_name="__main__")
    _purge(d)
    return out

def run_fixed():
    tmp = tempfile.mkdtemp(prefix="fixcase")
    dst = os.path.join(tmp, "c")
    shutil.copytree(case_dir, dst, ignore=shutil.ignore_patterns("__pycache__"))
    fpath = os.path.join(dst, fix["file"])
    lines = open(fpath).read().split("\n")
    line = lines[fix["line"] - 1]
    assert fix["old"] in line, (fix, line)
    lines[fix["line"] - 1] = line.replace(fix["old"], fix["new"])
    open(fpath, "w").write("\n".join(lines))
    return _run(dst, os.path.basename(path))

import torch
g = _run(case_dir, os.path.basename(path))
ns = {"g": g, "torch": torch, "run_fixed": run_fixed}
exec(probe, ns)
print("PROBE_RESULT=%s" % bool(ns["result"]))
'''

PROBES = {}
FIXES = {}

# s09: the influence predictor gets no gradient at all and the weight regulariser adds none.
FIXES["s09"] = {"file": "common.py", "line": 22, "old": "weights = weights.detach()", "new": "weights = weights"}
PROBES["s09"] = r'''
net = g["net"]
bug_none = all(p.grad is None for p in net.influence_predictor.parameters())
w = g["all_outputs"]["weight"]
wreg_no_graph = (not w.requires_grad) and g["losses"]["WREG"].item() > 0
f = run_fixed()
fixed_has = all(p.grad is not None and p.grad.abs().sum() > 0 for p in f["net"].influence_predictor.parameters())
result = bug_none and wreg_no_graph and fixed_has
'''

# s10: the student forward runs with dropout off and the KD term gives no gradient.
FIXES["s10"] = {"file": "trainer.py", "line": 36, "old": "self.teacher_model.eval()",
                "new": "self.teacher_model.eval() if self.teacher_model is not model else None"}
PROBES["s10"] = r"""
import torch.nn.functional as F
t, m = g["trainer"], g["model"]
batch = dict(t.train_batches[0])
drops = [x for x in m.modules() if isinstance(x, torch.nn.Dropout)]
flags = []
hs = [d.register_forward_pre_hook(lambda mod, inp: flags.append((torch.is_grad_enabled(), mod.training))) for d in drops]
m.zero_grad()
t.training_step(m, batch)
for h in hs: h.remove()
student = [tr for ge, tr in flags if ge]
dropout_off = len(student) > 0 and not any(student)
# KD term alone: gradient w.r.t. the classifier weight
inputs = dict(batch); inputs.pop("labels")
m.zero_grad()
t.teacher_model.eval()
with torch.no_grad():
    tl = t.teacher_model(**inputs).logits
out = m(**inputs).logits
kd = F.kl_div(F.log_softmax(out / 2, -1), F.softmax(tl / 2, -1), reduction="batchmean")
kd.backward()
kd_zero = float(m.classifier.weight.grad.abs().max()) < 1e-7
f = run_fixed()
fm = f["model"]
differs = any(not torch.equal(a, b) for a, b in zip(m.parameters(), fm.parameters()))
result = dropout_off and kd_zero and differs
"""

# s11: NaN parameters after the first step; the fixed program stays finite.
FIXES["s11"] = {"file": "attention.py", "line": 50, "old": "-float(\"-inf\")", "new": "float(\"-inf\")"}
PROBES["s11"] = r"""
m = g["model"]
nan_params = any(torch.isnan(p).any().item() for p in m.parameters())
f = run_fixed()
fixed_ok = all(torch.isfinite(p).all().item() for p in f["model"].parameters()) and torch.isfinite(f["loss"]).item()
result = nan_params and fixed_ok
"""

# s12: the frozen backbone's BatchNorm running statistics move during training.
FIXES["s12"] = {"file": "trainer.py", "line": 15, "old": "self.model.train()",
                "new": "self.model.train(); self.model.backbone.eval()"}
PROBES["s12"] = r"""
m = g["model"]
bns = [x for x in m.backbone.modules() if isinstance(x, torch.nn.BatchNorm2d)]
frozen = all(not p.requires_grad for p in m.backbone.parameters())
moved = any(b.running_mean.abs().sum() > 0 or not torch.allclose(b.running_var, torch.ones_like(b.running_var)) for b in bns)
f = run_fixed()
fb = [x for x in f["model"].backbone.modules() if isinstance(x, torch.nn.BatchNorm2d)]
fixed_still = all(b.running_mean.abs().sum() == 0 and torch.allclose(b.running_var, torch.ones_like(b.running_var)) for b in fb)
result = frozen and moved and fixed_still
"""

# s13: at the optimizer step .grad holds only the last micro-batch's gradient.
FIXES["s13"] = {"file": "wakeword.py", "line": 40, "old": "self.optimizer.zero_grad()",
                "new": "self.optimizer.zero_grad() if accumulation_steps == 1 else None"}
PROBES["s13"] = r"""
import copy
oww = g["oww"]
gen = torch.Generator().manual_seed(7)
x1 = torch.randn(96, 16, 96, generator=gen); y1 = torch.arange(96) % 2
x2 = torch.randn(96, 16, 96, generator=gen); y2 = torch.arange(96) % 2
ref = copy.deepcopy(oww)
l1 = ref.batch_loss(x1, y1, 1.0)[0]
l2 = ref.batch_loss(x2, y2, 2.0)[0]
w = ref.model.last_layer.weight
g_last = torch.autograd.grad(l2 / 2, w, retain_graph=True)[0]
g_full = torch.autograd.grad(l1 + l2 / 2, w)[0]
oww.train_model(X=[(x1, y1), (x2, y2)], max_steps=2, warmup_steps=0, hold_steps=0,
                negative_weight_schedule=[1.0, 2.0], lr=1e-3)
actual = oww.model.last_layer.weight.grad
bug = torch.allclose(actual, g_last, atol=1e-7) and not torch.allclose(actual, g_full, atol=1e-6)
f = run_fixed()
fo = f["oww"]
fref = copy.deepcopy(fo)
fl1 = fref.batch_loss(x1, y1, 1.0)[0]; fl2 = fref.batch_loss(x2, y2, 2.0)[0]
fg_full = torch.autograd.grad(fl1 + fl2 / 2, fref.model.last_layer.weight)[0]
fo.train_model(X=[(x1, y1), (x2, y2)], max_steps=2, warmup_steps=0, hold_steps=0,
               negative_weight_schedule=[1.0, 2.0], lr=1e-3)
fixed_ok = torch.allclose(fo.model.last_layer.weight.grad, fg_full, atol=1e-6)
result = bug and fixed_ok
"""

# s14: the first batch with padded patches turns every parameter into NaN.
FIXES["s14"] = {"file": "vit.py", "line": 42, "old": "float(\"-inf\")", "new": "-torch.finfo(dots.dtype).max"}
PROBES["s14"] = r"""
m = g["model"]
nan_params = all(torch.isnan(p).any().item() for p in m.parameters())
# the batches without padding alone stay finite: the first padded batch is where it starts
first_padded = next(i for i, (_, mk, _) in enumerate(g["loader"]) if not mk.all())
f = run_fixed()
fixed_ok = all(torch.isfinite(p).all().item() for p in f["model"].parameters()) and torch.isfinite(f["loss"]).item()
result = nan_params and fixed_ok and first_padded > 0
"""

# s15: clipping runs on the loss-scaled gradients, so every step applies a gradient of norm
# clip/scale and the network barely moves.
FIXES["s15"] = {"file": "updater.py", "line": 29, "old": "torch.nn.utils.clip_grad_norm_(",
                "new": "(grad_scaler.unscale_(self.optimizer) if grad_scaler is not None else None), torch.nn.utils.clip_grad_norm_("}
PROBES["s15"] = r"""
def gnorm(net):
    return torch.norm(torch.stack([p.grad.norm() for p in net.parameters() if p.grad is not None])).item()
eng = g["engine"]
bug_norm = gnorm(eng.network)
torch.manual_seed(0)
init = g["FrameClassifier"]()
def moved(net):
    return sum((a - b).abs().sum().item() for a, b in zip(net.parameters(), init.parameters()))
bug_moved = moved(eng.network)
f = run_fixed()
fe = f["engine"]
fixed_norm = gnorm(fe.network)
fixed_moved = moved(fe.network)
clip = g["config"]["gradient_clip_global_norm"]
result = (bug_norm < 2 * clip / 1024 and fixed_norm > 100 * bug_norm and fixed_moved > 100 * bug_moved)
print("norms", bug_norm, fixed_norm, "moved", bug_moved, fixed_moved)
"""


def last_nonempty(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def check(case):
    problems = []
    entry = os.path.join(HERE, case["entry"])
    cwd = os.path.dirname(entry)
    for f, n, *_ in case["expected"] + [list(x) for x in case["fix_site"]]:
        fp = os.path.join(cwd, f)
        if not os.path.isfile(fp):
            problems.append(f"missing {f}")
            continue
        lines = open(fp).read().split("\n")
        if not (1 <= n <= len(lines)) or not lines[n - 1].strip() or lines[n - 1].strip().startswith("#"):
            problems.append(f"bad line {f}:{n}")
    try:
        p = subprocess.run([PY, os.path.basename(entry)], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return problems + ["timeout"]
    if case["error"]:
        if p.returncode != 1:
            problems.append(f"exit {p.returncode}, expected 1")
        if not re.search(case["error_regex"], last_nonempty(p.stderr)):
            problems.append(f"regex mismatch: {last_nonempty(p.stderr)[:150]!r}")
        return problems
    if p.returncode != 0:
        problems.append(f"exit {p.returncode}: {last_nonempty(p.stderr)[:150]!r}")
    if "Traceback (most recent call last)" in p.stderr:
        problems.append("traceback printed")
    if case["kind"] == "bug":
        probe = PROBES.get(case["name"])
        if probe is None:
            return problems + ["no probe"]
        try:
            q = subprocess.run([PY, "-c", HARNESS, entry, probe, json.dumps(FIXES.get(case["name"], {}))],
                               cwd=cwd, capture_output=True, text=True, timeout=3 * TIMEOUT)
        except subprocess.TimeoutExpired:
            return problems + ["probe timeout"]
        if "PROBE_RESULT=True" not in q.stdout:
            problems.append(f"probe failed: {last_nonempty(q.stderr)[:300]!r} {last_nonempty(q.stdout)[:100]!r}")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*")
    a = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    ok = 0
    for c in cases:
        if a.only and c["name"] not in a.only:
            continue
        probs = check(c)
        print(f"{'PASS' if not probs else 'FAIL'} {c['name']}" + ("" if not probs else ": " + "; ".join(probs)))
        ok += not probs
    n = len([c for c in cases if not a.only or c["name"] in a.only])
    print(f"{ok}/{n} passed")
    sys.exit(0 if ok == n else 1)


if __name__ == "__main__":
    main()
