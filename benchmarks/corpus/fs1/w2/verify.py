#!/usr/bin/env python3
"""Checks the silent-bug cases in cases.json.

For every case:
  * each `expected` / `fix_site` entry points at an existing, non-blank, non-comment line,
    and every fix_site is also an `expected` entry with role "fix";
  * the program runs under plain Python (cwd = its folder, 30 s limit) and exits 0 without
    a traceback;
  * a probe, run in-process around the program (PRE before it, PROBE after it, with the
    program's globals as `g`), proves the harm;
  * the same probe on a copy of the case with the fix applied (FIXES) finds no harm.

Usage: python3 verify.py [--python PY] [--only b01 b02 ...]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PY = "/work/main/.venv/bin/python"
TIMEOUT_S = 30

HARNESS = r"""
import os, runpy, sys
path, pre, probe = sys.argv[1], sys.argv[2], sys.argv[3]
d = os.path.dirname(os.path.abspath(path))
os.chdir(d)
sys.path.insert(0, d)
sys.argv = [path]
import torch
ns = {"torch": torch, "state": {}}
exec(pre, ns)
g = runpy.run_path(path, run_name="__main__")
ns["g"] = g
exec(probe, ns)
print("PROBE_RESULT=%s" % bool(ns["result"]))
"""

NAN_PARAMS = "result = any(torch.isnan(p).any().item() for p in MODEL.parameters())"

# ---------------------------------------------------------------- probes
PRE = {
    # a parameter with requires_grad=False is changed by an optimizer step
    "b02": r"""
from torch.optim.optimizer import register_optimizer_step_pre_hook, register_optimizer_step_post_hook
state["moved"] = False
def _pre(opt, args, kwargs):
    state["snap"] = [(p, p.detach().clone()) for grp in opt.param_groups for p in grp["params"]
                     if not p.requires_grad]
def _post(opt, args, kwargs):
    for p, before in state.get("snap", []):
        if not torch.equal(p.detach(), before):
            state["moved"] = True
register_optimizer_step_pre_hook(_pre)
register_optimizer_step_post_hook(_post)
""",
    # at each sync micro-batch the gradient must equal the sum of the window's micro-batch gradients
    "b05": r"""
import accelerate
state["mismatch"] = False
state["window"] = []
_orig_backward = accelerate.Accelerator.backward
def _backward(self, loss, **kw):
    p = next(iter(state["model"].parameters())) if "model" in state else None
    if p is None:
        import gc
        for obj in gc.get_objects():
            if isinstance(obj, torch.nn.Sequential):
                state["model"] = obj
                break
        p = next(iter(state["model"].parameters()))
    before = p.grad.detach().clone() if p.grad is not None else torch.zeros_like(p)
    _orig_backward(self, loss, **kw)
    state["window"].append(p.grad.detach() - before)
    if self.sync_gradients:
        expected = torch.stack(state["window"]).sum(0)
        if len(state["window"]) > 1 and not torch.allclose(p.grad, expected, atol=1e-7):
            state["mismatch"] = True
        state["window"] = []
accelerate.Accelerator.backward = _backward
""",
    # a parameter already holds a non-zero gradient from an earlier batch when backward() starts
    "b10": r"""
from torch.optim.optimizer import register_optimizer_step_post_hook
state["stale"] = False
state["opts"] = []
def _post(opt, args, kwargs):
    if opt not in state["opts"]:
        state["opts"].append(opt)
register_optimizer_step_post_hook(_post)
_orig = torch.Tensor.backward
def _bw(self, *a, **k):
    for opt in state["opts"]:
        for grp in opt.param_groups:
            for p in grp["params"]:
                if p.grad is not None and p.grad.abs().sum() > 0:
                    state["stale"] = True
    return _orig(self, *a, **k)
torch.Tensor.backward = _bw
""",
}

PROBE = {
    "b01": r"""
m, opt = g["model"], g["optimizer"]
head = m.get_output_embeddings().weight
ids = {id(p) for grp in opt.param_groups for p in grp["params"]}
live = {id(q) for q in m.parameters()}
result = (id(head) not in ids and head.grad is not None and head.grad.abs().sum() > 0
          and any(id(p) not in live for grp in opt.param_groups for p in grp["params"]))
""",
    "b02": "result = state['moved']",
    "b03": r"""
from autograd_ops import get_tot_scores
torch.manual_seed(1)
x = torch.randn(3, 7, 5, requires_grad=True)
lengths = torch.tensor([7, 4, 6])
w = torch.tensor([-1.0, 0.5, 2.0])
(get_tot_scores(x, lengths) * w).sum().backward()
custom = x.grad.clone()
x.grad = None
valid = torch.arange(7).unsqueeze(0) < lengths.unsqueeze(1)
((torch.logsumexp(x, -1) * valid).sum(1) * w).sum().backward()
result = not torch.allclose(custom, x.grad, atol=1e-6)
""",
    "b04": r"""
