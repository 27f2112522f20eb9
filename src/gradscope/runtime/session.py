"""One recorded run of a program: run it under the recorder and hand back how it ended with
the trace (`record`); `gradscope run` (`run`) then diagnoses, reports and ends as the program did.

The flow is one-directional: runner -> recorder -> trace -> rules -> renderers. The commands
call these steps in that order; this module runs the first two (with the SIGTERM watch and
the processes the program starts), and for `gradscope run` the rest.
"""

from __future__ import annotations

import dataclasses
import os
import signal
from dataclasses import dataclass
from typing import Callable

from ..rules import diagnose
from ..settings import Settings
from ..trace.model import Stopped, Trace
from . import runner
from .children import Plan
from .children import install as follow_children
from .children import uninstall as forget_children
from .distributed import launch_rank, report
from .import_hook import TorchImportWatcher
from .recording import Recording
from .runner import Outcome, Target
from .sigterm import TermReport


@dataclass
class Recorded:
    outcome: Outcome  # how the program ended
    trace: Trace


def record(target: Target, settings: Settings | None = None,
           on_end: Callable[[Recorded], None] | None = None, children: Plan | None = None) -> Recorded:
    """Run the program with the recorder on (from its own `import torch`); print its traceback
    as Python would; return how it ended, with the trace.

    `on_end(recorded)`: called once the program has ended, or when SIGTERM ends it (see
    TermReport); a SIGTERM that arrives after the program's end waits until it returns (the
    report gets written). `children`: record the Python processes the program starts too
    (see children.py).
    """
    settings = settings or Settings()
    recording = _ProgramRecording(settings, list(target.argv), children)
    terminate = TermReport(None)

    def recorded(run_program) -> None:
        nonlocal terminate
        watcher = TorchImportWatcher(recording.start)
        watcher.install()

        def report_terminated(stopped: Stopped) -> None:
            if not stopped.outside_python:  # (from the watchdog thread, the main thread's modes are out of reach)
                recording.stop()
            result = Recorded(Outcome(-signal.SIGTERM), recording.finish(None, -signal.SIGTERM))
            result.trace.stopped = stopped
            on_end(result)

        terminate = TermReport(report_terminated if on_end else None)
        try:
            run_program()
        finally:
            terminate.uninstall()  # from here on, a SIGTERM is held until `release()`
            watcher.uninstall()
            recording.stop()

    try:
        outcome = runner.execute(target, recorded)
        if outcome.exception is not None:
            runner.print_exception(outcome.exception)  # as Python would, before anything of ours
        result = Recorded(outcome, recording.finish(outcome.exception, outcome.exit_status))
        if on_end is not None:
            on_end(result)
        return result
    finally:
        terminate.release()


def run(target: Target, json_path: str | None = None, trace_path: str | None = None,
        settings: Settings | None = None, run_options: list[str] | tuple[str, ...] = ()) -> None:
    """`gradscope run`: record, diagnose, report, and end the process as Python would have.
    Never returns. Under a distributed launcher, each rank writes its own files (see
    distributed.py); the processes the program starts are recorded too (children.py).
    `run_options`: the `gradscope run` options given, as arguments (a child that re-runs the
    program gets them)."""
    settings = settings or Settings()
    rank_at_start = launch_rank()
    plan = Plan(dataclasses.replace(settings, flow_svg=_absolute(settings.flow_svg)), _absolute(json_path),
                _absolute(trace_path), list(run_options), _program(target), rank_at_start)

    def report_as_rank(result: Recorded) -> None:
        findings = diagnose(result.trace)
        # Read again now: a launcher inside the program (Lightning's) sets the rank during the
        # run, and may remove it again at its end, when DDP's process group still knew it.
        rank = launch_rank()
        if rank is None:
            rank = rank_at_start if rank_at_start is not None else result.trace.meta.get("ddp_rank")
        report(result.trace, findings, json_path, trace_path, settings.flow_svg, rank)

    result = record(target, settings, on_end=report_as_rank, children=plan)
    result.outcome.exit()


def _absolute(path: str | None) -> str | None:
    return os.path.abspath(path) if path else None  # a child may run in another folder


def _program(target: Target) -> tuple[str, str] | None:
    """What a command that re-runs this program names: the script's absolute path, or -m's module."""
    if target.cells is not None:
        return None  # a notebook cannot be re-run as a command
    if target.module_name is not None:
        return ("module", target.module_name)
    return ("script", os.path.abspath(target.argv[0])) if target.argv else None


class _ProgramRecording:
    """The program's recording, started once the program has imported torch (see import_hook),
    with the processes it starts followed while it runs."""

    def __init__(self, settings: Settings, argv: list[str], children: Plan | None = None):
        self.recording = Recording(settings, argv)
        self.error: str | None = None
        self.children = children

    def start(self) -> None:
        try:
            self.recording.start()
            if self.children is not None:
                follow_children(self.children)
        except Exception as exc:  # never break the program's `import torch`
            self.error = f"the recorder could not start: {type(exc).__name__}: {exc}"

    def stop(self) -> None:
        self.recording.halt()
        if self.children is not None:
            forget_children()

    def finish(self, exc: BaseException | None, exit_status: int) -> Trace:
        return self.recording.finish(exc, exit_status, (self.error,) if self.error else ())
