"""The anchors of a batch: what a user has without gradscope, scored like gradscope (score.py).

- `plain traceback`: the lines of `python ENTRY`'s traceback.
- `anomaly mode`: the same with `torch.autograd.set_detect_anomaly(True)` switched on right
  after the program's `import torch` (its "Traceback of forward call" lines count too).
- an assistant's answers (`--assistant ANSWERS.json --map MAP.json`): a language model acting
  as an expert engineer, given only the source files and the program's output in neutral
  folders (MAP names the case behind each folder), names a fix site and the lines, per
  program; a fix site it names counts as marked.

A traceback marks no fix site and raises no false alarm; the assistant's `bug: true` on a correct
program is a false alarm. The totals go into the batch's anchors.json under the anchor's name
(score.py prints them next to gradscope's).

    python benchmarks/corpus/anchors.py --batch fs1 --tracebacks
    python benchmarks/corpus/anchors.py --batch fs1 --assistant answers.json --map map.json \\
        --name "assistant (code + output)"
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import score  # noqa: E402  (this folder's scorer: the same cases, the same totals)

_FRAME = re.compile(r'File "([^"]+)", line (\d+)')
_ANOMALY_HOOK = '''
import importlib.abc, sys

class _Loader(importlib.abc.Loader):
    def __init__(self, loader):
        self._loader = loader
    def create_module(self, spec):
        return self._loader.create_module(spec)
    def exec_module(self, module):
        module.__loader__ = self._loader
        if module.__spec__ is not None:
            module.__spec__.loader = self._loader
        self._loader.exec_module(module)
        module.autograd.set_detect_anomaly(True)
    def __getattr__(self, name):
        return getattr(self._loader, name)

class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        if fullname != "torch":
            return None
        sys.meta_path.remove(self)
        for finder in sys.meta_path:
            spec = getattr(finder, "find_spec", lambda *a: None)(fullname, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _Loader(spec.loader)
                return spec
        return None

sys.meta_path.insert(0, _Finder())
'''


def traceback_lines(case: score.Case, anomaly: bool) -> set[tuple[str, int]]:
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONHASHSEED="0")
    env.pop("PYTHONPATH", None)
    with tempfile.TemporaryDirectory() as hook:
        if anomaly:
            Path(hook, "sitecustomize.py").write_text(_ANOMALY_HOOK)
            env["PYTHONPATH"] = hook
        try:
            proc = subprocess.run([sys.executable, case.entry.name, *case.args], cwd=case.entry.parent, env=env,
                                  capture_output=True, text=True, timeout=score.TIMEOUT_S, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return set()
    base = case.entry.parent
    return {(str((base / path).resolve()), int(line)) for path, line in _FRAME.findall(proc.stderr)}


def scored(case: score.Case, named: set, marked: set, alarm: bool) -> dict:
    """A result in score.py's shape, from the lines an anchor named and the fix sites it marked."""
    if case.kind == "clean":
        return {"kind": "clean", "false_alarm": alarm, "problem": None}
    hits = sum((path, line) in named for path, line, _ in case.expected)
    return {"kind": "bug", "problem": None, "expected": len(case.expected), "named": hits,
            "fully_named": hits == len(case.expected), "has_fix_site": bool(case.fix_sites),
            "fix_marked": any(site in marked for site in case.fix_sites),
            "fix_named": any(site in named for site in case.fix_sites),
            "fix_wrong": bool(case.fix_sites) and bool(marked) and not any(site in marked for site in case.fix_sites)}


def assistant_results(batch: score.Batch, answers: dict, mapping: dict) -> list[dict]:
    by_name = {case.name: case for case in batch.cases}
    results = []
    for folder, entry in mapping.items():
        case = by_name[entry["name"]]
        answer = answers.get(folder, {})
        base = case.entry.parent

        def place(file, line):
            return (str((base / file).resolve()), int(line))

        named = {place(f, line) for f, line, *_ in answer.get("lines", [])}
        marked = {place(f, line) for f, line, *_ in answer.get("fix_site", [])}
        results.append(scored(case, named | marked, marked, bool(answer.get("bug"))))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", required=True)
    parser.add_argument("--tracebacks", action="store_true", help="score the plain traceback and anomaly mode")
    parser.add_argument("--assistant", metavar="ANSWERS", help="score an assistant's answers (JSON)")
    parser.add_argument("--map", metavar="MAP", help="folder -> case name, for --assistant")
    parser.add_argument("--name", default="assistant (code + output)", help="the anchor's name for --assistant")
    args = parser.parse_args()

    spec = next((s for s in json.loads((score.CORPUS / "batches.json").read_text()) if s["name"] == args.batch), None)
    batch = score.load_batch(spec) if spec else None
    if batch is None:
        sys.exit(f"no batch named {args.batch!r} here")
    anchors_path = batch.folder / "anchors.json"
    anchors = json.loads(anchors_path.read_text()) if anchors_path.is_file() else {}

    if args.tracebacks:
        for name, anomaly in (("plain traceback", False), ("anomaly mode", True)):
            results = [scored(c, traceback_lines(c, anomaly) if c.kind == "bug" else set(), set(), False)
                       for c in batch.cases]
            anchors[name] = score.totals(results)
            print(score.row(name, anchors[name]))
    if args.assistant:
        results = assistant_results(batch, json.loads(Path(args.assistant).read_text()),
                                    json.loads(Path(args.map).read_text()))
        anchors[args.name] = score.totals(results)
        print(score.row(args.name, anchors[args.name]))
    anchors_path.write_text(json.dumps(anchors, indent=1) + "\n")


if __name__ == "__main__":
    main()
