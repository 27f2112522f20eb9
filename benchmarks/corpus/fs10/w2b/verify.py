"""Runs every case of this part and checks exit status, error regex and, for silent bugs, a probe."""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/work/main/.venv/bin/python"
LIMIT = 30
ENV = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")


# --------------------------------------------------------------------------- probe side
def _probe_main(name):
    import runpy
    import torch
    from torch.optim.optimizer import register_optimizer_step_pre_hook

    case = next(c for c in json.load(open(os.path.join(HERE, "cases.json"))) if c["name"] == name)
    entry = os.path.join(HERE, case["entry"])
    case_dir = os.path.dirname(entry)
    os.chdir(case_dir)
    sys.path.insert(0, case_dir)
    sys.argv = [entry]

    first_seen = {}   # id(param) -> (param, value when first used in a forward)

    def pre_hook(module, args):
        for p in module.parameters(recurse=False):
            if id(p) not in first_seen:
                first_seen[id(p)] = (p, p.detach().clone())

    torch.nn.modules.module.register_module_forward_pre_hook(pre_hook)

    step_grad_norms = []

    def step_hook(opt, args, kwargs):
        grads = [p.grad.detach() for g in opt.param_groups for p in g["params"] if p.grad is not None]
        if grads:
            step_grad_norms.append(float(torch.linalg.vector_norm(
                torch.stack([torch.linalg.vector_norm(g) for g in grads]))))

    register_optimizer_step_pre_hook(step_hook)

    g = runpy.run_path(entry, run_name="__main__")

    def unchanged(p):
        _, v = first_seen[id(p)]
        return torch.equal(p.detach(), v)

    ok, msg = False, ""
    if name == "s09":
        m = g["model"]
        hid = [unchanged(l.weight) and unchanged(l.bias) for l in m.hids]
        head = unchanged(m.classifier.weight)
        ok = all(hid) and not head
        msg = f"hidden layers unchanged={hid}, classifier unchanged={head}"
    elif name == "s10":
        m = g["model"]
        fc = unchanged(m.resnet.fc[0].weight)
        conv = unchanged(m.resnet.conv1.weight)
        lstm = unchanged(m.lstm.weight_ih_l0)
        ok = fc and conv and not lstm
        msg = f"resnet.fc unchanged={fc}, resnet.conv1 unchanged={conv}, lstm unchanged={lstm}"
    elif name == "s11":
        m = g["model"]
        bad = [n for n, p in m.named_parameters() if not torch.isfinite(p).all()]
        ok = len(bad) > 0
        msg = f"{len(bad)} parameters non-finite after training"
    elif name == "s12":
        clip = g["ARGS"]["clip"]
        over = [n for n in step_grad_norms if n > clip * 1.01]
        ok = len(step_grad_norms) > 0 and len(over) == len(step_grad_norms)
        msg = f"grad norm at optimizer.step > clip={clip} in {len(over)}/{len(step_grad_norms)} steps (max {max(step_grad_norms):.1f})"
    elif name == "s13":
        m, tr = g["model"], g["trainer"]
        p = m.adj_mask_train
        in_opt = any(q is p for grp in tr.optimizer.param_groups for q in grp["params"])
        still_binary = bool(((p == 0) | (p == 1)).all())
        has_grad = p.grad is not None and bool(p.grad.abs().sum() > 0)
        ok = (not in_opt) and still_binary and has_grad
        msg = (f"current edge mask in optimizer={in_opt}, still exactly the 0/1 pruning values={still_binary}, "
               f"has nonzero grad={has_grad}")
    elif name == "s14":
        limit = g["CONFIG"]["MaxGradNorm"]
        over = [n for n in step_grad_norms if n > limit * 1.01]
        ok = len(step_grad_norms) > 0 and len(over) >= len(step_grad_norms) // 2
        msg = (f"grad norm at optimizer.step > MaxGradNorm={limit} in {len(over)}/{len(step_grad_norms)} steps "
               f"(max {max(step_grad_norms):.2f})")
    else:
        msg = "no probe"
    print("PROBE " + json.dumps({"ok": bool(ok), "msg": msg}))


# --------------------------------------------------------------------------- driver side
def run_case(case):
    entry = os.path.join(HERE, case["entry"])
    case_dir = os.path.dirname(entry)
    try:
        plain = subprocess.run([PY, os.path.basename(entry)], cwd=case_dir, capture_output=True,
                               text=True, timeout=LIMIT, env=ENV)
    except subprocess.TimeoutExpired:
        return False, "timeout (plain run)"
    want_rc = 1 if case["error"] else 0
    if plain.returncode != want_rc:
        tail = plain.stderr.strip().splitlines()[-1:] if plain.stderr.strip() else []
        return False, f"exit {plain.returncode}, expected {want_rc} {tail}"
    if case["error"]:
        last = plain.stderr.strip().splitlines()[-1]
        if not re.search(case["error_regex"], last):
            return False, f"last stderr line does not match: {last}"
        return True, last
    if case["kind"] == "clean":
        return True, "exit 0"
    try:
        probe = subprocess.run([PY, os.path.abspath(__file__), "--probe", case["name"]], cwd=case_dir,
                               capture_output=True, text=True, timeout=LIMIT, env=ENV)
    except subprocess.TimeoutExpired:
        return False, "timeout (probe run)"
    lines = [l for l in probe.stdout.splitlines() if l.startswith("PROBE ")]
    if probe.returncode != 0 or not lines:
        return False, f"probe failed: rc={probe.returncode} {probe.stderr.strip().splitlines()[-1:]}"
    res = json.loads(lines[-1][6:])
    return res["ok"], "probe: " + res["msg"]


def main():
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    passed = 0
    for case in cases:
        ok, msg = run_case(case)
        passed += ok
        print(f"{'PASS' if ok else 'FAIL'} {case['name']}: {msg}", flush=True)
    print(f"TOTAL {passed}/{len(cases)} passed")
    return 0 if passed == len(cases) else 1


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--probe":
        _probe_main(sys.argv[2])
    else:
        sys.exit(main())