m, t = g["model"], g["trainer"]
ids = {id(p) for grp in t.optimizers[0].param_groups for p in grp["params"]}
result = (all(id(p) not in ids for p in m.head.parameters()) and m.head.weight.grad is not None
          and m.head.weight.grad.abs().sum() > 0)
""",
    "b05": "result = state['mismatch']",
    "b06": NAN_PARAMS.replace("MODEL", "g['model']"),
    "b07": NAN_PARAMS.replace("MODEL", "g['lens']"),
    "b08": NAN_PARAMS.replace("MODEL", "g['model']"),
    "b09": r"""
m = g["model"]
ids = {id(p) for p in m.parameters()}
convs = list(m.convs._layers)
torch.manual_seed(0)
ref = g["TextCNN"](g["HPARAMS"])
result = (all(id(c.weight) not in ids for c in convs)
          and all(c.weight.grad is not None for c in convs)
          and all(torch.equal(c.weight, r.weight) for c, r in zip(convs, ref.convs._layers)))
""",
    "b10": "result = state['stale']",
    "b11": r"""
sae, trainer = g["sae"], g["trainer"]
gen = torch.Generator().manual_seed(99)
batch = torch.rand(4, 16, generator=gen) * 2
trainer.steps_since_fired.fill_(1000)
ret, _ = trainer._calculate_loss_and_log(batch, False)
recon, z, acts = sae(batch)
recon_loss = (recon - batch).pow(2).sum(-1).mean()
aux = trainer.aux_loss(batch, recon, acts)
g_ret = torch.autograd.grad(ret, sae.W_dec, retain_graph=True)[0]
g_rec = torch.autograd.grad(recon_loss, sae.W_dec, retain_graph=True)[0]
g_aux = torch.autograd.grad(aux, sae.W_dec, retain_graph=True)[0]
result = bool(g_aux.abs().sum() > 0) and torch.allclose(g_ret, g_rec)
""",
    "b12": r"""
a = g["agent"]
enc = list(a.encoder.parameters())
torch.manual_seed(0)
ref = g["CICAgent"](g["OBS_SHAPE"], g["SKILL_DIM"], lr=1e-3)
result = (all(p.grad is None for p in enc) and len(a.encoder_opt.state) == 0
          and all(torch.equal(p, r) for p, r in zip(enc, ref.encoder.parameters())))
""",
    "b13": r"""
m = g["model"]
torch.manual_seed(0)
ref = g["build_model"]()
result = (m.conv1.weight.requires_grad
          and not torch.equal(m.conv1.weight, ref.conv1.weight)
          and not torch.equal(m.layer2.stage[0].conv1.weight, ref.layer2.stage[0].conv1.weight))
""",
    "b14": r"""
m = g["model"]
torch.manual_seed(0)
ref = g["build_model"](g["cfg"])
result = (all(p.grad is not None and torch.count_nonzero(p.grad) == 0 for p in m.parameters())
          and all(torch.equal(p, r) for p, r in zip(m.parameters(), ref.parameters())))
""",
    "b15": r"""
