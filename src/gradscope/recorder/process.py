"""Process-wide set-up a recording needs, and its undoing: stack limit, gc freeze, warning filter,
and hiding gradscope's frames from the stacks torch stores for the user (anomaly mode)."""

from __future__ import annotations

import gc
import os
import platform
import warnings

import torch

from ..trace import locations
from . import as_caller

# torch's own frames are never "the user's line"; the dispatch frame is where trampolines start.
locations.add_internal_dir(os.path.dirname(torch.__file__))
as_caller.set_dispatch_code(torch.overrides.handle_torch_function.__code__)

STACK_LIMIT = 256 << 20
_COMPILE_HOOK_WARNING = r"Using `torch\.compile\(module\)` when there are global hooks on modules"
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_RUNNER_FILE = f'"{os.path.join(_PACKAGE_DIR, "runtime", "runner.py")}"'
_GRADSCOPE_FILE_MARK = f'"{_PACKAGE_DIR}{os.sep}'


class ProcessSetup:
    """What `start()` changes in the process, so that `stop()` undoes exactly that."""

    def __init__(self, freeze_gc: bool):
        self.freeze_gc = freeze_gc
        self._froze_gc = False
        self._warning_filter = None

    def apply(self) -> None:
        allow_deep_graphs()
        # torch keeps a Python wrapper alive for every node we look at; without this, those
        # wrappers make the collector rescan all of torch's import-time objects about once per
        # training step (measured: the largest cost of recording a tiny-op loop).
        self._froze_gc = self.freeze_gc and gc.isenabled() and gc.get_freeze_count() == 0
        if self._froze_gc:
            gc.freeze()
        from torch.nn.modules import module as modules

        if not modules._has_any_global_hook():
            # torch warns on each call of a torch.compile'd module while any global module hook
            # exists; only gradscope's would, so that warning would not appear under Python.
            warnings.filterwarnings("ignore", message=_COMPILE_HOOK_WARNING, category=UserWarning)
            self._warning_filter = warnings.filters[0]

    def undo(self) -> None:
        if self._warning_filter is not None:
            try:
                warnings.filters.remove(self._warning_filter)
                warnings._filters_mutated()
            except (ValueError, AttributeError):  # the program reset the filters itself
                pass
            self._warning_filter = None
        if self._froze_gc:
            gc.unfreeze()
            self._froze_gc = False


def allow_deep_graphs() -> None:
    """Let the main thread's C stack grow to STACK_LIMIT (the soft limit only, never restored).

    torch 2.13 keeps a node's Python wrapper alive as long as the node, and freeing a chain of
    nodes that have wrappers recurses once per node on the C stack: about 25k of them overflow
    the usual 8 MiB and crash the process. Plain programs rarely wrap every node; gradscope does
    (it tags each one), so without this a long tiny-op loop that runs fine under Python would
    segfault under gradscope. Linux grows the main stack up to the current soft limit, so
    raising it at run time is enough. It stays raised: a deep graph may be freed at exit.
    """
    try:
        import resource
    except ImportError:  # not on this platform
        return
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
        if soft == resource.RLIM_INFINITY or soft >= STACK_LIMIT:
            return
        wanted = STACK_LIMIT if hard == resource.RLIM_INFINITY else min(STACK_LIMIT, hard)
        if wanted > soft:
            resource.setrlimit(resource.RLIMIT_STACK, (wanted, hard))
    except (ValueError, OSError):
        pass


def hide_gradscope_frames(metadata) -> None:
    """Make the forward stack that the user's anomaly mode stored look as without gradscope.

    torch stores it (a list of formatted frames) when the node is made, while gradscope's
    launcher and hook are on the stack. Drop the launcher (everything up to the runner's exec)
    and the hook with the torch-function dispatch frame that led into it.
    """
    frames = metadata.get("traceback_")
    if not isinstance(frames, list):
        return
    start = 0
    for i, frame in enumerate(frames):
        if _RUNNER_FILE in frame:
            start = i + 1
    kept, after_gradscope = [], False
    for frame in frames[start:]:
        if _GRADSCOPE_FILE_MARK in frame:
            while kept and "handle_torch_function" in kept[-1]:  # the dispatch and its caller
                kept.pop()
            after_gradscope = True
            continue
        if after_gradscope and frame in kept:
            after_gradscope = False
            continue  # the call-site trampoline (see as_caller): a copy of the user's frame
        after_gradscope = False
        kept.append(frame)
    metadata["traceback_"] = kept


def run_meta() -> dict:
    from .. import __version__
    return {"python": platform.python_version(), "torch": torch.__version__, "gradscope": __version__,
            "platform": platform.platform()}
