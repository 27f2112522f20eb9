"""What a recorded run leaves behind: the panels on stderr and the files asked for (`--json`,
`--trace`, `--grad-flow-svg`). Neither function ever raises: a failure to report is one line on
stderr, never a change to how the program ends."""

from __future__ import annotations

import sys
from typing import TextIO

from ..paths import write_text
from ..trace import file as trace_file
from ..trace.findings import Finding
from ..trace.model import Trace
from ..trace.wording import stopped_words
from . import console, json_report


def print_report(trace: Trace, findings: list[Finding], stream: TextIO | None = None) -> None:
    """The findings' panels, the gradient-flow table (with --grad-flow) and where SIGTERM
    stopped the program, to `stream` (stderr)."""
    stream = stream or sys.stderr
    try:
        sys.stderr.flush()
        console.render(findings, trace.internal_errors, stream)
        if trace.grad_flow is not None:
            from . import flow_table

            flow_table.render(trace.grad_flow, stream)
        if trace.stopped is not None:
            print(f"gradscope: {stopped_words(trace.stopped)}", file=stream)
    except Exception as exc:
        internal_error(exc)


def write_files(trace: Trace, findings: list[Finding], json_path: str | None = None,
                trace_path: str | None = None, flow_svg: str | None = None) -> None:
    """Write the requested report files."""
    try:
        if flow_svg and trace.grad_flow is not None:
            from . import flow_svg as chart

            write_text(flow_svg, chart.render(trace.grad_flow))
        if json_path:
            json_report.write(json_path, trace, findings)
        if trace_path:
            trace_file.save(trace_path, trace, findings)
    except Exception as exc:
        internal_error(exc)


def internal_error(exc: Exception) -> None:
    print(f"gradscope: internal error while reporting: {type(exc).__name__}: {exc}", file=sys.stderr)
