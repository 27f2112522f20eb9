"""SARIF 2.1.0: the format code-scanning tools (GitHub code scanning, IDE viewers) read.

One run with gradscope as the tool and a rule entry (id, summary, help) for every rule that
has a result; one result per finding, located on its primary line, with the other lines it
names as related locations. Paths inside the working directory are relative to %SRCROOT%.
"""

from __future__ import annotations

import os

from .. import __version__
from ..paths import relative_to
from ..trace.catalog import CATALOG
from ..trace.findings import Finding, Location

VERSION = "2.1.0"
SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {"error": "error", "warning": "warning"}


def report(findings: list[Finding], base: str | None = None) -> dict:
    base = os.path.abspath(base or os.getcwd())
    rule_ids = list(dict.fromkeys(f.rule for f in findings))
    rules = [_rule(rule, next(f for f in findings if f.rule == rule)) for rule in rule_ids]
    results = [_result(f, rule_ids.index(f.rule), base) for f in findings]
    return {
        "$schema": SCHEMA_URI,
        "version": VERSION,
        "runs": [{
            "tool": {"driver": {
                "name": "gradscope",
                "version": __version__,
                "informationUri": "https://pypi.org/project/gradscope/",
                "rules": rules,
            }},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": _file_uri(base) + "/"}},
            "results": results,
        }],
    }


def _rule(rule: str, example: Finding) -> dict:
    info = CATALOG.get(rule)
    summary = info.summary if info else example.title
    level = _LEVEL.get(info.severity if info else example.severity, "warning")
    return {
        "id": rule,
        "name": "".join(word.capitalize() for word in rule.split("-")),
        "shortDescription": {"text": summary},
        "fullDescription": {"text": summary},
        "help": {"text": f"{summary} Each result names the lines involved and the fix that fits the cause. "
                         f"Suppress one line with `# gradscope: ignore[{rule}]`.",
                 "markdown": f"{summary}\n\nEach result names the lines involved and the fix that fits the "
                             f"cause. Suppress one line with `# gradscope: ignore[{rule}]`."},
        "defaultConfiguration": {"level": level},
    }


def _result(finding: Finding, rule_index: int, base: str) -> dict:
    primary = finding.primary
    result = {
        "ruleId": finding.rule,
        "ruleIndex": rule_index,
        "level": _LEVEL.get(finding.severity, "warning"),
        "message": {"text": f"{finding.title}. {_change_here(primary)}{finding.explanation} Fix: {finding.fix}"},
    }
    if primary is not None:
        result["locations"] = [_location(primary, base)]
    related = [loc for loc in finding.locations if loc is not primary]
    if related:
        result["relatedLocations"] = [
            {"id": number, **_location(loc, base), "message": {"text": f"{loc.role}: {loc.note or loc.code}"}}
            for number, loc in enumerate(related, 1)]
    return result


def _change_here(primary: Location | None) -> str:
    """The result's line is the one to change when the finding singled one out: say why."""
    return f"Change this line: {primary.note}. " if primary is not None and primary.role == "fix" and primary.note else ""


def _location(location: Location, base: str) -> dict:
    relative = relative_to(location.path, base)
    artifact = ({"uri": relative, "uriBaseId": "%SRCROOT%"} if relative is not None
                else {"uri": _file_uri(location.path)})
    physical = {"artifactLocation": artifact, "region": {"startLine": max(1, location.line)}}
    code = location.code
    if code:
        physical["region"]["snippet"] = {"text": code}
    return {"physicalLocation": physical}


def _file_uri(path: str) -> str:
    from pathlib import Path

    return Path(os.path.abspath(path)).as_uri()
