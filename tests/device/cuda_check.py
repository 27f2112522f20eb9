"""The samples and the real-library suite on a CUDA device: a manual check for a machine with a GPU.

CI has no GPU, so this is not a pytest module. On a machine with CUDA and this checkout:

    python tests/device/cuda_check.py [--out DIR] [--jobs N] [--samples-only | --realworld-only]

Every program runs with its tensors on the GPU without editing it: `sitecustomize.py` (in a
temporary folder put first on PYTHONPATH, active only where GRADSCOPE_CUDA_CHECK=1) waits for the
program's own `import torch` and then calls `torch.set_default_device("cuda")`, as a program that
starts with that line would.

Samples: each runs three times: `python SAMPLE` on CUDA, `gradscope run --json` on CUDA, and
`gradscope run --json` on the CPU. A sample passes when the CUDA runs of python and gradscope
end with the same exit status and the same stdout, gradscope's stderr begins with python's (its
report follows the program's own output), the CUDA report has no internal error, and it names
the same findings with the same (file, line, role) locations as the CPU report.

Real-library suite: tests/realworld/run_suite.py with the same switch (python and gradscope on
CUDA: same status, stdout and stderr, no finding, no internal error).

Writes results.json and a summary to --out (default: a temporary folder) and prints the summary.
Exit status 0 when everything passed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
TIMEOUT = 300

SITECUSTOMIZE = '''
import os, sys
if os.environ.get("GRADSCOPE_CUDA_CHECK") == "1":
    import importlib.abc

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
            module.set_default_device(os.environ.get("GRADSCOPE_CHECK_DEVICE", "cuda"))
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


def _env(hook_dir: str, cuda: bool) -> dict:
    env = dict(os.environ, PYTHONHASHSEED="0", COLUMNS="120", OMP_NUM_THREADS="1")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [hook_dir, str(ROOT / "src"), env.get("PYTHONPATH")]))
    env["GRADSCOPE_CUDA_CHECK"] = "1" if cuda else "0"
    return env


def _run(command: list[str], cwd: Path, env: dict, timeout: float = TIMEOUT) -> dict:
    start = time.monotonic()
    try:
        proc = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
        return {"status": proc.returncode, "stdout": proc.stdout, "stderr": proc.stderr,
                "seconds": round(time.monotonic() - start, 1)}
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "stdout": "", "stderr": "", "seconds": timeout}


def _locations(report: dict | None) -> list:
    if report is None:
        return []
    return [(f["rule"], [(os.path.basename(loc["path"]), loc["line"], loc["role"]) for loc in f["locations"]])
            for f in report.get("findings", [])]


def check_sample(sample: Path, hook_dir: str, scratch: Path) -> dict:
    reports = {}
    runs = {"python": _run([sys.executable, sample.name], sample.parent, _env(hook_dir, True))}
    for device in ("cuda", "cpu"):
        path = scratch / f"{sample.stem}.{device}.json"
        runs[device] = _run([sys.executable, "-m", "gradscope", "run", "--json", str(path), sample.name],
                            sample.parent, _env(hook_dir, device == "cuda"))
        reports[device] = json.loads(path.read_text()) if path.exists() else None
    problems = []
    plain, cuda = runs["python"], runs["cuda"]
    if plain["status"] != cuda["status"]:
        problems.append(f"exit status: python {plain['status']}, gradscope {cuda['status']}")
    if plain["stdout"] != cuda["stdout"]:
        problems.append("stdout differs")
    if not cuda["stderr"].startswith(plain["stderr"]):
        problems.append("gradscope's stderr does not begin with python's")
    if reports["cuda"] is None:
        problems.append("no CUDA report")
    elif reports["cuda"].get("internal_errors"):
        problems.append(f"internal errors: {reports['cuda']['internal_errors'][:3]}")
    if _locations(reports["cuda"]) != _locations(reports["cpu"]):
        problems.append(f"findings differ: cuda {_locations(reports['cuda'])} cpu {_locations(reports['cpu'])}")
    return {"sample": str(sample.relative_to(ROOT)), "problems": problems,
            "seconds": {k: v["seconds"] for k, v in runs.items()},
            "stderr_tail": {k: v["stderr"][-1500:] for k, v in runs.items()} if problems else {}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=None)
    parser.add_argument("--jobs", type=int, default=6)
    parser.add_argument("--samples-only", action="store_true")
    parser.add_argument("--realworld-only", action="store_true")
    parser.add_argument("-k", dest="match", default="", help="only the samples whose name contains this")
    args = parser.parse_args()
    out = Path(args.out or tempfile.mkdtemp(prefix="gradscope-cuda-"))
    out.mkdir(parents=True, exist_ok=True)
    hook_dir = tempfile.mkdtemp(prefix="gradscope-cuda-hook-")
    Path(hook_dir, "sitecustomize.py").write_text(SITECUSTOMIZE)

    probe = _run([sys.executable, "-c", "import torch; print(torch.__version__, torch.cuda.is_available(), "
                  "torch.cuda.get_device_name(0) if torch.cuda.is_available() else '-'); "
                  "x = torch.ones(2); print(x.device)"], ROOT, _env(hook_dir, True))
    lines = [f"device: {probe['stdout'].strip()} {probe['stderr'].strip()[-300:]}"]
    results: dict = {"device": probe["stdout"].strip()}
    ok = True

    if not args.realworld_only:
        samples = [s for s in sorted(SAMPLES.glob("*.py")) if args.match in s.name]
        scratch = Path(tempfile.mkdtemp(prefix="gradscope-cuda-reports-"))
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            checked = list(pool.map(lambda s: check_sample(s, hook_dir, scratch), samples))
        results["samples"] = checked
        failed = [c for c in checked if c["problems"]]
        ok &= not failed
        lines.append(f"samples: {len(checked) - len(failed)}/{len(checked)} passed on CUDA")
        lines += [f"  FAIL {c['sample']}: {'; '.join(c['problems'])[:600]}" for c in failed]

    if not args.samples_only:
        suite = _run([sys.executable, str(ROOT / "tests" / "realworld" / "run_suite.py"), "-v", "--json",
                      str(out / "realworld.json")], ROOT, _env(hook_dir, True), timeout=3600)
        results["realworld"] = {"status": suite["status"], "output": suite["stdout"][-6000:] + suite["stderr"][-3000:]}
        ok &= suite["status"] == 0
        lines.append(f"real-library suite on CUDA: exit {suite['status']}")
        lines.append(suite["stdout"][-4000:])

    (out / "results.json").write_text(json.dumps(results, indent=1))
    (out / "summary.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
