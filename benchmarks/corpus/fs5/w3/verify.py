#!/usr/bin/env python3
"""Runs every case of this part and checks it.

clean cases: exit status 0, then an in-process probe (the case is run with
runpy, the probe gets its globals as `g`) that the idiom did what it should.
Usage: python3 verify.py [--python PY] [--only NAME ...]
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PY = "/work/main/.venv/bin/python"
TIMEOUT_S = 30

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

COMMON = r"""
def finite(m):
    return all(torch.isfinite(p).all().item() for p in m.parameters())
def all_changed(m, m0):
    return all(not torch.equal(a, b) for a, b in zip(m.parameters(), m0.parameters()))
"""

PROBES = {
    # D step leaves G without gradients (fake is detached); both nets trained
    "n01": COMMON + r"""
t = g['trainer']
torch.manual_seed(0)
t0 = g['GANTrainer'](g['CONFIG'])
ok = finite(t.G) and finite(t.D) and all_changed(t.G, t0.G) and all_changed(t.D, t0.D)
t.G.zero_grad(set_to_none=True); t.D.zero_grad(set_to_none=True)
real = g['real_batch'](16, g['CONFIG']['data_dim'])
fake = t.G.sample(16)
t.d_step(real, fake)
ok = ok and all(p.grad is None for p in t.G.parameters())
ok = ok and all(p.grad is not None for p in t.D.parameters())
result = ok
""",
    # accumulated micro-batch gradient equals the full-batch gradient; model trained
    "n02": COMMON + r"""
m = g['model']
torch.manual_seed(0)
m0 = g['build_model'](g['CONFIG'])
ok = finite(m) and all_changed(m, m0)
ds = g['ds']
batch = {k: torch.stack([ds[i][k] for i in range(16)]) for k in ('input_ids', 'attention_mask', 'labels')}
m.eval()
m.zero_grad(set_to_none=True)
m(**batch).loss.backward()
full = [p.grad.clone() for p in m.parameters()]
m.zero_grad(set_to_none=True)
for j in range(4):
    mb = {k: v[4 * j:4 * j + 4] for k, v in batch.items()}
    (m(**mb).loss / 4).backward()
acc = [p.grad.clone() for p in m.parameters()]
ok = ok and all(torch.allclose(a, b, atol=1e-5, rtol=1e-4) for a, b in zip(full, acc))
result = ok
""",
    # teacher never receives gradients, follows the student as an EMA
    "n03": COMMON + r"""
s, t = g['student'], g['teacher']
ok = finite(s) and finite(t.model)
ok = ok and all((not p.requires_grad) and p.grad is None for p in t.model.parameters())
ok = ok and all(p.grad is not None for p in s.parameters())
ok = ok and all(not torch.equal(a, b) for a, b in zip(s.parameters(), t.model.parameters()))
torch.manual_seed(0)
s0 = g['ConvNet'](g['HPARAMS']['num_classes'])
ok = ok and all_changed(t.model, s0) and all_changed(s, s0)
result = ok
""",
    # frozen backbone: weights and BN statistics unchanged; head trained
    "n04": COMMON + r"""
m = g['model']
torch.manual_seed(0)
m0 = g['build'](g['CFG'])
sd, sd0 = m.backbone.state_dict(), m0.backbone.state_dict()
ok = all(torch.equal(sd[k], sd0[k]) for k in sd)
ok = ok and all_changed(m.head, m0.head) and finite(m)
m.train()
ok = ok and m.head.training and not m.backbone.training
result = ok
""",
    # truncated BPTT: weights trained, tied, finite
    "n05": COMMON + r"""
m = g['model']
torch.manual_seed(1111)
torch.randint(0, 50, (1200,))
m0 = g['RNNModel']('LSTM', 50, 32, 32, 2, tie_weights=True)
result = (m.decoder.weight is m.encoder.weight) and finite(m) and all_changed(m, m0)
""",
    # checkpointed gradients equal the plain gradients
    "n06": COMMON + r"""
import copy
m = g['model']
ref = copy.deepcopy(m)
ref.encoder.grad_checkpointing = False
torch.manual_seed(11)
ids, mask, labels = g['sample_batch'](g['CONFIG'])
grads = []
for net in (m, ref):
    net.train(); net.zero_grad(set_to_none=True)
    torch.manual_seed(5)
    torch.nn.functional.cross_entropy(net(ids, mask), labels).backward()
    grads.append([p.grad for p in net.parameters()])
ok = m.encoder.grad_checkpointing and finite(m)
ok = ok and all(a is not None and torch.allclose(a, b, atol=1e-6, rtol=1e-5) for a, b in zip(*grads))
result = ok
""",
    # fp16 autocast with an enabled scaler; weights trained and finite
    "n07": COMMON + r"""
