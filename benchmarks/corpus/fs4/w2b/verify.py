#!/usr/bin/env python3
"""Checks the w2b cases: each runs with the project venv from its own folder
(30 s limit); silent bug cases must exit 0 and a probe, run in-process around the
program, must show the harm. Usage: python verify.py [--only NAME ...]"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/work/main/.venv/bin/python"
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

MODE_RECORDER = r"""
records = []
def _record(module, args, _name=TARGET):
    if type(module).__name__ == _name:
        records.append((module.training, torch.is_grad_enabled()))
torch.nn.modules.module.register_module_forward_pre_hook(_record)
"""

PROBES = {
    "s09": ("", r"""
torch.manual_seed(0)
g['make_data']()
ref = g['CatNetwork'](64, 16, 1)
m = g['model']
unchanged = all(torch.equal(a, b) for a, b in zip(m.parameters(), ref.parameters()))
got_grads = all(p.grad is not None and p.grad.abs().sum() > 0 for p in m.parameters())
reg = m.regularization(1e-3)
result = unchanged and got_grads and not reg.requires_grad
"""),
    "s10": ("TARGET = 'Model'\n" + MODE_RECORDER, r"""
result = any(grad and not training for training, grad in records)
"""),
    "s11": ("", r"""
import lightning as L
L.seed_everything(7, verbose=False)
ref = g['TransferLearningModel'](num_classes=4, lr=1e-3)
m = g['model']
conv_same = torch.equal(m.feature_extractor[0].weight, ref.feature_extractor[0].weight)
bn_moved = not torch.equal(m.feature_extractor[1].weight, ref.feature_extractor[1].weight)
result = g['CONFIG']['finetuning']['train_bn'] is False and conv_same and bn_moved
"""),
    "s12": ("", r"""
import copy
import torch.nn.functional as F
acc, m, args = g['accelerator'], g['model'], g['args']
m.eval()
torch.manual_seed(0)
micro = [(torch.randn(8, 20), torch.randint(0, 3, (8,))) for _ in range(args.gradient_accumulation_steps)]
ref = copy.deepcopy(m)
ref.zero_grad()
(sum(F.cross_entropy(ref(x), y) for x, y in micro) / len(micro)).backward()
m.zero_grad()
for b in micro:
    with acc.accumulate(m):
        acc.backward(g['compute_loss'](m, b, args))
ratio = (m.net[0].weight.grad.norm() / ref.net[0].weight.grad.norm()).item()
result = abs(ratio - 1.0 / args.gradient_accumulation_steps) < 1e-3
"""),
    "s13": ("", r"""
m, c = g['model'], g['checkpoint']
result = (not torch.equal(m.bn.running_mean, c['bn.running_mean'])
          and torch.equal(m.bn.weight, c['bn.weight'])
          and torch.equal(m.message_passing.W_i.weight, c['message_passing.W_i.weight']))
"""),
    "s14": ("TARGET = 'BertForSequenceClassification'\n" + MODE_RECORDER, r"""
train_forwards = [tr for tr, grad in records if grad]
result = len(train_forwards) > 0 and not any(train_forwards)
"""),
    "s15": ("", r"""
h = g['learner'].history
def walk(fn):
    seen, st = set(), [fn]
    while st:
        f = st.pop()
        if f is None or f in seen:
            continue
        seen.add(f)
        st.extend(n for n, _ in f.next_functions)
    return seen
def alive(n):
    try:
        return n._saved_result is not None
    except RuntimeError:
        return False
n_batches = len(g['batchify'](g['train_obs'], g['train_times'], g['CFG']['batch_size']))
kept = [n for n in walk(h[0]['train']['rmse'].grad_fn) if type(n).__name__ == 'SqrtBackward0' and alive(n)]
result = all(e['train']['rmse'].grad_fn is not None for e in h) and len(kept) == n_batches
"""),
}


def last_nonempty(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def run(cmd, cwd):
    t0 = time.time()
    try:
        env = dict(os.environ, OMP_NUM_THREADS="1", TOKENIZERS_PARALLELISM="false")
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S, env=env)
        return p.returncode, p.stdout, p.stderr, time.time() - t0
    except subprocess.TimeoutExpired as e:
        return None, "", "", time.time() - t0


def check(case):
    problems = []
    entry = os.path.join(HERE, case["entry"])
    cwd = os.path.dirname(entry)
    if not os.path.isfile(entry):
        return [f"missing entry {case['entry']}"], 0.0
    folder = os.path.join(HERE, "cases", case["name"])
    for f, line, role in case["expected"]:
        p = os.path.join(folder, f)
        if not os.path.isfile(p):
            problems.append(f"expected file missing: {f}")
            continue
        lines = open(p).read().split("\n")
        if not (1 <= line <= len(lines)) or not lines[line - 1].strip() or lines[line - 1].strip().startswith("#"):
            problems.append(f"expected line not code: {f}:{line}")
    for f, line in case["fix_site"]:
        if [f, line, "fix"] not in case["expected"]:
            problems.append(f"fix_site {f}:{line} not among expected fix lines")
    rc, out, err, wall = run([PY, os.path.basename(entry)], cwd)
    if rc is None:
        return problems + [f"timed out after {TIMEOUT_S}s"], wall
    if case["error"]:
        if rc != 1:
            problems.append(f"expected exit 1, got {rc}")
        if not re.search(case["error_regex"], last_nonempty(err)):
            problems.append(f"last stderr line does not match: {last_nonempty(err)[:200]!r}")
    else:
        if rc != 0:
            problems.append(f"exit {rc}: {last_nonempty(err)[:200]!r}")
        if "Traceback (most recent call last)" in err:
            problems.append("printed a traceback")
        if case["kind"] == "bug":
            pre, post = PROBES[case["name"]]
            rc2, out2, err2, _ = run([PY, "-c", HARNESS, entry, pre, post], cwd)
            if "PROBE_RESULT=True" not in out2:
                problems.append(f"probe did not show the harm (rc={rc2}): {last_nonempty(out2 + err2)[:200]!r}")
    return problems, wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*")
    a = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    failed = total = 0
    for case in cases:
        if a.only and case["name"] not in a.only:
            continue
        total += 1
        problems, wall = check(case)
        print(f"{'ok  ' if not problems else 'FAIL'} {case['name']:<5} {case['kind']:<5} "
              f"{'error' if case['error'] else 'silent'} {wall:5.1f}s")
        for p in problems:
            print(f"       - {p}")
        failed += bool(problems)
    print(f"\n{total - failed}/{total} cases passed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
