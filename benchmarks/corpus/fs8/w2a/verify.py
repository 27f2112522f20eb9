#!/usr/bin/env python
"""Run every case under plain Python and prove the harm of each silent bug with an outside probe."""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/work/main/.venv/bin/python"
LIMIT = 30

PRELUDE = "import sys, runpy, copy, torch\nsys.path.insert(0, '.')\n"

PROBES = {}

PROBES["s01"] = PRELUDE + r'''
import nets, inference
created = []
_orig_build = inference.build_density_estimator
def _build(*a, **k):
    net = _orig_build(*a, **k)
    created.append((net, {n: p.detach().clone() for n, p in net.named_parameters()}))
    return net
inference.build_density_estimator = _build
insts = []
_orig_init = inference.SNPE.__init__
def _init(self, *a, **k):
    _orig_init(self, *a, **k)
    insts.append(self)
inference.SNPE.__init__ = _init
sys.argv = ["run.py"]
runpy.run_path("run.py", run_name="__main__")
snpe = insts[0]
final = snpe._neural_net
init_state = [s for n, s in created if n is final][0]
opt_ids = {id(p) for g in snpe.optimizer.param_groups for p in g["params"]}
outside = all(id(p) not in opt_ids for p in final.parameters())
unchanged = all(torch.equal(p.detach(), init_state[n]) for n, p in final.named_parameters())
print(f"PROBE nets_built={len(created)} final_net_outside_optimizer={outside} final_net_unchanged={unchanged}")
sys.exit(0 if (len(created) == 2 and outside and unchanged) else 1)
'''

PROBES["s02"] = PRELUDE + r'''
import compat, metrics
heads = []
_orig_init = metrics.ArcMarginProduct.__init__
def _init(self, *a, **k):
    _orig_init(self, *a, **k)
    heads.append(self)
metrics.ArcMarginProduct.__init__ = _init
runpy.run_path("train.py", run_name="__main__")
w = heads[0].weight.detach()
nan_head = bool(torch.isnan(w).any())
print(f"PROBE head_weight_has_nan={nan_head}")
sys.exit(0 if nan_head else 1)
'''

PROBES["s03"] = PRELUDE + r'''
g = runpy.run_path("run_lab.py", run_name="__main__")
agent = g["session"].agent
same_eval = agent.eval_net is agent.net
same_online = agent.online_net is agent.net
has_target = hasattr(agent, "target_net") and agent.target_net is not agent.net
print(f"PROBE algo={type(agent).__name__} eval_net_is_online={same_eval} online_net_is_online={same_online} separate_target_exists={has_target}")
sys.exit(0 if (same_eval and same_online and has_target) else 1)
'''

PROBES["s04"] = PRELUDE + r'''
import trainer, losses
rec = {"mbs": [], "n": None, "result": None}
_fb = trainer.RLTrainer.forward_backward
def fb(self, mb, n):
    if rec["result"] is None and not rec["mbs"]:
        rec["model"] = copy.deepcopy(self.model)
    if rec["result"] is None:
        rec["mbs"].append(mb)
        rec["n"] = n
    return _fb(self, mb, n)
_os = trainer.RLTrainer.optim_step
def os_(self):
    if rec["result"] is None:
        got = {n: p.grad.detach().clone() for n, p in self.model.named_parameters() if p.grad is not None}
        ref = rec["model"]
        ref.zero_grad(set_to_none=True)
        for mb in rec["mbs"]:
            losses.policy_gradient_loss(ref, mb, 1.0 / rec["n"]).backward()
        full = {n: p.grad.detach().clone() for n, p in ref.named_parameters() if p.grad is not None}
        ref.zero_grad(set_to_none=True)
        losses.policy_gradient_loss(ref, rec["mbs"][-1], 1.0 / rec["n"]).backward()
        last = {n: p.grad.detach().clone() for n, p in ref.named_parameters() if p.grad is not None}
        scale = max(v.abs().max().item() for v in full.values())
        d_full = max((got[n] - full[n]).abs().max().item() for n in full)
        d_last = max((got[n] - last[n]).abs().max().item() for n in last)
        rec["result"] = (len(rec["mbs"]), scale, d_full, d_last)
    return _os(self)
trainer.RLTrainer.forward_backward = fb
trainer.RLTrainer.optim_step = os_
runpy.run_path("controller.py", run_name="__main__")
n_mb, scale, d_full, d_last = rec["result"]
print(f"PROBE microbatches={n_mb} max|grad_ref|={scale:.3e} max|grad-accumulated_ref|={d_full:.3e} max|grad-last_microbatch_only|={d_last:.3e}")
sys.exit(0 if (n_mb > 1 and d_full > 1e-2 * scale and d_last < 1e-4 * scale) else 1)
'''

PROBES["s05"] = PRELUDE + r'''
import impulse_responses
g = runpy.run_path("train.py", run_name="__main__")
conv = g["model"].frontend._complex_conv
init = impulse_responses.mel_init(conv._filters, conv._kernel_size)
unchanged = torch.equal(conv._kernel.detach(), init)
no_grad = conv._kernel.grad is None
head_moved = g["model"].head.weight.grad is not None
print(f"PROBE gabor_kernel_unchanged={unchanged} gabor_kernel_grad_is_None={no_grad} head_has_grad={head_moved}")
sys.exit(0 if (unchanged and no_grad and head_moved) else 1)
'''

