"""Shared helpers: run a script under plain Python or under `gradscope run`, in a subprocess.

(For what gradscope records and diagnoses, in-process: tests/harness.py.)"""

from __future__ import annotations

import atexit
import functools
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

# The suite runs on two xdist workers, each starting torch programs (and running some in-process):
# with torch's default of one OpenMP thread per core, every program's threads spin against the
# other worker's, and CPU time grows by about a third with nothing gained for these tiny tensors.
# One thread per program, unless the environment asks otherwise. Set before torch is imported
# here, and inherited by every subprocess (python and gradscope alike, so parity is unaffected).
os.environ.setdefault("OMP_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str
    report: dict | None = None


def _env() -> dict:
    env = dict(os.environ)
    env.setdefault("PYTHONHASHSEED", "0")
    env["COLUMNS"] = "120"
    env.pop("PYTHONSAFEPATH", None)
    return env


@functools.cache
def _zygote():
    from zygote import Zygote

    zygote = Zygote(_env(), ROOT)
    atexit.register(zygote.close)
    return zygote


def _run(kind: str, argv: list, cwd, env: dict, timeout, real: bool) -> tuple[int, str, str]:
    """A program in its own process: a fork of a torch-loaded server (tests/zygote.py), or,
    with `real` or an environment that changes start-up, a fresh interpreter."""
    zygote = _zygote()
    if not real and zygote.can_run(kind, argv, env):
        return zygote.run(kind, argv, cwd or ROOT, env, timeout)
    command = [sys.executable, *(["-m"] if kind == "module" else []), *map(str, argv)]
    proc = subprocess.run(command, capture_output=True, text=True, cwd=cwd or ROOT, env=env,
                          timeout=timeout, stdin=subprocess.DEVNULL)
    return proc.returncode, proc.stdout, proc.stderr


def run_python(script, *args, cwd=None, timeout=120, real=False) -> Result:
    """`python script args...` (see tests/zygote.py for what `real=True` adds)."""
    return Result(*_run("python", [script, *args], cwd, _env(), timeout, real))


@functools.cache
def run_python_once(script, *args) -> Result:
    """`run_python` for a script of this repository that no test changes (a sample): several
    tests compare with the same plain run, so a test process runs it once."""
    return run_python(script, *args)


def run_gradscope(*argv, json_path=None, cwd=None, timeout=120, env=None, real=False) -> Result:
    """`python -m gradscope argv...` (see tests/zygote.py for what `real=True` adds)."""
    command = ["gradscope", *argv]
    if json_path is not None:
        command[2:2] = ["--json", str(json_path)]  # right after the subcommand
    returncode, stdout, stderr = _run("module", command, cwd, env or _env(), timeout, real)
    report = None
    if json_path is not None and Path(json_path).exists():
        report = json.loads(Path(json_path).read_text())
    return Result(returncode, stdout, stderr, report)


@pytest.fixture
def gradscope_run(tmp_path):
    """Run `gradscope run --json` on a script; returns a Result with the parsed report."""
    def run(script, *args, **kwargs):
        return run_gradscope("run", str(script), *args, json_path=tmp_path / "report.json", **kwargs)
    return run
