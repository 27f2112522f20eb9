"""`gradscope run` behaves like `python`: what the script sees, its output and its exit status."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from conftest import ROOT
import conftest


# Parity with a real interpreter, start-up included: never a fork of the test server.
def run_python(*args, **kwargs):
    return conftest.run_python(*args, real=True, **kwargs)


def run_gradscope(*args, **kwargs):
    return conftest.run_gradscope(*args, real=True, **kwargs)

PROBES = Path(__file__).parent / "probes"
PROBE = PROBES / "probe.py"


def _seen(stdout: str) -> dict:
    seen = json.loads(stdout.splitlines()[0])
    return seen


@pytest.mark.parametrize("how", ["return", "exit0", "exit3", "exitmsg", "exitnone", "raise", "chained"])
def test_probe_sees_the_same_and_ends_the_same(how, tmp_path):
    plain = run_python(PROBE, how, "--lr", "0.1", "--help", "--")
    traced = run_gradscope("run", "--json", str(tmp_path / "r.json"), str(PROBE), how, "--lr", "0.1", "--help", "--")
    assert _seen(traced.stdout) == _seen(plain.stdout)
    assert traced.stdout == plain.stdout
    assert traced.returncode == plain.returncode
    assert traced.stderr == plain.stderr  # same traceback / exit message, and no findings
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["exit_status"] == plain.returncode
    assert report["argv"] == [str(PROBE), how, "--lr", "0.1", "--help", "--"]


def test_probe_values_are_like_python():
    plain = _seen(run_python(PROBE).stdout)
    assert plain["path0"] == str(PROBES) and plain["file"] == str(PROBE)
    assert plain["main_is_me"] and plain["name"] == "__main__"
    env = dict(__import__("os").environ, PROBE_MP_MAIN="1")
    traced = _seen(run_gradscope("run", str(PROBE), env=env).stdout)
    assert traced["mp_main_is_me"]  # spawn workers can unpickle classes the script defines


def test_relative_script_path(tmp_path):
    plain = run_python("tests/e2e/probes/probe.py", cwd=ROOT)
    traced = run_gradscope("run", "tests/e2e/probes/probe.py", cwd=ROOT)
    assert traced.stdout == plain.stdout


def test_uncaught_exception_location_in_report(tmp_path):
    result = run_gradscope("run", "--json", str(tmp_path / "r.json"), str(PROBE), "raise")
    error = json.loads((tmp_path / "r.json").read_text())["error"]
    assert error == {"type": "ValueError", "message": "probe failure", "path": str(PROBE), "line": 32}
    assert "gradscope" not in result.stderr.split("ValueError")[0].replace("gradscope run", "")


@pytest.mark.parametrize("module, args", [("probepkg", ["a", "--help"]), ("probepkg.tool", ["4"])])
def test_dash_m_like_python(module, args):
    plain = __import__("subprocess").run([sys.executable, "-m", module, *args], capture_output=True,
                                         text=True, cwd=PROBES)
    traced = run_gradscope("run", "-m", module, *args, cwd=PROBES)
    assert traced.stdout == plain.stdout
    assert traced.returncode == plain.returncode
    assert traced.stderr == plain.stderr


def test_spawn_dataloader_worker_unpickles_script_classes():
    plain = run_python(PROBES / "spawn_loader.py")
    traced = run_gradscope("run", str(PROBES / "spawn_loader.py"))
    assert plain.returncode == 0, plain.stderr
    assert traced.returncode == 0, traced.stderr
    assert traced.stdout == plain.stdout == "[[0.0, 1.0, 4.0], [9.0, 16.0, 25.0]]\n"


def test_gradients_bit_identical(tmp_path):
    import torch

    run_python(PROBES / "grads_dump.py", str(tmp_path / "plain.pt"))
    result = run_gradscope("run", str(PROBES / "grads_dump.py"), str(tmp_path / "traced.pt"))
    assert result.returncode == 0, result.stderr
    plain = torch.load(tmp_path / "plain.pt")
    traced = torch.load(tmp_path / "traced.pt")
    assert plain.keys() == traced.keys()
    for name in plain:
        for a, b in zip(plain[name], traced[name]):
            assert torch.equal(a, b), name


def test_torch_imported_late_is_still_recorded(tmp_path):
    script = PROBES / "late_torch_import.py"
    plain = run_python(script)
    traced = run_gradscope("run", "--json", str(tmp_path / "r.json"), str(script))
    assert traced.stdout == plain.stdout  # torch's loader is the real one under gradscope too
    assert "before torch: False" in plain.stdout
    assert traced.returncode == plain.returncode == 1
    report = json.loads((tmp_path / "r.json").read_text())
    [finding] = report["findings"]
    assert [(loc["line"], loc["role"]) for loc in finding["locations"]] == [
        (13, "fix"), (12, "saved"), (13, "modified"), (14, "backward")]


def _start(command):
    import subprocess
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("how", ["raise", "signal"])
def test_ctrl_c_ends_like_python(how):
    import signal
    script = str(PROBES / "wait_for_sigint.py")
    results = []
    for command in ([sys.executable, script, how], [sys.executable, "-m", "gradscope", "run", script, how]):
        proc = _start(command)
        assert proc.stdout.readline() == "ready\n"
        if how == "signal":
            import time
            time.sleep(0.5)  # let it reach the sleep; where exactly the signal lands is not the point
            proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        results.append((proc.returncode, err))
    (plain_status, plain_err), (traced_status, traced_err) = results
    assert plain_status == traced_status == -signal.SIGINT
    assert traced_err.splitlines()[-1] == plain_err.splitlines()[-1] == "KeyboardInterrupt"
    assert traced_err.splitlines()[:2] == plain_err.splitlines()[:2]  # the user's frame, no gradscope frames
    import gradscope
    assert os.path.dirname(gradscope.__file__) not in traced_err


def test_dash_m_package_that_imports_torch_first(tmp_path):
    """The package imports torch while `-m` is resolved: recording must start anyway."""
    plain = __import__("subprocess").run([sys.executable, "-m", "torchpkg.train"], capture_output=True,
                                         text=True, cwd=PROBES)
    traced = run_gradscope("run", "--json", str(tmp_path / "r.json"), "-m", "torchpkg.train", cwd=PROBES)
    assert plain.returncode == traced.returncode == 1
    assert traced.stderr.startswith(plain.stderr)
    [finding] = json.loads((tmp_path / "r.json").read_text())["findings"]
    assert [(loc["line"], loc["role"]) for loc in finding["locations"]] == [(7, "fix"), (6, "saved"), (7, "modified"),
                                                                           (8, "backward")]