m, ema = g["model"], g["ema_model"]
result = all(torch.equal(s, p) for s, p in zip(ema.shadow_params, m.parameters()))
""",
}

# fixes applied to a copy of the case: (file, line, text that must be on that line, replacement)
FIXES = {
    "b01": [("train.py", 38, "optimizer = build_optimizer(model", "    model.resize_token_embeddings(BASE_VOCAB + len(SPECIAL_TOKENS))"),
            ("train.py", 41, "model.resize_token_embeddings(new_vocab)", "    optimizer = build_optimizer(model, lr=5e-4)")],
    "b02": [("train.py", 31, "zero_grad(set_to_none=False)", "        optimizer.zero_grad()")],
    "b03": [("autograd_ops.py", 21, "return arc_post, None", "        return arc_post * tot_scores_grad.view(-1, 1, 1), None")],
    "b04": [("module.py", 15, "def on_fit_start(self):", "    def setup(self, stage=None):")],
    "b05": [("train.py", 32, "model.zero_grad()", "                optimizer.zero_grad()")],
    "b06": [("rotations.py", 20, "torch.clamp(cos, -1.0, 1.0)", "    cos = torch.clamp(cos, -1.0 + 1e-6, 1.0 - 1e-6)")],
    "b07": [("profiles.py", 17, "f_outside = torch.arccos",
             "    f_outside = torch.arccos(1 / torch.where(inside, 2.0, x)) / torch.sqrt(torch.where(inside, 2.0, x) ** 2 - 1)")],
    "b08": [("attention.py", 29, "masked_fill", "        e = e.masked_fill(mask == 0, torch.finfo(e.dtype).min)")],
    "b09": [("layers.py", 27, "self._layers = []", "            self._layers = nn.ModuleList()")],
    "b10": [("executor.py", 18, "loss.backward()", "            optimizer.zero_grad(); loss.backward()")],
    "b11": [("topk_trainer.py", 36, "return reconstruction_loss, log_dict", "        return loss, log_dict")],
    "b12": [("agent.py", 35, "with torch.no_grad():", "        with torch.enable_grad():")],
    "b13": [("train.py", 30, "optimizer = torch.optim.SGD(",
             "    optimizer = torch.optim.SGD(adapter_parameters(model), lr=0.01, momentum=0.9)")],
    "b14": [("model.py", 21, "torch.round(count)", "            count = count + (torch.round(count) - count).detach()")],
    "b15": [("train.py", 28, "unet = accelerator.unwrap_model(model)",
             "    unet = __import__('copy').deepcopy(accelerator.unwrap_model(model))")],
}


def last_nonempty(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def run(cmd, cwd):
    t0 = time.time()
    try:
        env = dict(os.environ, OMP_NUM_THREADS="1")
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S, env=env)
        return p.returncode, p.stdout, p.stderr, time.time() - t0
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or "", e.stderr or "", time.time() - t0


def probe(py, script, name):
    rc, out, err, _ = run([py, "-c", HARNESS, script, PRE.get(name, ""), PROBE[name]], os.path.dirname(script))
    m = re.search(r"PROBE_RESULT=(True|False)", out)
    if not m:
        return None, last_nonempty(out + err)[:200]
    return m.group(1) == "True", ""


def check_case(case, py):
    problems = []
    name = case["name"]
    folder = os.path.join(HERE, "cases", name)
    script = os.path.join(HERE, case["entry"])
    if not os.path.isfile(script):
        return [f"missing entry {case['entry']}"], 0.0
    if case["kind"] != "bug" or case["error"] is not False or case["error_regex"] is not None:
        problems.append("not a silent bug case")

    # static checks
    for entry in case["expected"] + [fs + ["fix"] for fs in case["fix_site"]]:
        f, n = os.path.join(folder, entry[0]), entry[1]
        if not os.path.isfile(f):
            problems.append(f"missing file {entry[0]}")
            continue
        lines = open(f).read().split("\n")
        if not 1 <= n <= len(lines) or not lines[n - 1].strip() or lines[n - 1].strip().startswith("#"):
            problems.append(f"bad line {entry[0]}:{n}")
    for fs in case["fix_site"]:
        if [fs[0], fs[1], "fix"] not in case["expected"]:
            problems.append(f"fix_site {fs} not an expected 'fix' entry")

    # plain run
    rc, out, err, wall = run([py, os.path.basename(script)], folder)
    if rc is None:
        return problems + [f"timed out after {TIMEOUT_S}s"], wall
    if rc != 0:
        problems.append(f"exited {rc}: {last_nonempty(err)[:200]!r}")
    if "Traceback (most recent call last)" in err:
        problems.append("printed a traceback")

    # harm probe
    res, why = probe(py, script, name)
    if res is not True:
        problems.append(f"harm probe did not confirm the harm ({res}) {why}")

    # fixed copy: harm gone
    tmp = tempfile.mkdtemp(prefix=f"verify_{name}_")
    try:
        dst = os.path.join(tmp, name)
        shutil.copytree(folder, dst, ignore=shutil.ignore_patterns("__pycache__"))
        for f, n, anchor, new in FIXES[name]:
            path = os.path.join(dst, f)
            lines = open(path).read().split("\n")
            if anchor not in lines[n - 1]:
                problems.append(f"fix anchor not found at {f}:{n}")
            lines[n - 1] = new
            open(path, "w").write("\n".join(lines))
        fixed_script = os.path.join(dst, os.path.basename(script))
        rc2, _, err2, _ = run([py, os.path.basename(script)], dst)
        if rc2 != 0:
            problems.append(f"fixed copy exited {rc2}: {last_nonempty(err2)[:200]!r}")
        res2, why2 = probe(py, fixed_script, name)
        if res2 is not False:
            problems.append(f"harm probe still fires on the fixed copy ({res2}) {why2}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return problems, wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=DEFAULT_PY if os.path.exists(DEFAULT_PY) else sys.executable)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    failures = total = 0
    for case in cases:
        if args.only and case["name"] not in args.only:
            continue
        total += 1
        problems, wall = check_case(case, args.python)
        print(f"{'ok  ' if not problems else 'FAIL'} {case['name']}  {wall:5.1f}s  {case['source']}")
        for p in problems:
            print(f"       - {p}")
        failures += bool(problems)
    print(f"\n{total - failures}/{total} cases passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
