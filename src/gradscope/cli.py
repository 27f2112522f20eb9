"""The command line. Thin on purpose: parse, hand over, map errors to exit codes.

Exit codes of `gradscope run` (documented in the README):
  the program's own status   when it ran (0, sys.exit(n), 1 for an uncaught exception, ...)
  1                          the script has a syntax error, or the -m module cannot be found
  2                          the script file is missing or unreadable, or gradscope's own
                             options are wrong (unknown option, missing SCRIPT)
This mirrors Python (`python missing.py` exits 2, a syntax error exits 1).
"""

from __future__ import annotations

import os
import sys
from typing import List, Optional

import typer

from . import __version__
from .distributed import LAUNCHERS
from .settings import DEFAULTS

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="gradscope: a debugger for PyTorch autograd. Run your script with `gradscope run` instead "
         "of `python` and get the lines behind autograd errors.",
)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"gradscope {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_show_version, is_eager=True,
                                 help="Show gradscope's version and exit."),
) -> None:
    pass


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
    from . import session

    thresholds = _thresholds(flow_thresholds or [])
    options = _run_options(json_path, trace_path, save_trace, keep_backwards, max_nodes, check_nan, grad_flow,
                           flow_modules, flow_thresholds, flow_svg)
    if module and script in LAUNCHERS:
        _launch_workers(script, list(args or []), options)
    target = _resolve(script, args, module)
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
    from .distributed import LaunchError, workers_under_gradscope

    try:
        rewritten = workers_under_gradscope(args, options, sys.executable)
    except LaunchError as exc:
        print(f"gradscope: {exc}", file=sys.stderr)
        raise typer.Exit(2)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, "-m", launcher, *rewritten])


def _thresholds(pairs: list[str]) -> dict:
    from .flow_stats import parse_thresholds

    try:
        return parse_thresholds(pairs)
    except ValueError as exc:
        print(f"gradscope: --grad-flow-threshold: {exc}", file=sys.stderr)
        raise typer.Exit(2)


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
    from . import graph_command
    from .trace_file import TraceFileError, looks_like_trace

    is_trace = not module and looks_like_trace(target)
    if is_trace and args:
        # A trace takes no arguments: read what follows it as gradscope's own options.
        raise SystemExit(main(["graph", *args, target]))
    options = graph_command.Request(output=output, fmt=fmt, call=call, focus=focus, radius=radius,
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
            raise typer.Exit(graph_command.from_trace_file(target, options))
        except TraceFileError as exc:
            print(f"gradscope: {exc}", file=sys.stderr)
            raise typer.Exit(2)
    program = _resolve(target, args, module, exit_status=graph_command.BAD_INPUT)
    raise typer.Exit(graph_command.from_program(program, options))


@app.command(
    context_settings={"allow_interspersed_args": False},
    help="Run a script like `gradscope run` (or read a trace saved by `gradscope run --trace`) and "
         "fail when it shows autograd problems, including in-place hazards that did not raise in this "
         "run. Exit codes: 0 passed, 1 findings, 2 bad input, 3 the program failed with nothing to report.",
)
def check(
    target: str = typer.Argument(..., metavar="TARGET", help="A script (or, with -m, a module), or a trace file."),
    args: Optional[List[str]] = typer.Argument(None, metavar="[ARGS]...", help="Arguments for the script."),
    fmt: str = typer.Option("text", "--format", metavar="FORMAT",
                            help="text, json, github (workflow annotations), sarif (2.1.0) or junit."),
    output: Optional[str] = typer.Option(None, "-o", "--output", metavar="PATH",
                                         help="Write the report to PATH [default: stdout; text goes to stderr]."),
    fail_on: Optional[str] = typer.Option(None, "--fail-on", metavar="LEVEL",
                                          help="Fail on 'error' or also on 'warning' [default: from "
                                               "\\[tool.gradscope], else error]."),
    config_path: Optional[str] = typer.Option(None, "--config", metavar="PYPROJECT",
                                              help="Read \\[tool.gradscope] from this file \\[default: the "
                                                   "nearest pyproject.toml that has it]."),
    trace_path: Optional[str] = typer.Option(None, "--trace", metavar="PATH",
                                             help="Also save the trace to PATH, for `gradscope graph`."),
    module: bool = typer.Option(False, "-m", help="Run TARGET as a module, like `python -m`."),
) -> None:
    from . import check_command, gate
    from .trace_file import looks_like_trace

    is_trace = not module and looks_like_trace(target)
    if is_trace and args:
        raise SystemExit(main(["check", *args, target]))
    request = check_command.Request(fmt=fmt.lower(), output=output, fail_on=fail_on,
                                    config_path=config_path, trace_path=trace_path)
    try:
        config = request.validate()
        if is_trace:
            raise typer.Exit(check_command.from_trace_file(target, request, config))
        runnable = _resolve(target, args, module, exit_status=gate.USAGE)
        raise typer.Exit(check_command.from_program(runnable, request, config))
    except check_command.CheckError as exc:
        print(f"gradscope: {exc}", file=sys.stderr)
        raise typer.Exit(gate.USAGE)


@app.command(
    help="Merge the `--json` reports of a distributed run's ranks (report.rank0.json, report.rank1.json, "
         "...) into one report: each finding once, with the ranks that have it, and which ranks failed "
         "first. Exit codes: 0 printed, 2 bad input.",
)
def report(
    files: List[str] = typer.Argument(..., metavar="FILE...", help="JSON reports written by `gradscope run --json`."),
) -> None:
    from . import merge_command

    raise typer.Exit(merge_command.print_report(files))


@app.command(help="List the rule ids gradscope reports (for \\[tool.gradscope] and `# gradscope: ignore[...]`).")
def rules() -> None:
    from .catalog import CATALOG

    width = max(len(rule) for rule in CATALOG)
    for info in CATALOG.values():
        typer.echo(f"{info.id:<{width}}  {info.severity:<7}  {info.summary}")


def default_trace_name(script: str, module: bool) -> str:
    import os

    stem = script if module else os.path.splitext(os.path.basename(script.rstrip("/")))[0]
    return f"{stem}.trace.json.gz"


def _resolve(script: str, args, module: bool, exit_status: int | None = None):
    """The program to run; a script that cannot run ends here with one line on stderr and
    `exit_status` (default: the status Python itself would exit with)."""
    from . import runner

    try:
        if module:
            return runner.resolve_module(script, list(args or []))
        return runner.resolve_script(script, list(args or []))
    except runner.TargetError as exc:
        print(f"gradscope: {exc}", file=sys.stderr)
        raise typer.Exit(exc.exit_status if exit_status is None else exit_status)


def main(argv: list[str] | None = None) -> int | None:
    return app(args=argv, prog_name="gradscope")
