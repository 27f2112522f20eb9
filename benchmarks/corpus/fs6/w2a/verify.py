#!/usr/bin/env python3
"""Checks batch fs6/w2a: every case exits 0 under plain Python within 30 s, and a probe run
outside the program (in a harness process, after running the entry with runpy) confirms the harm.

Usage: python verify.py [--python PY] [--only NAME ...]
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PY = "/work/main/.venv/bin/python"
TIMEOUT_S = 30

HARNESS = r'''
import os, runpy, shutil, sys, tempfile
entry, pre, probe = sys.argv[1], sys.argv[2], sys.argv[3]
case_dir = os.path.dirname(os.path.abspath(entry))
os.chdir(case_dir)
sys.path.insert(0, case_dir)
sys.argv = [entry]
import torch

def _drop_case_modules(root):
    for name, mod in list(sys.modules.items()):
        f = getattr(mod, "__file__", None) or ""
        if f and os.path.abspath(f).startswith(root + os.sep):
            del sys.modules[name]

def rerun_with_fix(rel_file, old, new):
    tmp = tempfile.mkdtemp()
    dst = os.path.join(tmp, "c")
    shutil.copytree(case_dir, dst)
    path = os.path.join(dst, rel_file)
    src = open(path).read()
    assert src.count(old) == 1, "fix pattern not unique in " + rel_file
    open(path, "w").write(src.replace(old, new))
    _drop_case_modules(case_dir)
    sys.path.insert(0, dst)
    os.chdir(dst)
    sys.argv = [os.path.join(dst, os.path.basename(entry))]
    torch.manual_seed(0)
    return runpy.run_path(sys.argv[0], run_name="__main__")

ns = {"torch": torch, "case_dir": case_dir, "rerun_with_fix": rerun_with_fix}
exec(pre, ns)
g = runpy.run_path(entry, run_name="__main__")
ns["g"] = g
exec(probe, ns)
print("PROBE_RESULT=%s" % bool(ns["result"]))
'''

PRE = {
    "s03": (
        "import network\n"
        "snap = {}\n"
        "_orig = network.ExpandableMLP.add_neurons\n"
        "def _spy(self, n):\n"
        "    snap['fc1'] = self.fc1.weight.detach().clone()\n"
        "    snap['fc2'] = self.fc2.weight.detach().clone()\n"
        "    return _orig(self, n)\n"
        "network.ExpandableMLP.add_neurons = _spy\n"
    ),
    "s08": (
        "counter = {'steps': 0}\n"
        "_orig_step = torch.optim.AdamW.step\n"
        "def _count(self, *a, **k):\n"
        "    counter['steps'] += 1\n"
        "    return _orig_step(self, *a, **k)\n"
        "torch.optim.AdamW.step = _count\n"
    ),
}

PROBES = {
    # adapters inside checkpointed blocks never receive a gradient: lora_B stays at its zero init,
    # while the head outside the checkpoint trains
    "s01": (
        "m = g['model']\n"
        "lora = [p for n, p in m.named_parameters() if 'lora_' in n]\n"
        "result = (len(lora) > 0 and all(p.grad is None for p in lora)\n"
        "          and all(float(p.abs().sum()) == 0.0 for n, p in m.named_parameters() if 'lora_B' in n))\n"
    ),
    # clipping before unscaling: the parameters move orders of magnitude less than with the fix
    "s02": (
        "torch.manual_seed(0)\n"
        "import model as _gm\n"
        "cfg = dict(vocab_size=128, block_size=32, n_layer=2, n_head=4, n_embd=64)\n"
        "torch.randint(0, 128, (64, 33))\n"
        "init = _gm.GPT(**cfg).state_dict()\n"
        "bug = {k: v.clone() for k, v in g['model'].state_dict().items()}\n"
        "g2 = rerun_with_fix('trainer.py', 'self.scaler.scale(loss).backward()\\n',\n"
        "    'self.scaler.scale(loss).backward()\\n                self.scaler.unscale_(self.optimizer)\\n')\n"
        "fix = g2['model'].state_dict()\n"
        "db = sum(float((bug[k] - init[k]).float().norm()) ** 2 for k in init) ** 0.5\n"
        "df = sum(float((fix[k] - init[k]).float().norm()) ** 2 for k in init) ** 0.5\n"
        "print('update norm bug', db, 'fixed', df)\n"
        "result = df > 0 and db < 1e-2 * df\n"
    ),
    # protected (old) neurons were still changed by the optimizer during the second task
    "s03": (
        "m = g['model']\n"
        "n = snap['fc1'].shape[0]\n"
        "d1 = float((m.fc1.weight[:n] - snap['fc1']).abs().max())\n"
        "d2 = float((m.fc2.weight[:, :n] - snap['fc2']).abs().max())\n"
        "print('old-neuron drift', d1, d2)\n"
        "result = d1 > 1e-4 and d2 > 1e-4\n"
    ),
    # discriminator ends with different weights than with zeroed gradients before its backward
    "s04": (
        "bug = {k: v.clone() for k, v in g['trainer'].D.state_dict().items()}\n"
        "g2 = rerun_with_fix('training_loop_encoder.py', '        loss_D.backward()',\n"
        "    '        self.optimizer_D.zero_grad()\\n        loss_D.backward()')\n"
        "fix = g2['trainer'].D.state_dict()\n"
        "d = max(float((bug[k] - fix[k]).abs().max()) for k in bug)\n"
        "print('D weight difference', d)\n"
        "result = d > 1e-5\n"
    ),
    # the critic receives gradient from the actor loss: its weights differ from the fixed run
    "s05": (
        "bug = {k: v.clone() for k, v in g['agent'].critic.state_dict().items()}\n"
        "g2 = rerun_with_fix('agent.py', 'advantage = reward - critic_pred\\n',\n"
        "    'advantage = reward - critic_pred.detach()\\n')\n"
        "fix = g2['agent'].critic.state_dict()\n"
        "d = max(float((bug[k] - fix[k]).abs().max()) for k in bug)\n"
        "print('critic weight difference', d)\n"
        "result = d > 1e-4\n"
    ),
    # the frozen input embedding changed during head-only fine-tuning
    "s06": (
        "import finetune as _ft\n"
        "torch.manual_seed(0)\n"
        "m0 = _ft.load_model()\n"
        "m = g['model']\n"
        "d_wte = float((m.transformer.wte.weight - m0.transformer.wte.weight).abs().max())\n"
        "d_blk = float((m.transformer.h[0].attn.c_attn.weight - m0.transformer.h[0].attn.c_attn.weight).abs().max())\n"
        "print('wte drift', d_wte, 'block drift', d_blk)\n"
        "result = d_wte > 1e-4 and d_blk == 0.0\n"
    ),
    # the loss module's classifier and uncertainty weights get gradients but no optimizer steps them
    "s07": (
        "tr = g['trainer']\n"
        "ids = {id(p) for grp in tr.optimizer.param_groups for p in grp['params']}\n"
        "lp = list(tr.loss.parameters())\n"
        "result = (len(lp) == 4 and all(id(p) not in ids for p in lp)\n"
        "          and all(p.grad is not None and float(p.grad.abs().sum()) > 0 for p in lp)\n"
        "          and abs(float(tr.loss.s_det) + 1.85) < 1e-6 and abs(float(tr.loss.s_id) + 1.05) < 1e-6)\n"
    ),
    # with 4 accumulation steps and 8 micro-batches the optimizer should step twice; it steps 8 times
    "s08": (
        "print('optimizer steps', counter['steps'], 'accumulation', g['args'].gradient_accumulation_steps)\n"
        "result = g['args'].gradient_accumulation_steps == 4 and counter['steps'] == 8\n"
    ),
}


def last_line(text):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[-1] if lines else ""


def check_lines(case):
    for f, line, role in case["expected"]:
        path = os.path.join(HERE, os.path.dirname(case["entry"]), f)
        src = open(path).read().splitlines()
        assert 1 <= line <= len(src), f"{f}:{line} out of range"
        text = src[line - 1].strip()
        assert text and not text.startswith("#"), f"{f}:{line} blank/comment"
    for f, line in case["fix_site"]:
        assert [f, line, "fix"] in [list(e) for e in case["expected"]], f"fix site {f}:{line} not in expected"


ENV = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")


def run_case(py, case):
    entry = os.path.join(HERE, case["entry"])
    cwd = os.path.dirname(entry)
    check_lines(case)
    t0 = time.time()
    p = subprocess.run([py, entry], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S, env=ENV)
    dt = time.time() - t0
    want_rc = 1 if case["error"] else 0
    if p.returncode != want_rc:
        return False, f"exit {p.returncode} (want {want_rc}) {last_line(p.stderr)}"
    if case["error"]:
        import re
        if not re.search(case["error_regex"], last_line(p.stderr)):
            return False, "regex mismatch: " + last_line(p.stderr)
        return True, f"raised as expected ({dt:.1f}s)"
    if "Traceback" in p.stderr:
        return False, "traceback in stderr"
    if case["kind"] == "clean":
        return True, f"clean exit 0 ({dt:.1f}s)"
    name = case["name"]
    q = subprocess.run([py, "-c", HARNESS, entry, PRE.get(name, ""), PROBES[name]], cwd=cwd,
                       capture_output=True, text=True, timeout=TIMEOUT_S * 2, env=ENV)
    if "PROBE_RESULT=True" not in q.stdout:
        return False, "probe failed: " + (last_line(q.stderr) or last_line(q.stdout))
    return True, f"exit 0 ({dt:.1f}s), harm confirmed by probe"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=DEFAULT_PY)
    ap.add_argument("--only", nargs="*")
    a = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    ok = 0
    sel = [c for c in cases if not a.only or c["name"] in a.only]
    for c in sel:
        try:
            good, msg = run_case(a.python, c)
        except Exception as e:  # noqa: BLE001
            good, msg = False, f"{type(e).__name__}: {e}"
        ok += good
        print(f"{'PASS' if good else 'FAIL'} {c['name']}: {msg}", flush=True)
    print(f"{ok}/{len(sel)} passed")
    sys.exit(0 if ok == len(sel) else 1)


if __name__ == "__main__":
    main()
