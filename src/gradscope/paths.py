"""Paths and files shared by config, trace files and reports: paths relative to a directory (the
repository root, in CI, so annotations and code-scanning results land on the right file), and
files written whole or not at all."""

from __future__ import annotations

import gzip
import os


def relative_to(path: str, base: str | None = None) -> str | None:
    """`path` relative to `base` (default: the working directory) with '/' separators; None
    when it lies outside it."""
    base = os.path.abspath(base or os.getcwd())
    try:
        relative = os.path.relpath(os.path.abspath(path), base)
    except ValueError:
        return None
    if relative == ".." or relative.startswith(".." + os.sep):
        return None
    return relative.replace(os.sep, "/")


def display(path: str, base: str | None = None) -> str:
    """Relative when inside `base`, else the absolute path."""
    return relative_to(path, base) or path


def write_text(path: str, text: str, *, gzipped: bool = False) -> None:
    """Replace `path` atomically (gzip-compressed with `gzipped`): a reader (or a crash) never
    sees half a file."""
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)  # `--json reports/run.json` into a folder not made yet
    temporary = f"{path}.tmp{os.getpid()}"
    opener = gzip.open if gzipped else open
    try:
        with opener(temporary, "wt", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
