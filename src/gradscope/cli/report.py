"""`gradscope report FILE...`: the ranks' `--json` reports merged into one (render/merged.py)."""

from __future__ import annotations

from typing import List

import typer

from .app import app


@app.command(
    help="Merge the `--json` reports of a distributed run's ranks (report.rank0.json, report.rank1.json, "
         "...) into one report: each finding once, with the ranks that have it, and which ranks failed "
         "first. Exit codes: 0 printed, 2 bad input.",
)
def report(
    files: List[str] = typer.Argument(..., metavar="FILE...", help="JSON reports written by `gradscope run --json`."),
) -> None:
    from ..render import merged

    raise typer.Exit(merged.print_report(files))
