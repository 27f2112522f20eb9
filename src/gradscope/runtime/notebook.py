"""Notebooks run from the command line (`gradscope run analysis.ipynb`): the code cells, in order,
in one namespace, like a script; each cell compiled under its own name so that locations and
tracebacks say "analysis.ipynb, In [3], line 2".

A cell that is not Python (a magic, `!pip ...`, `x?`) is turned into Python by IPython's own
input transformer when IPython is installed (its calls then go to an IPython shell whose
namespace is the notebook's); without IPython, it is one clear error naming the cell.
Markdown and raw cells are skipped. The notebook is read as JSON: nbformat is not needed.
"""

from __future__ import annotations

import json
import os
import re
import types
from dataclasses import dataclass

from ..errors import TargetError  # a notebook that cannot run is told as a script that cannot
from ..trace.locations import label_file

IPYTHON_NEEDED = 2  # exit status of a notebook that needs IPython where it is not installed


@dataclass
class Cell:
    label: str  # "analysis.ipynb, In [3]" (the code cells are numbered from 1, as a fresh run numbers them)
    filename: str  # what its code is compiled under: the notebook's path, then the label's cell part
    source: str
    code: types.CodeType | None = None
    uses_ipython: bool = False


def read_cells(path: str) -> list[Cell]:
    """The code cells of the notebook at `path` (absolute), compiled. Raises TargetError."""
    try:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
    except OSError as exc:
        raise TargetError(f"can't open file '{path}': [Errno {exc.errno}] {exc.strerror}", 2) from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise TargetError(f"'{path}' is not a notebook (not JSON: {exc})", 2) from None
    raw_cells = document.get("cells") if isinstance(document, dict) else None
    if not isinstance(raw_cells, list):
        raise TargetError(f"'{path}' is not a notebook (no list of cells)", 2)
    name = os.path.basename(path)
    cells = []
    for raw in raw_cells:
        if not isinstance(raw, dict) or raw.get("cell_type") != "code":
            continue
        source = raw.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        number = len(cells) + 1
        cell = Cell(f"{name}, In [{number}]", f"{path}, In [{number}]", source)
        cell.code = _compile(cell)
        cells.append(cell)
    return cells


_OWN_MAGICS = re.compile(r"^\s*(%%gradscope\b.*|%gradscope\b.*|%(re)?load_ext\s+gradscope\s*)$")


def without_own_magics(source: str) -> str:
    """gradscope's own magics (`%load_ext gradscope`, `%%gradscope`, `%gradscope on`) blanked:
    under `gradscope run` the whole notebook is recorded already. Lines keep their numbers."""
    return "".join("\n" if _OWN_MAGICS.match(line.rstrip("\n")) else line
                   for line in source.splitlines(keepends=True))


def _compile(cell: Cell) -> types.CodeType:
    cell.source = without_own_magics(cell.source)
    text = cell.source if cell.source.endswith("\n") or not cell.source else cell.source + "\n"
    try:
        code = compile(text, cell.filename, "exec", dont_inherit=True)
    except SyntaxError as exc:
        if not _looks_like_ipython(cell.source):
            raise TargetError(f"SyntaxError in {cell.label}, line {exc.lineno}: {exc.msg}", 1) from None
        text = _ipython_to_python(cell)
        try:
            code = compile(text, cell.filename, "exec", dont_inherit=True)
        except SyntaxError as again:
            raise TargetError(f"SyntaxError in {cell.label}, line {again.lineno}: {again.msg}", 1) from None
        cell.uses_ipython = True
    except ValueError as exc:  # null bytes
        raise TargetError(f"cannot compile {cell.label}: {exc}", 1) from None
    # Tracebacks and gradscope's locations read the cell's lines from linecache, under its name.
    label_file(cell.filename, cell.filename, text.splitlines(keepends=True))
    return code


def _looks_like_ipython(source: str) -> bool:
    for line in source.splitlines():
        stripped = line.strip()
        if stripped.startswith(("%", "!")) or (stripped.endswith("?") and not stripped.startswith("#")):
            return True
    return False


def _ipython_to_python(cell: Cell) -> str:
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except ImportError:
        raise TargetError(
            f"{cell.label} uses IPython syntax (a magic or a shell escape), which needs IPython: "
            "pip install 'gradscope[notebook]' (or remove that line)", IPYTHON_NEEDED) from None
    return TransformerManager().transform_cell(cell.source)


def run_cells(cells: list[Cell], main_module) -> None:
    """Run the cells in order in the notebook's `__main__`; the first exception ends the run, as
    a failing cell stops "Run All"."""
    if any(cell.uses_ipython for cell in cells):
        _ipython_shell(main_module)
    for cell in cells:
        exec(cell.code, main_module.__dict__)


def _ipython_shell(main_module):
    """An IPython shell working in the notebook's namespace, for the calls transformed cells make
    (`get_ipython().run_line_magic(...)`)."""
    from IPython.core.interactiveshell import InteractiveShell

    if not InteractiveShell.initialized():
        return InteractiveShell.instance(user_module=main_module, user_ns=main_module.__dict__)
    shell = InteractiveShell.instance()  # one per process: point it at this notebook's namespace
    shell.init_create_namespaces(user_module=main_module, user_ns=main_module.__dict__)
    shell.init_user_ns()
    return shell
