"""Run a user's script or module exactly as ``python script.py`` / ``python -m mod`` would.

What "exactly" covers: ``sys.argv``; an absolute ``sys.path[0]`` (the script's folder, or the
working directory for ``-m``) unless ``-P``/``PYTHONSAFEPATH`` asks otherwise; a fresh
``__main__`` module with ``__file__``, ``__spec__``, ``__loader__``, also registered as
``__mp_main__`` so spawn-started workers can unpickle classes the script defines; code compiled
with ``dont_inherit=True`` so gradscope's own ``__future__`` flags do not leak in.

The outcome (how the program ended) is returned, not acted on: the caller reports first, then
ends the process the way Python would (see `Outcome.exit`).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import runpy
import signal
import sys
import types
from dataclasses import dataclass
from typing import Callable

from ..errors import TargetError
from ..recorder.as_caller import is_trampoline
from ..trace.locations import is_cell, is_gradscope_file, is_internal_file
from . import module_frames


@dataclass
class Target:
    """What to run, resolved and compiled before any instrumentation starts."""

    code: types.CodeType | None
    argv: list[str]
    path0: str  # what goes into sys.path[0]
    module_attrs: dict
    module_name: str | None = None  # set for -m: run through runpy, as `python -m` does
    cells: list | None = None  # a notebook's code cells (notebook.Cell), run in order instead of `code`


@dataclass
class Outcome:
    """How the user's program ended."""

    exit_status: int
    exception: BaseException | None = None  # uncaught, other than SystemExit
    system_exit: SystemExit | None = None

    def exit(self) -> None:
        """End this process as Python would have ended the user's program."""
        if self.system_exit is not None:
            raise SystemExit(self.system_exit.code)  # Python prints a message code itself
        if isinstance(self.exception, KeyboardInterrupt):
            sys.stdout.flush()
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)
        raise SystemExit(self.exit_status)


def resolve_script(path: str, args: list[str]) -> Target:
    absolute = os.path.abspath(path)
    if absolute.endswith(".ipynb") and not os.path.isdir(absolute):
        return _resolve_notebook(path, absolute, args)
    if os.path.isdir(absolute):
        main = os.path.join(absolute, "__main__.py")
        if not os.path.isfile(main):
            raise TargetError(f"can't find '__main__' module in '{path}'", 1)
        absolute = main
    try:
        with open(absolute, "rb") as handle:
            source = handle.read()
    except OSError as exc:
        raise TargetError(f"can't open file '{absolute}': [Errno {exc.errno}] {exc.strerror}", 2) from None
    code = _compile(source, absolute)
    attrs = {
        "__file__": absolute,
        "__cached__": None,
        "__spec__": None,
        "__package__": None,
        "__loader__": importlib.machinery.SourceFileLoader("__main__", absolute),
    }
    return Target(code=code, argv=[path, *args], path0=os.path.dirname(absolute), module_attrs=attrs)


def _resolve_notebook(path: str, absolute: str, args: list[str]) -> Target:
    """A notebook: its code cells, run in one `__main__` (which, as in Jupyter, has no __file__)."""
    from . import notebook

    cells = notebook.read_cells(absolute)  # (raises TargetError)
    attrs = {"__cached__": None, "__spec__": None, "__package__": None, "__loader__": None}
    return Target(code=None, argv=[path, *args], path0=os.path.dirname(absolute), module_attrs=attrs, cells=cells)


def resolve_module(name: str, args: list[str]) -> Target:
    path0 = os.getcwd()
    _set_path0(path0)  # the module is looked up from the working directory, as with python -m
    try:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations is not None:
            spec = importlib.util.find_spec(name + ".__main__")
            if spec is None:
                raise TargetError(f"No module named {name}.__main__; '{name}' is a package and cannot be directly executed", 1)
    except TargetError:
        raise
    except (ImportError, ValueError) as exc:
        raise TargetError(f"Error while finding module specification for '{name}' ({type(exc).__name__}: {exc})", 1) from None
    if spec is None or spec.loader is None:
        raise TargetError(f"No module named {name}", 1)
    try:
        code = spec.loader.get_code(spec.name)
    except SyntaxError as exc:
        raise TargetError(_syntax_message(exc), 1) from None
    except (ImportError, OSError) as exc:
        raise TargetError(f"cannot load module '{name}': {exc}", 1) from None
    if code is None:
        raise TargetError(f"No code object available for {name}", 1)
    attrs = {
        "__file__": spec.origin,
        "__cached__": spec.cached,
        "__spec__": spec,
        "__package__": spec.parent,
        "__loader__": spec.loader,
    }
    return Target(code=code, argv=[spec.origin or name, *args], path0=path0, module_attrs=attrs,
                  module_name=name)


def _compile(source: bytes, filename: str) -> types.CodeType:
    try:
        return compile(source, filename, "exec", dont_inherit=True)
    except SyntaxError as exc:
        exc.filename = exc.filename or filename  # null bytes: Python names no file
        raise TargetError(_syntax_message(exc), 1) from None
    except ValueError as exc:  # e.g. source with null bytes
        raise TargetError(f"cannot compile '{filename}': {exc}", 1) from None


