#!/usr/bin/env python3
"""Checks every case of this part.

For each case in cases.json:
  * runs the entry under plain python (cwd = the case folder, 30 s limit) and
    checks the exit status (1 for error cases, 0 otherwise) and, for error
    cases, the last stderr line against error_regex;
  * for silent bugs, runs the entry again in-process (runpy) with a probe that
    is set up before the run and/or evaluated after it, and requires the probe
    to confirm the harm.
Prints one line per case and a total; exit status 0 only if all pass.
"""
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/work/main/.venv/bin/python"
TIMEOUT = 30

HARNESS = r"""
import os, runpy, sys
path, pre, post = sys.argv[1], sys.argv[2], sys.argv[3]
d = os.path.dirname(path)
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
    # frozen encoder: parameters stay equal to the checkpoint, but BatchNorm running stats moved
    "s01": ("", r"""
m = g['model']
ck = g['checkpoint']['state_dict']
frozen = [(n, p) for n, p in m.named_parameters() if not p.requires_grad]
params_kept = len(frozen) > 0 and all(torch.equal(p, ck[n]) for n, p in frozen)
stats = [(n, b) for n, b in m.named_buffers() if n.startswith('layers.') and 'running_mean' in n]
stats_moved = any((b - ck[n]).abs().max().item() > 1e-3 for n, b in stats)
result = params_kept and stats_moved
"""),
    # BatchNorm layers run training steps (grad enabled) while in eval mode
    "s02": (r"""
import torch.nn as nn
from torch.nn.modules.module import register_module_forward_pre_hook
events = []
def _hook(mod, inp):
    if isinstance(mod, nn.BatchNorm2d):
        events.append((mod.training, torch.is_grad_enabled()))
register_module_forward_pre_hook(_hook)
""", r"""
train_steps_in_eval = sum(1 for tr, ge in events if ge and not tr)
train_steps_in_train = sum(1 for tr, ge in events if ge and tr)
result = train_steps_in_eval > 0 and train_steps_in_train > 0
"""),
    # parameters with requires_grad=False changed during fine-tuning
    "s03": ("", r"""
m = g['model']
torch.manual_seed(g['config']['seed'])
ref = g['GPT'](g['GPTConfig']())
refp = dict(ref.named_parameters())
frozen = [(n, p) for n, p in m.named_parameters() if not p.requires_grad]
nonzero = [(n, p) for n, p in frozen if refp[n].abs().sum() > 0]
result = len(nonzero) > 0 and all(not torch.equal(p, refp[n]) for n, p in nonzero)
"""),
    # the hard copy at setup leaves target networks different from the online networks
    "s04": ("", r"""
torch.manual_seed(g['SEED'])
a = g['DDPG'](g['STATE_DIM'], g['ACTION_BOUNDS'])
a.setup()
diffs = []
for t, o in ((a.target_value_model, a.online_value_model), (a.target_policy_model, a.online_policy_model)):
    for pt, po in zip(t.parameters(), o.parameters()):
        diffs.append((pt - po).abs().max().item())
result = max(diffs) > 1e-2
"""),
    # backward ran, but no parameter ever changed from its initial value
    "s05": ("", r"""
from transformers import BertConfig, BertForSequenceClassification
import random, numpy as np
m = g['model']
random.seed(42); np.random.seed(42); torch.manual_seed(42)
config = BertConfig(vocab_size=200, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                    intermediate_size=64, max_position_embeddings=64, num_labels=2)
ref = BertForSequenceClassification(config)
refp = dict(ref.named_parameters())
unchanged = all(torch.equal(p, refp[n]) for n, p in m.named_parameters())
has_grad = any(p.grad is not None and p.grad.abs().sum() > 0 for p in m.parameters())
result = unchanged and has_grad
"""),
    # the transformer blocks the callback activates never change; embeddings do
    "s06": ("", r"""
