#!/usr/bin/env python3
"""Checker for this folder: runs every case from cases.json and checks it.

For each case:
  * runs the entry with the venv python from its own folder (30 s limit; a
    run that times out, e.g. on a loaded machine, is tried once more);
  * error cases: exit status 1 and error_regex matches the last stderr line;
  * silent bugs: exit status 0 and a probe (run in-process after the entry,
    with access to its globals) proves the harm;
  * clean programs: exit status 0, no traceback, and a probe that checks the
    program's result is sound.

Usage: python3 verify.py [--python PY] [--only NAME ...]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PY = "/work/main/.venv/bin/python"
TIMEOUT_S = 30
PROBE_TIMEOUT_S = 60

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

FINITE = "all(torch.isfinite(p).all().item() for p in {m}.parameters())"

PROBES = {
    "n01": "result = " + FINITE.format(m="g['netG']") + " and " + FINITE.format(m="g['netD']")
           + " and len(g['G_losses']) == 4",
    "n02": "result = " + FINITE.format(m="g['model']"),
    "n03": (
        "m, e = g['model'], g['ema_model']\n"
        "result = (not any(p.requires_grad for p in e.parameters())\n"
        "          and all(p.grad is not None for p in m.parameters())\n"
        "          and not torch.equal(m.fc.weight, e.fc.weight)\n"
        "          and " + FINITE.format(m="e") + ")"
    ),
    "n04": (
        "import sys\n"
        "from model import HeadOnlyClassifier\n"
        "torch.manual_seed(0)\n"
        "ref = HeadOnlyClassifier(4).backbone.state_dict()\n"
        "cur = g['model'].backbone.state_dict()\n"
        "result = all(torch.equal(ref[k], cur[k]) for k in ref)\n"
    ),
    "n05": (
        "m = g['model']\n"
        "result = m.is_gradient_checkpointing and " + FINITE.format(m="m")
        + " and len(g['trainer'].history) == 4"
    ),
    "n06": (
        "net = g['net']\n"
        "result = " + FINITE.format(m="net") + " and g['checkpoint']['scaler']['scale'] > 0"
    ),
    "n07": "result = " + FINITE.format(m="g['model']") + " and torch.isfinite(g['model'].vq.codebook).all().item()",
    "n08": (
        "from functional import revgrad\n"
        "x = torch.randn(5, requires_grad=True)\n"
        "revgrad(x, torch.tensor(0.7)).sum().backward()\n"
        "result = torch.allclose(x.grad, torch.full((5,), -0.7)) and len(g['monitor'].records['features']) == 10"
    ),
    "n09": "result = " + FINITE.format(m="g['model']"),
    "n10": "result = " + FINITE.format(m="g['model']"),
    "n11": (
        "out = g['output']\n"
        "result = out.min().item() >= 0 and out.max().item() <= 1 and not torch.equal(out, g['content_img'])"
    ),
    "n12": (
        "m, opt = g['model'], g['optimizer']\n"
        "ids = {id(p) for grp in opt.param_groups for p in grp['params']}\n"
        "stem = m.body.stem\n"
        "result = (not stem.weight.requires_grad and stem.weight.grad is None and id(stem.weight) not in ids\n"
        "          and stem.weight.shape[1] == 4 and m.cls_head.out_features == 6\n"
        "          and all(p.grad is not None for p in m.parameters() if p.requires_grad))"
    ),
}


def last_nonempty(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def run(cmd, cwd, timeout):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr, time.time() - t0
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or "", e.stderr or "", time.time() - t0


def check_lines(case):
    problems = []
    folder = os.path.join(HERE, os.path.dirname(case["entry"]))
    for item in case["expected"]:
        f, n = item[0], item[1]
        path = os.path.join(folder, f)
        if not os.path.isfile(path):
            problems.append(f"expected file missing: {f}")
            continue
        lines = open(path).read().split("\n")
        if not (1 <= n <= len(lines)) or not lines[n - 1].strip() or lines[n - 1].strip().startswith("#"):
            problems.append(f"expected line blank/comment/out of range: {f}:{n}")
    return problems


def check_case(case, py):
    script = os.path.join(HERE, case["entry"])
    cwd = os.path.dirname(script)
    if not os.path.isfile(script):
        return [f"missing entry {case['entry']}"], 0.0
    problems = check_lines(case)
    for _attempt in range(2):
        rc, out, err, wall = run([py, os.path.basename(script)], cwd, TIMEOUT_S)
        if rc is not None:
            break
    if rc is None:
        return problems + [f"timed out after {TIMEOUT_S}s"], wall
    if case["error"]:
        if rc != 1:
            problems.append(f"expected exit status 1, got {rc}")
        last = last_nonempty(err)
        if not re.search(case["error_regex"], last):
            problems.append(f"last stderr line does not match: {last[:200]!r}")
        return problems, wall
    if rc != 0:
        problems.append(f"expected exit status 0, got {rc}: {last_nonempty(err)[:200]!r}")
    if "Traceback (most recent call last)" in err:
        problems.append("printed a traceback")
    probe = PROBES.get(case["name"])
    if probe is None:
        problems.append("no probe defined")
    else:
        rc2, out2, err2, _ = run([py, "-c", HARNESS, script, probe], cwd, PROBE_TIMEOUT_S)
        if "PROBE_RESULT=True" not in out2:
            problems.append(f"probe failed (rc={rc2}): {last_nonempty(out2 + err2)[:200]!r}")
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
        print(f"{'ok  ' if not problems else 'FAIL'} {case['name']:<6} {case['kind']:<6} {wall:5.1f}s")
        for p in problems:
            print(f"       - {p}")
        failures += bool(problems)
    print(f"\n{total - failures}/{total} passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
