"""--check-nan: a hook on every new node, to find the first whose gradients turn non-finite from
finite ones (the op to look at, rather than the loss that shows the NaN)."""

from __future__ import annotations

import functools

import torch

from ..trace import NanOrigin
from .graph import Graph


class NanWatch:
    def __init__(self, graph: Graph, clock, errors):
        self._graph = graph
        self._clock = clock
        self._errors = errors
        self.origins: list[NanOrigin] = []
        graph.on_new_node = self._watch

    def _watch(self, node, nid) -> None:
        node.register_hook(functools.partial(self._check, nid))

    def _check(self, nid, grad_inputs, grad_outputs):
        if self.origins:
            return
        try:
            with torch._C.DisableTorchFunction():
                if any(g is not None and not bool(torch.isfinite(g).all()) for g in grad_outputs):
                    return  # it only passed on what it was given
                for index, grad in enumerate(grad_inputs):
                    if grad is not None and not bool(torch.isfinite(grad).all()):
                        value = "nan" if bool(torch.isnan(grad).any()) else "inf"
                        self._graph.pin(self._graph.records.get(nid))
                        self.origins.append(NanOrigin(nid, index, value, self._clock.backwards - 1))
                        self._graph.on_new_node = None  # found: new nodes need no hook any more
                        return
        except Exception as exc:
            self._errors.add(exc)
