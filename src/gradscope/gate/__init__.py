"""The CI gate: which findings a check reports, which it fails on, and its exit code.

Pure data in, data out: findings and the trace's lines, a `Config`, and a way to read a source
line. Used by `gradscope check` and the pytest plugin; no torch.

Inline suppressions: a line carrying `# gradscope: ignore[rule-id, other-id]` (or a bare
`# gradscope: ignore`, for every rule) suppresses the findings that name that line. A
suppression is reported as unused only when its line ran and did autograd work in this run
(gradscope saw it) and still nothing was suppressed there: a line this run never reached
proves nothing.
"""

from __future__ import annotations

import dataclasses
import io
import linecache
import re
import tokenize
from dataclasses import dataclass, field
from typing import Callable

from ..trace.catalog import CATALOG
from ..trace.findings import Finding, Location
from ..trace.locations import source_line
from ..trace.model import Trace
from .config import Config

# Exit codes of `gradscope check` (documented in the README).
PASSED = 0
FAILED = 1  # findings at or above the threshold
USAGE = 2  # gradscope's own input was wrong: options, script, config, trace file
PROGRAM_FAILED = 3  # the program itself failed, and gradscope found nothing to report about it

_SUPPRESSION = re.compile(r"#\s*gradscope:\s*ignore(?:\[([^\]]*)\])?")
_RANK = {"warning": 1, "error": 2}
UNUSED = "unused-suppression"

LineReader = Callable[[str, int], str]


@dataclass
class Suppression:
    path: str
    line: int
    rules: tuple[str, ...] | None  # None: every rule
    used: set[str] = field(default_factory=set)  # the rules it suppressed (or "*")


@dataclass
class Verdict:
    reported: list[Finding]  # after configuration and suppressions, with configured severities
    failing: list[Finding]  # those at or above the threshold
    suppressed: list[Finding]
    fail_on: str

    @property
    def counts(self) -> dict[str, int]:
        return {severity: sum(f.severity == severity for f in self.reported) for severity in ("error", "warning")}

    def exit_code(self, program_failed: bool) -> int:
        if self.failing:
            return FAILED
        return PROGRAM_FAILED if program_failed else PASSED

    def summary(self, program_failed: bool) -> str:
        counts = self.counts
        words = [f"{counts['error']} error{'s' * (counts['error'] != 1)}",
                 f"{counts['warning']} warning{'s' * (counts['warning'] != 1)}"]
        if self.suppressed:
            words.append(f"{len(self.suppressed)} suppressed")
        if self.failing:
            verdict = f"failed (fail-on {self.fail_on})"
        elif program_failed:
            verdict = "the program itself failed; nothing for gradscope to report"
        else:
            verdict = "passed"
        return f"gradscope check: {', '.join(words)}: {verdict}"


def judge(findings: list[Finding], config: Config, trace: Trace | None = None,
          read_line: LineReader | None = None, fail_on: str | None = None,
          report_unused: bool = True) -> Verdict:
    """Apply the configuration and the inline suppressions to `findings`."""
    read_line = read_line or source_line
    threshold = fail_on or config.fail_on
    suppressions: dict[tuple[str, int], Suppression | None] = {}

    def suppression_at(path: str, line: int) -> Suppression | None:
        key = (path, line)
        if key not in suppressions:
            suppressions[key] = parse_suppression(path, line, read_line(path, line))
        return suppressions[key]

    reported, suppressed = [], []
    for finding in findings:
        severity = config.severity_of(finding.rule, finding.severity)
        if severity is None:
            continue
        if finding.locations and not any(config.in_scope(loc.path) for loc in finding.locations):
            continue
        by = [s for s in (suppression_at(loc.path, loc.line) for loc in finding.locations)
              if s is not None and (s.rules is None or finding.rule in s.rules)]
        if by:
            for suppression in by:
                suppression.used.add(finding.rule if suppression.rules is not None else "*")
            suppressed.append(finding)
            continue
        reported.append(finding if severity == finding.severity else dataclasses.replace(finding, severity=severity))

    if report_unused and trace is not None:
        for finding in _unused_suppressions(trace, config, suppressions, read_line):
            severity = config.severity_of(UNUSED, finding.severity)
            if severity is not None:
                reported.append(dataclasses.replace(finding, severity=severity))

    # An autograd error the program raised and caught itself (a test's `pytest.raises`, a
    # fallback path) is listed, never failing: the code under test handled it.
    failing = [f for f in reported if _RANK.get(f.severity, 0) >= _RANK[threshold] and f.details.get("uncaught", True)]
    return Verdict(reported, failing, suppressed, threshold)


