"""The Python API: record a block of code in this process.

    import gradscope

    with gradscope.record() as rec:
        loss = model(x).sum()
        loss.backward()
    rec.report()                      # the panels `gradscope run` prints
    rec.findings                      # the same Finding objects
    rec.graph("graph.svg")            # the diagram `gradscope graph` draws

The recorder, the settings and the rules are those of `gradscope run`. An exception raised in
the block propagates unchanged, after what it says is recorded; the recording stops on every
way out of the block. This module imports torch only when a recording starts.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import TYPE_CHECKING, TextIO

from .errors import RecordingError
from .settings import Settings

if TYPE_CHECKING:
    from .trace.findings import Finding
    from .trace.model import Trace


class Recording:
    """One recording: a context manager (`with gradscope.record() as rec:`), or `start()` and
    `stop()` (the IPython magics record cell by cell this way). After it stopped, `findings` and
    `trace` hold what it found; `report()`, `save()` and `graph()` show it."""

    def __init__(self, settings: Settings | None = None, argv: list[str] | None = None):
        from .runtime.recording import Recording as ProcessRecording  # (no torch until start())

        self.settings = settings or Settings()
        self.argv = argv or ["gradscope.record()"]  # names the run in the trace (and a saved trace file)
        self.findings: list[Finding] = []
        self.trace: Trace | None = None
        self._recording = ProcessRecording(self.settings, self.argv)
        self._over = False  # diagnosed for good

    # ------------------------------------------------------------------ life cycle
    def __enter__(self) -> Recording:
        self.start()
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        self.stop(exc)
        return False  # the block's exception, if any, goes on unchanged

    def start(self) -> None:
        """Start recording. Raises RecordingError if another recording is running in this
        process, or if this one ran already (start a new `gradscope.record()` instead)."""
        self._recording.start()  # imports torch

    def stop(self, exc: BaseException | None = None) -> None:
        """Stop recording and diagnose what was recorded. `exc`: the exception the recorded
        code raised, if any (its explanation is then part of the findings). Never raises."""
        if self._recording.started and not self._over:
            self.halt()
            self.diagnose(exc, 0 if exc is None else 1)

    def halt(self) -> None:
        """Stop recording (what the program does next is not recorded); diagnose() later, or
        resume() to record more into the same trace (IPython's `%gradscope on`, cell by cell)."""
        self._recording.halt()

    def resume(self) -> None:
        """Record again after halt(), into the same records. Raises RecordingError if another
        recording runs, or if this one was diagnosed for good."""
        if self._over:
            raise RecordingError("this recording is over; start a new one with gradscope.record()")
        self._recording.resume()

    def diagnose(self, exc: BaseException | None, exit_status: int, internal_errors: tuple[str, ...] = (),
                 final: bool = True) -> None:
        """Build the trace of the recording (halted) and diagnose it: `trace`, `findings`.
        `exc`: the exception the recorded code ended with. `final=False`: a snapshot, after
        which resume() may record more. Never raises."""
        from .rules import diagnose

        self._over = self._over or final
        self.trace = self._recording.finish(exc, exit_status, internal_errors, final)
        self.findings = diagnose(self.trace)

    @property
    def started(self) -> bool:
        """Whether start() ran (it may have stopped since)."""
        return self._recording.started

    @property
    def running(self) -> bool:
        return self._recording.running

    # ------------------------------------------------------------------ what it found
    def report(self, file: TextIO | None = None, width: int | None = None) -> None:
        """Print the findings as `gradscope run` does (to stderr unless `file` is given)."""
        from .render import console

        console.render(self.findings, self._trace().internal_errors, file or sys.stderr, width=width)

    def save(self, path: str) -> None:
        """Write a trace file that `gradscope report`, `gradscope graph` and `gradscope check` read."""
        from .trace import file as trace_file

        trace_file.save(path, self._trace(), self.findings)

    def graph(self, output: str | None = None, format: str | None = None, *, call: int | None = None,
              focus: bool = False, radius: int = 4, depth: int | None = None, max_boxes: int = 150,
              show_saved: bool = True, color_by: str | None = None) -> Diagram:
        """Draw the recorded graph as `gradscope graph` does (the problem highlighted). With
        `output`, written there (`format`: svg, png, pdf, dot or json; else from its suffix);
        without, an SVG kept in memory, which Jupyter shows inline. Raises ValueError for a bad
        option, RuntimeError when there is no graph to draw or no renderer for the format."""
        import os
        import tempfile

        from .render import drawing

        with tempfile.TemporaryDirectory(prefix="gradscope-") as scratch:
            target = output or os.path.join(scratch, "graph")
            request = drawing.Request(output=target if output else None, fmt=format, call=call, focus=focus,
                                            radius=radius, depth=depth, max_boxes=max_boxes, show_saved=show_saved,
                                            color_by=color_by)
            request.resolve_format(target)
            if not output:
                request.output = f"{target}.{request.fmt}"
            status, message = drawing.write_diagram(self._trace(), self.findings, request)
            if status != drawing.GRAPH_WRITTEN:
                raise RuntimeError(message)
            text = None
            if request.fmt in ("svg", "dot", "json"):
                with open(request.output, encoding="utf-8") as handle:
                    text = handle.read()
        return Diagram(request.fmt, output, text, message)

    def _trace(self) -> Trace:
        if self.trace is None:
            raise RecordingError("nothing recorded yet: use the recording in a `with` block first "
                                 "(or call start() and stop())")
        return self.trace

    def __repr__(self) -> str:
        state = "running" if self.running else ("diagnosed" if self.trace is not None else "not started")
        return f"<gradscope.Recording {state}, {len(self.findings)} finding(s)>"


class Diagram:
    """A drawn graph: `path` where it was written (None: kept in memory), `text` (SVG, DOT or
    JSON), shown inline by Jupyter when it is SVG."""

    def __init__(self, fmt: str, path: str | None, text: str | None, summary: str):
        self.format, self.path, self.text, self.summary = fmt, path, text, summary

    @property
    def svg(self) -> str | None:
        return self.text if self.format == "svg" else None

    def _repr_svg_(self) -> str | None:
        return self.svg

    def __fspath__(self) -> str:
        if self.path is None:
            raise TypeError("this diagram was not written to a file: pass an output path to graph()")
        return self.path

    def __repr__(self) -> str:
        return f"<gradscope.Diagram {self.summary}>"


def record(settings: Settings | None = None, **options) -> Recording:
    """A recording of the block it is used on: `with gradscope.record(check_nan=True) as rec:`.

    `options` are the settings of `gradscope run` by name (keep_backwards, max_nodes, check_nan,
    grad_flow, flow_thresholds, flow_max_steps, flow_svg); an unknown name raises TypeError."""
    settings = dataclasses.replace(settings or Settings(), **options)
    return Recording(settings, [_caller_label()])


def _caller_label() -> str:
    """'train.py:12': where the recording was asked for (names the run in the trace)."""
    frame = sys._getframe(2)
    return f"{frame.f_code.co_filename}:{frame.f_lineno}" if frame is not None else "gradscope.record()"


__all__ = ["Diagram", "Recording", "RecordingError", "record"]
