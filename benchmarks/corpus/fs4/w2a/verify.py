#!/usr/bin/env python3
"""Checker for batch fs4 part w2a (cases.json + cases/).

For every case:
  * every `expected` entry must point at an existing, non-blank, non-comment line, and the
    `fix_site` lines must be the `expected` lines with role `fix`;
  * the entry script is run with the project's Python from its own folder (30 s limit);
  * error cases: exit status 1 and the last stderr line matches `error_regex`;
  * silent bug cases: exit status 0, no traceback, and a probe run in-process after the
    script (with its globals) confirms the harm; the same probe is then run on a copy of the
    case with the one-line fix applied and must no longer see the harm;
  * clean cases: exit status 0.
Prints one line per case and a total. Exit status 0 when every case passes.

Usage: python verify.py [--python PY] [--only NAME ...]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PY = "/work/main/.venv/bin/python"
TIMEOUT_S = 30

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

GRAPH_NODES = (
    "def graph_nodes(t):\n"
    "    seen, stack = set(), [t.grad_fn]\n"
    "    while stack:\n"
    "        n = stack.pop()\n"
    "        if n is None or n in seen:\n"
    "            continue\n"
    "        seen.add(n)\n"
    "        stack.extend(f for f, _ in n.next_functions)\n"
    "    return seen\n"
)

# name -> (probe source, [(file, old text, new text)] = the fix, applied to a copy)
PROBES = {
    "s01": (
        # the adapters inside the checkpointed encoder layers never receive a gradient
        "m = g['model']\n"
        "lora_b = [p for n, p in m.named_parameters() if 'lora_B' in n]\n"
        "result = len(lora_b) > 0 and all(p.grad is None and torch.count_nonzero(p) == 0 for p in lora_b)\n",
        [("config.py", '{"use_reentrant": True}', '{"use_reentrant": False}')],
    ),
    "s02": (
        # the selected groups are empty and the selected layers keep their initial weights
        "m, opt = g['model'], g['optimizer']\n"
        "torch.manual_seed(0)\n"
        "m0 = g['build_model'](g['CONFIG'])\n"
        "sel = lambda net: list(net.conv1.parameters()) + list(net.layer1.parameters())\n"
        "result = (len(opt.param_groups[0]['params']) == 0 and\n"
        "          all(torch.equal(a, b) for a, b in zip(sel(m), sel(m0))))\n",
        [("optim_utils.py", "layer_params = func(network).parameters()",
          "layer_params = list(func(network).parameters())")],
    ),
    "s03": (
        # training steps after the first validation run with dropout switched off
        "m = g['model']\n"
        "result = (not m.training) and (not m.dropout.training) and g['iteration'] % 5 != 0\n",
        [("train.py", "            loss = compute_loss(model, batch)\n",
          "            model.train(); loss = compute_loss(model, batch)\n")],
    ),
    "s04": (
        # clipping the scaled gradients shrinks every update by the loss scale: weights barely move
        "torch.manual_seed(0)\n"
        "m0 = g['UNet'](n_channels=1, n_classes=2)\n"
        "d = sum(((p - q).detach().norm() ** 2 for p, q in zip(g['model'].parameters(), m0.parameters()))) ** 0.5\n"
        "result = float(d) < 1e-3\n",
        [("train.py", "            torch.nn.utils.clip_grad_norm_(",
          "            grad_scaler.unscale_(optimizer); torch.nn.utils.clip_grad_norm_(")],
    ),
    "s05": (
        # the epoch accumulator keeps the autograd graph of every training batch alive
        GRAPH_NODES +
        "e = g['e_train']\n"
        "n = len(g['loader_train'])\n"
        "result = (torch.is_tensor(e) and e.grad_fn is not None and\n"
        "          sum(type(x).__name__ == 'NllLossBackward0' for x in graph_nodes(e)) == n and n > 1)\n",
        [("train.py", "        e_train += e_batch / len(loader_train)",
          "        e_train += e_batch.item() / len(loader_train)")],
    ),
    "s06": (
        # the EMA copy keeps the BatchNorm statistics it had at construction
        "ema_bn = g['ema_model'].module.features[1]\n"
        "src_bn = g['model'].features[1]\n"
        "result = (int(ema_bn.num_batches_tracked) == 0 and torch.count_nonzero(ema_bn.running_mean) == 0\n"
        "          and int(src_bn.num_batches_tracked) > 0)\n",
        [("ema.py", "zip(self.module.parameters(), model.parameters())",
          "zip(self.module.state_dict().values(), model.state_dict().values())")],
    ),
    "s07": (
        # the frozen backbone's BatchNorm statistics are updated during the linear probe
        "bb = g['classifier'].backbone\n"
        "result = (not bb[0].weight.requires_grad) and int(bb[1].num_batches_tracked) > 0\n",
        [("classifier.py", "            deactivate_requires_grad(self.backbone)\n",
          "            deactivate_requires_grad(self.backbone); self.backbone.eval()\n")],
    ),
    "s08": (
        # the semantic term of the generator loss has no path to any generator parameter
        "m = g['model']\n"
        "m.set_input(next(g['dataset']))\n"
        "m.forward()\n"
        "m.compute_G_loss()\n"
        "params = list(m.netG_A.parameters())\n"
        "grads = torch.autograd.grad(m.loss_sem_AB, params, allow_unused=True, retain_graph=True)\n"
        "result = all(x is None for x in grads)\n",
        [("cycle_gan_semantic_model.py", "self.netf_s(self.fake_B.detach())", "self.netf_s(self.fake_B)")],
    ),
}


def last_nonempty(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def run(cmd, cwd):
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S, env=env)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or "", e.stderr or ""


def probe_result(py, script, probe):
    rc, out, err = run([py, "-c", HARNESS, script, probe], os.path.dirname(script))
    if rc is None:
        return None, "probe timed out"
    m = re.search(r"PROBE_RESULT=(True|False)", out)
    if rc != 0 or not m:
        return None, f"probe failed (rc={rc}): {last_nonempty(err)[:200]}"
    return m.group(1) == "True", ""


def check_case(case, py):
    problems = []
    case_dir = os.path.join(HERE, "cases", case["name"])
    script = os.path.join(HERE, case["entry"])
    if not os.path.isfile(script):
        return [f"missing entry {case['entry']}"]

    for f, line, role in case["expected"]:
        path = os.path.join(case_dir, f)
        if not os.path.isfile(path):
            problems.append(f"expected file missing: {f}")
            continue
        lines = open(path).read().split("\n")
        if not 1 <= line <= len(lines):
            problems.append(f"expected line out of range: {f}:{line}")
            continue
        text = lines[line - 1].strip()
        if not text or text.startswith("#"):
            problems.append(f"expected line blank/comment: {f}:{line}")
    fixes = [[f, n] for f, n, role in case["expected"] if role == "fix"]
    if case["kind"] == "bug" and fixes != case["fix_site"]:
        problems.append("fix_site does not match the expected lines with role 'fix'")

    rc, out, err = run([py, os.path.basename(script)], os.path.dirname(script))
    if rc is None:
        return problems + [f"timed out after {TIMEOUT_S}s"]

    if case["kind"] == "bug" and case["error"]:
        if rc != 1:
            problems.append(f"expected exit status 1, got {rc}")
        last = last_nonempty(err)
        if not re.search(case["error_regex"], last):
            problems.append(f"last stderr line does not match: {last[:200]!r}")
    else:
        if rc != 0:
            problems.append(f"expected exit status 0, got {rc}: {last_nonempty(err)[:200]!r}")
        if "Traceback (most recent call last)" in err:
            problems.append("printed a traceback")

    if case["kind"] == "bug" and not case["error"]:
        probe, fix = PROBES[case["name"]]
        res, why = probe_result(py, script, probe)
        if res is not True:
            problems.append(why or "probe did not confirm the harm")
        with tempfile.TemporaryDirectory() as tmp:
            fixed_dir = os.path.join(tmp, case["name"])
            shutil.copytree(case_dir, fixed_dir)
            for f, old, new in fix:
                p = os.path.join(fixed_dir, f)
                src = open(p).read()
                if src.count(old) != 1:
                    problems.append(f"fix text not found exactly once in {f}")
                    continue
                open(p, "w").write(src.replace(old, new))
            fixed_script = os.path.join(fixed_dir, os.path.relpath(script, case_dir))
            res_fixed, why = probe_result(py, fixed_script, probe)
            if res_fixed is not False:
                problems.append(why or "probe still sees the harm after the fix")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=DEFAULT_PY)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    if args.only:
        cases = [c for c in cases if c["name"] in args.only]
    passed = 0
    for case in cases:
        problems = check_case(case, args.python)
        if problems:
            print(f"FAIL {case['name']}: " + "; ".join(problems))
        else:
            passed += 1
            print(f"PASS {case['name']}")
    print(f"{passed}/{len(cases)} passed")
    return 0 if passed == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