def parse_suppression(path: str, line: int, text: str) -> Suppression | None:
    if "gradscope" not in text:
        return None
    found = _SUPPRESSION.search(text)
    if found is None:
        return None
    rules = None if found.group(1) is None else tuple(r.strip() for r in found.group(1).split(",") if r.strip())
    return Suppression(path, line, rules)


def _unused_suppressions(trace: Trace, config: Config, known: dict, read_line: LineReader) -> list[Finding]:
    """Suppressions on lines this run saw that suppressed nothing (or name an unknown rule)."""
    seen = _lines_seen(trace)
    findings = []
    for path in sorted({path for path, _ in seen}):
        if not config.in_scope(path):
            continue
        for line in _comment_lines(path):
            if (path, line) not in seen:
                continue
            suppression = known.get((path, line)) or parse_suppression(path, line, read_line(path, line))
            if suppression is None:
                continue
            unused = _unused_rules(suppression)
            if unused:
                findings.append(_unused_finding(suppression, unused))
    return findings


def _unused_rules(suppression: Suppression) -> list[str]:
    if suppression.rules is None:
        return [] if suppression.used else ["*"]
    return [rule for rule in suppression.rules if rule not in suppression.used]


def _unused_finding(suppression: Suppression, rules: list[str]) -> Finding:
    unknown = [r for r in rules if r != "*" and r not in CATALOG]
    if rules == ["*"]:
        what = "`# gradscope: ignore` suppressed nothing"
    else:
        what = f"`# gradscope: ignore[{', '.join(rules)}]` suppressed nothing"
    why = (f" ({', '.join(unknown)}: no such rule; `gradscope rules` lists them)" if unknown else
           " although this line ran in this run: the problem it silenced is gone")
    return Finding.naming(
        UNUSED, "warning", "Unused gradscope suppression", what + why + ".",
        "Remove the comment (or the rule ids it no longer needs), so that a new problem on this line is reported.",
        [Location(suppression.path, suppression.line, "suppression", "suppresses nothing")],
        {"rules": rules})


def _lines_seen(trace: Trace) -> set[tuple[str, int]]:
    sites = [n.site for n in trace.nodes.values()] + [leaf.site for leaf in trace.leaves.values()]
    sites += [c.site for c in trace.inplace_changes] + [c.site for c in trace.backward_calls]
    sites += [f.site for f in trace.op_failures] + [h.change.site for h in trace.saved_hazards]
    sites += [c.site for c in trace.cuts.values()] + [h.site for h in trace.grad_hazards]
    for events in (trace.escapes, trace.grad_reads, trace.hooks, trace.stale_links, trace.revivals,
                   trace.leaves_moved):
        sites += [event.site for event in events]
    if trace.error is not None:
        sites.append(trace.error.site)
    return {(site.path, site.line) for site in sites if site is not None}


def _comment_lines(path: str) -> list[int]:
    """Lines of `path` with a `gradscope: ignore` comment (comments only, not strings)."""
    lines = linecache.getlines(path)
    if not lines or not any("gradscope" in line for line in lines):
        return []
    found = []
    try:
        for token in tokenize.generate_tokens(io.StringIO("".join(lines)).readline):
            if token.type == tokenize.COMMENT and _SUPPRESSION.search(token.string):
                found.append(token.start[0])
    except (tokenize.TokenError, SyntaxError):
        return []
    return found

