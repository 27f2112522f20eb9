"""The typer application: `gradscope`, its version option and the helpers the commands share.
Each command is a module of its own (run, graph, check, report, rules), registered on `app`."""

from __future__ import annotations

import sys

import typer

from .. import __version__

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


def resolve_program(script: str, args, module: bool, exit_status: int | None = None):
    """The program to run; a script that cannot run ends here with one line on stderr and
    `exit_status` (default: the status Python itself would exit with)."""
    from ..errors import TargetError
    from ..runtime import runner

    try:
        if module:
            return runner.resolve_module(script, list(args or []))
        return runner.resolve_script(script, list(args or []))
    except TargetError as exc:
        print(f"gradscope: {exc}", file=sys.stderr)
        raise typer.Exit(exc.exit_status if exit_status is None else exit_status)


def main(argv: list[str] | None = None) -> int | None:
    return app(args=argv, prog_name="gradscope")
