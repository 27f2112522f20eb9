"""The per-op path: one TorchFunctionMode sees every torch call made from Python and hands it on.

It costs ~1.5 µs a call and, unlike a dispatch mode, is not re-entered for the aten ops that
backward and the optimizer run. Every torch call goes through a trampoline made for the user's
call site (see as_caller), so tracebacks and warnings name the user's line as under Python.
"""

from __future__ import annotations

from collections import deque

import torch
from torch.overrides import TorchFunctionMode

from ..trace.locations import capture_stack
from ..trace.model import ErrorInfo, OpFailure
from . import calls
from .as_caller import call_site, trampoline
from .backward import BACKWARD_APIS, Backwards
from .calls import BACKWARD, COMBINE, MUTATING, PASS, PLAIN, SPECIAL, SpecialCalls
from .cuts import Cuts
from .events import InternalErrors
from .graph import Graph
from .inplace import InplaceLog, versions_before
from .leaves import Leaves
from .modules import Modules
from .optim import Optimizers
from .postmortem import PostMortem
from .reads import UNREADABLE, Tensor, grad_fn_of, op_name
from .records import MAX_OP_FAILURES

_is_grad_enabled = torch.is_grad_enabled
_is_compiling = torch.compiler.is_compiling
_stack_len = torch._C._len_torch_function_stack
_pop_stack = torch._C._pop_torch_function_stack
_push_stack = torch._C._push_on_torch_function_stack


