"""Module mode provenance: the `.train()` / `.eval()` calls the program made, and which `.train()`
put back into train mode a submodule an earlier `.eval()` had set apart.

torch has no hook for `Module.train`, so it is wrapped for the recording (and put back after):
the wrapper records the outermost call on each thread (the recursion into children is one call)
and runs torch's own `train`, unchanged; while dynamo traces, or once the recording stopped, it
only runs torch's. A user override of `train()` that calls `super().train(mode)` reaches the
wrapper; what the override sets itself after that is a call of its own.
"""

from __future__ import annotations

import functools
import threading

import torch

from ..trace.locations import capture_stack
from .reads import submodules
from .records import MAX_EVENTS

_is_compiling = torch.compiler.is_compiling


class ModuleMethodWrap:
    """A method of `nn.Module` that torch has no hook for, wrapped for the recording: while
    active, `call(original, module, *args, **kwargs)` runs in its place; while dynamo traces, or
    once the recording stopped (a wrapper the program kept a reference to), only torch's own runs.
    Removed only if still in place (not over a patch the program made since)."""

    def __init__(self, name: str, call):
        self._name, self._call = name, call
        self._original = self._wrapper = None
        self._active = False

    def install(self) -> None:
        original = self._original = getattr(torch.nn.Module, self._name)
        state = self

        @functools.wraps(original)
        def wrapper(module, *args, **kwargs):
            if not state._active or _is_compiling():
                return original(module, *args, **kwargs)
            return state._call(original, module, *args, **kwargs)

        self._wrapper = wrapper
        self._active = True
        setattr(torch.nn.Module, self._name, wrapper)

    def remove(self) -> None:
        self._active = False
        if self._original is not None and getattr(torch.nn.Module, self._name) is self._wrapper:
            setattr(torch.nn.Module, self._name, self._original)
        self._original = None


class ModeSets:
    def __init__(self, modules, clock, errors):
        self._modules = modules
        self._clock = clock
        self._errors = errors
        self._depth = threading.local()
        # (seq, id(module), class name, training, backward calls before, raw call site, undid):
        # `undid` lists (index of an earlier eval call, whether that module ran forward in between)
        self.calls: list[tuple] = []
        self._wrap = ModuleMethodWrap("train", self._train)
        self.install, self.remove = self._wrap.install, self._wrap.remove

    def _train(self, original, module, mode=True):
        depth = getattr(self._depth, "value", 0)
        watched = self._before(module, mode) if depth == 0 else None
        self._depth.value = depth + 1
        try:
            result = original(module, mode)
        finally:
            self._depth.value = depth
        if watched is not None:
            self._record(module, mode, watched)
        return result

    def _before(self, module, mode):
        """Before torch's train runs: the submodules set apart by an earlier eval call (to see,
        after it, which of them it put back in train mode)."""
        try:
            if not isinstance(mode, bool) or len(self.calls) >= MAX_EVENTS:
                return None
            watched = self._modules.evaled  # id(module) -> [index of its eval call, ran forward since]
            if not mode or not watched:
                return []
            return [(sub, watched[id(sub)]) for _, sub in submodules(module, limit=10_000)
                    if sub is not module and id(sub) in watched]
        except Exception as exc:
            self._errors.add(exc)
            return None

    def _record(self, module, mode, candidates) -> None:
        try:
            watched = self._modules.evaled
            undid = []
            # (read from each module's __dict__: a `training` property would be user code; only
            # those torch's train left in train mode: an override may have set them apart again)
            for sub, entry in candidates:
                if vars(sub).get("training") is True and watched.get(id(sub)) is entry:
                    undid.append((entry[0], entry[1]))
                    del watched[id(sub)]
            if mode:
                watched.pop(id(module), None)
            else:
                watched[id(module)] = [len(self.calls), False]
            self._modules.remember(module)
            clock = self._clock
            self.calls.append((next(clock.seq), id(module), type(module).__name__, mode, clock.backwards,
                               capture_stack()[0], undid))
        except Exception as exc:
            self._errors.add(exc)
