"""Turn DOT text into svg/png/pdf with whichever Graphviz is at hand.

Order: the system `dot` (full Graphviz), else `graphviz-pure` (a self-contained port of dot that
pip installs with gradscope on common platforms; no pdf). If neither can make the format, the
DOT text is written next to the output and the caller says how to get a renderer.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from ..paths import write_text

FORMATS = ("svg", "png", "pdf", "dot", "json")
_PURE_FORMATS = {"svg", "png"}


class RendererMissing(Exception):
    """No installed renderer can make this format; `dot_path` holds the DOT text instead."""

    def __init__(self, message: str, dot_path: str):
        super().__init__(message)
        self.dot_path = dot_path


class RenderFailed(Exception):
    pass


def find_renderer(fmt: str) -> list[str] | None:
    dot = shutil.which("dot")
    if dot:
        return [dot]
    if fmt in _PURE_FORMATS:
        pure = shutil.which("graphviz-pure") or _beside_python("graphviz-pure")
        if pure:
            return [pure]
    return None


def _beside_python(name: str) -> str | None:
    # A venv's bin/ is not on PATH unless activated; gradscope's own venv has the command there.
    candidate = os.path.join(os.path.dirname(sys.executable), name)
    return candidate if os.access(candidate, os.X_OK) else None


def render(dot_text: str, output: str, fmt: str, timeout: float = 300) -> str:
    """Write `output` in `fmt`; returns the renderer used ("dot", "graphviz-pure" or "none")."""
    if fmt == "dot":
        _write(output, dot_text)
        return "none"
    command = find_renderer(fmt)
    if command is None:
        dot_path = os.path.splitext(output)[0] + ".dot"
        _write(dot_path, dot_text)
        hint = ("install Graphviz (`apt-get install graphviz`, `brew install graphviz`)" if fmt == "pdf"
                else "`pip install graphviz-pure`, or install Graphviz (`apt-get install graphviz`)")
        raise RendererMissing(f"no renderer for {fmt} here; wrote the DOT text to {dot_path} instead: "
                              f"{hint}, or render it with `dot -T{fmt} {dot_path} -o {output}`", dot_path)
    # The renderer writes a temporary file next to the output, moved over it only when complete:
    # an existing diagram is never left half-written.
    temporary = f"{output}.tmp{os.getpid()}.{fmt}"
    try:
        try:
            proc = subprocess.run([*command, f"-T{fmt}", "-o", temporary], input=dot_text.encode("utf-8"),
                                  capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise RenderFailed(f"{os.path.basename(command[0])} took more than {timeout:.0f} s; "
                               "draw less with --focus or --depth") from None
        if proc.returncode != 0:
            message = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            raise RenderFailed(f"{os.path.basename(command[0])} failed: {message[-1] if message else proc.returncode}")
        os.replace(temporary, output)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return os.path.basename(command[0])


def _write(path: str, text: str) -> None:
    write_text(path, text)
