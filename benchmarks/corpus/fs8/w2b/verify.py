#!/usr/bin/env python3
"""Runs every case of this part and checks it still behaves as recorded in cases.json.

error cases: exit status 1 and the last stderr line matches error_regex.
silent bugs: exit status 0, and a probe (run in-process after the program, with its
globals) confirms the harm.  clean cases: exit status 0.
"""
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/work/main/.venv/bin/python"
TIMEOUT_S = 30

HARNESS = r'''
import os, runpy, shutil, sys, tempfile
path, probe = sys.argv[1], sys.argv[2]
case_dir = os.path.dirname(os.path.abspath(path))
entry = os.path.basename(path)

def _purge(d):
    for name, mod in list(sys.modules.items()):
        f = getattr(mod, "__file__", None) or ""
        if f and os.path.abspath(f).startswith(d + os.sep):
            del sys.modules[name]

def run_in(d):
    _purge(case_dir)
    cwd = os.getcwd()
    os.chdir(d)
    sys.path.insert(0, d)
    sys.argv = [os.path.join(d, entry)]
    try:
        return runpy.run_path(os.path.join(d, entry), run_name="__main__")
    finally:
        sys.path.remove(d)
        os.chdir(cwd)

def run_variant(patches):
    tmp = tempfile.mkdtemp()
    d = os.path.join(tmp, "case")
    shutil.copytree(case_dir, d, ignore=shutil.ignore_patterns("__pycache__"))
    for fname, old, new in patches:
        p = os.path.join(d, fname)
        src = open(p).read()
        assert src.count(old) == 1, (fname, old)
        open(p, "w").write(src.replace(old, new))
    _purge(case_dir)
    g = run_in(d)
    _purge(d)
    return g

import torch
g = run_in(case_dir)
if probe:
    ns = {"g": g, "torch": torch, "run_variant": run_variant}
    exec(probe, ns)
    print("PROBE_RESULT=%s" % bool(ns["result"]))
'''

PROBES = {
    "s09": (
        "m = g['model']\n"
        "torch.manual_seed(1)\n"
        "x = torch.randn(4, 3, 32, 32)\n"
        "def grad_of(fn):\n"
        "    m.zero_grad()\n"
        "    fn().sum().backward()\n"
        "    return m.down3[0].weight.grad.clone()\n"
        "g_model = grad_of(lambda: m(x, grl_lambda=0.2)[1])\n"
        "g_sched = grad_of(lambda: m.adapt(m.downsample(x)[2], 0.2))\n"
        "result = not torch.allclose(g_model, g_sched, rtol=1e-3, atol=1e-8)"
    ),
    "s10": (
        "t = g['trainer']\n"
        "m = t.model\n"
        "ids = {id(p) for grp in t.optimizer.param_groups for p in grp['params']}\n"
        "head = m.get_classifier()\n"
        "result = (m.num_classes == 5 and id(head.weight) not in ids\n"
        "          and head.weight.grad is not None and head.weight.grad.abs().sum() > 0)"
    ),
    "s11": (
        "import copy\n"
        "from model import ForecastNet\n"
        "torch.manual_seed(1)\n"
        "init = copy.deepcopy(ForecastNet().state_dict())\n"
        "fixed = run_variant([('trainer.py',\n"
        "    '                torch.nn.utils.clip_grad_norm_(',\n"
        "    '                self.scaler.unscale_(self.optimizer); torch.nn.utils.clip_grad_norm_(')])\n"
        "def drift(model):\n"
        "    return sum((p - init[k]).norm().item() for k, p in model.state_dict().items())\n"
        "d_bug, d_fix = drift(g['model']), drift(fixed['model'])\n"
        "result = d_bug < 0.01 * d_fix"
    ),
    "s12": (
        "m = g['model']\n"
        "result = (not m.training and g['HPARAMS']['epochs'] * g['HPARAMS']['train_batches'] > g['HPARAMS']['eval_every']\n"
        "          and any(isinstance(x, torch.nn.Dropout) and x.p > 0 and not x.training for x in m.modules()))"
    ),
    "s13": (
        "fixed = run_variant([('modifiers.py',\n"
        "    '            param.requires_grad = self.trainable\\n',\n"
        "    '            param.requires_grad = self.trainable\\n            param.grad = None\\n')])\n"
        "a, b = g['model'].encoder.fc1.weight, fixed['model'].encoder.fc1.weight\n"
        "result = (not a.requires_grad and not b.requires_grad and not torch.equal(a, b)\n"
        "          )"
    ),
}

PROBES["s14"] = """
policy = g['policy']
torch.manual_seed(3)
obs, traj = g['sample_batch'](g['CFG'])
losses = policy.compute_loss(obs, traj)
result = (losses['ctm'].item() > 0 and not losses['ctm'].requires_grad
          and g['CFG']['losses']['ctm'] > 0 and losses['dsm'].requires_grad)
"""

_CLIP = ('            self.clip_gradients(opt, gradient_clip_val=self.hparams.max_grad_norm,\n'
         '                                gradient_clip_algorithm="norm")\n')
PROBES["s15"] = """
CLIP = %r
noclip = run_variant([('gnn.py', CLIP, '            pass\\n')])
fixed = run_variant([('gnn.py', '        opt.step()\\n        if self.hparams.max_grad_norm is not None:\\n' + CLIP,
                      '        if self.hparams.max_grad_norm is not None:\\n' + CLIP + '        opt.step()\\n')])
flat = lambda m: torch.cat([p.detach().flatten() for p in m.parameters()])
result = (torch.equal(flat(g['model']), flat(noclip['model']))
          and not torch.allclose(flat(g['model']), flat(fixed['model'])))
""" % _CLIP


def last_line(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def check(case):
    entry = os.path.join(HERE, case["entry"])
    cwd = os.path.dirname(entry)
    probe = PROBES.get(case["name"], "") if case["kind"] == "bug" and not case["error"] else ""
    try:
        env = dict(os.environ, OMP_NUM_THREADS="1")
        t0 = time.time()
        p = subprocess.run([PY, "-c", HARNESS, entry, probe] if probe else [PY, entry],
                           cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S, env=env)
        case["_wall"] = time.time() - t0
    except subprocess.TimeoutExpired:
        return False, "timeout"
    if case["error"]:
        if p.returncode != 1:
            return False, f"exit {p.returncode}, expected 1"
        if not re.search(case["error_regex"], last_line(p.stderr)):
            return False, "error regex mismatch: " + last_line(p.stderr)
        return True, "raises as expected"
    if p.returncode != 0:
        return False, f"exit {p.returncode}: {last_line(p.stderr)}"
    if probe:
        if "PROBE_RESULT=True" not in p.stdout:
            return False, "probe did not confirm the harm"
        return True, "exit 0, probe confirms harm"
    return True, "exit 0"


def main():
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    for case in cases:
        for f, line, _ in case["expected"]:
            src = open(os.path.join(HERE, "cases", case["name"], f)).read().splitlines()
            if not (1 <= line <= len(src)) or not src[line - 1].strip() or src[line - 1].strip().startswith("#"):
                print(f"WARN {case['name']}: {f}:{line} is blank/comment/out of range")
    passed = 0
    for case in cases:
        ok, msg = check(case)
        passed += ok
        print(f"{'PASS' if ok else 'FAIL'} {case['name']}: {msg} ({case.get('_wall', 0):.1f}s)")
    print(f"{passed}/{len(cases)} passed")
    return 0 if passed == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
