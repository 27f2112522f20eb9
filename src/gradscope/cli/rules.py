"""`gradscope rules`: every rule id, its severity and summary."""

from __future__ import annotations

import typer

from .app import app


@app.command(help="List the rule ids gradscope reports (for \\[tool.gradscope] and `# gradscope: ignore[...]`).")
def rules() -> None:
    from ..trace.catalog import CATALOG

    width = max(len(rule) for rule in CATALOG)
    for info in CATALOG.values():
        typer.echo(f"{info.id:<{width}}  {info.severity:<7}  {info.summary}")
