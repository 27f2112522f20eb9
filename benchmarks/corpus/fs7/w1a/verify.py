#!/usr/bin/env python3
"""Checks every case in cases.json.

For each error case:
  * every `expected` entry points at an existing, non-blank, non-comment line;
  * the entry script, run with the project's python from its own folder (30 s limit),
    exits with status 1 and its last stderr line matches `error_regex`;
  * at least one `expected` line appears as a frame in the traceback;
  * for in-place/version errors, a re-run under torch.autograd.set_detect_anomaly
    shows every `saved` line in the forward traceback;
  * a copy of the case with the one-line fix from FIXES applied exits 0 (90 s limit).
Prints one line per case and a total; exit status 0 only if all pass.
"""
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
FIX_TIMEOUT = 90  # the patched copy is an extra check; allow for a loaded machine

ANOMALY = r"""
import os, runpy, sys
path = sys.argv[1]
sys.path.insert(0, os.path.dirname(path))
sys.argv = [path]
import torch
torch.autograd.set_detect_anomaly(True)
runpy.run_path(path, run_name="__main__")
"""

# (file, line, old text, new text): the one-line fix at the first fix site.
FIXES = {
    "e01": ("model.py", 53, "isinstance(m, nn.ReLU) or isinstance(m, nn.Dropout)", "isinstance(m, nn.ReLU)"),
    "e02": ("utils.py", 6, "torch.as_tensor(h)", "h.detach()"),
    "e03": ("usam.py", 27, "polish_border(att)", "polish_border(att.clone())"),
    "e04": ("sparsellm.py", 52, "s_batch -= cfg", "s_batch = s_batch - cfg"),
    "e05": ("utils.py", 20, "model.requires_grad_(False)", "model.requires_grad_(True)"),
    "e06": ("model.py", 25, "self.classify(embeds,", "self.classify(embed,"),
    "e07": ("viz.py", 8, "tensor.clone()", "tensor.detach().clone()"),
    "e08": ("logging_utils.py", 14, "batch.float().numpy()", "batch.detach().float().numpy()"),
}

FRAME_RE = re.compile(r'File "([^"]+)", line (\d+)')


def last_line(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def frames(text):
    return {(os.path.realpath(f), int(n)) for f, n in FRAME_RE.findall(text)}


def run(cmd, cwd, timeout=TIMEOUT):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timeout"


def check(case):
    problems = []
    entry = os.path.join(HERE, case["entry"])
    cdir = os.path.dirname(entry)
    for f, n, role in case["expected"]:
        path = os.path.join(cdir, f)
        if not os.path.isfile(path):
            problems.append(f"missing {f}")
            continue
        lines = open(path).read().split("\n")
        if not 1 <= n <= len(lines) or not lines[n - 1].strip() or lines[n - 1].strip().startswith("#"):
            problems.append(f"bad line {f}:{n}")
    for f, n in case["fix_site"]:
        if [f, n, "fix"] not in case["expected"]:
            problems.append(f"fix_site {f}:{n} not in expected")

    rc, out, err = run([PY, os.path.basename(entry)], cdir)
    if rc is None:
        return problems + ["timed out"]
    if case["error"]:
        if rc != 1:
            problems.append(f"exit status {rc}, expected 1")
        last = last_line(err)
        if not re.search(case["error_regex"], last):
            problems.append(f"last stderr line does not match: {last[:160]!r}")
        tb = frames(err)
        named = {(os.path.realpath(os.path.join(cdir, f)), n) for f, n, _ in case["expected"]}
        if not tb & named:
            problems.append("no expected line in the traceback")
        if "inplace operation" in case["error_regex"]:
            _, _, err2 = run([PY, "-c", ANOMALY, entry], cdir)
            i = err2.find("Traceback of forward call that caused the error")
            fwd = frames(err2[i:err2.find("(Triggered internally", i)]) if i >= 0 else set()
            for f, n, role in case["expected"]:
                if role == "saved" and (os.path.realpath(os.path.join(cdir, f)), n) not in fwd:
                    problems.append(f"saved line {f}:{n} not in anomaly forward trace")
    else:
        if rc != 0:
            problems.append(f"exit status {rc}, expected 0")

    fix = FIXES.get(case["name"])
    if case["kind"] == "bug":
        if fix is None:
            problems.append("no fix recorded")
        else:
            f, n, old, new = fix
            tmp = tempfile.mkdtemp()
            try:
                dst = os.path.join(tmp, case["name"])
                shutil.copytree(cdir, dst, ignore=shutil.ignore_patterns("__pycache__"))
                path = os.path.join(dst, f)
                lines = open(path).read().split("\n")
                if old not in lines[n - 1]:
                    problems.append(f"fix text not found at {f}:{n}")
                else:
                    lines[n - 1] = lines[n - 1].replace(old, new)
                    open(path, "w").write("\n".join(lines))
                    rc3, _, err3 = run([PY, os.path.basename(entry)], dst, FIX_TIMEOUT)
                    if rc3 != 0:
                        problems.append(f"fixed copy exits {rc3}: {last_line(err3)[:160]!r}")
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
    return problems


def main():
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    only = set(sys.argv[1:])
    passed = total = 0
    for case in cases:
        if only and case["name"] not in only:
            continue
        total += 1
        problems = check(case)
        if problems:
            print(f"FAIL {case['name']}: " + "; ".join(problems), flush=True)
        else:
            passed += 1
            print(f"ok   {case['name']}", flush=True)
    print(f"{passed}/{total} passed")
    sys.exit(0 if passed == total else 1)


if __name__ == "__main__":
    main()
