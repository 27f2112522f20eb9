"""The command line. Thin on purpose: parse, hand over, map errors to exit codes.

Exit codes of `gradscope run` (documented in the README):
  the program's own status   when it ran (0, sys.exit(n), 1 for an uncaught exception, ...)
  1                          the script has a syntax error, or the -m module cannot be found
  2                          the script file is missing or unreadable, or gradscope's own
                             options are wrong (unknown option, missing SCRIPT)
This mirrors Python (`python missing.py` exits 2, a syntax error exits 1).
"""

from __future__ import annotations

import sys
from typing import List, Optional

import typer

from . import __version__

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="gradscope: a debugger for PyTorch autograd. Run your script with `gradscope run` instead "
         "of `python` and get the lines behind autograd errors.",
)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"gradscope {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_show_version, is_eager=True,
                                 help="Show gradscope's version and exit."),
) -> None:
    pass


@app.command(
    context_settings={"allow_interspersed_args": False},
    help="Run a Python script (or -m module) exactly as Python would, recording its autograd "
         "activity, and explain autograd errors with the lines behind them. Everything after "
         "SCRIPT belongs to the script.",
)
def run(
    script: str = typer.Argument(..., metavar="SCRIPT", help="The script to run (or, with -m, the module)."),
    args: Optional[List[str]] = typer.Argument(None, metavar="[ARGS]...", help="Arguments for the script."),
    module: bool = typer.Option(False, "-m", help="Run SCRIPT as a module, like `python -m`."),
    json_path: Optional[str] = typer.Option(None, "--json", metavar="PATH",
                                            help="Also write the findings as JSON to PATH."),
) -> None:
    from . import runner

    try:
        if module:
            target = runner.resolve_module(script, list(args or []))
        else:
            target = runner.resolve_script(script, list(args or []))
    except runner.TargetError as exc:
        print(f"gradscope: {exc}", file=sys.stderr)
        raise typer.Exit(exc.exit_status)

    try:
        from . import session
    except ImportError as exc:  # most likely torch is missing
        print(f"gradscope: cannot start the recorder: {exc}", file=sys.stderr)
        raise typer.Exit(1)
    session.run(target, json_path)


def main() -> None:
    app(prog_name="gradscope")
