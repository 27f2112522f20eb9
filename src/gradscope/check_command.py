"""`gradscope check`: run a program (or read a saved trace), judge its findings, report, exit.

Exit codes (documented in the README, defined in gate.py): 0 nothing at or above the
threshold; 1 findings at or above it; 2 gradscope's own input was wrong (options, script,
configuration, trace file); 3 the program itself failed and gradscope found nothing to report.

The program's output goes where it always goes. The human report goes to stderr; a machine
format (`--format json|github|sarif|junit`) goes to `--output PATH`, else to stdout.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass

from . import config as config_module
from . import gate, trace_file
from .findings import Finding
from .locations import source_line
from .paths import write_text
from .render import console, github, json_report, junit, sarif
from .trace import Trace

FORMATS = ("text", "json", "github", "sarif", "junit")


class CheckError(Exception):
    """Bad input for a check (exit 2); the message says why."""


@dataclass
class Request:
    fmt: str = "text"
    output: str | None = None
    fail_on: str | None = None  # overrides the configuration's
    config_path: str | None = None
    trace_path: str | None = None  # also save the trace here (program runs only)

    def validate(self) -> config_module.Config:
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


def from_program(target, request: Request, config: config_module.Config, settings=None) -> int:
    from . import session

    result = session.record(target, settings)
    if request.trace_path:
        session.report_files(result, trace_path=request.trace_path)
    program_failed = result.outcome.exit_status != 0
    return _report(result.trace, result.findings, request, config, program_failed, name=target.argv[0])


def from_trace_file(path: str, request: Request, config: config_module.Config) -> int:
    try:
        trace, findings, source_lines = trace_file.load(path)
    except trace_file.TraceFileError as exc:
        raise CheckError(str(exc)) from None

    def read_line(file: str, line: int) -> str:  # the sources may be gone: the trace kept its lines
        return source_lines.get(f"{file}:{line}") or source_line(file, line)

    return _report(trace, findings, request, config, trace.exit_status != 0, name=path, read_line=read_line)


def _report(trace: Trace, findings: list[Finding], request: Request, config: config_module.Config,
            program_failed: bool, name: str, read_line=None) -> int:
    verdict = gate.judge(findings, config, trace, read_line=read_line, fail_on=request.fail_on)
    try:
        sys.stdout.flush()
        console.render(verdict.reported, trace.internal_errors, sys.stderr)
        print(verdict.summary(program_failed), file=sys.stderr)
        if request.fmt != "text":
            text = _machine_report(request.fmt, trace, verdict, program_failed, name, config)
            if request.output:
                write_text(request.output, text)
            else:
                sys.stdout.write(text)
                sys.stdout.flush()
        elif request.output:
            write_text(request.output, "\n".join(_plain_lines(verdict)) + "\n")
    except OSError as exc:
        print(f"gradscope: cannot write the report to '{request.output}': {exc.strerror}", file=sys.stderr)
        return gate.USAGE
    return verdict.exit_code(program_failed)


def _machine_report(fmt: str, trace: Trace, verdict: gate.Verdict, program_failed: bool, name: str,
                    config: config_module.Config) -> str:
    if fmt == "github":
        return "".join(github.annotation(f) + "\n" for f in verdict.reported)
    if fmt == "sarif":
        return json.dumps(sarif.report(verdict.reported), indent=2) + "\n"
    if fmt == "junit":
        return junit.render(verdict.reported, verdict.failing, name)
    data = json_report.report(trace, verdict.reported)
    data["check"] = {
        "fail_on": verdict.fail_on, "exit_code": verdict.exit_code(program_failed),
        "failing": len(verdict.failing), "suppressed": len(verdict.suppressed), "config": config.path,
    }
    return json.dumps(data, indent=2) + "\n"


def _plain_lines(verdict: gate.Verdict) -> list[str]:
    lines = []
    for finding in verdict.reported:
        where = finding.primary
        place = f"{where.path}:{where.line}: " if where else ""
        lines.append(f"{place}{finding.severity}: {finding.title} [{finding.rule}]")
    return lines

