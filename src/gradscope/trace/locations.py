"""Where in the user's code something happened.

Recording runs once per tensor op, so a location is captured as cheaply as possible: the
calling frame's code object and instruction offset (two attribute reads). Turning that into
a file and line happens only when a report is made.

"User code" is every frame outside torch and gradscope. The verdict is cached per file name:
on Python 3.11 code objects do not cache their hash, file-name strings do.
"""

from __future__ import annotations

import functools
import linecache
import os
import sys
import weakref
from dataclasses import dataclass, field
from types import CodeType, FrameType

_GRADSCOPE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # the package, above trace/

# Prefixes of files that are library internals; torch's is added by the recorder once torch
# is imported (this module must stay importable without torch).
_internal_prefixes: list[str] = [_GRADSCOPE_DIR]
_is_internal_cache: dict[str, bool] = {}

# A captured location: (code object, instruction offset of the call in it), and, when captured
# with its callers, a third item: the callers' (code, offset) pairs, outermost first.
RawLocation = tuple

MAX_CALLERS = 7  # user frames kept around a location, besides its own
_LIBRARY_DIRS = (os.sep + "site-packages" + os.sep, os.sep + "dist-packages" + os.sep)
_STDLIB_DIR = os.path.dirname(os.__file__) + os.sep  # runpy, threading, unittest: not the user's frames
_TRAMPOLINE_MARK = "__gradscope_call__"  # as_caller.MARK (as_caller imports this module)


def add_internal_dir(path: str) -> None:
    """Treat every file below `path` as library code, never as the user's line."""
    prefix = os.path.dirname(path) + os.sep if os.path.isfile(path) else path.rstrip(os.sep) + os.sep
    for candidate in {prefix, os.path.realpath(prefix.rstrip(os.sep)) + os.sep}:
        if candidate not in _internal_prefixes:
            _internal_prefixes.append(candidate)
    _is_internal_cache.clear()


def is_gradscope_file(filename: str) -> bool:
    return filename.startswith(_GRADSCOPE_DIR)


def is_internal_file(filename: str) -> bool:
    verdict = _is_internal_cache.get(filename)
    if verdict is None:
        verdict = filename.startswith(tuple(_internal_prefixes)) or (
            filename.startswith("<frozen ") and "importlib" in filename
        )
        _is_internal_cache[filename] = verdict
    return verdict


def _first_user_frame(frame: FrameType | None) -> tuple[FrameType | None, FrameType | None]:
    """Walk out from `frame` to the first user frame; also the outermost library frame passed."""
    entry = None
    cache = _is_internal_cache
    while frame is not None:
        filename = frame.f_code.co_filename
        verdict = cache.get(filename)
        if verdict is None:
            verdict = is_internal_file(filename)
        if not verdict:
            return frame, entry
        if not filename.startswith(_GRADSCOPE_DIR):
            entry = frame
        frame = frame.f_back
    return None, entry


def capture() -> tuple[RawLocation | None, FrameType | None]:
    """The user's location calling into us, and the outermost library frame below it.

    The second value tells *how* the user line reached the op (e.g. through
    ``torch/optim/sgd.py``); it is None when the user called the op directly. Callers must
    not keep it: a frame holds its locals (tensors) alive.
    """
    frame, entry = _first_user_frame(sys._getframe(1))
    return ((frame.f_code, frame.f_lasti) if frame is not None else None), entry


def user_frame() -> FrameType | None:
    """The innermost user frame calling into us (callers must not keep it)."""
    return _first_user_frame(sys._getframe(1))[0]


def capture_stack() -> tuple[RawLocation | None, FrameType | None]:
    """`capture()`, with the user frames that called the location (outermost first, at most
    MAX_CALLERS): the training loop around a `backward()` inside a helper, the call that fed a
    module. Frames of torch, gradscope, installed packages and the standard library are left
    out, and the walk stops at gradscope's runner (below the user's program). Costs a walk of
    the rest of the stack, so it is used where records are few (backward calls, in-place writes,
    cuts, events, module calls), not per op.
    """
    frame, entry = _first_user_frame(sys._getframe(1))
    if frame is None:
        return None, entry
    here = (frame.f_code, frame.f_lasti)
    callers = []
    outer = None if _is_cell_top(frame.f_code) else frame.f_back
    while outer is not None and len(callers) < MAX_CALLERS:
        code = outer.f_code
        filename = code.co_filename
        if filename.startswith(_GRADSCOPE_DIR):
            break  # gradscope's runner: the user's program starts above it
        if not is_internal_file(filename) and not _is_library_frame(filename) \
                and code.co_varnames[:1] != (_TRAMPOLINE_MARK,):
            callers.append((code, outer.f_lasti))
            if _is_cell_top(code):
                break  # a notebook cell: what runs it is IPython, not the user's code
        outer = outer.f_back
    if not callers:
        return here, entry
    callers.reverse()
    return (*here, tuple(callers)), entry


# File names IPython compiles cells under (ipykernel adds its temporary folder, see ipython.py).
_cell_file_prefixes: list[str] = ["<ipython-input-"]


def add_cell_file_prefix(prefix: str) -> None:
    if prefix not in _cell_file_prefixes:
        _cell_file_prefixes.append(prefix)


PROGRAM_ENTRY = "enter_program"  # the runner's function that runs the program (runner.execute)


