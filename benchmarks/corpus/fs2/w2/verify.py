#!/usr/bin/env python3
"""Checks the silent-bug batch in cases.json.

For every case:
  * each `expected` / `fix_site` entry points at an existing, non-blank, non-comment line;
  * the entry runs under plain Python (cwd = its folder, 30 s limit) and exits 0
    without a traceback on stderr;
  * the entry is run again in-process (runpy, same folder, optional instrumentation
    installed first) and a per-case probe, which only inspects the objects the program
    left behind or re-runs pieces of it, must confirm the harm.

Usage: OMP_NUM_THREADS=1 python3 verify.py [--python PY] [--only NAME ...] [--show-lines]
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

HARNESS = r"""
import os, runpy, sys
path, pre, probe = sys.argv[1], sys.argv[2], sys.argv[3]
d = os.path.dirname(path)
os.chdir(d)
sys.path.insert(0, d)
sys.argv = [path]
import torch
pre_ns = {"torch": torch}
exec(pre, pre_ns)
g = runpy.run_path(path, run_name="__main__")
ns = {"g": g, "torch": torch, "pre": pre_ns}
exec(probe, ns)
print("PROBE_RESULT=%s" % bool(ns["result"]))
"""

NAN_PARAMS = (
    "params = list(g['model'].parameters())\n"
    "result = any(torch.isnan(p).any().item() for p in params)\n"
)

PRE = {
    # record (training flag, grad mode) of every BatchNorm1d call made by the program
    "s13": (
        "records = []\n"
        "_orig = torch.nn.BatchNorm1d.forward\n"
        "def _rec(self, x):\n"
        "    records.append((self.training, torch.is_grad_enabled()))\n"
        "    return _orig(self, x)\n"
        "torch.nn.BatchNorm1d.forward = _rec\n"
    ),
}

PROBES = {
    # NaN written into the weights
    "s01": NAN_PARAMS,
    # encoder BN affine params were in the optimizer from the start and moved away from their init
    "s02": (
        "m = g['model']\n"
        "opt = g['trainer'].optimizers[0]\n"
        "first = {id(p) for p in opt.param_groups[0]['params']}\n"
        "bn = m.encoder[0][1]\n"
        "conv = m.encoder[0][0]\n"
        "result = (g['CONFIG']['callbacks']['freeze_unfreeze']['train_bn'] is False\n"
        "          and id(bn.weight) in first and id(conv.weight) not in first\n"
        "          and not torch.equal(bn.weight.detach(), torch.ones_like(bn.weight))\n"
        "          and not torch.equal(bn.bias.detach(), torch.zeros_like(bn.bias)))\n"
    ),
    # the middle blocks are used (they have gradients) but unregistered and still at init
    "s03": (
        "m = g['model']\n"
        "torch.manual_seed(0)\n"
        "torch.rand(1, 3, 24, 24)\n"
        "ref = g['SegNet'](3, g['args'].channels, g['args'].n_conv)\n"
        "ids = {id(p) for p in m.parameters()}\n"
        "blk = [p for b in m.blocks for p in b.parameters()]\n"
        "ref_blk = [p for b in ref.blocks for p in b.parameters()]\n"
        "result = (len(blk) > 0 and all(id(p) not in ids for p in blk)\n"
        "          and all(torch.equal(p, q) for p, q in zip(blk, ref_blk))\n"
        "          and all(p.grad is not None and p.grad.abs().sum() > 0 for p in blk)\n"
        "          and not torch.equal(m.stem[0].weight, ref.stem[0].weight))\n"
    ),
    # word embeddings identical to a fresh model with the same seed, other weights trained
    "s04": (
        "m = g['model']\n"
        "torch.manual_seed(0)\n"
        "ref = g['BertForSequenceClassification'](g['config'])\n"
        "we, rwe = m.bert.embeddings.word_embeddings.weight, ref.bert.embeddings.word_embeddings.weight\n"
        "used = g['used_ids']\n"
        "result = (torch.equal(we[used], rwe[used])\n"
        "          and not torch.equal(m.classifier.weight, ref.classifier.weight)\n"
        "          and not torch.equal(m.bert.encoder.layer[0].attention.self.query.weight,\n"
        "                              ref.bert.encoder.layer[0].attention.self.query.weight))\n"
    ),
    "s05": NAN_PARAMS,
    # at the sync step .grad holds only the last micro-batch's gradient, not the accumulated one
    "s06": (
        "tr, pol = g['trainer'], g['policy']\n"
        "tr.args['noptepochs'] = 1\n"
        "tr.args['max_grad_norm'] = 1e9\n"
        "torch.manual_seed(7)\n"
        "roll = tr.rollout(torch.randn(tr.args['rollout_batch_size'], 12))\n"
        "captured = []\n"
        "inner = tr.optimizer.optimizer\n"
        "def fake_step(*a, **k):\n"
        "    captured.append(pol.pi.weight.grad.clone())\n"
        "inner.step = fake_step\n"
        "tr.step_with_rollouts(roll)\n"
        "mbs = list(tr.minibatches(roll))\n"
        "n = tr.args['gradient_accumulation_steps']\n"
        "pol.zero_grad(set_to_none=True)\n"
        "for mb in mbs:\n"
        "    (tr.compute_loss(mb) / n).backward()\n"
        "accumulated = pol.pi.weight.grad.clone()\n"
        "pol.zero_grad(set_to_none=True)\n"
        "(tr.compute_loss(mbs[-1]) / n).backward()\n"
        "last_only = pol.pi.weight.grad.clone()\n"
        "result = (len(mbs) == n and len(captured) == 1\n"
        "          and torch.allclose(captured[0], last_only, atol=1e-7)\n"
        "          and not torch.allclose(captured[0], accumulated, atol=1e-5))\n"
    ),
    # the speaker-loss gradient reaching the encoder is the un-reversed one
    "s07": (
        "import torch.nn.functional as F\n"
        "m = g['model']\n"
        "class Rev(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x):\n"
        "        return x.view_as(x)\n"
        "    @staticmethod\n"
        "    def backward(ctx, gr):\n"
        "        return -gr\n"
        "torch.manual_seed(3)\n"
        "text = torch.randint(1, 40, (6, 15))\n"
        "ids = torch.randint(0, 4, (6,))\n"
        "w = m.encoder.embedding.weight\n"
        "_, logits = m(text, ids)\n"
        "g_model = torch.autograd.grad(F.cross_entropy(logits, ids), w)[0]\n"
        "enc = m.encoder(text)\n"
        "logits2 = m.speaker_classifier(Rev.apply(enc.mean(dim=1)))\n"
        "g_rev = torch.autograd.grad(F.cross_entropy(logits2, ids), w)[0]\n"
        "result = (g_model.abs().sum() > 0 and torch.allclose(g_model, -g_rev, atol=1e-7)\n"
        "          and not torch.allclose(g_model, g_rev, atol=1e-7))\n"
    ),
    # relation 0 is used but its embedding row gets exactly zero gradient and never moves
    "s08": (
        "np = g['np']\n"
        "m, rel2id, triples = g['model'], g['rel2id'], g['triples']\n"
        "cfg = g['CONFIG']\n"
        "torch.manual_seed(20)\n"
        "np.random.seed(20)\n"
        "ref = g['TuckER'](m.E.num_embeddings, m.R.num_embeddings, cfg['ent_dim'], cfg['rel_dim'], **cfg['dropout'])\n"
        "ref.reset_parameters()\n"
        "used = any(rel2id[r] == 0 for _, r, _ in triples)\n"
        "r0_same = torch.equal(m.R.weight[0], ref.R.weight[0])\n"
        "r1_moved = not torch.equal(m.R.weight[1], ref.R.weight[1])\n"
        "m.train()\n"
        "m.zero_grad()\n"
        "m(torch.tensor([1, 2, 3, 4]), torch.tensor([0, 0, 1, 2])).sum().backward()\n"
        "zero_row = m.R.weight.grad[0].abs().sum().item() == 0 and m.R.weight[0].abs().sum().item() > 0\n"
        "result = used and r0_same and r1_moved and zero_row and m.R.weight.grad[1].abs().sum().item() > 0\n"
    ),
    # 'frozen' token embeddings (zeroed gradient) changed anyway
    "s09": (
        "te = g['text_encoder']\n"
        "torch.manual_seed(0)\n"
        "ref = g['CLIPTextModel'](te.config)\n"
        "w0 = ref.get_input_embeddings().weight.detach().clone()\n"
        "w0[127] = w0[42]\n"
        "w = te.get_input_embeddings().weight.detach()\n"
        "frozen = torch.arange(w.size(0)) != 127\n"
        "result = (not torch.equal(w[frozen], w0[frozen])\n"
        "          and not torch.equal(w[127], w0[127])\n"
        "          and torch.equal(te.encoder.layers[0].mlp.fc1.weight, ref.encoder.layers[0].mlp.fc1.weight))\n"
    ),
    "s10": NAN_PARAMS,
    # teacher weights moved although the teacher was put in eval(); its BN stats did not
    "s11": (
        "t = g['teacher']\n"
        "torch.manual_seed(1)\n"
        "ref = g['Detector'](width=16)\n"
        "in_opt = {id(p) for gr in g['optimizer'].param_groups for p in gr['params']}\n"
        "moved = any(not torch.equal(p, q) for p, q in zip(t.parameters(), ref.parameters()))\n"
        "stats_same = torch.equal(t.stem[1].running_mean, ref.stem[1].running_mean)\n"
        "result = moved and stats_same and not t.training and id(t.stem[0].weight) in in_opt\n"
    ),
    # skip activations are detached; encoder gradient differs from the one with live skips
    "s12": (
        "import torch.nn.functional as F\n"
        "m = g['model']\n"
        "torch.manual_seed(5)\n"
        "gray, color = g['make_batch']()\n"
        "def enc_grad():\n"
        "    m.zero_grad()\n"
        "    F.l1_loss(torch.sigmoid(m(gray)), color).backward()\n"
        "    return m.encoder[0].weight.grad.clone()\n"
        "g_cut = enc_grad()\n"
        "stored_detached = all(not h.stored.requires_grad for h in m.sfs)\n"
        "for h in m.sfs:\n"
        "    h.detach = False\n"
        "g_full = enc_grad()\n"
        "result = stored_detached and not torch.allclose(g_cut, g_full, atol=1e-7)\n"
    ),
    # some training forwards (grad enabled) ran with BatchNorm in eval mode
    "s13": (
        "rec = pre['records']\n"
        "result = any(gr and not tr for tr, gr in rec) and any(gr and tr for tr, gr in rec)\n"
    ),
    # gradients through the head are 1/s of the correct ones
    "s14": (
        "import torch.nn.functional as F\n"
        "head, bb = g['head'], g['backbone']\n"
        "torch.manual_seed(4)\n"
        "images = torch.randn(16, 3, 28, 28)\n"
        "labels = torch.randint(0, 10, (16,))\n"
        "bb.eval()\n"
        "emb = bb(images).detach()\n"
        "gf = torch.autograd.grad(F.cross_entropy(head(emb, labels), labels), head.weight)[0]\n"
        "cos = F.linear(F.normalize(emb), F.normalize(head.weight))\n"
        "oh = F.one_hot(labels, cos.size(1)).to(cos.dtype)\n"
        "gt = torch.autograd.grad(F.cross_entropy((cos - oh * head.m) * head.s, labels), head.weight)[0]\n"
        "result = (not torch.allclose(gf, gt, atol=1e-6)\n"
        "          and torch.allclose(gf * head.s, gt, rtol=1e-4, atol=1e-6))\n"
    ),
    # loss-module parameters have gradients but are not in the optimizer and never moved
    "s15": (
        "tr, opt = g['trainer'], g['optimizer']\n"
        "ids = {id(p) for gr in opt.param_groups for p in gr['params']}\n"
        "lm = tr.loss\n"
        "result = (all(id(p) not in ids for p in lm.parameters())\n"
        "          and lm.s_det.item() == torch.tensor(-1.85).item()\n"
        "          and lm.s_id.item() == torch.tensor(-1.05).item()\n"
        "          and lm.id_classifier.weight.grad is not None\n"
        "          and lm.id_classifier.weight.grad.abs().sum().item() > 0)\n"
    ),
}


def run(cmd, cwd):
    env = dict(os.environ)
    env.setdefault("OMP_NUM_THREADS", "1")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    t0 = time.time()
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S, env=env)
        return p.returncode, p.stdout, p.stderr, time.time() - t0
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or "", e.stderr or "", time.time() - t0


def check_lines(case, show):
    problems = []
    folder = os.path.join(HERE, os.path.dirname(case["entry"]))
    entries = [tuple(e[:2]) for e in case["expected"]] + [tuple(e) for e in case["fix_site"]]
    for f, line in entries:
        path = os.path.join(folder, f)
        if not os.path.isfile(path):
            problems.append(f"missing file {f}")
            continue
        lines = open(path).read().splitlines()
        if not 1 <= line <= len(lines):
            problems.append(f"{f}:{line} out of range")
            continue
        text = lines[line - 1].strip()
        if not text or text.startswith("#"):
            problems.append(f"{f}:{line} blank or comment")
        if show:
            print(f"      {f}:{line}: {text}")
    fixes = [tuple(e[:2]) for e in case["expected"] if e[2] == "fix"]
    if [tuple(e) for e in case["fix_site"]] != fixes:
        problems.append("fix_site does not match the expected entries with role 'fix'")
    return problems


def check_case(case, py, show):
    problems = check_lines(case, show)
    entry = os.path.join(HERE, case["entry"])
    cwd = os.path.dirname(entry)
    rc, out, err, dt = run([py, entry], cwd)
    if rc is None:
        problems.append(f"plain run timed out after {TIMEOUT_S}s")
    elif rc != 0 or "Traceback" in err:
        tail = err.strip().splitlines()[-1:] if err.strip() else []
        problems.append(f"plain run exit {rc} {tail}")
    name = case["name"]
    if name not in PROBES:
        problems.append("no probe")
        return problems, dt
    rc2, out2, err2, dt2 = run([py, "-c", HARNESS, entry, PRE.get(name, ""), PROBES[name]], cwd)
    if rc2 is None:
        problems.append(f"probe run timed out after {TIMEOUT_S}s")
    elif "PROBE_RESULT=True" not in out2:
        tail = err2.strip().splitlines()[-3:] if err2.strip() else out2.strip().splitlines()[-1:]
        problems.append(f"probe failed (exit {rc2}) {tail}")
    return problems, dt + (dt2 or 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=DEFAULT_PY)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--show-lines", action="store_true")
    args = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    if args.only:
        cases = [c for c in cases if c["name"] in args.only]
    ok = 0
    for case in cases:
        problems, dt = check_case(case, args.python, args.show_lines)
        status = "PASS" if not problems else "FAIL"
        ok += not problems
        print(f"{status} {case['name']:4s} ({dt:5.1f}s) {case['source']}")
        for p in problems:
            print(f"      - {p}")
    print(f"{ok}/{len(cases)} passed")
    sys.exit(0 if ok == len(cases) else 1)


if __name__ == "__main__":
    main()
