"""GitHub Actions workflow commands: one `::error`/`::warning` annotation per finding.

GitHub shows them on the pull request's changed lines. Format (GitHub's "workflow commands"):
`::error file=PATH,line=N,title=TITLE::MESSAGE`, with `%`, CR and LF escaped in the message and
also `:` and `,` in the properties.
"""

from __future__ import annotations

from typing import TextIO

from ..paths import display
from ..trace.findings import Finding


def render(findings: list[Finding], stream: TextIO) -> None:
    for finding in findings:
        stream.write(annotation(finding) + "\n")


def annotation(finding: Finding) -> str:
    level = "error" if finding.severity == "error" else "warning"
    where = finding.primary
    properties = []
    if where is not None:
        properties += [f"file={_property(display(where.path))}", f"line={where.line}"]
    properties.append(f"title={_property(f'gradscope {finding.rule}: {finding.title}')}")
    return f"::{level} {','.join(properties)}::{_data(message(finding))}"


def message(finding: Finding) -> str:
    primary = finding.primary
    lines = ([f"Change this line: {primary.note}.", ""] if primary is not None and primary.role == "fix"
             and primary.note else []) + [finding.explanation]
    others = [loc for loc in finding.locations if loc is not finding.primary]
    if others:
        lines.append("")
        lines += [f"{loc.role}: {display(loc.path)}:{loc.line}" for loc in others]
    lines += ["", f"Fix: {finding.fix}"]
    return "\n".join(lines)


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")
