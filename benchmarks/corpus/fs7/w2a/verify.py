#!/usr/bin/env python3
"""Checks every case in cases.json.

For each case:
  * every expected line exists and is not blank;
  * the entry runs under plain python from its own folder (30 s limit) and
    exits with status 0 (all cases here are silent); the 30 s limit is
    applied to the child's CPU time (user + sys), with a generous wall-clock
    kill, so that a loaded machine does not fail a case that is cheap;
  * the entry is run again in-process under a small harness (runpy), and a
    per-case probe inspects the resulting objects to prove the harm.

Usage: python verify.py [--python PY] [--only NAME ...] [--jobs N]
"""
import argparse
import concurrent.futures as cf
import json
import os
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PY = "/work/main/.venv/bin/python"
LIMIT_S = 30          # CPU-time budget per run (user + sys of the child)
WALL_KILL_S = 240     # hard wall-clock kill, generous for a loaded machine

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
    # the adapter conv only feeds the decoupling term: it never gets a gradient
    "s01": (
        "net = g['model'].network\n"
        "result = (net.adapter.weight.grad is None\n"
        "          and net.conv_last.weight.grad is not None)\n"
    ),
    # no model parameter is reached by backward
    "s02": "result = all(p.grad is None for p in g['model'].parameters())\n",
    # gradients left for the last step exceed the configured max norm (0.1)
    "s03": (
        "ps = g['model'].shared_parameters()\n"
        "n = torch.nn.utils.get_total_norm([p.grad for p in ps])\n"
        "result = float(n) > 0.1 * 1.2\n"
    ),
    # gradients left for the last step exceed the configured clip (0.25)
    "s04": (
        "ps = [p for p in g['model'].parameters() if p.grad is not None]\n"
        "n = torch.nn.utils.get_total_norm([p.grad for p in ps])\n"
        "result = len(ps) > 0 and float(n) > 0.25 * 1.2\n"
    ),
    # head has gradients but still holds its initial weights; the body moved
    "s05": (
        "cfg = {'n_embd': 48, 'n_head': 4, 'n_layer': 2, 'embd_pdrop': 0.1, 'attn_pdrop': 0.1, 'clf_pdrop': 0.1}\n"
        "torch.manual_seed(42)\n"
        "m0 = g['TransformerModel'](cfg, vocab=119, n_ctx=16)\n"
        "g['LMHead'](m0, cfg)\n"
        "c0 = g['ClfHead'](102, cfg)\n"
        "m, c = g['model'], g['clf_head']\n"
        "result = (torch.equal(c.linear.weight, c0.linear.weight)\n"
        "          and torch.equal(c.linear.bias, c0.linear.bias)\n"
        "          and c.linear.weight.grad is not None and c.linear.weight.grad.abs().sum() > 0\n"
        "          and not torch.equal(m.embed.weight, m0.embed.weight))\n"
    ),
    # pooler has gradients but is in no optimizer group
    "s06": (
        "t = g['trainer']\n"
        "ids = {id(p) for gr in t.optimizer.param_groups for p in gr['params']}\n"
        "pool = list(t.model.pooler.parameters())\n"
        "result = (all(id(p) not in ids for p in pool)\n"
        "          and all(p.grad is not None and p.grad.abs().sum() > 0 for p in pool))\n"
    ),
    # slot mean / log-sigma equal a fresh model's; other weights moved
    "s07": (
        "P = g['PARAMS']\n"
        "torch.manual_seed(P['seed'])\n"
        "m0 = g['SlotAttentionModel'](resolution=P['resolution'], num_slots=P['num_slots'], num_iterations=P['num_iterations'])\n"
        "sa, sa0 = g['model'].slot_attention, m0.slot_attention\n"
        "result = (torch.equal(sa.slots_mu, sa0.slots_mu)\n"
        "          and torch.equal(sa.slots_log_sigma, sa0.slots_log_sigma)\n"
        "          and not torch.equal(sa.project_q.weight, sa0.project_q.weight))\n"
    ),
    # BN running stats stayed frozen, but the BN affine weights changed
    "s08": (
        "bns = [m for m in g['model'].modules() if isinstance(m, torch.nn.BatchNorm2d)]\n"
        "stats_frozen = all(torch.equal(b.running_mean, torch.zeros_like(b.running_mean)) for b in bns)\n"
        "affine_moved = any(not torch.equal(b.weight, torch.ones_like(b.weight)) for b in bns)\n"
        "result = stats_frozen and affine_moved\n"
    ),
}


def check_lines(case):
    problems = []
    folder = os.path.join(HERE, os.path.dirname(case["entry"]))
    for f, line, role in case["expected"]:
        p = os.path.join(folder, f)
        if not os.path.exists(p):
            problems.append("missing file %s" % f)
            continue
        lines = open(p).read().split("\n")
        if line < 1 or line > len(lines) or not lines[line - 1].strip() or lines[line - 1].strip().startswith("#"):
            problems.append("bad line %s:%d" % (f, line))
    for f, line in case["fix_site"]:
        if [f, line, "fix"] not in case["expected"]:
            problems.append("fix_site %s:%d not in expected" % (f, line))
    return problems


class Result:
    def __init__(self, returncode, stdout, stderr, cpu_s, timed_out):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr
        self.cpu_s, self.timed_out = cpu_s, timed_out


def run(cmd, cwd):
    out_f = tempfile.TemporaryFile()
    err_f = tempfile.TemporaryFile()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=out_f, stderr=err_f)
    timer = threading.Timer(WALL_KILL_S, proc.kill)
    timer.start()
    _, status, usage = os.wait4(proc.pid, 0)
    timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    out_f.seek(0)
    err_f.seek(0)
    cpu = usage.ru_utime + usage.ru_stime
    timed_out = proc.returncode < 0 or cpu > LIMIT_S
    return Result(proc.returncode, out_f.read().decode(errors="replace"),
                  err_f.read().decode(errors="replace"), cpu, timed_out)


def run_case(case, py):
    entry = os.path.join(HERE, case["entry"])
    folder = os.path.dirname(entry)
    problems = check_lines(case)
    r = run([py, entry], folder)
    if r.timed_out:
        problems.append("plain run over budget (cpu %.1f s, limit %d s)" % (r.cpu_s, LIMIT_S))
    else:
        want = 1 if case["error"] else 0
        if r.returncode != want:
            problems.append("exit %d (want %d): %s" % (r.returncode, want, r.stderr.strip()[-300:]))
        if case["error"]:
            last = [l for l in r.stderr.strip().split("\n") if l.strip()][-1:]
            import re
            if not last or not re.search(case["error_regex"], last[0]):
                problems.append("last stderr line does not match")
    if case["kind"] == "bug" and not case["error"]:
        probe = PROBES[case["name"]]
        r = run([py, "-c", HARNESS, entry, probe], folder)
        if r.timed_out:
            problems.append("probe run over budget (cpu %.1f s)" % r.cpu_s)
        elif "PROBE_RESULT=True" not in r.stdout:
            problems.append("probe failed: %s" % (r.stdout.strip()[-200:] + r.stderr.strip()[-300:]))
    return case["name"], problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=DEFAULT_PY if os.path.exists(DEFAULT_PY) else sys.executable)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    if args.only:
        cases = [c for c in cases if c["name"] in args.only]
    with cf.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        results = list(ex.map(lambda c: run_case(c, args.python), cases))
    ok = 0
    for name, problems in results:
        if problems:
            print("FAIL %s: %s" % (name, "; ".join(problems)))
        else:
            ok += 1
            print("PASS %s" % name)
    print("%d/%d passed" % (ok, len(results)))
    return 0 if ok == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
