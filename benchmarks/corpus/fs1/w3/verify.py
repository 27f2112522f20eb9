#!/usr/bin/env python3
"""Checker for batch fs1/w3: 12 correct programs of standard idioms (kind "clean").

For every case in cases.json it
  * checks the record (kind "clean", error false, no regex, empty expected/fix_site);
  * runs the entry with the project interpreter from the case's own folder (30 s limit):
    it must exit 0 and print no traceback;
  * re-runs the entry in-process under a harness that, before anything runs, registers a
    global module forward pre-hook (snapshots every parameter and buffer the first time its
    module is called, i.e. before any optimizer step) and a global optimizer step post-hook
    (counts steps).  After the program ends, a per-case probe checks that the program is
    really correct: no non-finite parameter, every parameter with requires_grad=True moved,
    every parameter with requires_grad=False stayed put (except target/teacher networks
    that are updated by design under no_grad), plus a case-specific property.

Usage: python3 verify.py [--python PY] [--only k01 k02 ...]
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
# The checking machine has two shared cores; multi-threaded OpenMP spinning under
# contention makes tiny ops 100x slower, so the checker pins one thread per run.
ENV = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", TOKENIZERS_PARALLELISM="false")

HARNESS = r'''
import gc, os, runpy, sys
path, probe, pre = sys.argv[1], sys.argv[2], sys.argv[3]
d = os.path.dirname(os.path.abspath(path))
os.chdir(d)
sys.path.insert(0, d)
sys.argv = [path]
import torch
import torch.nn.modules.module as _mm
import torch.optim.optimizer as _oo

initial, buffers0, steps = {}, {}, [0]

def _pre(mod, args):
    for p in mod.parameters(recurse=False):
        if id(p) not in initial:
            initial[id(p)] = (p, p.detach().clone())
    for b in mod.buffers(recurse=False):
        if id(b) not in buffers0:
            buffers0[id(b)] = (b, b.detach().clone())

def _post(opt, args, kwargs):
    steps[0] += 1

_mm.register_module_forward_pre_hook(_pre)
_oo.register_optimizer_step_post_hook(_post)
exec(pre, globals())

g = runpy.run_path(path, run_name="__main__")

def changed(p):
    return not torch.equal(p.detach(), initial[id(p)][1])

def param_names():
    import warnings
    warnings.simplefilter("ignore")
    names = {}
    for obj in gc.get_objects():
        if isinstance(obj, torch.nn.Module):
            for n, p in obj.named_parameters():
                names.setdefault(id(p), type(obj).__name__ + "." + n)
    return names

def params_report(exempt=()):
    ex = {id(p) for p in exempt}
    names = param_names()
    problems = []
    for pid, (p, p0) in initial.items():
        name = names.get(pid, str(tuple(p.shape)))
        if not torch.isfinite(p.detach()).all():
            problems.append("non-finite " + name)
        if pid in ex:
            continue
        moved = not torch.equal(p.detach(), p0)
        if p.requires_grad and not moved:
            problems.append("trainable but unchanged " + name)
        if not p.requires_grad and moved:
            problems.append("frozen but changed " + name)
    return problems

def all_seen(*modules):
    return all(id(p) in initial for m in modules for p in m.parameters())

ns = dict(globals(), g=g, torch=torch, initial=initial, buffers0=buffers0, steps=steps, changed=changed,
          params_report=params_report, all_seen=all_seen, sys=sys)
exec(probe, ns)
print("PROBE_DETAIL=%s" % (ns.get("detail"),))
print("PROBE_RESULT=%s" % bool(ns["result"]))
'''

PROBES = {
    # Lightning GAN: both networks train, requires_grad restored after toggling.
    "k01": (
        "m = g['model']\n"
        "detail = params_report()\n"
        "result = not detail and all_seen(m) and g['trainer'].global_step == 48\n"
    ),
    # DDPG: online nets train; target nets never get .grad, move only by soft update.
    "k02": (
        "a = g['agent']\n"
        "tgt = list(a.actor_target.parameters()) + list(a.critic_target.parameters())\n"
        "onl = list(a.actor.parameters()) + list(a.critic.parameters())\n"
        "detail = params_report(exempt=tgt)\n"
        "result = (not detail and all_seen(a.actor, a.critic, a.actor_target, a.critic_target)\n"
        "          and all(p.grad is None and not p.requires_grad and changed(p) for p in tgt)\n"
        "          and any(not torch.equal(p, q) for p, q in zip(onl, tgt)))\n"
    ),
    # accelerate accumulation: the wrapped AdamW stepped exactly epochs*batches/accum times.
    "k03": (
        "inner = g['optimizer'].optimizer\n"
        "expected = g['args']['epochs'] * len(g['train_loader']) // g['args']['gradient_accumulation_steps']\n"
        "n = {int(s['step']) for s in inner.state.values()}\n"
        "detail = (params_report(), n, expected, steps[0])\n"
        "result = (not detail[0] and all_seen(g['model']) and n == {expected} and expected == 6\n"
        "          and zero_grad_calls[0] == expected)\n"
    ),
    # DINO: student trains (frozen weight_g stays), teacher moves by EMA only, never has .grad.
    "k04": (
        "s, t = g['student'], g['teacher']\n"
        "g_s = s.head.last_layer.parametrizations.weight.original0\n"
        "detail = params_report(exempt=t.parameters())\n"
        "t_moved = [changed(p) for n, p in t.named_parameters() if not n.endswith('original0')]\n"
        "result = (not detail and all_seen(s, t) and not g_s.requires_grad and not changed(g_s)\n"
        "          and all(t_moved) and all(p.grad is None for p in t.parameters())\n"
        "          and any(not torch.equal(a, b) for a, b in zip(s.parameters(), t.parameters())))\n"
    ),
    # Feature extraction: backbone weights and BN statistics untouched, head trained.
    "k05": (
        "m = g['model']\n"
        "detail = params_report()\n"
        "bb_frozen = all(not p.requires_grad and not changed(p) for p in m.backbone.parameters())\n"
        "bufs = all(torch.equal(b, buffers0[id(b)][1]) for b in m.backbone.buffers())\n"
        "head = all(p.requires_grad and changed(p) for p in m.classifier.parameters())\n"
        "result = not detail and all_seen(m) and bb_frozen and bufs and head\n"
    ),
    # Two backward passes over one graph, one step: both heads and the encoder train.
    "k06": (
        "m = g['model']\n"
        "detail = params_report()\n"
        "result = not detail and all_seen(m) and steps[0] == 4 * 8\n"
    ),
    # Truncated BPTT: every parameter (tied embedding/decoder included) trains.
    "k07": (
        "m = g['model']\n"
        "detail = params_report()\n"
        "result = not detail and all_seen(m) and m.decoder.weight is m.encoder.weight\n"
    ),
    # Non-reentrant checkpointing: same gradients as without checkpointing.
    "k08": (
        "m = g['model']\n"
        "ckpt_on = m.is_activation_checkpointing\n"
        "ckpt_on = ckpt_on() if callable(ckpt_on) else ckpt_on\n"
        "x = g['data'][:4]\n"
        "def grads():\n"
        "    m.train(); m.zero_grad(set_to_none=True)\n"
        "    m(input_ids=x, labels=x).loss.backward()\n"
        "    return [p.grad.clone() for p in m.parameters()]\n"
        "detail = params_report()\n"
        "ga = grads()\n"
        "m.activation_checkpointing_disable()\n"
        "gb = grads()\n"
        "same = all(torch.allclose(a, b, rtol=1e-5, atol=1e-7) for a, b in zip(ga, gb))\n"
        "result = not detail and all_seen(m) and ckpt_on and same\n"
    ),
    # AMP + GradScaler: finite weights and statistics, no skipped steps, finite scale.
    "k09": (
        "m, tr = g['model'], g['trainer']\n"
        "detail = (params_report(), tr.scaler.get_scale(), steps[0])\n"
        "bufs = all(torch.isfinite(b.float()).all() for b in m.buffers())\n"
        "result = (not detail[0] and all_seen(m) and bufs and steps[0] == 3 * 8\n"
        "          and 0 < tr.scaler.get_scale() < float('inf'))\n"
    ),
    # Custom in-place Function: gradcheck passes; every parameter trains.
    "k10": (
        "fn = sys.modules['functions'].InPlaceLeakyReLU\n"
        "x = torch.randn(4, 6, dtype=torch.double, requires_grad=True)\n"
        "ok = torch.autograd.gradcheck(lambda t: fn.apply(t.clone(), 0.1), (x,))\n"
        "y = torch.randn(3, 5, requires_grad=True)\n"
        "ref = torch.autograd.grad(torch.nn.functional.leaky_relu(y, 0.01).pow(2).sum(), y)[0]\n"
        "got = torch.autograd.grad(fn.apply(y * 1.0, 0.01).pow(2).sum(), y)[0]\n"
        "detail = params_report()\n"
        "result = not detail and all_seen(g['model']) and ok and torch.allclose(ref, got)\n"
    ),
    # WGAN-GP: critic and generator train, requires_grad restored for the critic at the end.
    "k11": (
        "detail = params_report(exempt=g['netD'].parameters())\n"
        "d_moved = all(changed(p) and torch.isfinite(p).all() for p in g['netD'].parameters())\n"
        "result = not detail and all_seen(g['netG'], g['netD']) and d_moved\n"
    ),
    # LBFGS with closure: every parameter trains, loss went down.
    "k12": (
        "detail = params_report()\n"
        "result = not detail and all_seen(g['seq']) and g['loss'].item() < 0.1\n"
    ),
}


# Code run inside the harness before the program starts.
PRE = {
    # count the zero_grad calls that reach the real AdamW (accelerate skips the others)
    "k03": (
        "zero_grad_calls = [0]\n"
        "_zg = torch.optim.AdamW.zero_grad\n"
        "def _counting_zero_grad(self, *a, **k):\n"
        "    zero_grad_calls[0] += 1\n"
        "    return _zg(self, *a, **k)\n"
        "torch.optim.AdamW.zero_grad = _counting_zero_grad\n"
    ),
}


def last_nonempty(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def run(cmd, cwd):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S, env=ENV)
        return p.returncode, p.stdout, p.stderr, time.time() - t0
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or "", e.stderr or "", time.time() - t0


def check_case(case, py):
    problems = []
    if case.get("kind") != "clean" or case.get("error") is not False:
        problems.append("record must be kind 'clean' with error false")
    if case.get("error_regex") is not None or case.get("expected") != [] or case.get("fix_site") != []:
        problems.append("clean record must have error_regex null and empty expected/fix_site")
    script = os.path.join(HERE, case["entry"])
    if not os.path.isfile(script):
        return problems + ["missing entry " + case["entry"]], 0.0
    cwd = os.path.dirname(script)

    rc, out, err, wall = run([py, os.path.basename(script)], cwd)
    if rc is None:
        return problems + [f"timed out after {TIMEOUT_S}s"], wall
    if rc != 0:
        problems.append(f"exit status {rc}: {last_nonempty(err)[:200]!r}")
    if "Traceback (most recent call last)" in err:
        problems.append("printed a traceback")

    probe = PROBES.get(case["name"])
    if probe is None:
        problems.append("no probe defined")
    else:
        rc2, out2, err2, _ = run([py, "-c", HARNESS, script, probe, PRE.get(case["name"], "")], cwd)
        if "PROBE_RESULT=True" not in out2:
            detail = [l for l in out2.splitlines() if l.startswith("PROBE_DETAIL=")]
            problems.append(f"probe failed (rc={rc2}): {(detail or [last_nonempty(err2)])[0][:300]!r}")
    return problems, wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=DEFAULT_PY if os.path.exists(DEFAULT_PY) else sys.executable)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()

    cases = json.load(open(os.path.join(HERE, "cases.json")))
    required = {"name", "kind", "error", "entry", "source", "summary", "error_regex", "expected", "fix_site", "fix"}
    failures = total = 0
    for case in cases:
        if args.only and case.get("name") not in args.only:
            continue
        total += 1
        missing = required - set(case)
        if missing:
            print(f"FAIL {case.get('name')}: missing keys {sorted(missing)}")
            failures += 1
            continue
        problems, wall = check_case(case, args.python)
        print(f"{'ok  ' if not problems else 'FAIL'} {case['name']:<5} {case['kind']:<6} {wall:5.1f}s  {case['entry']}")
        for p in problems:
            print("       - " + p)
        failures += bool(problems)
    print(f"\n{total - failures}/{total} cases passed (all clean)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
