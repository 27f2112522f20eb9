"""The merged report of `gradscope report FILE...`: the `--json` reports of a distributed run's ranks, merged into one
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

from ..trace.findings import Finding, Location
from ..trace.locations import Site, place
from ..trace.wording import BROKEN_COLLECTIVE, broken_collective_words
from . import console

PRINTED, BAD_INPUT = 0, 2

# `report.rank1.json`, `report.child2.json`, `report.rank1-child1.json` (a forked helper of rank 1),
# also without a suffix (`--json report` gives `report.rank1`).
_RANK_IN_NAME = re.compile(r"(?:^|\.)(?:rank(\d+))?(?:-?child([\d-]+))?(?:\.|$)")
# The parent's error when it only relays a worker's (torch.multiprocessing.spawn).
_RELAYED = {"ProcessRaisedException", "ProcessExitedException"}


class ReportError(Exception):
    """A file that is not a gradscope JSON report."""


@dataclass
class RankReport:
    rank: int | None  # None: a child with no rank (`report.child2.json`), or the launching process
    path: str
    data: dict
    name: str = ""  # how the report names it: "rank 1", "child 2", "the launching process"

    def __post_init__(self):
        self.name = self.name or (f"rank {self.rank}" if self.rank is not None else "a process")


@dataclass
class MergedFinding:
    finding: Finding
    ranks: list[RankReport] = field(default_factory=list)


def load(paths: list[str]) -> list[RankReport]:
    """The reports, ranks first (in order), then children without a rank, then the process that
    started them (the file without a rank or child in its name: `report.json`)."""
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
        found = [(rank, child) for rank, child in _RANK_IN_NAME.findall(path.rsplit("/", 1)[-1]) if rank or child]
        rank, child = found[-1] if found else ("", "")
        if rank and not child:
            reports.append(RankReport(int(rank), path, data))
        elif child:
            reports.append(RankReport(None, path, data, (f"rank {rank}'s " if rank else "") + f"child {child}"))
        else:
            reports.append(RankReport(None, path, data, "the launching process"))
    if not any(r.rank is not None or r.name.startswith("child") for r in reports):
        for index, report in enumerate(reports):  # files named some other way: numbered in order
            report.rank, report.name = index, f"rank {index}"
    return sorted(reports, key=lambda r: (r.rank is None, r.name.startswith("the"), r.rank or 0, r.name))


def merge(reports: list[RankReport]) -> list[MergedFinding]:
    merged: dict[tuple, MergedFinding] = {}
    for report in reports:
        for entry in report.data["findings"]:
            finding = _finding(entry)
            key = (finding.rule, tuple((loc.path, loc.line, loc.role) for loc in finding.locations))
            merged.setdefault(key, MergedFinding(finding)).ranks.append(report)
    return list(merged.values())


def _own_error(report: RankReport) -> bool:
    """Whether this report's process raised an error of its own (not a broken collective, not a
    worker's error relayed)."""
    error = report.data.get("error")
    if not error or error.get("type") in _RELAYED:
        return False
    return not BROKEN_COLLECTIVE.search(f"{error.get('type')}: {error.get('message', '')}")


def failures(reports: list[RankReport]) -> list[str]:
    """One line per kind of failure: the ranks that raised an error of their own, then those that
    failed in a collective after a peer had stopped, then a launcher that relayed their error."""
    own, follow_on, relayed = [], [], []
    for report in reports:
        error = report.data.get("error")
        if not error:
            continue
        text = f"{error.get('type')}: {error.get('message', '')}"
        if error.get("type") in _RELAYED:
            relayed.append((report, text))
        else:
            (follow_on if BROKEN_COLLECTIVE.search(text) else own).append((report, text))
    lines = []
    if own:
        lines.append(f"{who([r for r, _ in own])} failed: {own[0][1].splitlines()[0][:160]}")
    if follow_on:
        error = follow_on[0][0].data["error"]
        words = f"{error.get('type')}: {broken_collective_words(error.get('message', ''))}"
        if own:
            lines.append(f"{who([r for r, _ in follow_on])} then failed waiting for a peer (after the failure above): "
                         f"{words}")
        else:  # a peer left without an error: it finished its loop early, or was killed
            lines.append(f"{who([r for r, _ in follow_on])} failed waiting for a peer that had stopped without an "
                         f"error of its own (it finished early, or was killed): {words}")
    if relayed:
        lines.append(f"{who([r for r, _ in relayed])} then raised {relayed[0][1].split(':')[0]}, quoting "
                     "a worker's error (explained in that worker's findings)")
    return lines


