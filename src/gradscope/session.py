"""One recorded run: run the program under the recorder, then diagnose and report.

The flow is one-directional: runner -> recorder -> trace -> rules -> renderers. This module is
the only place that knows all of them; each of them knows none of the others.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from dataclasses import dataclass, field

from . import runner, trace_file
from .findings import Finding
from .import_hook import TorchImportWatcher
from .locations import Site, real_path
from .render import console, json_report
from .rules import diagnose
from .runner import Outcome, Target
from .trace import Trace, UncaughtError


@dataclass
class Settings:
    """How much the recorder keeps (see `gradscope run --help`)."""

    keep_backwards: int = 4
    max_nodes: int = 100_000
    check_nan: bool = False  # hook every node to find the first non-finite gradient
    grad_flow: tuple[str, ...] | None = None  # --grad-flow: module patterns to watch (empty: all)
    flow_thresholds: dict = field(default_factory=dict)
    flow_svg: str | None = None  # write the per-layer gradient-norm chart here


@dataclass
class Recorded:
    outcome: Outcome
    trace: Trace
    findings: list[Finding]
    settings: Settings | None = None


def record(target: Target, settings: Settings | None = None, on_terminate=None) -> Recorded:
    """Run the program with the recorder on; print its traceback as Python would; diagnose.

    `on_terminate(recorded)`: if given, called when SIGTERM ends the program (see _TermReport).
    """
    settings = settings or Settings()
    recording = _Recording(settings)

    def recorded(run_program) -> None:
        watcher = TorchImportWatcher(recording.start)
        watcher.install()
        def report_terminated() -> None:
            recording.stop()
            on_terminate(_diagnosed(recording, target, Outcome(-signal.SIGTERM), settings))

        terminate = _TermReport(report_terminated if on_terminate else None)
        try:
            run_program()
        finally:
            terminate.uninstall()
            watcher.uninstall()
            recording.stop()

    outcome = runner.execute(target, recorded)
    if outcome.exception is not None:
        runner.print_exception(outcome.exception)  # as Python would, before anything of ours
    return _diagnosed(recording, target, outcome, settings)


def _diagnosed(recording, target: Target, outcome: Outcome, settings: Settings) -> Recorded:
    try:
        trace = _trace(recording.recorder, target, outcome)
        if recording.error:
            trace.internal_errors.append(recording.error)
        findings = diagnose(trace)
    except Exception as exc:  # gradscope's own failure must not change the program's exit
        trace = Trace(argv=list(target.argv), exit_status=outcome.exit_status)
        trace.internal_errors.append(f"building the trace failed: {type(exc).__name__}: {exc}")
        findings = []
    return Recorded(outcome, trace, findings, settings)


class _TermReport:
    """SIGTERM ends a Python program at once, with no cleanup and its stdout buffer lost. To
    still report what was recorded (best effort), a handler runs `report` first and then dies by
    SIGTERM itself, as the program would have: same exit status, same lost output. Installed
    only where the program left SIGTERM at its default, and from the main thread; a handler the
    program installs later replaces it, as it would replace the default."""

    def __init__(self, report):
        self.installed = False
        if report is None or threading.current_thread() is not threading.main_thread():
            return
        if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
            return
        self.report = report
        signal.signal(signal.SIGTERM, self._handle)
        self.installed = True

    def _handle(self, signum, frame) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        try:
            self.report()
        except BaseException:  # best effort: dying as the program would matters more
            pass
        os.kill(os.getpid(), signal.SIGTERM)

    def uninstall(self) -> None:
        if self.installed and signal.getsignal(signal.SIGTERM) == self._handle:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


def report(result: Recorded, json_path: str | None = None, trace_path: str | None = None) -> None:
    """Print the findings to stderr and write the requested files; never raises."""
    try:
        sys.stderr.flush()
        console.render(result.findings, result.trace.internal_errors, sys.stderr)
        if result.trace.grad_flow is not None:
            from .render import flow_table

            flow_table.render(result.trace.grad_flow, sys.stderr)
    except Exception as exc:
        print(f"gradscope: internal error while reporting: {type(exc).__name__}: {exc}", file=sys.stderr)
    report_files(result, json_path, trace_path, result.settings.flow_svg if result.settings else None)


def report_files(result: Recorded, json_path: str | None = None, trace_path: str | None = None,
                 flow_svg: str | None = None) -> None:
    """Write the requested report files; never raises (a failure is one line on stderr)."""
    try:
        if flow_svg and result.trace.grad_flow is not None:
            from .render import flow_svg as chart
            from .render.output import write_text

            write_text(flow_svg, chart.render(result.trace.grad_flow))
        if json_path:
            json_report.write(json_path, result.trace, result.findings)
        if trace_path:
            trace_file.save(trace_path, result.trace, result.findings)
    except Exception as exc:
        print(f"gradscope: internal error while reporting: {type(exc).__name__}: {exc}", file=sys.stderr)


def run(target: Target, json_path: str | None = None, trace_path: str | None = None,
        settings: Settings | None = None) -> None:
    """`gradscope run`: record, report, and end the process as Python would have. Never returns."""
    result = record(target, settings, on_terminate=lambda partial: report(partial, json_path, trace_path))
    report(result, json_path, trace_path)
    result.outcome.exit()


class _Recording:
    """Starts the recorder once the program has imported torch (see import_hook)."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.recorder = None
        self.error: str | None = None

    def start(self) -> None:
        try:
            from .recorder import Recorder

            self.recorder = Recorder(keep_backwards=self.settings.keep_backwards,
                                     max_nodes=self.settings.max_nodes, check_nan=self.settings.check_nan,
                                     grad_flow=self.settings.grad_flow,
                                     flow_thresholds=self.settings.flow_thresholds)
            self.recorder.start()
        except Exception as exc:  # never break the program's `import torch`
            self.recorder = None
            self.error = f"the recorder could not start: {type(exc).__name__}: {exc}"

    def stop(self) -> None:
        if self.recorder is not None:
            self.recorder.stop()


def _trace(recorder, target: Target, outcome: Outcome) -> Trace:
    return build_trace(recorder, target.argv, outcome.exception, outcome.exit_status)


def build_trace(recorder, argv: list[str], exc: BaseException | None, exit_status: int) -> Trace:
    """The trace of a recorded run that ended with `exc` (None: it did not raise)."""
    held_tensors = []  # described before the trace is taken, so the nodes they name are in it
    if exc is not None and recorder is not None and recorder.failure_for(exc) is None:
        held_tensors = recorder.describe_exception(exc)
    # No recorder: the program never imported torch, so there is no autograd to explain.
    trace = recorder.to_trace(argv) if recorder is not None else Trace(argv=list(argv))
    trace.exit_status = exit_status
    if exc is not None:
        where = runner.innermost_user_frame(exc)
        error = UncaughtError(
            type=type(exc).__name__, message=str(exc),
            site=Site(real_path(where[0]), where[1]) if where else None,
        )
        failure = recorder.failure_for(exc) if recorder is not None else None
        error.tensors = held_tensors
        if failure is not None and failure[0] == "backward":
            error.backward_call = failure[1].index
        elif failure is not None:
            error.op_failure = next((i for i, f in enumerate(trace.op_failures) if f is failure[1]), None)
        trace.error = error
    return trace
