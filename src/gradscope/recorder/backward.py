"""Backward calls (`Tensor.backward`, `torch.autograd.backward`, `torch.autograd.grad`): each is
recorded before it runs; after it, the nodes it ran or freed are marked; if it fails, the
post-mortem looks at the graph it was given."""

from __future__ import annotations

import inspect
from collections import deque

import torch

from ..trace.locations import capture_stack
from ..trace.model import BackwardCall
from .as_caller import trampoline
from .cuts import Cuts
from .graph import Graph
from .leaves import Leaves
from .modules import Modules
from .optim import Optimizers
from .postmortem import PostMortem
from .reads import UNREADABLE, Tensor, grad_fn_of
from .records import GRAD_CHECK_STEPS, MAX_BACKWARD_CALLS, NID

BACKWARD_APIS = {
    Tensor.backward: "Tensor.backward",
    torch.autograd.backward: "torch.autograd.backward",
    torch.autograd.grad: "torch.autograd.grad",
}


class Backwards:
    def __init__(self, graph: Graph, leaves: Leaves, cuts: Cuts, modules: Modules, optimizers: Optimizers,
                 postmortem: PostMortem, clock, errors, failures: dict, flow=None):
        self._graph = graph
        self._leaves = leaves
        self._cuts = cuts
        self._modules = modules
        self._optimizers = optimizers
        self._postmortem = postmortem
        self._clock = clock
        self._errors = errors
        self._failures = failures  # id(exception) -> ("backward", BackwardCall), shared with the mode
        self._flow = flow  # record.flow.FlowCollector under --grad-flow
        self._signatures: dict = {}
        self.calls: deque = deque(maxlen=MAX_BACKWARD_CALLS)
        self.after = None  # called after each backward call, failed or not (the front's pruning)

    def run(self, func, args, kwargs):
        """Make the backward call `func(*args, **kwargs)` for the user, recording it."""
        __tracebackhide__ = True
        try:
            call, roots, outputs, inputs = self._begin(func, args, kwargs)
        except Exception as exc:
            self._errors.add(exc)
            return trampoline(3)(func, args, kwargs)
        try:
            result = trampoline(3)(func, args, kwargs)
        except Exception as exc:
            try:
                self._failed(call, roots, outputs, inputs, exc)
            except Exception as inner:
                self._errors.add(inner)
            raise
        try:
            self._succeeded(call, result)
        except Exception as exc:
            self._errors.add(exc)
        return result

    def _begin(self, func, args, kwargs):
        signature = self._signatures.get(func)
        if signature is None:
            signature = self._signatures[func] = inspect.signature(func)
        bound = signature.bind_partial(*args, **kwargs).arguments
        outputs = bound.get("self", bound.get("tensors", bound.get("outputs")))
        outputs = [outputs] if isinstance(outputs, Tensor) else list(outputs or ())
        inputs = bound.get("inputs")
        inputs = [inputs] if isinstance(inputs, Tensor) else list(inputs or ())
        create_graph = bool(bound.get("create_graph", False))
        retain_graph = bound.get("retain_graph")
        loc = capture_stack()[0]
        roots, root_ids, leaf_outputs = [], [], []
        for tensor in outputs:
            grad_fn = grad_fn_of(tensor) if isinstance(tensor, Tensor) else None
            if grad_fn is None and isinstance(tensor, Tensor) and tensor.requires_grad and len(leaf_outputs) < 4:
                leaf_outputs.append(self._leaves.pinned_id(tensor))
            elif grad_fn is not None and grad_fn is not UNREADABLE:
                roots.append(grad_fn)
                record = self._graph.record_of(grad_fn, loc)
                if record is not None:
                    root_ids.append(record[NID])
        call = BackwardCall(
            index=self._clock.backwards, api=BACKWARD_APIS[func], site=loc, seq=next(self._clock.seq),
            retain_graph=create_graph if retain_graph is None else bool(retain_graph),
            create_graph=create_graph, roots=root_ids, leaf_outputs=leaf_outputs,
            ddp_synced=self._modules.ddp_sync_state(),
        )
        if inputs:  # which leaves it asks the gradient of (a revived tensor's gradient is wanted)
            known_id = self._leaves.known_id
            call.input_leaves = [lid for lid in (known_id(t) for t in inputs[:16] if isinstance(t, Tensor))
                                 if lid is not None]
        clock = self._clock
        clock.backwards += 1
        # It adds into .grad; inside an optimizer's step (a closure an L-BFGS step evaluates again
        # and again) the optimizer owns what .grad holds: no accumulation window of the program's.
        if func is not torch.autograd.grad and self._optimizers.stepping is None:
            self._optimizers.accumulation.added(loc)
        self.calls.append(call)
        return call, roots, outputs, inputs

    def _failed(self, call, roots, outputs, inputs, exc) -> None:
        describe = self._postmortem.describe
        call.outputs = [describe(t) for t in outputs[:8] if isinstance(t, Tensor)]
        call.inputs = [describe(t) for t in inputs[:16] if isinstance(t, Tensor)]
        self._failures[id(exc)] = ("backward", call)
        self._postmortem.explain_backward(call, roots, exc)
        self._modules.name_all()
        if self.after is not None:
            self.after()
        if self._flow is not None:
            self._flow.forget()

    def _succeeded(self, call, result) -> None:
        marked = self._graph.mark_run(call.roots, call.index, frees=not call.retain_graph)
        if not call.retain_graph:
            call.freed_nodes = marked
        is_grad = call.api == "torch.autograd.grad"
        if call.index < GRAD_CHECK_STEPS and not is_grad:
            self._optimizers.backward_ran(call.site, call.index)
        if self._flow is not None and not is_grad:
            self._flow.after_backward(call.index, self._modules.roots())
        elif self._flow is not None:
            self._flow.forget()
        if is_grad and not call.create_graph:
            # Gradients made without create_graph=True are constants to autograd.
            for grad in result:
                if isinstance(grad, Tensor) and not grad.requires_grad and grad_fn_of(grad) is None:
                    self._cuts.taint(grad, self._cuts.cut(None, None, grad, reason="grad_result"))
        if self.after is not None:
            self.after()