from transformers import GPT2Config, GPT2LMHeadModel, set_seed
m = g['model']
set_seed(42)
ref = GPT2LMHeadModel(GPT2Config(**g['model_args']))
refp = dict(ref.named_parameters())
blocks = [(n, p) for n, p in m.named_parameters() if n.startswith('transformer.h.')]
blocks_unchanged = all(torch.equal(p, refp[n]) for n, p in blocks)
some_active = any(p.requires_grad for n, p in blocks)
emb_changed = not torch.equal(m.transformer.wte.weight, refp['transformer.wte.weight'])
result = blocks_unchanged and some_active and emb_changed
"""),
    # CRF and emission layer keep their initial values while BERT trains
    "s07": ("", r"""
m = g['model']
g['set_seed'](g['args'].seed)
ref = g['HMNeTNERModel'](g['LABEL_LIST'], g['args'])
refp = dict(ref.named_parameters())
head = [(n, p) for n, p in m.named_parameters() if n.startswith('crf') or n.startswith('fc')]
head_unchanged = len(head) > 0 and all(torch.equal(p, refp[n]) for n, p in head)
bert_changed = any(not torch.equal(p, refp[n]) for n, p in m.named_parameters() if n.startswith('bert'))
result = head_unchanged and bert_changed
"""),
    # after pruning, none of the model's parameters is held by the optimizer
    "s08": ("", r"""
m = g['model']
opt = g['optimizer']
held = {id(p) for grp in opt.param_groups for p in grp['params']}
result = all(id(p) not in held for p in m.parameters())
"""),
}

CLEANUP = {"s06": ["output_lisa"]}


def run_plain(entry):
    env = dict(os.environ, OMP_NUM_THREADS="1", TOKENIZERS_PARALLELISM="false")
    d = os.path.dirname(entry)
    return subprocess.run([PY, os.path.basename(entry)], cwd=d, capture_output=True, text=True,
                          timeout=TIMEOUT, env=env)


def run_probe(entry, pre, post):
    env = dict(os.environ, OMP_NUM_THREADS="1", TOKENIZERS_PARALLELISM="false")
    return subprocess.run([PY, "-c", HARNESS, entry, pre, post], capture_output=True, text=True,
                          timeout=TIMEOUT, env=env)


def check_lines(case):
    for f, line, role in case["expected"]:
        path = os.path.join(HERE, os.path.dirname(case["entry"]), f)
        lines = open(path).read().splitlines()
        if not (1 <= line <= len(lines)) or not lines[line - 1].strip() or lines[line - 1].strip().startswith("#"):
            return f"bad expected line {f}:{line}"
    for f, line in case["fix_site"]:
        if [f, line, "fix"] not in case["expected"]:
            return f"fix_site {f}:{line} not listed with role fix"
    return None


def main():
    only = set(sys.argv[1:])
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    passed = 0
    for case in cases:
        name = case["name"]
        if only and name not in only:
            continue
        entry = os.path.join(HERE, case["entry"])
        problem = check_lines(case)
        try:
            if problem is None:
                r = run_plain(entry)
                want = 1 if case["error"] else 0
                if r.returncode != want:
                    problem = f"exit {r.returncode}, wanted {want}: {r.stderr.strip().splitlines()[-1:] }"
                elif case["error"]:
                    last = [l for l in r.stderr.splitlines() if l.strip()][-1]
                    if not re.search(case["error_regex"], last):
                        problem = f"last stderr line does not match: {last}"
                elif "Traceback" in r.stderr:
                    problem = "traceback on stderr"
            if problem is None and case["kind"] == "bug" and not case["error"]:
                pre, post = PROBES[name]
                r = run_probe(entry, pre, post)
                if "PROBE_RESULT=True" not in r.stdout:
                    problem = "probe did not confirm the harm: " + (r.stdout.strip().splitlines()[-1:] or [""])[0] \
                              + " " + " ".join(r.stderr.strip().splitlines()[-2:])
        except subprocess.TimeoutExpired:
            problem = f"timeout ({TIMEOUT} s)"
        for extra in CLEANUP.get(name, []):
            shutil.rmtree(os.path.join(os.path.dirname(entry), extra), ignore_errors=True)
        if problem is None:
            passed += 1
            print(f"PASS {name}")
        else:
            print(f"FAIL {name}: {problem}")
    total = len([c for c in cases if not only or c["name"] in only])
    print(f"{passed}/{total} passed")
    sys.exit(0 if passed == total else 1)


if __name__ == "__main__":
    main()
