"""Runs under a distributed launcher (torchrun, `python -m torch.distributed.run`): which rank
this process is, and how its outputs are kept apart from the other ranks'.

- Output files get the rank inserted before their suffix: `report.json` -> `report.rank1.json`,
  `train.trace.json.gz` -> `train.rank1.trace.json.gz`, `flow.svg` -> `flow.rank1.svg`.
- Console output is prefixed with the rank on every line (`[rank1]: ...`), as torchrun prefixes
  its workers' lines, and written in one piece so that two ranks' panels do not interleave
  (`report`, the report of one process, used for every rank and child process).

Only the environment is read: nothing here imports torch or talks to the process group.
"""

from __future__ import annotations

import io
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..trace.findings import Finding
    from ..trace.model import Trace

# Suffixes kept together at the end of a name (longest first).
_SUFFIXES = (".trace.json.gz", ".json.gz", ".json", ".svg", ".png", ".gz")


def launch_rank(environ=os.environ) -> int | None:
    """This process's global rank when a launcher started several (RANK, WORLD_SIZE > 1, as
    torchrun sets them); None for a single process."""
    try:
        world = int(environ.get("WORLD_SIZE", "1"))
        rank = environ.get("RANK", environ.get("LOCAL_RANK"))
        return int(rank) if rank is not None and world > 1 else None
    except ValueError:
        return None


def process_name(rank: int | str | None) -> str | None:
    """`rank1` for rank 1; a name given as is (`child2`, a child process with no rank, see
    children.py); None for a single process."""
    return None if rank is None else (rank if isinstance(rank, str) else f"rank{rank}")


def per_rank_path(path: str | None, rank: int | str | None) -> str | None:
    """`report.json` -> `report.rank1.json` (`report.child2.json` for the name `child2`;
    unchanged for a single process)."""
    process = process_name(rank)
    if path is None or process is None:
        return path
    folder, name = os.path.split(path)
    suffix = next((s for s in _SUFFIXES if name.endswith(s) and len(name) > len(s)), None)
    if suffix is None:
        stem, dot, extension = name.rpartition(".")
        suffix = f".{extension}" if dot and stem else ""
    stem = name[: len(name) - len(suffix)] if suffix else name
    return os.path.join(folder, f"{stem}.{process}{suffix}")


def with_rank_prefix(text: str, rank: int | str | None) -> str:
    name = process_name(rank)
    if name is None or not text:
        return text
    prefix = f"[{name}]: "
    return "".join(prefix + line for line in text.splitlines(keepends=True))


LAUNCHERS = ("torch.distributed.run", "torch.distributed.launch")


class LaunchError(ValueError):
    """A launcher command gradscope cannot put its workers under."""


def workers_under_gradscope(launcher_args: list[str], gradscope_options: list[str], python: str) -> list[str]:
    """`torch.distributed.run` arguments that start each worker as `python -m gradscope run
    OPTIONS script ...` instead of `python script ...`: gradscope records every rank, and not the
    launcher (which runs no autograd). Parsed with torch's own parser, so every launcher option
    is understood as torchrun understands it."""
    from torch.distributed.run import get_args_parser  # (a launch: torch is needed anyway)

    try:
        parsed = get_args_parser().parse_args(launcher_args)
    except SystemExit:
        raise LaunchError("the launcher's arguments are not valid (see `python -m torch.distributed.run --help`)") \
            from None
    if parsed.no_python:
        raise LaunchError("--no-python: the workers run a program of their own; run "
                          "`torchrun ... --no-python gradscope run SCRIPT` instead")
    script_at = len(launcher_args) - len(parsed.training_script_args) - 1
    options = [a for a in launcher_args[:script_at] if a not in ("-m", "--module", "--run-path", "--run_path")]
    as_module = ["-m"] if parsed.module else []
    return [*options, "--no-python", python, "-m", "gradscope", "run", *gradscope_options, *as_module,
            parsed.training_script, *parsed.training_script_args]


def report(trace: Trace, findings: list[Finding], json_path: str | None = None, trace_path: str | None = None,
           flow_svg: str | None = None, rank: int | str | None = None) -> None:
    """Print the findings to stderr and write the requested files; never raises. `rank`: one
    rank of a distributed launch, or a child's name: its lines are prefixed and written in one
    piece, and its files get the rank in their names."""
    from ..render import outputs  # (the command line reads LAUNCHERS here: it stays light)

    if rank is None:
        outputs.print_report(trace, findings)
    else:
        panels = io.StringIO()
        outputs.print_report(trace, findings, panels)
        try:
            sys.stderr.write(with_rank_prefix(panels.getvalue(), rank))
            sys.stderr.flush()
        except Exception as exc:
            outputs.internal_error(exc)
    outputs.write_files(trace, findings, per_rank_path(json_path, rank), per_rank_path(trace_path, rank),
                        per_rank_path(flow_svg, rank))
