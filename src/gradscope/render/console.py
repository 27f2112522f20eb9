"""The human report: one rich panel per finding, written to stderr after the traceback."""

from __future__ import annotations

import os
from typing import TextIO

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..trace.findings import FIX, Finding
from ..trace.locations import is_cell, place

_ROLE_STYLE = {
    "fix": "bold green",
    "created": "cyan", "saved": "cyan", "view": "cyan", "used": "cyan",
    "modified": "bold yellow", "freed": "bold yellow", "carried": "bold yellow", "built": "bold yellow", "linked": "bold yellow",
    "backward": "bold red", "cut": "bold red",
}


def _label(role: str) -> str:
    return "change here" if role == FIX else role


def _place(path: str, line: int) -> str:
    return place(path, line) if is_cell(path) else f"{_short(path)}:{line}"


def _short(path: str) -> str:
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return relative if not relative.startswith("..") else path


def render(findings: list[Finding], internal_errors: list[str], stream: TextIO, width: int | None = None) -> None:
    render_to(Console(file=stream, width=width, highlight=False, soft_wrap=False), findings, internal_errors)


def render_to(console: Console, findings: list[Finding], internal_errors: list[str]) -> None:
    """The panels, printed on a rich Console (one that records them exports HTML: notebooks)."""
    if not findings and not internal_errors:
        return
    console.print()
    for number, finding in enumerate(findings, 1):
        console.print(_panel(number, finding))
    if internal_errors:
        body = "\n".join(["gradscope failed inside its own hooks (your program was not affected), so what it "
                          "recorded and reports may miss something:", *(f"- {error}" for error in internal_errors)])
        console.print(Panel(Text(body), title="gradscope: recording incomplete", border_style="magenta",
                            title_align="left"))


def _panel(number: int, finding: Finding) -> Panel:
    # As a traceback reads: each line's place, its code under it, and the user frames that
    # reached it, outermost first. The line to change comes first ("change here"), with why.
    # Two columns, so that long code, reasons and caller chains wrap under their own line.
    timeline = Table.grid(padding=(0, 2))
    timeline.add_column(no_wrap=True)
    timeline.add_column(overflow="fold")
    for index, loc in enumerate(finding.locations):
        details = Text()
        details.append(_place(loc.path, loc.line) + (f" in {loc.function}" if loc.function else ""), style="bold")
        if loc.code:
            details.append(f"\n{loc.code}", style="dim")
        if loc.role == FIX and loc.note:
            details.append(f"\n→ {loc.note}", style="green")
        # The frames that reached it, once: a run of lines reached the same way shares them.
        if loc.callers and (index == 0 or loc.callers != finding.locations[index - 1].callers):
            chain = " → ".join(f"{_place(c.path, c.line)} in {c.function}" for c in loc.callers)
            details.append(f"\nreached from {chain}", style="dim italic")
        timeline.add_row(Text(_label(loc.role), style=_ROLE_STYLE.get(loc.role, "white")), details)
    caught = "" if finding.details.get("uncaught", True) else " (caught by the program)"
    body = Group(
        timeline,
        Text(""),
        Text(finding.explanation),
        Text(""),
        Text.assemble(("Fix: " if finding.fix_basis == "facts" else "Fix (a guess, check it): ", "bold green"),
                      finding.fix),
    )
    color = "red" if finding.severity == "error" else "yellow"
    return Panel(body, title=f"[bold]{number}. {finding.title}{caught}[/]", subtitle=f"gradscope · {finding.rule}",
                 border_style=color, title_align="left", subtitle_align="right")
