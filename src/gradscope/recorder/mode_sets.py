"""Module mode provenance: the `.train()` / `.eval()` calls the program made, and which `.train()`
put back into train mode a submodule an earlier `.eval()` had set apart.

torch has no hook for `Module.train`, so it is wrapped for the recording (and put back after):
the wrapper records the outermost call on each thread (the recursion into children is one call)
and then runs torch's own `train`, unchanged. A user override of `train()` that calls
`super().train(mode)` reaches the wrapper; what it sets itself after that is a call of its own.
"""

from __future__ import annotations

import threading

import torch

from ..trace.locations import capture_stack
from .reads import submodules
from .records import MAX_EVENTS


class ModeSets:
    def __init__(self, modules, clock, errors):
        self._modules = modules
        self._clock = clock
        self._errors = errors
        self._depth = threading.local()
        # (seq, id(module), class name, training, backward calls before, raw call site, undid):
        # `undid` lists (index of an earlier eval call, whether that module ran forward in between)
        self.calls: list[tuple] = []
        self._original = None

    def install(self) -> None:
        original = self._original = torch.nn.Module.train
        record = self._record

        def train(module, mode=True):
            depth = getattr(self._depth, "value", 0)
            if depth == 0:
                record(module, mode)
            self._depth.value = depth + 1
            try:
                return original(module, mode)
            finally:
                self._depth.value = depth

        train.__wrapped__ = original
        train.__doc__, train.__name__, train.__qualname__ = original.__doc__, original.__name__, original.__qualname__
        torch.nn.Module.train = train

    def remove(self) -> None:
        if self._original is not None:
            torch.nn.Module.train = self._original
            self._original = None

    def _record(self, module, mode) -> None:
        try:
            if not isinstance(mode, bool) or len(self.calls) >= MAX_EVENTS:
                return
            watched = self._modules.evaled  # id(module) -> [index of its eval call, ran forward since]
            undid = []
            if mode and watched:
                # (read from each module's __dict__: a `training` property would be user code)
                for _, sub in submodules(module, limit=10_000):
                    entry = watched.get(id(sub)) if sub is not module else None
                    if entry is not None and vars(sub).get("training") is False:
                        undid.append((entry[0], entry[1]))
                        del watched[id(sub)]
            elif not mode:
                watched[id(module)] = [len(self.calls), False]
            self._modules.remember(module)
            clock = self._clock
            self.calls.append((next(clock.seq), id(module), type(module).__name__, mode, clock.backwards,
                               capture_stack()[0], undid))
        except Exception as exc:
            self._errors.add(exc)