PROBES["s06"] = PRELUDE + r'''
import compat, dgfe
grads = []
_orig_fwd = dgfe.DGFE.forward
def fwd(self, feat, dm):
    if not getattr(self, "_probe_hooked", False):
        self._probe_hooked = True
        self.learnable_thresh.register_hook(lambda g: grads.append(g.detach().clone()))
    return _orig_fwd(self, feat, dm)
dgfe.DGFE.forward = fwd
g = runpy.run_path("train.py", run_name="__main__")
th = g["model"].dgfe.learnable_thresh.detach()
unchanged = torch.equal(th, torch.tensor(g["CFG"]["dgfe"]["thresh_init"]))
all_zero = len(grads) > 0 and all(float(x.abs().max()) == 0.0 for x in grads)
print(f"PROBE thresh={th.item():.6f} unchanged={unchanged} grad_steps={len(grads)} all_grads_zero={all_zero}")
sys.exit(0 if (unchanged and all_zero) else 1)
'''

PROBES["s07"] = PRELUDE + r'''
import compat
import accelerate
from data import DataLoaderLite
rec = {}
_prep = accelerate.Accelerator.prepare
def prep(self, *args):
    out = _prep(self, *args)
    rec["model"] = out[0]
    return out
accelerate.Accelerator.prepare = prep
_step = torch.optim.AdamW.step
def step(self, *a, **k):
    if "cos" not in rec:
        model = rec["model"]
        got = torch.cat([p.grad.detach().flatten() for p in model.parameters()])
        ref = copy.deepcopy(model)
        def grads_for(split):
            ref.zero_grad(set_to_none=True)
            x, y = DataLoaderLite(4, 16, 96, split, 0).next_batch()
            ref(input_ids=x, labels=y).loss.backward()
            return torch.cat([p.grad.detach().flatten() for p in ref.parameters()])
        g_train = grads_for("train")
        g_val = grads_for("val")
        cos = torch.nn.functional.cosine_similarity
        rec["cos"] = (cos(got, g_train, dim=0).item(), cos(got, g_train + g_val, dim=0).item())
    return _step(self, *a, **k)
torch.optim.AdamW.step = step
sys.argv = ["train_gpt2.py"]
runpy.run_path("train_gpt2.py", run_name="__main__")
c_train, c_mixed = rec["cos"]
print(f"PROBE first_step cos(grad, train_batch_grad)={c_train:.4f} cos(grad, train+init_check_grad)={c_mixed:.6f}")
sys.exit(0 if (c_train < 0.95 and c_mixed > 0.999) else 1)
'''

PROBES["s08"] = PRELUDE + r'''
norms = []
_step = torch.optim.Adam.step
def step(self, *a, **k):
    ps = [p for g in self.param_groups for p in g["params"] if p.grad is not None]
    norms.append(torch.norm(torch.stack([p.grad.detach().norm() for p in ps])).item())
    return _step(self, *a, **k)
torch.optim.Adam.step = step
g = runpy.run_path("train.py", run_name="__main__")
clip = g["config"]["clip_gradient_norm"]
print(f"PROBE clip={clip} grad_norms_at_step={[round(n, 3) for n in norms]}")
sys.exit(0 if (norms and all(n > clip * 1.5 for n in norms)) else 1)
'''


def run(cmd, cwd):
    try:
        env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=LIMIT, env=env)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        def _s(v):
            return v.decode(errors="replace") if isinstance(v, bytes) else (v or "")
        return 124, _s(e.stdout), _s(e.stderr)


def main():
    with open(os.path.join(HERE, "cases.json")) as f:
        cases = json.load(f)
    passed = 0
    for case in cases:
        name = case["name"]
        entry = os.path.join(HERE, case["entry"])
        cwd = os.path.dirname(entry)
        rc, out, err = run([PY, os.path.basename(entry)], cwd)
        expected_rc = 1 if case["error"] else 0
        ok = rc == expected_rc
        detail = f"rc={rc}"
        if ok and case["error"]:
            lines = [l for l in err.strip().splitlines() if l.strip()]
            last = lines[-1] if lines else ""
            ok = re.search(case["error_regex"], last) is not None
            detail += f" last={last!r}"
        if ok and case["kind"] == "bug" and not case["error"]:
            prc, pout, perr = run([PY, "-c", PROBES[name]], cwd)
            probe_lines = [l for l in pout.splitlines() if l.startswith("PROBE")]
            ok = prc == 0
            detail += f" probe_rc={prc} " + (probe_lines[-1] if probe_lines else perr.strip()[-300:])
        passed += ok
        print(f"{'PASS' if ok else 'FAIL'} {name}: {detail}")
    print(f"TOTAL {passed}/{len(cases)} passed")
    sys.exit(0 if passed == len(cases) else 1)


if __name__ == "__main__":
    main()
