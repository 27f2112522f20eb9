"""`gradscope report FILE...`: the `--json` reports of a distributed run's ranks, merged into one
report. A finding that several ranks have (the same rule and lines) is shown once, with the
ranks that have it; the ranks' failures are told apart: the ones that raised an error of their
own, and the ones that then failed inside a collective (gloo/NCCL timeouts, closed connections)
because a peer had stopped.

Exit codes (documented in the README): 0 the report was printed; 2 bad input (a file missing,
not a gradscope JSON report).
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field

from .findings import Finding, Location
from .locations import Site

PRINTED, BAD_INPUT = 0, 2

# Errors a rank gets because another rank stopped: the collective it waited in broke.
_FOLLOW_ON = re.compile(r"gloo|nccl|ProcessGroup|DistBackendError|DistNetworkError|Connection (closed|reset)|"
                        r"timed out|Timeout|Broken pipe|peer", re.IGNORECASE)
_RANK_IN_NAME = re.compile(r"rank(\d+)")


class ReportError(Exception):
    """A file that is not a gradscope JSON report."""


@dataclass
class RankReport:
    rank: int
    path: str
    data: dict


@dataclass
class MergedFinding:
    finding: Finding
    ranks: list[int] = field(default_factory=list)


def load(paths: list[str]) -> list[RankReport]:
    reports = []
    for index, path in enumerate(paths):
        try:
            with open(path, encoding="utf-8") as handle:
                data = json.load(handle)
        except OSError as exc:
            raise ReportError(f"cannot read '{path}': {exc.strerror}") from None
        except ValueError:
            raise ReportError(f"'{path}' is not JSON: write reports with `gradscope run --json PATH`") from None
        if not isinstance(data, dict) or "findings" not in data or "exit_status" not in data:
            raise ReportError(f"'{path}' is not a gradscope JSON report (`gradscope run --json PATH` writes one)")
        found = _RANK_IN_NAME.findall(path.rsplit("/", 1)[-1])
        reports.append(RankReport(int(found[-1]) if found else index, path, data))
    return sorted(reports, key=lambda r: r.rank)


def merge(reports: list[RankReport]) -> list[MergedFinding]:
    merged: dict[tuple, MergedFinding] = {}
    for report in reports:
        for entry in report.data["findings"]:
            finding = _finding(entry)
            key = (finding.rule, tuple((loc.path, loc.line, loc.role) for loc in finding.locations))
            merged.setdefault(key, MergedFinding(finding)).ranks.append(report.rank)
    return list(merged.values())


def failures(reports: list[RankReport]) -> list[str]:
    """One line per kind of failure: the ranks that raised an error of their own, then those that
    failed in a collective after a peer had stopped."""
    own, follow_on = [], []
    for report in reports:
        error = report.data.get("error")
        if not error:
            continue
        text = f"{error.get('type')}: {error.get('message', '')}"
        (follow_on if _FOLLOW_ON.search(text) else own).append((report.rank, text))
    lines = []
    if own:
        lines.append(f"{_ranks([r for r, _ in own])} failed: {own[0][1].splitlines()[0][:160]}")
    if follow_on:
        cause = "after the failure above" if own else "inside a collective"
        lines.append(f"{_ranks([r for r, _ in follow_on])} then failed waiting for a peer ({cause}): "
                     f"{follow_on[0][1].splitlines()[0][:120]}")
    return lines


def divergence(reports: list[RankReport]) -> list[str]:
    """Ranks that did not run the same training: a different number of backward calls (a rank
    that skipped or repeated a step desynchronises DDP's collectives)."""
    counts = {r.rank: (r.data.get("summary") or {}).get("backward_calls") for r in reports}
    known = {rank: n for rank, n in counts.items() if isinstance(n, int)}
    if len(set(known.values())) <= 1:
        return []
    return ["the ranks diverge: " + ", ".join(f"rank {rank} made {n} backward call{'s' * (n != 1)}"
                                              for rank, n in sorted(known.items()))]


def _ranks(ranks: list[int]) -> str:
    ranks = sorted(set(ranks))
    if len(ranks) == 1:
        return f"rank {ranks[0]}"
    if ranks == list(range(ranks[0], ranks[-1] + 1)):
        return f"ranks {ranks[0]}–{ranks[-1]}"
    return "ranks " + ", ".join(map(str, ranks))


def _finding(entry: dict) -> Finding:
    finding = Finding(entry["rule"], entry.get("severity", "warning"), entry.get("title", entry["rule"]),
                      entry.get("explanation", ""), entry.get("fix", ""), details=dict(entry.get("details") or {}))
    for loc in entry.get("locations", []):
        stack = loc.get("stack") or []
        callers = tuple(Site(f["path"], f["line"], f.get("function", "")) for f in stack[:-1])
        finding.add(Location(loc["path"], loc["line"], loc["role"], loc.get("note", ""), loc.get("function", ""),
                             callers))
    return finding


def print_report(paths: list[str], stream=None) -> int:
    from .render import console

    stream = stream or sys.stderr
    try:
        reports = load(paths)
    except ReportError as exc:
        print(f"gradscope: {exc}", file=sys.stderr)
        return BAD_INPUT
    all_ranks = [r.rank for r in reports]
    merged = merge(reports)
    findings = []
    for item in merged:
        where = "every rank" if sorted(item.ranks) == sorted(all_ranks) else f"{_ranks(item.ranks)} only"
        item.finding.title += f" ({_ranks(item.ranks)})" if len(all_ranks) > 1 else ""
        item.finding.details["ranks"] = item.ranks
        item.finding.explanation += f" [On {where} of {len(all_ranks)}.]" if len(all_ranks) > 1 else ""
        findings.append(item.finding)
    head = [f"gradscope: {len(reports)} rank report(s): {_ranks(all_ranks)}",
            *(f"gradscope: {line}" for line in failures(reports) + divergence(reports))]
    print("\n".join(head), file=stream)
    console.render(findings, [], stream)
    if not findings:
        print("gradscope: no findings on any rank", file=stream)
    return PRINTED
