"""`gradscope graph`: from a program or a saved trace to a diagram file (render/drawing.py draws).

Exit codes (documented in the README): 0 the diagram was written; 1 this trace has no such
graph to draw; 2 bad input (unreadable trace, missing script, bad option); 3 no renderer for the
format here, so the DOT text was written instead.
"""

from __future__ import annotations

import sys
from typing import List, Optional

import typer

from typing import TYPE_CHECKING

from .app import app, main, resolve_program

if TYPE_CHECKING:  # (imported when the command runs: `gradscope run` need not load the diagram code)
    from ..trace.findings import Finding
    from ..trace.model import Trace


@app.command(
    context_settings={"allow_interspersed_args": False},
    help="Draw the autograd graph, with the problem highlighted. TARGET is a script to run (its "
         "arguments follow it) or a trace saved by `gradscope run --trace`.",
)
def graph(
    target: str = typer.Argument(..., metavar="TARGET", help="A script (or, with -m, a module), or a trace file."),
    args: Optional[List[str]] = typer.Argument(None, metavar="[ARGS]...", help="Arguments for the script."),
    output: Optional[str] = typer.Option(None, "-o", "--output", metavar="PATH",
                                         help="Where to write the diagram [default: TARGET_NAME.graph.svg]."),
    fmt: Optional[str] = typer.Option(None, "--format", metavar="FORMAT",
                                      help="svg, png, pdf, dot or json [default: from the output's suffix, else svg]."),
    call: Optional[int] = typer.Option(None, "--call", metavar="N", min=1,
                                       help="Draw the graph of backward call #N [default: the failing one, else the last]."),
    focus: bool = typer.Option(False, "--focus", help="Draw only the neighbourhood of the problem."),
    radius: int = typer.Option(4, "--radius", min=1, help="With --focus: how many steps around the problem."),
    depth: Optional[int] = typer.Option(None, "--depth", min=0,
                                        help="Fold nodes into one box per nn.Module call at this depth [default: as needed]."),
    max_boxes: int = typer.Option(150, "--max-boxes", min=10, help="Fold until about this many boxes are left."),
    no_saved: bool = typer.Option(False, "--no-saved", help="Do not draw saved tensors."),
    color_by: Optional[str] = typer.Option(None, "--color-by", metavar="WHAT",
                                           help="grad-norm: colour each box by its gradient norm at the last "
                                                "backward (a script runs with --grad-flow; a trace must have it)."),
    module: bool = typer.Option(False, "-m", help="Run TARGET as a module, like `python -m`."),
) -> None:
    from ..render.drawing import BAD_INPUT, Request
    from ..trace.file import TraceFileError, looks_like_trace

    is_trace = not module and looks_like_trace(target)
    if is_trace and args:
        # A trace takes no arguments: read what follows it as gradscope's own options.
        raise SystemExit(main(["graph", *args, target]))
    options = Request(output=output, fmt=fmt, call=call, focus=focus, radius=radius,
                      depth=depth, max_boxes=max_boxes, show_saved=not no_saved, color_by=color_by)
    try:
        if color_by not in (None, "grad-norm"):
            raise ValueError(f"unknown --color-by '{color_by}' (choose grad-norm)")
        options.resolve_format(target)
    except ValueError as exc:
        print(f"gradscope: {exc}", file=sys.stderr)
        raise typer.Exit(2)
    if is_trace:
        try:
            raise typer.Exit(from_trace_file(target, options))
        except TraceFileError as exc:
            print(f"gradscope: {exc}", file=sys.stderr)
            raise typer.Exit(2)
    program = resolve_program(target, args, module, exit_status=BAD_INPUT)
    raise typer.Exit(from_program(program, options))


def from_trace_file(path: str, request: Request) -> int:
    from ..trace.file import load

    trace, findings, source = load(path)
    return draw(trace, findings, request, source)


def from_program(target, request: Request) -> int:
    """Record the program, diagnose it, print the findings, draw."""
    from ..render.outputs import print_report
    from ..rules import diagnose
    from ..runtime import session
    from ..settings import Settings

    # Colouring by gradient norm needs the statistics: record them for this run.
    flow = () if request.color_by == "grad-norm" else None
    recorded = session.record(target, Settings(grad_flow=flow))
    findings = diagnose(recorded.trace)
    print_report(recorded.trace, findings)
    status = draw(recorded.trace, findings, request)
    if recorded.outcome.exit_status != 0:
        print(f"gradscope: (the program itself exited with status {recorded.outcome.exit_status})", file=sys.stderr)
    return status


def draw(trace: Trace, findings: list[Finding], request: Request, source: dict[str, str] | None = None) -> int:
    """Write the diagram and say so on stderr (or why not); the exit code."""
    from ..render.drawing import write_diagram

    status, message = write_diagram(trace, findings, request, source)
    print(f"gradscope: {message}", file=sys.stderr)
    return status