def stack_sites(frame: FrameType | None, limit: int = 24) -> tuple[list[Site], Site | None]:
    """The program's frames from `frame` outwards as sites (the innermost `limit`, outermost
    first), and the innermost frame of the whole stack that is the user's code (else the
    innermost one outside torch and gradscope; else None). gradscope's frames and its call
    trampolines are left out, and so is everything outside the runner's PROGRAM_ENTRY
    (gradscope's command line). Reads only code objects and line numbers: safe on another
    thread's frames."""
    frames = []
    while frame is not None:
        code = frame.f_code
        if is_gradscope_file(code.co_filename):
            if code.co_name == PROGRAM_ENTRY:
                break
        elif code.co_varnames[:1] != (_TRAMPOLINE_MARK,):  # it repeats its caller's line
            frames.append(frame)
        frame = frame.f_back
    outside_torch = [f for f in frames if not is_internal_file(f.f_code.co_filename)]
    user = next((f for f in outside_torch if not _is_library_frame(f.f_code.co_filename)),
                outside_torch[0] if outside_torch else None)
    sites = [_frame_site(f) for f in frames[:limit]]
    return sites[::-1], _frame_site(user) if user is not None else None


def _frame_site(frame: FrameType) -> Site:
    return Site(real_path(frame.f_code.co_filename), frame.f_lineno or 0, frame.f_code.co_name)


def _is_cell_top(code: CodeType) -> bool:
    """A notebook cell's own code (not a function defined in it): the outermost user frame."""
    return code.co_name == "<module>" and code.co_filename.startswith(tuple(_cell_file_prefixes))


def _is_library_frame(filename: str) -> bool:
    """Installed packages, the standard library, frozen modules: left out of a location's callers."""
    verdict = _library_cache.get(filename)
    if verdict is None:
        verdict = _library_cache[filename] = (filename.startswith((_STDLIB_DIR, "<frozen "))
                                              or any(d in filename for d in _LIBRARY_DIRS))
    return verdict


_library_cache: dict[str, bool] = {}


def is_library_path(path: str) -> bool:
    """An installed package or the standard library: code the user did not write."""
    return _is_library_frame(path)


def user_site(site: "Site | None") -> "Site | None":
    """The line of the user's own code for `site`: itself, or, inside an installed library, the
    innermost of the user's frames that called into it (None if there is none)."""
    if site is None or not _is_library_frame(site.path):
        return site
    for caller in reversed(site.callers):
        if not _is_library_frame(caller.path):
            index = site.callers.index(caller)
            return Site(caller.path, caller.line, caller.function, site.callers[:index])
    return None


@dataclass(frozen=True)
class Site:
    """A resolved source location: absolute path, 1-based line, function name, and the user
    frames that called it (outermost first; empty when not captured). Two sites are equal when
    their path, line and function are: the callers say how the line was reached, not which."""

    path: str
    line: int
    function: str = ""
    callers: tuple["Site", ...] = field(default=(), compare=False)

    @property
    def code(self) -> str:
        return source_line(self.path, self.line)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


_line_tables: dict[int, tuple] = {}  # id(code) -> (weak ref to it, its line table)


def _forget_table(key: int, ref) -> None:
    entry = _line_tables.get(key)
    if entry is not None and entry[0] is ref:
        del _line_tables[key]


def _line_of(code: CodeType, offset: int) -> int:
    # Cached by id, with a weak reference: a table must not keep its code alive (a notebook
    # compiles new code for every cell), and goes when its code does.
    entry = _line_tables.get(id(code))
    if entry is None or entry[0]() is not code:
        entry = (weakref.ref(code, functools.partial(_forget_table, id(code))), list(code.co_lines()))
        _line_tables[id(code)] = entry
    for start, end, line in entry[1]:
        if start <= offset < end and line is not None:
            return line
    return code.co_firstlineno


_path_cache: dict[str, str] = {}


def real_path(filename: str) -> str:
    path = _path_cache.get(filename)
    if path is None:
        path = filename if filename.startswith("<") else os.path.realpath(os.path.abspath(filename))
        _path_cache[filename] = path
    return path


# Notebook cells: code compiled under a file name that means nothing to the user
# (`/tmp/ipykernel_41/2270.py`, `<ipython-input-5-...>`) is shown under the cell's label
# ("In [5]"; "train.ipynb, In [3]" for a notebook run from the command line). The label is the
# location's path from then on, and linecache serves the cell's lines under it.
CELL_MARK = "In ["


def label_file(filename: str, label: str, lines: list[str] | None = None) -> None:
    """Show code compiled as `filename` as `label`; `lines`: its source, if linecache lacks it."""
    if lines is None:
        lines = linecache.getlines(filename)
    if lines:
        linecache.cache[label] = (sum(map(len, lines)), None, lines, label)  # (no mtime: never reloaded)
    _path_cache[filename] = label


def is_cell(path: str) -> bool:
    return CELL_MARK in path and path.endswith("]")


def place(path: str, line: int) -> str:
    """"train.py:12" for a file (its base name); "In [5], line 3" for a notebook cell."""
    name = path.rsplit("/", 1)[-1]
    return f"{name}, line {line}" if is_cell(name) else f"{name}:{line}"


def resolve(raw: RawLocation | None) -> Site | None:
    if raw is None:
        return None
    code, offset = raw[0], raw[1]
    callers = tuple(resolve(caller) for caller in raw[2]) if len(raw) > 2 else ()
    return Site(real_path(code.co_filename), _line_of(code, offset), code.co_name, callers)


def source_line(path: str, line: int) -> str:
    return linecache.getline(path, line).strip()