class RecordingMode(TorchFunctionMode):
    def __init__(self, graph: Graph, leaves: Leaves, modules: Modules, cuts: Cuts, inplace: InplaceLog,
                 optimizers: Optimizers, specials: SpecialCalls, backwards: Backwards,
                 postmortem: PostMortem, clock, errors: InternalErrors, failures: dict):
        super().__init__()
        self._graph = graph
        self._records = graph.records  # the hot path's membership test, one attribute away
        self._leaves = leaves
        self._modules = modules
        self._cuts = cuts
        self._inplace = inplace
        self._optimizers = optimizers
        self._specials = specials
        self._backwards = backwards
        self._postmortem = postmortem
        self._clock = clock
        self._errors = errors
        self._failures = failures  # id(exception) -> ("op", OpFailure)
        self._kinds: dict = {}
        self._zeroers: set = set()
        self._gradient_users: set = set()  # calls that use the gradients for a step (calls.uses_gradients)
        self._library_reads: set = set()  # special reads not noted when library code makes them
        self._handlers: dict = {}  # special callable -> its bound handler
        self.op_failures: deque = deque(maxlen=MAX_OP_FAILURES)
        self.saw_compiled = False  # torch.compile traced code: its regions are not recorded

    def __torch_function__(self, func, types, args=(), kwargs=None):
        __tracebackhide__ = True  # pytest: show the user's traceback as without gradscope
        if kwargs is None:
            kwargs = {}
        if _is_compiling():  # Dynamo is tracing: compiled regions are opaque to gradscope
            self.saw_compiled = True
            return func(*args, **kwargs)
        if self._optimizers.passing:
            # Inside a plain optimizer.step(): its many small ops pass untouched (inlined: the cost of
            # this path is per op) until one builds graph (a step that raised never ends itself).
            if self._optimizers.checking:  # gradscope's own calls (the gradient checks): no trampoline
                return func(*args, **kwargs)
            out = call_site()[0](func, args, kwargs)
            if type(out) is Tensor and _is_grad_enabled():
                self._graph_after_step(func, out, args)
            return out
        try:
            kind = self._kinds[func]
        except KeyError:
            kind = self._classify(func)
        except TypeError:  # an unhashable callable: record nothing about it
            kind = PLAIN
        if kind == BACKWARD:
            return self._backwards.run(func, args, kwargs)
        if kind == SPECIAL:
            return self._special(func, args, kwargs)
        if kind == PASS:  # torch calls it while changing a tensor's autograd state: hands off
            return trampoline()(func, args, kwargs)

        before = None
        if (kind != PLAIN and kind != COMBINE) or (kwargs and "out" in kwargs):  # (a sum writes nothing)
            try:
                before = versions_before(kind == MUTATING, args, kwargs)
            except Exception as exc:
                self._errors.add(exc)
        call, site = call_site()
        try:
            out = call(func, args, kwargs)
        except Exception as exc:
            self._op_failed(func, args, exc)
            raise
        try:
            if before:
                if func in self._zeroers:
                    self._clock.zeroings += 1
                    self._optimizers.accumulation.reset(None)
                elif func in self._gradient_users:
                    self._optimizers.accumulation.used()
                    self._optimizers.scaler_seen = True
                    self._specials.gradients_unscaled()
                self._inplace.note_changes(func, before, args, kwargs)
            if type(out) is Tensor:  # the common case: _note_tensor inlined (one call fewer per op)
                try:
                    grad_fn = out.grad_fn
                except RuntimeError:  # a view torch forbids to touch: nothing to record
                    return out
                if grad_fn is not None:
                    if grad_fn._sequence_nr() not in self._records:
                        self._graph.new_nodes(grad_fn, func, args, site)
                    if kind == COMBINE and (self._cuts.tainted or self._cuts.numbers):
                        self._cuts.dead_term(out, args, grad_fn)
                elif out.requires_grad:
                    self._leaves.ensure(out)
                    if kind == PLAIN:  # a copy constructor is plain: torch.tensor(values, requires_grad=True)
                        self._cuts.maybe_rewrapped(func, out, args)
                else:
                    self._cuts.maybe_cut(func, out, args)
            else:
                self._note_outputs(func, out, args)
        except Exception as exc:
            self._errors.add(exc)
        return out

    # An optimizer step takes the mode off the stack while it runs (see optim.StepAside).
    def take_off_stack(self) -> bool:
        """Take this mode off the current thread's torch-function stack if it is on top."""
        if _stack_len() == 0:
            return False
        top = _pop_stack()
        if top is self:
            return True
        _push_stack(top)  # the user's own mode is above ours: leave the stack as it is
        return False

    def put_on_stack(self) -> None:
        _push_stack(self)

    def remove_from_stack(self) -> None:
        """Take this mode out of the current thread's stack wherever it is; the modes above it
        (`with torch.device(...)`, the program's own) stay, in their order."""
        above = []
        while _stack_len() > 0:
            top = _pop_stack()
            if top is self:
                break
            above.append(top)
        for mode in reversed(above):
            _push_stack(mode)

    def _classify(self, func) -> int:
        kind = calls.classify(func, BACKWARD_APIS)
        if calls.is_zeroing(func):
            self._zeroers.add(func)
        elif calls.uses_gradients(func):
            self._gradient_users.add(func)
        if kind == SPECIAL:
            self._handlers[func] = self._specials.handler(func)
            if calls.is_library_read(func):
                self._library_reads.add(func)
        self._kinds[func] = kind
        return kind

    def _graph_after_step(self, func, out, args):
        """An op with a result while an optimizer was stepping: if it built graph, the step is over."""
        grad_fn = grad_fn_of(out)
        if grad_fn is not None and grad_fn is not UNREADABLE:
            self._optimizers.stepping, self._optimizers.passing = None, False
            self._note_outputs(func, out, args)

    def _special(self, func, args, kwargs):
        __tracebackhide__ = True
        handler = self._handlers[func]
        call, site = call_site(3)  # __torch_function__'s caller: one frame further out than there
        # (in place: after the op nothing says the tensor had a graph, so its node is read before)
        detached = grad_fn_of(args[0]) if handler.__name__ == "detached_in_place" and args \
            and type(args[0]) is Tensor else None
        try:
            out = call(func, args, kwargs)
        except Exception as exc:
            self._op_failed(func, args, exc)
            raise
        try:
            if detached is not None and detached is not UNREADABLE:
                self._cuts.taint(args[0], self._cuts.cut(func, None, args[0], "detach", grad_fn=detached))
            handler(func, args, out)
            if site is None and func in self._library_reads:
                return out
            self._note_outputs(func, out, args)
        except Exception as exc:
            self._errors.add(exc)
        return out

    def _note_outputs(self, func, out, args):
        if isinstance(out, Tensor):
            self._note_tensor(func, out, args)
        elif type(out) is tuple or type(out) is list:
            for item in out:
                if isinstance(item, Tensor):
                    self._note_tensor(func, item, args)
                elif type(item) is tuple:  # e.g. lstm's (output, (h, c))
                    for inner in item:
                        if isinstance(inner, Tensor):
                            self._note_tensor(func, inner, args)

    def _note_tensor(self, func, tensor, args):
        grad_fn = grad_fn_of(tensor)
        if grad_fn is UNREADABLE:
            return
        if grad_fn is not None:
            if grad_fn._sequence_nr() not in self._records:
                self._graph.new_nodes(grad_fn, func, args)
        elif tensor.requires_grad:
            self._leaves.ensure(tensor)
            self._cuts.maybe_rewrapped(func, tensor, args)
        else:
            self._cuts.maybe_cut(func, tensor, args)

    def _op_failed(self, func, args, exc):
        try:
            loc = capture_stack()[0]
            tensors = [self._postmortem.describe(a) for a in args[:4] if isinstance(a, Tensor)]
            failure = OpFailure(
                seq=next(self._clock.seq), op=op_name(func), site=loc,
                error=ErrorInfo(type(exc).__name__, str(exc)), tensors=tensors,
                grad_enabled=_is_grad_enabled(), module_call=self._modules.current_call(),
            )
            self.op_failures.append(failure)
            self._failures[id(exc)] = ("op", failure)
            self._modules.name_all()
        except Exception as inner:
            self._errors.add(inner)
