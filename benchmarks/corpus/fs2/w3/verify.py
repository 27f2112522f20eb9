#!/usr/bin/env python3
"""Checks the clean programs of this batch (cases.json + cases/).

For every case:
  1. plain run: `python <entry>` from the case folder, OMP_NUM_THREADS=1, 30 s limit;
     it must exit 0 and print no traceback;
  2. probe run: the entry is executed in-process (runpy, run_name="__main__") under a
     small recorder, then generic and per-case checks run on the live objects:
       - the recorder wraps torch.optim.Optimizer.__init__; each time an optimizer is
         built it clones the optimizer's parameters and snapshots the parameters and
         buffers of every nn.Module alive at that moment (latest snapshot wins);
       - generic: every parameter handed to an optimizer is finite and differs from its
         value when that optimizer was built (it trained); every parameter of a
         snapshotted module that does not require grad and is in no optimizer is
         bit-identical to its snapshot (frozen stays frozen); every floating parameter
         and buffer of the snapshotted modules is finite;
       - per case: the property that shows the idiom is used correctly (PROBES below).

Usage: python3 verify.py [--python PY] [--only n01 n02 ...]
Exit status 0 when every case passes.
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
import gc, itertools, os, runpy, sys, traceback
entry, probe = sys.argv[1], sys.argv[2]
folder = os.path.dirname(entry)
os.chdir(folder)
sys.path.insert(0, folder)
sys.argv = [entry]
import torch
import torch.nn as nn

OPTS = []      # (optimizer, {id(param): clone at construction})
SNAP = {}      # id(module) -> (module, {name: clone}) taken at the latest optimizer construction
_orig_init = torch.optim.Optimizer.__init__

def _recording_init(self, params, defaults):
    _orig_init(self, params, defaults)
    clones = {id(p): p.detach().clone() for grp in self.param_groups for p in grp["params"]}
    OPTS.append((self, clones))
    for obj in gc.get_objects():
        if isinstance(obj, nn.Module):
            own = itertools.chain(obj.named_parameters(recurse=False), obj.named_buffers(recurse=False))
            SNAP[id(obj)] = (obj, {n: t.detach().clone() for n, t in own if t is not None})

torch.optim.Optimizer.__init__ = _recording_init

MODULES = []   # strong references, so modules built inside main() stay inspectable
_orig_module_init = nn.Module.__init__

def _keeping_init(self, *args, **kwargs):
    _orig_module_init(self, *args, **kwargs)
    MODULES.append(self)

nn.Module.__init__ = _keeping_init

g = runpy.run_path(entry, run_name="__main__")

def instances(cls_name):
    seen, out = set(), []
    for o in MODULES + [o for o in gc.get_objects() if isinstance(o, nn.Module)]:
        if type(o).__name__ == cls_name and id(o) not in seen:
            seen.add(id(o))
            out.append(o)
    return out

def opt_ids():
    return {pid for _, clones in OPTS for pid in clones}

def init_value(p):
    for _, clones in reversed(OPTS):
        if id(p) in clones:
            return clones[id(p)]
    return None

def in_opt(module):
    ids = opt_ids()
    return all(id(p) in ids for p in module.parameters())

def trained(module):
    for name, p in module.named_parameters():
        v0 = init_value(p)
        if v0 is None:
            return f"{name} is in no optimizer"
        if not torch.isfinite(p).all():
            return f"{name} is not finite"
        if torch.equal(p.detach(), v0):
            return f"{name} did not change"
    return True

def snapshot_of(module):
    return SNAP.get(id(module), (None, None))[1]

def unchanged(module, buffers=True):
    for sub in module.modules():
        snap = snapshot_of(sub)
        if snap is None:
            return f"{type(sub).__name__} has no snapshot"
        own = list(sub.named_parameters(recurse=False))
        if buffers:
            own += list(sub.named_buffers(recurse=False))
        for n, t in own:
            if t is None:
                continue
            if n not in snap or not torch.equal(t.detach(), snap[n]):
                return f"{type(sub).__name__}.{n} changed"
    return True

def generic():
    for opt, clones in OPTS:
        for grp in opt.param_groups:
            for p in grp["params"]:
                if not torch.isfinite(p).all():
                    return "an optimized parameter is not finite"
                if torch.equal(p.detach(), clones[id(p)]):
                    return f"an optimized parameter {tuple(p.shape)} never changed"
    ids = opt_ids()
    for mod, snap in SNAP.values():
        for n, p in mod.named_parameters(recurse=False):
            if not p.requires_grad and id(p) not in ids and not torch.equal(p.detach(), snap[n]):
                return f"frozen {type(mod).__name__}.{n} changed"
        for n, t in itertools.chain(mod.named_parameters(recurse=False), mod.named_buffers(recurse=False)):
            if t is not None and t.is_floating_point() and not torch.isfinite(t).all():
                return f"{type(mod).__name__}.{n} is not finite"
    if not OPTS:
        return "no optimizer was built"
    return True

results = [("generic", generic())]
ns = dict(g=g, torch=torch, nn=nn, OPTS=OPTS, SNAP=SNAP, instances=instances, in_opt=in_opt,
          trained=trained, unchanged=unchanged, init_value=init_value)
try:
    exec(probe, ns)
    results.append(("case", ns["result"]))
except Exception:
    results.append(("case", "probe raised: " + traceback.format_exc().strip().splitlines()[-1]))
bad = [f"{k}: {v}" for k, v in results if v is not True]
print("PROBE_OK" if not bad else "PROBE_FAIL " + " | ".join(bad))
'''

PROBES = {
    # PPO: every actor/critic weight and log_std trained; the rollout log-probs were stored without a graph
    "n01": (
        "ac, = instances('ActorCritic')\n"
        "t = trained(ac)\n"
        "result = t if t is not True else (ac.log_std.grad is not None)\n"
    ),
    # Lightning GAN: both nets trained; toggling restored requires_grad everywhere
    "n02": (
        "gan, = instances('GAN')\n"
        "tg, td = trained(gan.generator), trained(gan.discriminator)\n"
        "rg = all(p.requires_grad for p in gan.parameters())\n"
        "result = tg if tg is not True else td if td is not True else (rg or 'requires_grad not restored')\n"
    ),
    # timm EMA teacher: student trained; EMA holds no grads, needs none, and moved away from
    # both the initial weights and the current student weights
    "n03": (
        "nets = instances('ResNet')\n"
        "student, = [m for m in nets if in_opt(m)]\n"
        "ema, = instances('ModelEmaV3')\n"
        "t = trained(student)\n"
        "sp = dict(student.named_parameters())\n"
        "ok = all((not p.requires_grad) and p.grad is None for p in ema.parameters())\n"
        "moved = all(not torch.equal(p, init_value(sp[n])) and not torch.equal(p, sp[n])\n"
        "            for n, p in ema.module.named_parameters())\n"
        "result = t if t is not True else (ok and moved) or f'ema ok={ok} moved={moved}'\n"
    ),
    # torchvision frozen backbone: weights and BN running stats untouched, no grads; head trained
    "n04": (
        "m, = instances('LinearProbe')\n"
        "u = unchanged(m.backbone, buffers=True)\n"
        "t = trained(m.head)\n"
        "nog = all(p.grad is None for p in m.backbone.parameters())\n"
        "result = u if u is not True else t if t is not True else (nog or 'backbone has grads')\n"
    ),
    # truncated BPTT: every LSTM/embedding/decoder weight trained, tied weight still shared
    "n05": (
        "m, = instances('RNNModel')\n"
        "t = trained(m)\n"
        "result = t if t is not True else (m.decoder.weight is m.encoder.weight or 'untied')\n"
    ),
    # GPT-2 + LoRA + reentrant checkpointing: only adapters trained, base frozen, and the adapter
    # gradients equal those computed without checkpointing
    "n06": (
        "m, = instances('GPT2LMHeadModel')\n"
        "lora = {n: p for n, p in m.named_parameters() if 'lora_' in n}\n"
        "base = [p for n, p in m.named_parameters() if 'lora_' not in n]\n"
        "ok_train = all(not torch.equal(p, init_value(p)) for p in lora.values())\n"
        "ok_base = all(not p.requires_grad and p.grad is None for p in base)\n"
        "torch.manual_seed(1)\n"
        "x = torch.randint(0, m.config.vocab_size, (2, 16))\n"
        "def grads():\n"
        "    m.zero_grad(set_to_none=True)\n"
        "    m(input_ids=x, labels=x).loss.backward()\n"
        "    return {n: p.grad.clone() for n, p in lora.items()}\n"
        "m.train()\n"
        "g_ckpt = grads()\n"
        "m.gradient_checkpointing_disable()\n"
        "g_plain = grads()\n"
        "same = all(torch.allclose(g_ckpt[n], g_plain[n], atol=1e-6) for n in lora)\n"
        "nonzero = all(g.abs().sum() > 0 for g in g_ckpt.values())\n"
        "result = (ok_train and ok_base and same and nonzero) or f'train={ok_train} base={ok_base} same={same} nonzero={nonzero}'\n"
    ),
    # custom autograd.Functions: backward passes gradcheck; the model trained
    "n07": (
        "import functions\n"
        "from torch.autograd import gradcheck\n"
        "torch.manual_seed(0)\n"
        "x = torch.randn(5, 4, dtype=torch.double, requires_grad=True)\n"
        "w = torch.randn(3, 4, dtype=torch.double, requires_grad=True)\n"
        "b = torch.randn(3, dtype=torch.double, requires_grad=True)\n"
        "gc1 = gradcheck(functions.LinearFunction.apply, (x, w, b))\n"
        "gc2 = gradcheck(functions.SwishFunction.apply, (x,))\n"
        "m, = instances('ResidualMLP')\n"
        "t = trained(m)\n"
        "result = t if t is not True else (gc1 and gc2)\n"
    ),
    # BERT param groups: every parameter in exactly one group, decay off exactly for LayerNorm/bias,
    # 10x lr exactly for the classifier head, all trained
    "n08": (
        "m, = instances('BertForSequenceClassification')\n"
        "opt = [o for o, _ in OPTS if {id(p) for gr in o.param_groups for p in gr['params']} & {id(p) for p in m.parameters()}][-1]\n"
        "ids = [id(p) for gr in opt.param_groups for p in gr['params']]\n"
        "partition = len(ids) == len(set(ids)) and set(ids) == {id(p) for p in m.parameters()}\n"
        "wd = {id(p): gr['weight_decay'] for gr in opt.param_groups for p in gr['params']}\n"
        "lr = {id(p): gr['initial_lr'] for gr in opt.param_groups for p in gr['params']}\n"
        "nd = all((wd[id(p)] == 0.0) == ('LayerNorm' in n or n.endswith('bias')) for n, p in m.named_parameters())\n"
        "base = lr[id(m.bert.embeddings.word_embeddings.weight)]\n"
        "hl = all(abs(lr[id(p)] - (10 * base if n.startswith('classifier') else base)) < 1e-12 for n, p in m.named_parameters())\n"
        "t = trained(m)\n"
        "result = t if t is not True else (partition and nd and hl) or f'partition={partition} no_decay={nd} head_lr={hl}'\n"
    ),
    # MAML: meta-parameters trained; the meta-gradient carries the second-order term
    "n09": (
        "m, = instances('Regressor')\n"
        "t = trained(m)\n"
        "gen = torch.Generator().manual_seed(3)\n"
        "tasks = g['sample_sinusoid_tasks'](2, 10, 10, gen)\n"
        "def meta_grad(first_order):\n"
        "    maml = g['MAML'](m, inner_lr=0.01, inner_steps=1, first_order=first_order)\n"
        "    m.zero_grad(set_to_none=True)\n"
        "    for xs, ys, xq, yq in tasks:\n"
        "        fw = maml.adapt(xs, ys)\n"
        "        torch.nn.functional.mse_loss(torch.func.functional_call(m, fw, (xq,)), yq).backward()\n"
        "    return [p.grad.clone() for p in m.parameters()]\n"
        "g2, g1 = meta_grad(False), meta_grad(True)\n"
        "second = any(not torch.allclose(a, b) for a, b in zip(g2, g1))\n"
        "result = t if t is not True else (second or 'no second-order term')\n"
    ),
    # DQN: policy trained; target net outside the optimizer, never got a grad, follows by soft update
    "n10": (
        "nets = instances('DQN')\n"
        "policy, = [n for n in nets if in_opt(n)]\n"
        "target, = [n for n in nets if n is not policy]\n"
        "t = trained(policy)\n"
        "nog = all(p.grad is None for p in target.parameters())\n"
        "moved = unchanged(target) is not True\n"
        "differs = any(not torch.equal(a, b) for a, b in zip(target.parameters(), policy.parameters()))\n"
        "result = t if t is not True else (nog and moved and differs) or f'nograd={nog} moved={moved} differs={differs}'\n"
    ),
    # distillation: teacher unchanged during distillation and in eval mode; student trained
    "n11": (
        "teacher, = instances('DeepNN')\n"
        "student, = instances('LightNN')\n"
        "u = unchanged(teacher)\n"
        "t = trained(student)\n"
        "result = u if u is not True else t if t is not True else True\n"
    ),
    # accelerate: evaluation inside the loop left the model in train mode and BN stats kept updating
    "n12": (
        "m, = instances('SmallConvNet')\n"
        "t = trained(m)\n"
        "mode = all(sub.training for sub in m.modules())\n"
        "bns = [b for b in m.modules() if isinstance(b, nn.BatchNorm2d)]\n"
        "stats = all(unchanged(b, buffers=True) is not True for b in bns)\n"
        "result = t if t is not True else (mode and stats) or f'train_mode={mode} bn_stats_moved={stats}'\n"
    ),
}


def run(cmd, cwd):
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1")
    t0 = time.time()
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT_S)
        return p.returncode, p.stdout, p.stderr, time.time() - t0
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or "", e.stderr or "", time.time() - t0


def last_line(text):
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1] if lines else ""


def check(case, py):
    problems = []
    entry = os.path.join(HERE, case["entry"])
    cwd = os.path.dirname(entry)
    if case["kind"] != "clean" or case["error"]:
        problems.append("this batch holds clean programs only")
    if case["expected"] or case["fix_site"] or case["error_regex"] is not None:
        problems.append("clean case must have empty expected/fix_site and null error_regex")
    rc, out, err, wall = run([py, os.path.basename(entry)], cwd)
    if rc is None:
        return problems + [f"timed out after {TIMEOUT_S}s"], wall
    if rc != 0:
        problems.append(f"exit status {rc}: {last_line(err)[:200]!r}")
    if "Traceback (most recent call last)" in err:
        problems.append("printed a traceback")
    probe = PROBES.get(case["name"])
    if probe is None:
        problems.append("no probe")
    else:
        rc2, out2, err2, _ = run([py, "-c", HARNESS, entry, probe], cwd)
        verdict = [l for l in out2.splitlines() if l.startswith("PROBE_")]
        if rc2 != 0 or verdict != ["PROBE_OK"]:
            problems.append(f"probe: rc={rc2} {verdict[-1] if verdict else last_line(err2)[:200]!r}")
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
        problems, wall = check(case, args.python)
        print(f"{'ok  ' if not problems else 'FAIL'} {case['name']:<5} {case['kind']:<6} {wall:5.1f}s  {case['summary'][:70]}")
        for p in problems:
            print(f"       - {p}")
        failures += bool(problems)
    print(f"\n{total - failures}/{total} cases passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