def _syntax_message(exc: SyntaxError) -> str:
    where = f"{exc.filename}, line {exc.lineno}" if exc.lineno else str(exc.filename)
    message = exc.msg
    if "null bytes" in message or "codec can't decode" in message:
        message += " (not a Python source file, or not UTF-8 without an encoding declaration)"
    return f"{type(exc).__name__} in {where}: {message}"


def _set_path0(path0: str) -> None:
    if getattr(sys.flags, "safe_path", False):
        return
    if sys.path:
        sys.path[0] = path0
    else:
        sys.path.insert(0, path0)


_hook_at_start = None  # sys.excepthook when the program started (a hook it installs replaces it)


def execute(target: Target, around: Callable[[Callable[[], None]], None] | None = None) -> Outcome:
    """Run the target in a fresh ``__main__``; `around(run)` may wrap the run (to record it).
    The program's frames are those inside `enter_program` (locations.PROGRAM_ENTRY)."""
    global _hook_at_start
    _hook_at_start = sys.excepthook
    main = types.ModuleType("__main__")
    main.__dict__.update(target.module_attrs)
    main.__dict__["__builtins__"] = __builtins__ if isinstance(__builtins__, dict) else vars(__builtins__)
    sys.modules["__main__"] = main
    sys.modules["__mp_main__"] = main
    sys.argv[:] = target.argv
    _set_path0(target.path0)

    def enter_program() -> None:
        if target.module_name is not None and hasattr(runpy, "_run_module_as_main"):
            # The entry point `python -m` itself uses: same globals set-up, same traceback frames.
            runpy._run_module_as_main(target.module_name, alter_argv=True)
        elif target.cells is not None:
            from .notebook import run_cells

            run_cells(target.cells, main)
        else:
            exec(target.code, main.__dict__)

    try:
        if around is None:
            enter_program()
        else:
            around(enter_program)
    except SystemExit as exc:
        return Outcome(exit_status=_exit_status(exc.code), system_exit=exc)
    except BaseException as exc:  # noqa: BLE001 - the user's exception, reported like Python
        return Outcome(exit_status=1, exception=exc)
    return Outcome(exit_status=0)


def _exit_status(code) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    return 1


# ---------------------------------------------------------------- tracebacks
def user_traceback(tb: types.TracebackType | None) -> types.TracebackType | None:
    """The traceback as plain Python would show it: gradscope's frames taken out.

    gradscope's torch-function handler sits between a torch entry point and the call it
    re-issues (``Tensor.backward`` -> ``handle_torch_function`` -> gradscope -> ``Tensor.backward``);
    the first two frames exist only because gradscope is there, so they go too.
    """
    frames: list[types.TracebackType] = []
    while tb is not None:
        frames.append(tb)
        tb = tb.tb_next
    # Drop the runner's own frames at the top (everything before the user's code starts).
    while frames and _is_gradscope_frame(frames[0]):
        frames.pop(0)
    kept: list[types.TracebackType] = []
    for i, entry in enumerate(frames):
        if _is_gradscope_frame(entry):
            if kept and kept[-1].tb_frame.f_code.co_name == "handle_torch_function":
                kept.pop()
            following = frames[i + 1] if i + 1 < len(frames) else None
            if kept and following is not None and kept[-1].tb_frame.f_code is following.tb_frame.f_code:
                kept.pop()
            continue
        kept.append(entry)
    kept = module_frames.fold(kept)  # nn.Module calls: one frame, as without gradscope's hooks
    rebuilt = None
    for entry in reversed(kept):
        rebuilt = types.TracebackType(rebuilt, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return rebuilt


def _is_gradscope_frame(entry: types.TracebackType) -> bool:
    code = entry.tb_frame.f_code
    return is_gradscope_file(code.co_filename) or is_trampoline(code)


def clean_exception(exc: BaseException) -> None:
    """Strip gradscope frames from an exception and every exception chained to it."""
    seen: set[int] = set()
    todo = [exc]
    while todo:
        current = todo.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        current.__traceback__ = user_traceback(current.__traceback__)
        todo.extend([current.__cause__, current.__context__])


def print_exception(exc: BaseException) -> None:
    """Print an uncaught exception as Python does, through sys.excepthook (user hooks run)."""
    clean_exception(exc)
    sys.stdout.flush()
    if sys.excepthook in (sys.__excepthook__, _hook_at_start) and _in_notebook_cell(exc.__traceback__):
        # The hook the program did not replace reads source lines from files (typer's, under
        # `gradscope run`, falls back to Python's); a cell's lines are in linecache only.
        import traceback

        traceback.print_exception(type(exc), exc, exc.__traceback__)
        return
    sys.excepthook(type(exc), exc, exc.__traceback__)


def _in_notebook_cell(tb: types.TracebackType | None) -> bool:
    while tb is not None:
        if is_cell(tb.tb_frame.f_code.co_filename):
            return True
        tb = tb.tb_next
    return False


def innermost_user_frame(exc: BaseException) -> tuple[str, int] | None:
    """(path, line) of the innermost frame of the traceback that is the user's code."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        if not is_internal_file(tb.tb_frame.f_code.co_filename):
            found = (tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        tb = tb.tb_next
    return found
