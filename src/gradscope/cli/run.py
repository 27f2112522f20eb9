"""`gradscope run SCRIPT [ARGS]...`: the options, as the recording's settings; the run itself is
`runtime.session.run` (record, diagnose, report, exit as the program did)."""

from __future__ import annotations

import os
import sys
from typing import List, Optional

import typer

from ..runtime.distributed import LAUNCHERS
from ..settings import DEFAULTS
from .app import app, resolve_program


@app.command(
    context_settings={"allow_interspersed_args": False},
    help="Run a Python script (or -m module) exactly as Python would, recording its autograd "
         "activity, and explain autograd errors with the lines behind them. Everything after "
         "SCRIPT belongs to the script.",
)
def run(
    script: str = typer.Argument(..., metavar="SCRIPT", help="The script to run (or, with -m, the module)."),
    args: Optional[List[str]] = typer.Argument(None, metavar="[ARGS]...", help="Arguments for the script."),
    module: bool = typer.Option(False, "-m", help="Run SCRIPT as a module, like `python -m`."),
    json_path: Optional[str] = typer.Option(None, "--json", metavar="PATH",
                                            help="Also write the findings as JSON to PATH."),
    trace_path: Optional[str] = typer.Option(None, "--trace", metavar="PATH",
                                             help="Save everything recorded to PATH (JSON; gzip if it ends in .gz)."),
    save_trace: bool = typer.Option(False, "--save-trace",
                                    help="Save the trace as SCRIPT_NAME.trace.json.gz in the working directory."),
    keep_backwards: int = typer.Option(DEFAULTS.keep_backwards, "--keep-backwards", metavar="N", min=1,
                                       help="Keep full detail of the graphs of the last N backward calls."),
    max_nodes: int = typer.Option(DEFAULTS.max_nodes, "--max-nodes", metavar="N", min=100,
                                  help="Keep at most N autograd node records (memory bound)."),
    check_nan: bool = typer.Option(False, "--check-nan",
                                   help="Check every gradient as it flows and name the first backward node "
                                        "that turned finite gradients into NaN/inf (slower: one check per node)."),
    grad_flow: bool = typer.Option(False, "--grad-flow",
                                   help="Record gradient statistics per parameter and per module output at "
                                        "each backward call; report vanishing/exploding gradients, dead ReLUs, "
                                        "the first NaN/inf, and print a table."),
    flow_modules: Optional[List[str]] = typer.Option(None, "--grad-flow-modules", metavar="PATTERN",
                                                     help="Watch only modules whose path matches PATTERN "
                                                          "(glob, e.g. 'encoder.*'; repeatable). Implies --grad-flow."),
    flow_thresholds: Optional[List[str]] = typer.Option(None, "--grad-flow-threshold", metavar="NAME=VALUE",
                                                        help="Change a grad-flow threshold (vanishing-ratio, "
                                                             "vanishing-drop, exploding-norm, exploding-growth, "
                                                             "dead-fraction; repeatable)."),
    flow_svg: Optional[str] = typer.Option(None, "--grad-flow-svg", metavar="PATH",
                                           help="Write a chart of each layer's gradient norm per step (SVG). "
                                                "Implies --grad-flow."),
) -> None:
    from ..runtime import session

    thresholds = _thresholds(flow_thresholds or [])
    options = _run_options(json_path, trace_path, save_trace, keep_backwards, max_nodes, check_nan, grad_flow,
                           flow_modules, flow_thresholds, flow_svg)
    if module and script in LAUNCHERS:
        _launch_workers(script, list(args or []), options)
    target = resolve_program(script, args, module)
    if save_trace and not trace_path:
        trace_path = default_trace_name(script, module)
    watching = tuple(flow_modules or ()) if (grad_flow or flow_modules or flow_svg or thresholds) else None
    session.run(target, json_path, trace_path,
                session.Settings(keep_backwards=keep_backwards, max_nodes=max_nodes, check_nan=check_nan,
                                 grad_flow=watching, flow_thresholds=thresholds, flow_svg=flow_svg),
                options)


def _run_options(json_path, trace_path, save_trace, keep_backwards, max_nodes, check_nan, grad_flow, flow_modules,
                 flow_thresholds, flow_svg) -> list[str]:
    """The `gradscope run` options given, as arguments again (for the workers of a launcher)."""
    options = []
    for flag, value in (("--json", json_path), ("--trace", trace_path), ("--grad-flow-svg", flow_svg)):
        if value:
            options += [flag, os.path.abspath(value)]
    if keep_backwards != DEFAULTS.keep_backwards:
        options += ["--keep-backwards", str(keep_backwards)]
    if max_nodes != DEFAULTS.max_nodes:
        options += ["--max-nodes", str(max_nodes)]
    options += ["--save-trace"] * bool(save_trace) + ["--check-nan"] * bool(check_nan) + ["--grad-flow"] * bool(grad_flow)
    for pattern in flow_modules or []:
        options += ["--grad-flow-modules", pattern]
    for pair in flow_thresholds or []:
        options += ["--grad-flow-threshold", pair]
    return options


def _launch_workers(launcher: str, args: list[str], options: list[str]) -> None:
    """`gradscope run -m torch.distributed.run ... train.py`: run the launcher itself, unrecorded,
    with each worker started as `python -m gradscope run OPTIONS train.py` (every rank recorded,
    each writing its own files). Replaces this process: the exit status is the launcher's."""
    from ..runtime.distributed import LaunchError, workers_under_gradscope

    try:
        rewritten = workers_under_gradscope(args, options, sys.executable)
    except LaunchError as exc:
        print(f"gradscope: {exc}", file=sys.stderr)
        raise typer.Exit(2)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, "-m", launcher, *rewritten])


def _thresholds(pairs: list[str]) -> dict:
    from ..trace.flow_stats import parse_thresholds

    try:
        return parse_thresholds(pairs)
    except ValueError as exc:
        print(f"gradscope: --grad-flow-threshold: {exc}", file=sys.stderr)
        raise typer.Exit(2)


def default_trace_name(script: str, module: bool) -> str:
    stem = script if module else os.path.splitext(os.path.basename(script.rstrip("/")))[0]
    return f"{stem}.trace.json.gz"
