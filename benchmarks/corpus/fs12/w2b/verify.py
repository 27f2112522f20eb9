import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PY = sys.executable
ENV = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")

# expected line -> substring it must contain (guards against line drift)
SNIPPETS = {
    "s09": {("train.py", 35): "fake_spec.detach(), f)", ("train.py", 36): "g_adv = F.mse_loss",
            ("train.py", 33): "fake_spec, f = self.g(img)", ("train.py", 62): "loss.backward()",
            ("model.py", 40): "self.dec = SpecDecoder"},
    "s10": {("policy.py", 58): "self.target_qmix_net.load_state_dict(self.target_qmix_net",
            ("policy.py", 43): "q_total_target = self.target_qmix_net(", ("policy.py", 14): "self.target_qmix_net = QMixNet",
            ("policy.py", 53): "self.update_target()", ("policy.py", 48): "loss.backward()"},
    "s11": {("train_glue.py", 47): "optimizer = build_optimizer(model, args)",
            ("train_glue.py", 48): "model.add_adapter(", ("modeling.py", 48): "block.adapters[name] = BottleneckAdapter",
            ("train_glue.py", 61): "optimizer.step()"},
    "s12": {("layers.py", 33): 'masked_fill(mask == 0, -float("inf"))', ("layers.py", 34): "softmax(dim=-1)",
            ("sasrec.py", 23): "attn_mask = causality_mask", ("main.py", 13): "self.lengths = torch.randint(0,",
            ("main.py", 47): "loss.backward()"},
    "s13": {("adding_task.py", 30): "model.train()", ("utils.py", 19): "model.eval()",
            ("adding_task.py", 40): "utils.test(model", ("model.py", 22): "self.drop = nn.Dropout",
            ("adding_task.py", 33): "out = model(data)"},
    "s14": {("flow_module.py", 42): "se3_vf_loss += auxiliary_loss",
            ("flow_module.py", 55): 'train_loss = total_losses[self._exp_cfg["loss"]] + total_losses["auxiliary_loss"]',
            ("flow_module.py", 41): "auxiliary_loss = auxiliary_loss * cfg", ("train_se3_flows.py", 49): "train_loss.backward()"},
    "s15": {("hdmnet.py", 66): "model.cls_meta.parameters()", ("hdmnet.py", 29): "self.kshot_rw = nn.Sequential(",
            ("hdmnet.py", 51): "self.kshot_rw(sims)", ("train.py", 48): "optimizer.step()"},
}

FIXES = {
    "s09": [("train.py", "d_fake = self.d(fake_spec.detach(), f)", "d_fake = self.d(fake_spec, f)")],
    "s10": [("policy.py", "self.target_qmix_net.load_state_dict(self.target_qmix_net.state_dict())\n",
             "self.target_qmix_net.load_state_dict(self.eval_qmix_net.state_dict())\n")],
    "s11": [("train_glue.py",
             "    optimizer = build_optimizer(model, args)\n    model.add_adapter(args.task_name, reduction=args.adapter_reduction)\n    model.train_adapter(args.task_name)\n",
             "    model.add_adapter(args.task_name, reduction=args.adapter_reduction)\n    model.train_adapter(args.task_name)\n    optimizer = build_optimizer(model, args)\n")],
    "s12": [("layers.py", 'masked_fill(mask == 0, -float("inf"))', "masked_fill(mask == 0, -1e9)")],
    "s13": [("adding_task.py", "    model.train()\n    for i in range(args.max_steps):\n",
             "    for i in range(args.max_steps):\n        model.train()\n")],
    "s14": [("flow_module.py", "        se3_vf_loss += auxiliary_loss\n", "")],
    "s15": [("hdmnet.py", '{"params": model.cls_meta.parameters()},',
             '{"params": model.cls_meta.parameters()}, {"params": model.kshot_rw.parameters()},')],
}

PROBES = {}


def probe(fn):
    PROBES[fn.__name__[6:]] = fn
    return fn


@probe
def probe_s09():
    import torch
    import train
    cfg = dict(train.DEFAULTS, rec_weight=0.0)
    torch.manual_seed(0)
    module = train.Image2Reverb(cfg)
    batch = next(train.fake_loader(cfg, 1))
    loss, _ = module.training_step(batch, 0)
    loss.backward()
    g = [p.grad for p in module.g.dec.parameters()]
    return all(x is None or float(x.abs().sum()) == 0.0 for x in g)


@probe
def probe_s10():
    import torch
    import policy
    import runner
    store = []
    orig = policy.QMIX.__init__

    def init(self, args):
        orig(self, args)
        store.append({k: v.clone() for k, v in self.target_qmix_net.state_dict().items()})
    policy.QMIX.__init__ = init
    pol = runner.run()
    now = pol.target_qmix_net.state_dict()
    stale = all(torch.equal(now[k], store[0][k]) for k in now)
    moved = any(not torch.equal(pol.eval_qmix_net.state_dict()[k], store[0][k]) for k in now)
    return stale and moved


