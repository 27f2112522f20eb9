"""In-process recording, for tests whose subject is what gradscope records and diagnoses.

`record(target, ...)` runs a script (a path: the same in-process path `gradscope run` takes,
`session.record` on a `runner` target) or a Python function (under `Recorder`, as
tests/property does) and returns a `Run`: the Trace, the findings of `rules.diagnose`, how the
program ended (`runner.Outcome`), and what it printed.

No subprocess, so no interpreter start and no `import torch` per run: torch and its lazily
imported parts are loaded once per test process. What needs a real process stays in
subprocess tests (conftest.run_python / run_gradscope): parity with `python` (output, exit
status, tracebacks), bad input and exit codes, signals, the pytest plugin, the CLI's own
output, and one end-to-end `gradscope run` per sample.

Isolation (tests share worker processes under xdist): the recorder is always stopped; sys.argv,
sys.path, the working directory, `__main__`/`__mp_main__`, sys.excepthook, the warning filters
(the program's warnings are collected in `Run.warnings`, not printed), torch's global switches
(grad mode, anomaly mode, default dtype, threads, deterministic algorithms) and its CPU random
state are put back; modules the script imported from its own
folder (e.g. samples/lib) are forgotten. Only public API is used: `session.record`,
`session.Settings`, `recording.build_trace`, `runner.resolve_script`, `Recorder(...)`,
`.start()`, `.stop()`, `.stats()`, `rules.diagnose`, `render.json_report.report`, and
`runner.execute` for `run_plain`.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import torch

from gradscope.recorder import Recorder
from gradscope.render import json_report
from gradscope.rules import diagnose
from gradscope.runtime import runner, session
from gradscope.runtime.recording import build_trace

# Settings of session.Settings (scripts) and of Recorder (functions) that a test may pass.
SCRIPT_SETTINGS = {"keep_backwards", "max_nodes", "check_nan", "grad_flow", "flow_thresholds", "flow_svg"}


@dataclass
class Run:
    trace: object  # gradscope.trace.Trace
    findings: list
    outcome: runner.Outcome  # exit_status, exception (uncaught, not SystemExit), system_exit
    stdout: str = ""
    stderr: str = ""  # for a script: the traceback printed as `gradscope run` prints it
    value: object = None  # what a recorded function returned
    stats: dict = field(default_factory=dict)  # Recorder.stats() at the end (functions only)
    warnings: list = field(default_factory=list)  # messages of the warnings it issued (not printed)

    def __iter__(self):  # trace, findings, outcome = record(...)
        return iter((self.trace, self.findings, self.outcome))

    @property
    def rules(self) -> list[str]:
        return [finding.rule for finding in self.findings]

    def report(self) -> dict:
        """The machine report, as `gradscope run --json` writes it (the same function builds it)."""
        return json_report.report(self.trace, self.findings)


def record(target, *args: str, argv: list[str] | None = None, cwd=None, **settings) -> Run:
    """Record `target` in this process and diagnose it.

    target: a script path (str or Path; `args`/`argv` are its arguments, as after
    `gradscope run SCRIPT`), or a callable (`args` are ignored; `argv` names the run in the
    trace). `settings`: for a script, session.Settings fields (keep_backwards, max_nodes,
    check_nan, grad_flow, flow_thresholds, flow_svg); for a function, Recorder's keywords.
    """
    if not callable(target):
        unknown = set(settings) - SCRIPT_SETTINGS
        if unknown:
            raise TypeError(f"unknown settings for a script: {sorted(unknown)}")
    with _isolated(cwd) as caught:
        if callable(target):
            run = _record_function(target, argv or [getattr(target, "__qualname__", "function")], settings)
        else:
            script_args = list(argv if argv is not None else args)
            run = _record_script(Path(target), script_args, session.Settings(**settings))
    run.warnings = [str(w.message) for w in caught]
    return run


def run_plain(script, *args: str, cwd=None) -> Run:
    """Run a script in this process without gradscope (the runner `gradscope run` uses, no
    recorder): for expected values computed by plain torch. Not a stand-in for `python`."""
    with _isolated(cwd) as caught:
        target = runner.resolve_script(str(script), list(args))
        out, err = io.StringIO(), io.StringIO()
        before = set(sys.modules)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                outcome = runner.execute(target)
        finally:
            _forget_modules_below(target.path0, before)
    return Run(None, [], outcome, out.getvalue(), err.getvalue(), warnings=[str(w.message) for w in caught])


def _record_script(path: Path, args: list[str], settings) -> Run:
    target = runner.resolve_script(str(path), args)
    out, err = io.StringIO(), io.StringIO()
    before = set(sys.modules)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            recorded = session.record(target, settings)
    finally:
        _forget_modules_below(target.path0, before)
    return Run(recorded.trace, diagnose(recorded.trace), recorded.outcome, out.getvalue(), err.getvalue())


def _record_function(fn: Callable, argv: list[str], settings) -> Run:
    recorder = Recorder(**settings)
    exc: BaseException | None = None
    value = None
    status = 0
    system_exit = None
    recorder.start()
    try:
        value = fn()
    except SystemExit as raised:
        system_exit = raised
        status = raised.code if isinstance(raised.code, int) else (0 if raised.code is None else 1)
    except Exception as raised:  # noqa: BLE001 - the function's own failure is an outcome
        exc, status = raised, 1
    finally:
        recorder.stop()
    trace = build_trace(recorder, argv, exc, status)
    return Run(trace, diagnose(trace), runner.Outcome(status, exc, system_exit), value=value,
               stats=recorder.stats())


def _forget_modules_below(folder: str, before: set) -> None:
    """Forget the modules a script imported from its own folder (the next script with a `lib`
    of its own must not get this one's). gradscope's own, imported lazily, stay."""
    prefix = os.path.realpath(folder) + os.sep
    for name in set(sys.modules) - before:
        file = getattr(sys.modules.get(name), "__file__", None)
        if file and os.path.realpath(file).startswith(prefix) and name.split(".")[0] != "gradscope":
            del sys.modules[name]


@contextlib.contextmanager
def _isolated(cwd):
    # The warning filters are put back last: restoring torch's switches may import (and so
    # configure warnings in) parts of torch not loaded yet.
    with warnings.catch_warnings(record=True) as caught, _torch_state(), _process_state(cwd):
        yield caught  # the program's warnings, for run.warnings


@contextlib.contextmanager
def _process_state(cwd):
    saved_argv, saved_path = list(sys.argv), list(sys.path)
    saved_main = {name: sys.modules.get(name) for name in ("__main__", "__mp_main__")}
    saved_hook, saved_cwd = sys.excepthook, os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        yield
    finally:
        os.chdir(saved_cwd)
        sys.argv[:] = saved_argv
        sys.path[:] = saved_path
        for name, module in saved_main.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
        sys.excepthook = saved_hook


@contextlib.contextmanager
def _torch_state():
    grad, anomaly, anomaly_nan = torch.is_grad_enabled(), torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()
    dtype, threads, deterministic = torch.get_default_dtype(), torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    rng = torch.get_rng_state()
    try:
        yield
    finally:
        torch.set_grad_enabled(grad)
        torch.set_anomaly_enabled(anomaly, anomaly_nan)
        torch.set_default_dtype(dtype)
        if torch.get_num_threads() != threads:
            torch.set_num_threads(threads)
        torch.use_deterministic_algorithms(deterministic)
        torch.set_rng_state(rng)
