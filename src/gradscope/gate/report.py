"""A check's verdict, reported: the panels and the summary line on stderr, and the machine
format asked for (`--format json|github|sarif|junit`) to `--output` or stdout."""

from __future__ import annotations

import json
import sys

from ..paths import write_text
from ..render import console, github, json_report, junit, sarif
from ..trace.model import Trace
from . import USAGE, Verdict
from .config import Config

FORMATS = ("text", "json", "github", "sarif", "junit")


def render(trace: Trace, verdict: Verdict, config: Config, program_failed: bool, name: str, fmt: str = "text",
           output: str | None = None) -> int:
    """Report the verdict; the exit code of the check (USAGE when the report cannot be written)."""
    try:
        sys.stdout.flush()
        console.render(verdict.reported, trace.internal_errors, sys.stderr)
        print(verdict.summary(program_failed), file=sys.stderr)
        if fmt != "text":
            text = _machine_report(fmt, trace, verdict, program_failed, name, config)
            if output:
                write_text(output, text)
            else:
                sys.stdout.write(text)
                sys.stdout.flush()
        elif output:
            write_text(output, "\n".join(_plain_lines(verdict)) + "\n")
    except OSError as exc:
        print(f"gradscope: cannot write the report to '{output}': {exc.strerror}", file=sys.stderr)
        return USAGE
    return verdict.exit_code(program_failed)


def _machine_report(fmt: str, trace: Trace, verdict: Verdict, program_failed: bool, name: str,
                    config: Config) -> str:
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


def _plain_lines(verdict: Verdict) -> list[str]:
    lines = []
    for finding in verdict.reported:
        where = finding.primary
        place = f"{where.path}:{where.line}: " if where else ""
        lines.append(f"{place}{finding.severity}: {finding.title} [{finding.rule}]")
    return lines