@probe
def probe_s11():
    import train_glue
    model = train_glue.main([])
    ups = [b.adapters["mnli"].up.weight for b in model.blocks]
    return all(float(w.detach().abs().sum()) == 0.0 for w in ups) and all(
        w.grad is not None and float(w.grad.abs().sum()) > 0 for w in ups)


@probe
def probe_s12():
    import torch
    import main
    model = main.main()
    return any(not torch.isfinite(p).all() for p in model.parameters())


@probe
def probe_s13():
    import torch
    import torch.nn as nn
    calls = []
    orig = nn.Dropout.forward

    def fwd(self, x):
        calls.append((self.training, torch.is_grad_enabled()))
        return orig(self, x)
    nn.Dropout.forward = fwd
    import adding_task
    adding_task.main([])
    return any(g and not t for t, g in calls)


@probe
def probe_s14():
    import torch
    import flow_module
    import train_se3_flows as ts
    torch.manual_seed(0)
    module = flow_module.FlowModule(ts.EXP_CFG)
    batch = ts.sample_batch(ts.EXP_CFG, torch.Generator().manual_seed(0))
    train_loss, losses = module.training_step(batch)
    intended = losses["trans_loss"] + losses["rots_vf_loss"] + losses["auxiliary_loss"]
    assert float(losses["auxiliary_loss"]) > 1e-3
    return abs(float(train_loss - intended)) > 1e-4 * float(intended)


@probe
def probe_s15():
    import torch
    import hdmnet
    import train
    store = []
    orig = hdmnet.OneModel.__init__

    def init(self, args):
        orig(self, args)
        store.append({k: v.clone() for k, v in self.kshot_rw.state_dict().items()})
    hdmnet.OneModel.__init__ = init
    model = train.main()
    now = model.kshot_rw.state_dict()
    has_grad = all(p.grad is not None and float(p.grad.abs().sum()) > 0 for p in model.kshot_rw.parameters())
    return has_grad and all(torch.equal(now[k], store[0][k]) for k in now)


def run_probe(name, case_dir):
    r = subprocess.run([PY, os.path.abspath(__file__), "--probe", name, case_dir], capture_output=True,
                       text=True, env=ENV, cwd=case_dir, timeout=120)
    last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
    if r.returncode != 0 or last not in ("HARM", "NOHARM"):
        return None, r.stderr[-800:]
    return last == "HARM", ""


def run_entry(case_dir, entry_rel):
    r = subprocess.run([PY, os.path.basename(entry_rel)], capture_output=True, text=True, env=ENV,
                       cwd=case_dir, timeout=120)
    return r


def check_case(case):
    name = case["name"]
    entry = os.path.join(HERE, case["entry"])
    case_dir = os.path.dirname(entry)
    problems = []
    for f, line, role in case["expected"]:
        path = os.path.join(case_dir, f)
        lines = open(path).read().splitlines()
        if line > len(lines) or not lines[line - 1].strip():
            problems.append(f"expected {f}:{line} missing/blank")
            continue
        snip = SNIPPETS.get(name, {}).get((f, line))
        if snip and snip not in lines[line - 1]:
            problems.append(f"expected {f}:{line} does not contain {snip!r}")
    for f, line in case["fix_site"]:
        if not any(e[0] == f and e[1] == line for e in case["expected"]):
            problems.append(f"fix_site {f}:{line} not in expected")
    if case["expected"] and case["expected"][0][2] != "fix":
        problems.append("first expected line is not the fix")
    r = run_entry(case_dir, case["entry"])
    if case["error"]:
        problems.append("error cases not used in this batch")
    elif r.returncode != 0:
        problems.append(f"exit {r.returncode}: {r.stderr[-400:]}")
    if case["kind"] == "bug":
        harm, err = run_probe(name, case_dir)
        if harm is not True:
            problems.append(f"probe did not confirm harm ({err})")
        tmp = tempfile.mkdtemp()
        try:
            fixed = os.path.join(tmp, name)
            shutil.copytree(case_dir, fixed)
            for f, old, new in FIXES[name]:
                p = os.path.join(fixed, f)
                src = open(p).read()
                if src.count(old) != 1:
                    problems.append(f"fix text not unique in {f}")
                open(p, "w").write(src.replace(old, new))
            r2 = run_entry(fixed, case["entry"])
            if r2.returncode != 0:
                problems.append(f"fixed copy exits {r2.returncode}: {r2.stderr[-400:]}")
            harm2, err2 = run_probe(name, fixed)
            if harm2 is not False:
                problems.append(f"fix does not remove harm ({harm2}, {err2})")
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return problems


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--probe":
        import torch
        torch.set_num_threads(1)
        sys.path.insert(0, sys.argv[3])
        os.chdir(sys.argv[3])
        import contextlib
        import io
        name = sys.argv[2]
        sys.argv = [sys.argv[0]]
        with contextlib.redirect_stdout(io.StringIO()):
            harm = PROBES[name]()
        print("HARM" if harm else "NOHARM")
        return 0
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    failed = 0
    for case in cases:
        problems = check_case(case)
        if problems:
            failed += 1
            print(f"{case['name']}: FAIL " + "; ".join(problems))
        else:
            print(f"{case['name']}: ok")
    print("ALL OK" if not failed else f"{failed} case(s) failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main() or 0)
