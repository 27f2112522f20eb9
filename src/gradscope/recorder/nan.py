"""Where a NaN or inf in the gradients comes from: a hook on new nodes finds the first backward
node whose gradients turn non-finite from finite ones (the op to look at, rather than the loss
that shows the NaN). When that node's saved forward values are already non-finite, the NaN came
from the forward: the earliest op upstream whose saved values are non-finite is named too.

By default the hooks go on every node of the first NAN_WATCH_BACKWARDS backward calls (a NaN
from log(0), sqrt(0) or a fully masked row shows up there), and after that only on the nodes of
ops whose backward can itself turn finite gradients into NaN/inf (CAN_MAKE_NONFINITE: sqrt at 0,
exp that overflowed, log at 0, ...), so that a value met only late in training (a black frame at
epoch 3) is still traced to its op while the rest of the graph costs nothing. `--check-nan`
watches every node of every backward call."""

from __future__ import annotations

import functools

import torch

from ..trace.model import NanOrigin
from .graph import Graph
from .records import ATTR, HOOKED, NAME, NID, PRODUCER_NODE, SAVED

NAN_WATCH_BACKWARDS = 2
# Backward nodes whose derivative is infinite or undefined somewhere in the op's domain, or
# that multiply by a saved result that may have overflowed (0 * inf): the only places where
# finite gradients of finite forward values turn non-finite.
CAN_MAKE_NONFINITE = frozenset({
    "SqrtBackward0", "RsqrtBackward0", "PowBackward0", "PowBackward1", "PowBackward2",
    "LogBackward0", "Log2Backward0", "Log10Backward0", "Log1PBackward0", "XlogyBackward0",
    "DivBackward0", "DivBackward1", "ReciprocalBackward0", "ExpBackward0", "Exp2Backward0",
    "Expm1Backward0", "SinhBackward0", "CoshBackward0", "TanBackward0", "AcosBackward0",
    "AsinBackward0", "AtanhBackward0", "AcoshBackward0", "Atan2Backward0",
    "LinalgVectorNormBackward0", "NormBackward0", "NormBackward1", "NormBackward2", "NormBackward3",
    "CdistBackward0", "DistBackward0", "StdBackward0", "LgammaBackward0", "DigammaBackward0",
    "ErfinvBackward0", "LogsumexpBackward0", "BinaryCrossEntropyBackward0",
})
MAX_UPSTREAM_NODES = 5_000
_current_node = torch._C._current_autograd_node
_transforms_active = torch._C._are_functorch_transforms_active
_dispatch_modes = torch._C._len_torch_dispatch_stack
_functorch_wrapped = torch._C._functorch.is_functorch_wrapped_tensor
_strided = torch.strided
Tensor = torch.Tensor


def _hands_off() -> bool:
    """Our own checks would be seen by (or fail under) the program's dispatch modes or functorch
    transforms (vmap over .item()): then gradscope checks nothing."""
    return _dispatch_modes() > 0 or _transforms_active()


class NanWatch:
    def __init__(self, graph: Graph, clock, errors, watch_all: bool = False):
        self._graph = graph
        self._clock = clock
        self._errors = errors
        self._watch_all = watch_all
        self.origins: list[NanOrigin] = []
        graph.on_new_node = self._watch

    def _watch(self, node, nid) -> None:
        record = self._graph.records.get(nid)
        late = not self._watch_all and self._clock.backwards >= NAN_WATCH_BACKWARDS
        if late:
            self._graph.new_node_types = CAN_MAKE_NONFINITE  # (the graph asks only for those from now on)
            # (a record made again from one pruned is a node hooked already: its hook is on the node)
            if record is None or record[NAME] not in CAN_MAKE_NONFINITE or nid in self._graph.revived:
                return  # after the first backward calls: only the ops that can make a NaN themselves
        if record is not None and record[HOOKED]:
            return  # saved_tensors_hooks at work (checkpointing, offloading, the program's own): hands off
        if not _hands_off():
            node.register_hook(functools.partial(self._check, nid, late))

    def _check(self, nid, late, grad_inputs, grad_outputs):
        if self.origins or _hands_off():
            return
        try:
            with torch._C.DisableTorchFunction():
                if any(g is not None and (type(g) is not Tensor or g.layout != _strided or g.is_nested
                                          or _functorch_wrapped(g))
                       for g in (*grad_outputs, *grad_inputs)):
                    # sparse, nested or batched gradients (no isfinite kernel to call), or a
                    # subclass's (its isfinite would run its own code: a DTensor's, collectives)
                    return
                if late and any(g is not None and g.device.type != "cpu" for g in (*grad_outputs, *grad_inputs)):
                    return  # (later iterations on a device: each check would wait for it; --check-nan does)
                if any(g is not None and not bool(torch.isfinite(g).all()) for g in grad_outputs):
                    return  # it only passed on what it was given
                for index, grad in enumerate(grad_inputs):
                    if grad is not None and not bool(torch.isfinite(grad).all()):
                        value = "nan" if bool(torch.isnan(grad).any()) else "inf"
                        graph = self._graph
                        graph.pin(graph.records.get(nid))
                        forward = self._forward_origin(_current_node())
                        graph.pin(graph.records.get(forward))
                        self.origins.append(NanOrigin(nid, index, value, self._clock.backwards - 1, forward))
                        graph.on_new_node = None  # found: new nodes need no hook any more
                        return
        except RuntimeError as exc:
            if "Batching rule" not in str(exc):  # inside a batched backward (gradcheck, is_grads_batched):
                self._errors.add(exc)            # the values cannot be read there; nothing to report
        except Exception as exc:
            self._errors.add(exc)

    def _forward_origin(self, node) -> int | None:
        """If `node`'s saved forward values hold NaN/inf, the earliest op upstream that made a
        non-finite value some node saved (its output, saved by itself or by the next op)."""
        if node is None or not self._saved_nonfinite(node):
            return None
        graph, best = self._graph, None
        walk = graph.walk([node])
        for count, (upstream, _) in enumerate(walk):
            if count >= MAX_UPSTREAM_NODES:
                break
            for producer in self._saved_nonfinite(upstream):
                if best is None or producer < best:
                    best = producer
        return best

    def _saved_nonfinite(self, node) -> list[int]:
        """The producers (node ids) of the node's saved tensors that hold NaN/inf. Never reads
        the saved tensors of a node packed by saved_tensors_hooks (that would run the hooks)."""
        record = self._graph.records.get(node._sequence_nr())  # (never records: we are inside backward)
        if record is None or record[HOOKED]:
            return []
        found = []
        for saved in record[SAVED]:
            attr = saved[ATTR]
            if not attr.startswith("_saved_"):
                continue
            value = getattr(node, attr, None)
            if (type(value) is Tensor and value.layout == _strided and not value.is_nested and value.is_floating_point()
                    and not bool(torch.isfinite(value).all())):
                found.append(saved[PRODUCER_NODE] if saved[PRODUCER_NODE] is not None else record[NID])
        return found
