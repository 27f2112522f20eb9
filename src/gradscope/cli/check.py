"""`gradscope check`: run a program (or read a saved trace), judge its findings, report, exit.
One pass: record -> diagnose -> judge (gate/) -> report (gate/report.py), each step once.

Exit codes (documented in the README, defined in gate/): 0 nothing at or above the threshold;
1 findings at or above it; 2 gradscope's own input was wrong (options, script, configuration,
trace file); 3 the program itself failed and gradscope found nothing to report.

The program's output goes where it always goes. The human report goes to stderr; a machine
format (`--format json|github|sarif|junit`) goes to `--output PATH`, else to stdout.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, List, Optional

import typer

from .app import app, main, resolve_program

if TYPE_CHECKING:  # (imported when the command runs: `gradscope run` need not load the gate)
    from ..gate.config import Config


class CheckError(Exception):
    """Bad input for a check (exit 2); the message says why."""


@dataclass
class Request:
    fmt: str = "text"
    output: str | None = None
    fail_on: str | None = None  # overrides the configuration's
    config_path: str | None = None
    trace_path: str | None = None  # also save the trace here (program runs only)

    def validate(self) -> Config:
        from ..gate import config as config_module
        from ..gate.report import FORMATS

        if self.fmt not in FORMATS:
            raise CheckError(f"unknown format '{self.fmt}' (choose from {', '.join(FORMATS)})")
        if self.fail_on is not None and self.fail_on not in config_module.SEVERITIES:
            raise CheckError(f"--fail-on must be 'error' or 'warning', not '{self.fail_on}'")
        if self.output is not None and os.path.isdir(self.output):
            raise CheckError(f"--output '{self.output}' is a directory")
        try:
            return config_module.load(self.config_path)
        except config_module.ConfigError as exc:
            raise CheckError(str(exc)) from None


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
    from ..gate import USAGE
    from ..trace.file import looks_like_trace

    is_trace = not module and looks_like_trace(target)
    if is_trace and args:
        raise SystemExit(main(["check", *args, target]))
    request = Request(fmt=fmt.lower(), output=output, fail_on=fail_on, config_path=config_path,
                      trace_path=trace_path)
    try:
        config = request.validate()
        if is_trace:
            raise typer.Exit(from_trace_file(target, request, config))
        runnable = resolve_program(target, args, module, exit_status=USAGE)
        raise typer.Exit(from_program(runnable, request, config))
    except CheckError as exc:
        print(f"gradscope: {exc}", file=sys.stderr)
        raise typer.Exit(USAGE)


def from_program(target, request: Request, config: Config, settings=None) -> int:
    from .. import gate
    from ..gate import report as gate_report
    from ..render.outputs import write_files
    from ..rules import diagnose
    from ..runtime import session

    recorded = session.record(target, settings)
    findings = diagnose(recorded.trace)
    if request.trace_path:
        write_files(recorded.trace, findings, trace_path=request.trace_path)
    verdict = gate.judge(findings, config, recorded.trace, fail_on=request.fail_on)
    return gate_report.render(recorded.trace, verdict, config, recorded.outcome.exit_status != 0, target.argv[0],
                              request.fmt, request.output)


def from_trace_file(path: str, request: Request, config: Config) -> int:
    from .. import gate
    from ..gate import report as gate_report
    from ..trace import file as trace_file
    from ..trace.locations import source_line

    try:
        trace, findings, source_lines = trace_file.load(path)
    except trace_file.TraceFileError as exc:
        raise CheckError(str(exc)) from None

    def read_line(file: str, line: int) -> str:  # the sources may be gone: the trace kept its lines
        return source_lines.get(f"{file}:{line}") or source_line(file, line)

    verdict = gate.judge(findings, config, trace, read_line=read_line, fail_on=request.fail_on)
    return gate_report.render(trace, verdict, config, trace.exit_status != 0, path, request.fmt, request.output)
