#!/usr/bin/env python3
"""Checker for this part: runs every case from its own folder under a 30 s limit.

Clean cases must exit 0 without a traceback. Some clean cases also get a
correctness probe (run in-process after the script, with its globals) that
confirms the idiom did what it is meant to do.
Bug cases (none in this part) would be checked for exit status and regex.
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
# one intra-op thread: on a small, shared CPU box torch's thread pool otherwise
# oversubscribes the cores and the wall time of these tiny runs explodes
ENV = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")

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

PROBES = {
    # teacher never receives gradients and differs from the student after EMA updates
    "n02": (
        "s, t = g['student'], g['teacher'].module\n"
        "result = (all(p.grad is None and not p.requires_grad for p in t.parameters())\n"
        "          and all(p.grad is not None for p in s.parameters())\n"
        "          and not torch.equal(s.fc.weight, t.fc.weight))"
    ),
    # the custom backward agrees with finite differences of the reversed identity
    "n06": (
        "from functions import ReverseLayerF\n"
        "x = torch.randn(5, 3, dtype=torch.double, requires_grad=True)\n"
        "y = ReverseLayerF.apply(x, 0.7)\n"
        "(gx,) = torch.autograd.grad((y * y.detach()).sum(), x)\n"
        "result = torch.allclose(gx, -0.7 * x.detach())"
    ),
    # rows of the original vocabulary did not move, new rows did
    "n07": (
        "from model import TextEncoder\n"
        "torch.manual_seed(0)\n"
        "ref = TextEncoder(200)\n"
        "w = g['model'].embedding.weight\n"
        "result = torch.equal(w[:200], ref.embedding.weight) and w.shape[0] == 220"
    ),
    # torch.func per-sample gradients equal per-example autograd gradients
    "n09": (
        "import torch.nn.functional as F\n"
        "m, c = g['model'], g['clipper']\n"
        "torch.manual_seed(1)\n"
        "x = torch.randn(3, 1, 16, 16); y = torch.randint(0, 10, (3,))\n"
        "ps = c.per_sample_grads(x, y)\n"
        "ok = True\n"
        "for i in range(3):\n"
        "    m.zero_grad(set_to_none=True)\n"
        "    F.cross_entropy(m(x[i:i+1]), y[i:i+1]).backward()\n"
        "    for n, p in m.named_parameters():\n"
        "        if p.requires_grad:\n"
        "            ok = ok and torch.allclose(p.grad, ps[n][i], atol=1e-5)\n"
        "result = ok"
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
        dec = lambda b: b.decode(errors="replace") if isinstance(b, bytes) else (b or "")
        return None, dec(e.stdout), dec(e.stderr), time.time() - t0


def check(case):
    problems = []
    script = os.path.join(HERE, case["entry"])
    cwd = os.path.dirname(script)
    if not os.path.isfile(script):
        return ["missing entry"], 0.0
    for f, n, _role in case["expected"]:
        lines = open(os.path.join(cwd, f)).read().split("\n")
        if not (1 <= n <= len(lines)) or not lines[n - 1].strip() or lines[n - 1].strip().startswith("#"):
            problems.append(f"bad expected line {f}:{n}")
    rc, out, err, wall = run([PY, os.path.basename(script)], cwd)
    if rc is None:
        return problems + [f"timed out after {TIMEOUT_S}s"], wall
    if case["error"]:
        if rc != 1:
            problems.append(f"expected exit 1, got {rc}")
        if not re.search(case["error_regex"], last_nonempty(err)):
            problems.append(f"regex mismatch: {last_nonempty(err)[:200]!r}")
    else:
        if rc != 0:
            problems.append(f"exit {rc}: {last_nonempty(err)[:200]!r}")
        if "Traceback (most recent call last)" in err:
            problems.append("traceback printed")
        if case["kind"] == "clean" and (case["expected"] or case["fix_site"]):
            problems.append("clean case lists expected/fix_site lines")
        probe = PROBES.get(case["name"])
        if probe is not None and not problems:
            rc2, out2, err2, _ = run([PY, "-c", HARNESS, script, probe], cwd)
            if "PROBE_RESULT=True" not in out2:
                problems.append(f"probe failed (rc={rc2}): {last_nonempty(out2 + err2)[:200]!r}")
    return problems, wall


def main():
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    only = set(sys.argv[1:])
    passed = total = 0
    for case in cases:
        if only and case["name"] not in only:
            continue
        total += 1
        problems, wall = check(case)
        passed += not problems
        print(f"{'ok  ' if not problems else 'FAIL'} {case['name']:<6} {case['kind']:<6} {wall:5.1f}s")
        for p in problems:
            print(f"       - {p}")
    print(f"\n{passed}/{total} passed")
    sys.exit(0 if passed == total else 1)


if __name__ == "__main__":
    main()
