#!/usr/bin/env python3
"""Checks the cases of this batch.

For every case in cases.json:
  * every `expected` entry points at an existing, non-blank, non-comment line, and
    every `fix_site` line is listed in `expected` with role "fix";
  * the entry runs with /work/main/.venv/bin/python from its own folder (30 s limit,
    OMP_NUM_THREADS=1);
  * error cases: exit status 1; `error_regex` must match the exception line of the
    uncaught error, i.e. the last stderr line that starts an exception
    ("<Type>: message"; for single-line messages this is the last stderr line);
    the line with role "raises" must appear as a frame in the traceback;
  * the fix given below (a one-line edit of the first fix site) is applied to a
    copy of the case, which must then exit 0;
  * silent/clean cases (none in this batch) would need exit status 0.

Usage: OMP_NUM_THREADS=1 python3 verify.py [--python PY] [--only NAME ...]
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
PY = "/work/main/.venv/bin/python"
TIMEOUT = 30

# (file, exact text of the line at the first fix site, replacement line)
FIXES = {
    "e01": ("config.py", '        "activation_checkpointing_kwargs": {"use_reentrant": True},',
            '        "activation_checkpointing_kwargs": {"use_reentrant": False},'),
    "e02": ("optim.py", "            loss = closure()",
            "            loss = torch.enable_grad()(closure)()"),
    "e03": ("train.py", "                self.update_hessian(logits)",
            "                self.update_hessian(self.model(X, Y)[0])"),
    "e04": ("train.py", "        accelerator.backward(criterion(output, target))",
            "        accelerator.backward(criterion(model(images), target))"),
    "e05": ("model.py", "        hidden = self.encoder.generate(**batch, generation_config=self.gen_cfg, output_hidden_states=True, return_dict_in_generate=True).hidden_states[0]",
            "        hidden = self.encoder(**batch, output_hidden_states=True).hidden_states"),
    "e06": ("precond.py", "                self._handles.append(module.register_full_backward_hook(self._save_grad_output))",
            "                self._handles.append(module.register_forward_hook(lambda m, i, o: o.register_hook(lambda g, m=m: self._save_grad_output(m, None, (g,))) and None))"),
    "e07": ("quant.py", "        return F.linear(input, weights_deq, bias)",
            "        return F.linear(input, weights_deq, bias).clone()"),
    "e08": ("train.py", "        moe.register_forward_hook(lambda module, args, output: update_expert_bias(module))",
            "        optimizer.register_step_post_hook(lambda opt, args, kwargs, moe=moe: update_expert_bias(moe))"),
    "e09": ("train.py", "        model.v2_transform()",
            "        with torch.no_grad(): model.v2_transform()"),
    "e10": ("backbone.py", "        x += x_conv", "        x = x + x_conv"),
    "e11": ("model.py", "            logits = F.linear(feat, self.embedding.weight)",
            "            logits = F.linear(feat, self.embedding.weight.clone())"),
    "e12": ("lite.py", "        nn.Dropout(p=dropout, inplace=True),", "        nn.Dropout(p=dropout, inplace=False),"),
    "e13": ("layers.py", "        if (seqlen > self._seq_len_cached or self._cos_cached is None or self._cos_cached.device != device or self._cos_cached.dtype != dtype):",
            "        if (seqlen > self._seq_len_cached or self._cos_cached is None or self._cos_cached.device != device or self._cos_cached.dtype != dtype or (self.training and self._cos_cached.is_inference())):"),
    "e14": ("train.py", '    "carry_state": True,', '    "carry_state": False,'),
    "e15": ("models.py", "        return ce_loss.unsqueeze(1)", "        return ce_loss.mean()"),
}

EXC_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Interrupt|Exit)\b.*(:|$)")


def run(py, case_dir, entry):
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")
    try:
        p = subprocess.run([py, os.path.basename(entry)], cwd=case_dir, env=env,
                           capture_output=True, text=True, timeout=TIMEOUT)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timeout"


def exception_line(stderr):
    lines = [l for l in stderr.splitlines() if l.strip()]
    for l in reversed(lines):
        if EXC_LINE.match(l) and not l.startswith(" "):
            return l
    return lines[-1] if lines else ""


def check_lines(case, case_dir):
    problems = []
    for f, line, role in case["expected"]:
        path = os.path.join(case_dir, f)
        if not os.path.exists(path):
            problems.append(f"missing file {f}")
            continue
        src = open(path).read().splitlines()
        if not 1 <= line <= len(src):
            problems.append(f"{f}:{line} out of range")
            continue
        text = src[line - 1].strip()
        if not text or text.startswith("#"):
            problems.append(f"{f}:{line} blank/comment")
    fixes = {(f, l) for f, l, r in case["expected"] if r == "fix"}
    for f, l in case["fix_site"]:
        if (f, l) not in fixes:
            problems.append(f"fix site {f}:{l} not listed with role fix")
    return problems


def check_fix(py, case, case_dir):
    fname, old, new = FIXES[case["name"]]
    first = case["fix_site"][0]
    with tempfile.TemporaryDirectory() as tmp:
        dst = os.path.join(tmp, case["name"])
        shutil.copytree(case_dir, dst, ignore=shutil.ignore_patterns("__pycache__"))
        path = os.path.join(dst, fname)
        lines = open(path).read().split("\n")
        if fname != first[0] or lines[first[1] - 1] != old:
            return f"fix text does not match {first[0]}:{first[1]}"
        lines[first[1] - 1] = new
        open(path, "w").write("\n".join(lines))
        rc, out, err = run(py, dst, case["entry"])
        if rc != 0:
            return f"fixed copy exits {rc}: {exception_line(err)[:150]}"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=PY)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--no-fix", action="store_true", help="skip the fixed-copy runs")
    args = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    if args.only:
        cases = [c for c in cases if c["name"] in args.only]
    passed = 0
    for case in cases:
        entry_path = os.path.join(HERE, case["entry"])
        case_dir = os.path.dirname(entry_path)
        problems = check_lines(case, case_dir)
        rc, out, err = run(args.python, case_dir, case["entry"])
        if case["error"]:
            exc = exception_line(err)
            if rc != 1:
                problems.append(f"exit status {rc}, expected 1")
            if not re.search(case["error_regex"], exc):
                problems.append(f"regex does not match: {exc[:160]!r}")
            for f, line, role in case["expected"]:
                if role == "raises":
                    frame = re.compile(r'File "[^"]*/%s", line %d,' % (re.escape(f), line))
                    if not frame.search(err):
                        problems.append(f"raises line {f}:{line} not in traceback")
            if not args.no_fix and case["name"] in FIXES:
                msg = check_fix(args.python, case, case_dir)
                if msg:
                    problems.append(msg)
        else:
            if rc != 0:
                problems.append(f"exit status {rc}, expected 0")
        status = "PASS" if not problems else "FAIL"
        passed += not problems
        detail = "" if not problems else " | " + "; ".join(problems)
        print(f"{status} {case['name']} ({case['kind']}, error={case['error']}){detail}", flush=True)
    print(f"total: {passed}/{len(cases)} passed")
    sys.exit(0 if passed == len(cases) else 1)


if __name__ == "__main__":
    main()
