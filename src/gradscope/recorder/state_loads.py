"""State loads: the program's `load_state_dict` calls that copied a module's own tensors onto
themselves (a state dict taken with `state_dict()` and kept without a copy, so the optimizer's
in-place steps changed it too; or a module loading its own state): such a load changes nothing.

torch has no global hook for `Module.load_state_dict`, so it is wrapped for the recording (and
put back after), as `Module.train` is (see mode_sets.py). Before torch's load runs, the wrapper
compares the storage of each tensor given with that of the module's own tensor of the same name:
reading `data_ptr()` of plain tensors only, with torch functions disabled (a subclass's would run
its own code); a state dict that is not a plain dict is left alone. Nothing is kept but counts.
"""

from __future__ import annotations

from collections import OrderedDict

import torch

from ..trace.locations import capture_stack
from .mode_sets import ModuleMethodWrap
from .reads import submodules
from .records import MAX_EVENTS

_PLAIN = (torch.Tensor, torch.nn.Parameter)


class StateLoads:
    def __init__(self, clock, errors):
        self._clock = clock
        self._errors = errors
        # (seq, class name, backward calls before, optimizer steps before, raw call site, tensors
        # compared): the loads whose every tensor was the module's own
        self.loads: list[tuple] = []
        self._wrap = ModuleMethodWrap("load_state_dict", self._load)
        self.install, self.remove = self._wrap.install, self._wrap.remove

    def _load(self, original, module, state_dict, *args, **kwargs):
        same = self._own_tensors(module, state_dict)
        result = original(module, state_dict, *args, **kwargs)
        if same:
            self._record(module, same)
        return result

    def _own_tensors(self, module, state_dict) -> int:
        """How many tensors the load compares, when every one of them is the module's own tensor
        of that name (same storage, same shape); 0 otherwise."""
        try:
            if type(state_dict) not in (dict, OrderedDict) or len(self.loads) >= MAX_EVENTS:
                return 0
            compared = 0
            with torch._C.DisableTorchFunction():
                for path, owner in submodules(module, limit=10_000):
                    for registry in ("_parameters", "_buffers"):
                        for key, own in (vars(owner).get(registry) or {}).items():
                            given = state_dict.get(f"{path}.{key}" if path else key)
                            if given is None or own is None:
                                continue
                            if type(given) not in _PLAIN or type(own) not in _PLAIN or not _same_memory(given, own):
                                return 0
                            compared += 1
            return compared
        except Exception as exc:
            self._errors.add(exc)
            return 0

    def _record(self, module, compared: int) -> None:
        try:
            clock = self._clock
            self.loads.append((next(clock.seq), type(module).__name__, clock.backwards, clock.steps,
                               capture_stack()[0], compared))
        except Exception as exc:
            self._errors.add(exc)


def _same_memory(given, own) -> bool:
    """Same storage and shape; False where either has no readable storage (meta, sparse)."""
    try:
        return own.layout == torch.strided and given.layout == torch.strided and own.device.type != "meta" \
            and given.data_ptr() == own.data_ptr() and given.shape == own.shape
    except RuntimeError:
        return False
