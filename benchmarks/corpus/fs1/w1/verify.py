#!/usr/bin/env python3
"""Checks the cases in cases.json.

For every case:
  * every `expected` / `fix_site` entry names an existing, non-blank, non-comment line, and
    every fix_site line is also listed in `expected` with role "fix";
  * the entry script is run with the project venv's python from its own folder (30 s limit):
    it must exit with status 1 and the last non-empty stderr line must match `error_regex`;
    at least one `expected` line must appear as a frame of the traceback;
  * the one-line fix in FIXES is applied to a temporary copy of the case (the line must contain
    the text being replaced, which pins the fix line number) and the copy must then exit 0.

Usage: python3 verify.py [--python PY] [--only a01 a02 ...] [--no-fix-check]
Exit status 0 when every case passes.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PY = "/work/main/.venv/bin/python"
TIMEOUT_S = 30

# case -> (file, line, old text, new text): the one-line fix at the first fix_site.
FIXES = {
    "a01": ("cam.py", 24, "register_full_backward_hook(self._store_gradient)",
            "register_forward_hook(self._hook_output_grad)"),
    "a02": ("main.py", 17, "with torch.no_grad():", "with torch.enable_grad():"),
    "a03": ("framework.py", 48, "loss.backward()", "pass"),
    "a04": ("main.py", 34, "L.Trainer(**TRAINER_CONFIG)",
            "L.Trainer(**TRAINER_CONFIG, inference_mode=False)"),
    "a05": ("trainer.py", 26, "torch.stack(out.logits, dim=1)",
            'self.model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"], '
            "decoder_input_ids=out.sequences[:, :-1]).logits"),
    "a06": ("common.py", 10, "nn.ReLU(inplace=True)", "nn.ReLU()"),
    "a07": ("model.py", 55, "updated_M, updated_z", "updated_M.detach(), updated_z.detach()"),
    "a08": ("models.py", 56, "(forbidden_regs == 0).float()", "(forbidden_regs == 0).float(), None"),
    "a09": ("model.py", 85, "checkpoint(block, h, c)", "checkpoint(block, h, c, use_reentrant=False)"),
    "a10": ("losses.py", 27, "grad.mul_(grad_output)", "grad = grad * grad_output"),
    "a11": ("tsan.py", 55, "out = x", "out = x.clone()"),
    "a12": ("layers.py", 21, "self.u.copy_(F.normalize(torch.mv(w_mat, v), dim=0, eps=self.eps))",
            "self.u = F.normalize(torch.mv(w_mat, v), dim=0, eps=self.eps)"),
    "a13": ("model.py", 106, "loss = 2 - 2 * (labels * dist_real).sum(dim=-1)",
            "loss = (2 - 2 * (labels * dist_real).sum(dim=-1)).mean()"),
    "a14": ("model.py", 40, "text_embeds += torch.sum(dummy_embed) * 0",
            "text_embeds = text_embeds + torch.sum(dummy_embed) * 0"),
    "a15": ("utils.py", 17, "tensor.clone()", "tensor.detach().clone()"),
}

FRAME_RE = re.compile(r'File "([^"]+)", line (\d+)')


def last_nonempty(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def frames(text):
    return {(os.path.realpath(f), int(n)) for f, n in FRAME_RE.findall(text)}


def run(py, script, cwd):
    t0 = time.time()
    try:
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        p = subprocess.run([py, script], cwd=cwd, capture_output=True, text=True,
                           timeout=TIMEOUT_S, env=env)
        return p.returncode, p.stdout, p.stderr, time.time() - t0
    except subprocess.TimeoutExpired as e:
        err = e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or "")
        return None, "", err, time.time() - t0


def static_checks(case, case_dir):
    problems = []
    fix_lines = set()
    for file, line, role in case["expected"]:
        path = os.path.join(case_dir, file)
        if not os.path.isfile(path):
            problems.append(f"expected file missing: {file}")
            continue
        lines = open(path).read().split("\n")
        if not 1 <= line <= len(lines):
            problems.append(f"expected line out of range: {file}:{line}")
            continue
        text = lines[line - 1].strip()
        if not text or text.startswith("#"):
            problems.append(f"expected line is blank or a comment: {file}:{line}")
        if role == "fix":
            fix_lines.add((file, line))
    for file, line in case["fix_site"]:
        if (file, line) not in fix_lines:
            problems.append(f"fix_site {file}:{line} is not an expected line with role 'fix'")
    if case["expected"] and case["expected"][0][2] != "fix":
        problems.append("first expected entry is not the fix site")
    if case["fix_site"] and tuple(case["fix_site"][0]) != tuple(case["expected"][0][:2]):
        problems.append("best fix_site differs from the first expected entry")
    return problems


def fix_check(py, case, case_dir, entry):
    name = case["name"]
    if name not in FIXES:
        return ["no fix recorded"], 0.0
    file, line, old, new = FIXES[name]
    if [file, line] != list(case["fix_site"][0]):
        return [f"recorded fix {file}:{line} is not the best fix_site"], 0.0
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, name)
        shutil.copytree(case_dir, copy, ignore=shutil.ignore_patterns("__pycache__"))
        path = os.path.join(copy, file)
        lines = open(path).read().split("\n")
        if old not in lines[line - 1]:
            return [f"fix text not found at {file}:{line}"], 0.0
        lines[line - 1] = lines[line - 1].replace(old, new, 1)
        open(path, "w").write("\n".join(lines))
        rc, _, err, wall = run(py, entry, copy)
    if rc is None:
        return [f"fixed copy timed out after {TIMEOUT_S}s"], wall
    if rc != 0:
        return [f"fixed copy exited {rc}: {last_nonempty(err)[:160]!r}"], wall
    return [], wall


def check_case(py, case, do_fix):
    case_dir = os.path.join(HERE, os.path.dirname(case["entry"]))
    entry = os.path.basename(case["entry"])
    if not os.path.isfile(os.path.join(case_dir, entry)):
        return [f"missing entry {case['entry']}"], 0.0, 0.0
    problems = static_checks(case, case_dir)
    rc, _, err, wall = run(py, entry, case_dir)
    if rc is None:
        return problems + [f"timed out after {TIMEOUT_S}s"], wall, 0.0
    expected_rc = 1 if case["error"] else 0
    if rc != expected_rc:
        problems.append(f"exit status {rc}, expected {expected_rc}")
    if case["error"]:
        last = last_nonempty(err)
        if not re.search(case["error_regex"], last):
            problems.append(f"last stderr line does not match: {last[:160]!r}")
        named = {(os.path.realpath(os.path.join(case_dir, f)), n) for f, n, _ in case["expected"]}
        if not frames(err) & named:
            problems.append("no expected line appears in the traceback")
    fix_wall = 0.0
    if do_fix and case["kind"] == "bug":
        fix_problems, fix_wall = fix_check(py, case, case_dir, entry)
        problems += fix_problems
    return problems, wall, fix_wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=DEFAULT_PY)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--no-fix-check", action="store_true")
    args = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    if args.only:
        cases = [c for c in cases if c["name"] in args.only]
    passed = 0
    for case in cases:
        problems, wall, fix_wall = check_case(args.python, case, not args.no_fix_check)
        status = "PASS" if not problems else "FAIL"
        passed += not problems
        timing = f"{wall:5.1f}s" + (f" (fixed {fix_wall:4.1f}s)" if fix_wall else "")
        print(f"{status} {case['name']} {timing}" + ("" if not problems else "  " + "; ".join(problems)))
        sys.stdout.flush()
    print(f"total: {passed}/{len(cases)} passed")
    sys.exit(0 if passed == len(cases) else 1)


if __name__ == "__main__":
    main()