def stops(reports: list[RankReport]) -> list[str]:
    """Where a signal found the processes it stopped (the launcher's SIGTERM after a rank failed,
    a scheduler's at a hang), those at the same line together: in a hang, the rank that is
    somewhere else than the others is the one to look at."""
    places: dict[tuple, tuple[dict, list[RankReport]]] = {}
    for report in reports:
        stopped = report.data.get("stopped")
        if isinstance(stopped, dict):
            signal_name, path, line = stopped.get("signal"), stopped.get("path"), stopped.get("line")
            key = (signal_name if isinstance(signal_name, str) else "a signal", path if isinstance(path, str) else None,
                   line if isinstance(line, int) else None, bool(stopped.get("outside_python")))
            places.setdefault(key, (stopped, []))[1].append(report)
    lines = []
    for (signal_name, path, line, outside), (stopped, group) in sorted(places.items(), key=lambda p: -len(p[1][1])):
        at = f" at {place(path, line)}" if path and isinstance(line, int) else ""
        code = f" (`{stopped['code']}`)" if at and stopped.get("code") else ""
        waiting = " while waiting in C++ (a collective, a lock or a future)" if outside else ""
        lines.append(f"{signal_name} stopped {who(group)}{waiting}{at}{code}")
    return lines


def divergence(reports: list[RankReport]) -> list[str]:
    """Ranks that did not run the same training: a different number of backward calls (a rank
    that skipped or repeated a step desynchronises DDP's collectives), or parameters that got a
    gradient on some ranks and not on others (a branch that depends on the rank's data)."""
    workers = [r for r in reports if r.rank is not None]
    lines = []
    # A rank that raised an error of its own stopped early: fewer backward calls follow from that
    # error (told above), not from ranks that ran different loops.
    finished = [r for r in workers if not _own_error(r)]
    counts = {r.name: (r.data.get("summary") or {}).get("backward_calls") for r in finished}
    known = {name: n for name, n in counts.items() if isinstance(n, int)}
    if len(set(known.values())) > 1:
        lines.append("the ranks diverge: " + ", ".join(f"{name} made {n} backward call{'s' * (n != 1)}"
                                                       for name, n in known.items()))
    without = {r.name: (r.data.get("summary") or {}).get("parameters_without_grad") for r in workers}
    listed = {name: tuple(names) for name, names in without.items() if isinstance(names, list)}
    if len(listed) > 1 and len(set(listed.values())) > 1:
        parts = [f"{name} left {_names(names)} without a gradient" if names else f"{name} gave every one a gradient"
                 for name, names in listed.items()]
        lines.append("the ranks' parameters diverge: " + "; ".join(parts) + " (at their optimizer steps)")
    return lines


def _names(names: tuple) -> str:
    shown = ", ".join(f"`{n}`" for n in names[:4])
    return shown + (f" and {len(names) - 4} more" if len(names) > 4 else "")


def who(reports: list[RankReport]) -> str:
    """`ranks 0–3`, `rank 1`, `ranks 0, 2`, `child 1, the launching process`."""
    ranks = sorted({r.rank for r in reports if r.rank is not None})
    others = list(dict.fromkeys(r.name for r in reports if r.rank is None))
    parts = []
    if len(ranks) == 1:
        parts.append(f"rank {ranks[0]}")
    elif ranks and ranks == list(range(ranks[0], ranks[-1] + 1)):
        parts.append(f"ranks {ranks[0]}–{ranks[-1]}")
    elif ranks:
        parts.append("ranks " + ", ".join(map(str, ranks)))
    return ", ".join(parts + others)


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
    stream = stream or sys.stderr
    try:
        reports = load(paths)
    except ReportError as exc:
        print(f"gradscope: {exc}", file=sys.stderr)
        return BAD_INPUT
    # The launching process counts only if it found something itself (mp.spawn's parent runs
    # no autograd: "on every rank" must not depend on its empty report).
    counted = [r for r in reports if r.name != "the launching process" or r.data["findings"]]
    findings = []
    for item in merge(reports):
        several = len(counted) > 1
        where = "every rank" if len(item.ranks) == len(counted) else f"{who(item.ranks)} only"
        item.finding.title += f" ({who(item.ranks)})" if several else ""
        item.finding.details["ranks"] = [r.rank if r.rank is not None else r.name for r in item.ranks]
        item.finding.explanation += f" [On {where} of {len(counted)}.]" if several else ""
        findings.append(item.finding)
    head = [f"gradscope: {len(reports)} report(s): {who(reports)}",
            *(f"gradscope: {line}" for line in failures(reports) + stops(reports) + divergence(reports))]
    print("\n".join(head), file=stream)
    console.render(findings, [], stream)
    if not findings:
        print("gradscope: no findings on any rank", file=stream)
    return PRINTED