tr = g['trainer']
torch.manual_seed(0)
torch.randn(g['CFG']['in_dim'], g['CFG']['out_dim'])
c = g['CFG']
m0 = g['ResidualMLP'](c['in_dim'], c['hidden'], c['out_dim'], c['depth'])
ok = tr.scaler.is_enabled() and tr.amp_dtype == torch.float16 and tr.scaler.get_scale() > 0
ok = ok and finite(tr.model) and all_changed(tr.model, m0)
result = ok
""",
    # CAM finite in [0, 1], hooks removed, no gradients left, train mode restored
    "n08": COMMON + r"""
m, cams = g['model'], g['cams']
ok = bool(torch.isfinite(cams).all()) and cams.min() >= 0 and cams.max() <= 1 + 1e-6
ok = ok and cams.flatten(1).max(1)[0].gt(0.5).all().item()
ok = ok and len(m.layer4._forward_hooks) == 0
ok = ok and all(p.grad is None for p in m.parameters()) and m.training and finite(m)
result = ok
""",
    # gradient reversal: gradient is -alpha * upstream; model trained
    "n09": COMMON + r"""
F_ = g['DANN'].__init__.__globals__['grad_reverse']
x = torch.randn(6, requires_grad=True)
w = torch.randn(6)
(F_(x, 0.7) * w).sum().backward()
ok = torch.allclose(x.grad, -0.7 * w)
m = g['model']
torch.manual_seed(0)
m0 = g['DANN'](g['OPTS']['in_dim'], 48, g['OPTS']['classes'])
result = ok and finite(m) and all_changed(m, m0)
""",
    # Lightning run finished all steps; weights trained
    "n10": COMMON + r"""
import lightning as L
m, tr = g['model'], g['trainer']
L.seed_everything(7, verbose=False)
g['make_loaders']()
m0 = g['LitClassifier']()
result = tr.global_step == 18 and finite(m) and all_changed(m, m0)
""",
    # embedding never unfrozen: unchanged; every other group trained
    "n11": COMMON + r"""
from accelerate.utils import set_seed
m = g['accelerator'].unwrap_model(g['model'])
set_seed(3)
m0 = g['SequenceClassifier']()
ok = torch.equal(m.embed.weight, m0.embed.weight) and finite(m)
ok = ok and all(not torch.equal(a, b) for (n, a), (_, b) in zip(m.named_parameters(), m0.named_parameters())
                if not n.startswith('embed'))
result = ok
""",
    # trunk and heads trained, finite
    "n12": COMMON + r"""
m = g['model']
torch.manual_seed(0)
m0 = g['MultiTaskNet']()
result = finite(m) and all_changed(m, m0)
""",
}


def last_nonempty(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def run_case(py, case, env):
    entry = os.path.join(HERE, case["entry"])
    cwd = os.path.dirname(entry)
    problems = []
    try:
        p = subprocess.run([py, entry], cwd=cwd, capture_output=True, text=True,
                           timeout=TIMEOUT_S, env=env)
    except subprocess.TimeoutExpired:
        return ["timeout"]
    want_rc = 1 if case["error"] else 0
    if p.returncode != want_rc:
        problems.append(f"exit {p.returncode}, want {want_rc}: {last_nonempty(p.stderr)[:200]}")
    if case["error"]:
        import re
        if not re.search(case["error_regex"], last_nonempty(p.stderr)):
            problems.append("error regex does not match")
    elif "Traceback (most recent call last)" in p.stderr:
        problems.append("traceback in stderr")
    probe = PROBES.get(case["name"])
    if probe and not problems:
        try:
            q = subprocess.run([py, "-c", HARNESS, entry, probe], cwd=cwd, capture_output=True,
                               text=True, timeout=2 * TIMEOUT_S, env=env)
        except subprocess.TimeoutExpired:
            return problems + ["probe timeout"]
        if "PROBE_RESULT=True" not in q.stdout:
            problems.append("probe failed: " + last_nonempty(q.stderr)[:300])
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=DEFAULT_PY)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    with open(os.path.join(HERE, "cases.json")) as f:
        cases = json.load(f)
    env = dict(os.environ)
    env.setdefault("OMP_NUM_THREADS", "1")
    env.setdefault("TOKENIZERS_PARALLELISM", "false")
    passed = 0
    selected = [c for c in cases if not args.only or c["name"] in args.only]
    for case in selected:
        problems = run_case(args.python, case, env)
        status = "PASS" if not problems else "FAIL"
        passed += not problems
        print(f"{status} {case['name']}" + ("" if not problems else "  " + "; ".join(problems)), flush=True)
    print(f"{passed}/{len(selected)} passed")
    return 0 if passed == len(selected) else 1


if __name__ == "__main__":
    sys.exit(main())
