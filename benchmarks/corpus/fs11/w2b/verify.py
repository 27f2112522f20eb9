#!/usr/bin/env python
"""Runs every case and checks exit status and, for silent bugs, a probe proving the harm."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/work/main/.venv/bin/python"
TIMEOUT = 30          # CPU seconds per run (wall-clock is capped generously: the machine is shared)
WALL = 400


def _limit_cpu(seconds):
    def setter():
        import resource
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds))
    return setter

PROBE = r'''
import json, runpy, sys, math, copy
import torch
cfg = json.loads(sys.argv[1])
out = {"step_grad_norms": [], "captured": None}
captured = {}

def step_pre_hook(opt, args, kwargs):
    tot = 0.0
    for g in opt.param_groups:
        for p in g["params"]:
            if p.grad is not None:
                tot += float(p.grad.double().pow(2).sum())
    out["step_grad_norms"].append(math.sqrt(tot))

from torch.optim.optimizer import register_optimizer_step_pre_hook
register_optimizer_step_pre_hook(step_pre_hook)

def fwd_pre_hook(mod, inp):
    name = type(mod).__name__
    if name == cfg.get("capture") and "module" not in captured:
        captured["module"] = mod
        captured["init"] = {k: v.detach().clone() for k, v in mod.named_parameters()}

torch.nn.modules.module.register_module_forward_pre_hook(fwd_pre_hook)
sys.argv = [cfg["entry"]]
runpy.run_path(cfg["entry"], run_name="__main__")
if "module" in captured:
    mod = captured["module"]
    res = {}
    for k, v in mod.named_parameters():
        init = captured["init"][k]
        res[k] = {"max_change": float((v.detach() - init).abs().max()),
                  "finite": bool(torch.isfinite(v).all()),
                  "final": v.detach().double().flatten()[:64].tolist()}
    out["captured"] = res
with open(cfg["out"], "w") as f:
    json.dump(out, f)
'''


def run_plain(case_dir, entry):
    p = subprocess.run([PY, entry], cwd=case_dir, capture_output=True, text=True,
                       timeout=WALL, preexec_fn=_limit_cpu(TIMEOUT))
    return p.returncode, p.stderr


def run_probe(case_dir, entry, capture=None, patch=None):
    tmp = tempfile.mkdtemp()
    try:
        work = os.path.join(tmp, "case")
        shutil.copytree(case_dir, work)
        patches = [patch] if patch and isinstance(patch[0], str) else (patch or [])
        for fname, line, old, new in patches:
            path = os.path.join(work, fname)
            lines = open(path).read().split("\n")
            assert old in lines[line - 1], (fname, line, lines[line - 1])
            lines[line - 1] = lines[line - 1].replace(old, new)
            open(path, "w").write("\n".join(lines))
        outp = os.path.join(tmp, "out.json")
        cfg = {"entry": entry, "capture": capture, "out": outp}
        p = subprocess.run([PY, "-c", PROBE, json.dumps(cfg)], cwd=work, capture_output=True,
                           text=True, timeout=WALL, preexec_fn=_limit_cpu(TIMEOUT))
        if p.returncode != 0:
            raise RuntimeError(p.stderr[-2000:])
        return json.load(open(outp))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def probe_s09(case_dir, entry):
    bug = run_probe(case_dir, entry)
    fixed = run_probe(case_dir, entry, patch=("distiller.py", 37, "loss.backward()",
                                              "(loss / self.grad_accum).backward()"))
    b, f = bug["step_grad_norms"][0], fixed["step_grad_norms"][0]
    ratio = b / f
    return abs(ratio - 4.0) < 1e-3, f"first-step grad norm ratio bug/fixed = {ratio:.4f}"


def probe_s10(case_dir, entry):
    bug = run_probe(case_dir, entry, capture="ImagenetTransferLearning")["captured"]
    fe = [v["max_change"] for k, v in bug.items() if k.startswith("feature_extractor.")]
    fixed = run_probe(case_dir, entry, capture="ImagenetTransferLearning",
                      patch=("model.py", 18, "self.feature_extractor.eval()",
                             "self.feature_extractor.requires_grad_(False)"))["captured"]
    fe_fixed = [v["max_change"] for k, v in fixed.items() if k.startswith("feature_extractor.")]
    ok = max(fe) > 1e-4 and max(fe_fixed) == 0.0
    return ok, f"frozen backbone max change: bug {max(fe):.3g}, fixed {max(fe_fixed):.3g}"


def probe_s11(case_dir, entry):
    bug = run_probe(case_dir, entry, capture="enhance_net_nopool")["captured"]
    nonfinite = [k for k, v in bug.items() if not v["finite"]]
    fixed = run_probe(case_dir, entry, capture="enhance_net_nopool",
                      patch=("Myloss.py", 13, "torch.pow(Dgb, 2), 0.5)",
                             "torch.pow(Dgb, 2) + 1e-8, 0.5)"))["captured"]
    fixed_nonfinite = [k for k, v in fixed.items() if not v["finite"]]
    ok = len(nonfinite) == len(bug) and not fixed_nonfinite
    return ok, f"non-finite params: bug {len(nonfinite)}/{len(bug)}, fixed {len(fixed_nonfinite)}"


def probe_s12(case_dir, entry):
    bug = run_probe(case_dir, entry)["step_grad_norms"]
    fixed = run_probe(case_dir, entry, patch=[
        ("example.py", 50, "torch.nn.utils.clip_grad_norm_(model.parameters(), gradient_clipping_norm)", "pass"),
        ("example.py", 52, "loss.backward()",
         "loss.backward(); torch.nn.utils.clip_grad_norm_(model.parameters(), gradient_clipping_norm)"),
    ])["step_grad_norms"]
    ok = min(bug) > 1.5 and max(fixed) <= 1.0 + 1e-4
    return ok, f"grad norm at steps (clip 1.0): bug min {min(bug):.3g}, fixed max {max(fixed):.3g}"


def probe_s13(case_dir, entry):
    bug = run_probe(case_dir, entry)["step_grad_norms"]
    fixed = run_probe(case_dir, entry, patch=(
        "train.py", 45,
        "model, train_dataloader, lr_scheduler = accelerator.prepare(model, train_dataloader, lr_scheduler)",
        "model, optimizer, train_dataloader, lr_scheduler = accelerator.prepare("
        "model, optimizer, train_dataloader, lr_scheduler)"))["step_grad_norms"]
    ok = len(bug) == 8 and len(fixed) == 2
    return ok, f"optimizer steps over 8 micro-batches (accumulation 4): bug {len(bug)}, fixed {len(fixed)}"


def probe_s14(case_dir, entry):
    cap = "Embedding"
    bug = run_probe(case_dir, entry, capture=cap)["captured"]["weight"]["final"]
    big = run_probe(case_dir, entry, capture=cap,
                    patch=("conf.py", 11, '"latent_lambda": 1e-2', '"latent_lambda": 10.0'))["captured"]["weight"]["final"]
    fixed = run_probe(case_dir, entry, capture=cap,
                      patch=("run.py", 68, "loss = mnfld_loss + self.grad_lambda * grad_loss",
                             "loss = mnfld_loss + self.grad_lambda * grad_loss + self.latent_lambda * latent_loss")
                      )["captured"]["weight"]["final"]
    ok = bug == big and bug != fixed
    return ok, (f"latent codes identical with latent_lambda 1e-2 vs 10: {bug == big}; "
                f"differ from fixed run: {bug != fixed}")


def probe_s15(case_dir, entry):
    cap = "Embedding"
    key = "_embeddings.weight"
    bug = run_probe(case_dir, entry, capture=cap)["captured"][key]["final"]
    big = run_probe(case_dir, entry, capture=cap,
                    patch=("pipeline.py", 13, '"weight": 0.5', '"weight": 50.0'))["captured"][key]["final"]
    fixed = run_probe(case_dir, entry, capture=cap,
                      patch=("regularizers.py", 26, "self.regularization_term.detach_().zero_()",
                             "self.regularization_term = torch.zeros(1, dtype=torch.float)"))["captured"][key]["final"]
    ok = bug == big and bug != fixed
    return ok, (f"entity embeddings identical with reg weight 0.5 vs 50: {bug == big}; "
                f"differ from fixed run: {bug != fixed}")


PROBES = {"s09": probe_s09, "s10": probe_s10, "s11": probe_s11, "s12": probe_s12, "s13": probe_s13, "s14": probe_s14, "s15": probe_s15}


def main():
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    passed = 0
    for c in cases:
        entry_path = os.path.join(HERE, c["entry"])
        case_dir, entry = os.path.dirname(entry_path), os.path.basename(entry_path)
        try:
            rc, err = run_plain(case_dir, entry)
            want = 1 if c["error"] else 0
            ok, msg = rc == want, f"rc={rc}"
            if ok and c["error"]:
                last = [l for l in err.strip().splitlines() if l.strip()][-1]
                ok = re.search(c["error_regex"], last) is not None
                msg += f" last={last[:80]!r}"
            if ok and c["kind"] == "bug" and not c["error"]:
                ok, pmsg = PROBES[c["name"]](case_dir, entry)
                msg += " " + pmsg
        except Exception as e:  # noqa: BLE001
            ok, msg = False, f"exception {type(e).__name__}: {str(e)[-300:]}"
        passed += ok
        print(f"{'PASS' if ok else 'FAIL'} {c['name']}: {msg}")
    print(f"{passed}/{len(cases)} passed")
    sys.exit(0 if passed == len(cases) else 1)


if __name__ == "__main__":
    main()
