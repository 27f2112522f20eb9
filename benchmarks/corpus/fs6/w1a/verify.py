#!/usr/bin/env python3
"""Checks every case in cases.json.

For each case:
  * every `expected` / `fix_site` entry points at an existing, non-blank, non-comment line,
    and every fix_site is listed in `expected` with role "fix";
  * the entry is run with /work/main/.venv/bin/python from its own folder (30 s limit);
    error cases must exit 1 and the last non-empty stderr line must match error_regex;
    at least one expected line must appear as a frame of the traceback;
  * the one-line fix from FIXES is applied to a temporary copy of the case folder and
    the program must then exit 0 (proves the named fix site really fixes it).
Prints one line per case and a total; exit status 0 only when all pass.
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

# case -> (file, exact old line text, replacement line text)
FIXES = {
    "e01": ("model.py", "        weight[new_id] = weight[pieces].mean(dim=0)",
            "        weight.data[new_id] = weight.data[pieces].mean(dim=0)"),
    "e02": ("importance.py",
            "                self.handles.append(module.register_full_backward_hook(self._make_backward_hook(name)))",
            "                self.handles.append(module.register_forward_hook(lambda m, i, o, n=name: "
            "o.register_hook(lambda g: self._make_backward_hook(n)(m, None, (g,))) and None))"),
    "e03": ("stn.py", "    t_s_flat[t_s_flat.abs() < eps] = eps",
            "    t_s_flat = torch.where(t_s_flat.abs() < eps, torch.full_like(t_s_flat, eps), t_s_flat)"),
    "e04": ("rnn.py", "            hx = [hx[idx].squeeze_(0) for idx in range(self.num_layers)]",
            "            hx = [hx[idx].squeeze(0) for idx in range(self.num_layers)]"),
    "e05": ("rotary.py", "            self.cached_freqs = freqs",
            "            self.cached_freqs = freqs.detach()"),
    "e06": ("train.py", "    trainer = pl.Trainer(",
            "    trainer = pl.Trainer(inference_mode=False,"),
    "e07": ("model.py", "                rotations.detach_()",
            "                rotations = rotations.detach()"),
    "e08": ("monitor.py", "        for name, param in module.named_parameters():",
            "        for name, param in ((n, p) for n, p in module.named_parameters() if p.requires_grad):"),
}

FRAME_RE = re.compile(r'File "([^"]+)", line (\d+)')


def last_nonempty(text):
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def run(entry_dir, entry_file):
    try:
        p = subprocess.run([PY, entry_file], cwd=entry_dir, capture_output=True, text=True,
                           timeout=TIMEOUT)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or "", e.stderr or ""


def check(case):
    problems = []
    case_dir = os.path.join(HERE, "cases", case["name"])
    entry = os.path.join(HERE, case["entry"])
    if not os.path.isfile(entry):
        return [f"missing entry {case['entry']}"]

    for f, n, role in case["expected"]:
        path = os.path.join(case_dir, f)
        if not os.path.isfile(path):
            problems.append(f"expected file missing: {f}")
            continue
        lines = open(path).read().split("\n")
        if not 1 <= n <= len(lines) or not lines[n - 1].strip() or lines[n - 1].strip().startswith("#"):
            problems.append(f"expected line blank/comment/out of range: {f}:{n}")
    fix_lines = [[f, n] for f, n, role in case["expected"] if role == "fix"]
    if case["fix_site"] != fix_lines:
        problems.append(f"fix_site {case['fix_site']} != role-fix lines {fix_lines}")

    rc, out, err = run(os.path.dirname(entry), os.path.basename(entry))
    if rc is None:
        return problems + [f"timed out after {TIMEOUT}s"]
    if case["error"]:
        if rc != 1:
            problems.append(f"exit status {rc}, expected 1")
        last = last_nonempty(err)
        if not re.search(case["error_regex"], last):
            problems.append(f"last stderr line does not match: {last[:160]!r}")
        frames = {(os.path.realpath(f), int(n)) for f, n in FRAME_RE.findall(err)}
        named = {(os.path.realpath(os.path.join(case_dir, f)), n) for f, n, _ in case["expected"]}
        if not frames & named:
            problems.append("no expected line appears in the traceback")
    elif rc != 0:
        problems.append(f"exit status {rc}, expected 0")

    fix = FIXES.get(case["name"])
    if case["kind"] == "bug":
        if fix is None:
            problems.append("no fix defined")
        else:
            f, old, new = fix
            tmp = tempfile.mkdtemp(prefix=f"verify_{case['name']}_")
            try:
                dst = os.path.join(tmp, case["name"])
                shutil.copytree(case_dir, dst, ignore=shutil.ignore_patterns("__pycache__", "lightning_logs"))
                path = os.path.join(dst, f)
                lines = open(path).read().split("\n")
                hits = [i for i, l in enumerate(lines) if l == old]
                if len(hits) != 1:
                    problems.append(f"fix line not found exactly once in {f}")
                else:
                    line_no = hits[0] + 1
                    if [f, line_no] != case["fix_site"][0]:
                        problems.append(f"fix applied at {f}:{line_no}, not at fix_site[0] {case['fix_site'][0]}")
                    lines[hits[0]] = new
                    open(path, "w").write("\n".join(lines))
                    rc2, _, err2 = run(dst, os.path.basename(entry))
                    if rc2 != 0:
                        problems.append(f"fixed program exited {rc2}: {last_nonempty(err2)[:160]!r}")
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
    return problems


def main():
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    only = set(sys.argv[1:])
    failures = 0
    total = 0
    for case in cases:
        if only and case["name"] not in only:
            continue
        total += 1
        problems = check(case)
        print(f"{'ok  ' if not problems else 'FAIL'} {case['name']}")
        for p in problems:
            print(f"       - {p}")
        failures += bool(problems)
    print(f"\n{total - failures}/{total} passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
