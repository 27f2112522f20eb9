"""How a torch callable is handled (decided once per callable), and the handlers of the rare
calls worth a look of their own, registered by name with the `handles` decorator."""

from __future__ import annotations

import os
import sys

from ..trace.locations import capture, capture_stack
from ..trace.model import Escape, GradRead, HookRegistration, ScalerEvent
from .cuts import Cuts
from .events import EventLog
from .graph import Graph
from .leaves import Leaves
from .optim import Optimizers
from .reads import UNREADABLE, Tensor, definition_site, entry_label, grad_fn_of, op_name
from .records import MAX_EVENTS

# Kinds of torch call.
PLAIN, MUTATING, FUNCTIONAL, BACKWARD, SPECIAL, PASS, COMBINE = range(7)

# Sums of two terms: a loss term cut from the graph, added to one that trains, does nothing.
_COMBINERS = frozenset({"add", "sub", "__add__", "__radd__", "__sub__", "__rsub__"})

# Attribute writes gradscope records; any other (`_backward_hooks`, `name`, ...) is passed
# through untouched: torch itself sets `_backward_hooks` while it holds a view's autograd lock
# (rebasing its history after `ctx.mark_dirty`), and reading that tensor's grad_fn then
# would wait on the same lock for ever.
_RECORDED_SETTERS = frozenset({"__set__:data", "__set__:requires_grad", "__set__:grad"})
_ZEROING = frozenset({"zero_", "_foreach_zero_"})
_INPLACE_DUNDERS = frozenset(
    "__iadd__ __isub__ __imul__ __itruediv__ __ifloordiv__ __imod__ __ipow__ __imatmul__ "
    "__iand__ __ior__ __ixor__ __ilshift__ __irshift__ __setitem__ __set__".split()
)
_CHECKPOINT_FILE = os.path.join("utils", "checkpoint.py")

_HANDLERS: dict[str, object] = {}  # op name -> SpecialCalls method, filled by @handles


def handles(*op_names: str):
    """Register a SpecialCalls method as the handler of calls with these op names."""
    def register(method):
        for name in op_names:
            _HANDLERS[name] = method
        return method
    return register


def classify(func, backward_apis) -> int:
    name = getattr(func, "__name__", "")
    name = name if isinstance(name, str) else ""
    op = op_name(func)
    if func in backward_apis:
        return BACKWARD
    if name == "__set__" and op not in _RECORDED_SETTERS:
        return PASS  # torch calls it while changing a tensor's autograd state: hands off
    if op in _HANDLERS:
        return SPECIAL
    if name in _INPLACE_DUNDERS or (name.endswith("_") and not name.endswith("__")):
        return MUTATING
    if getattr(func, "__module__", None) == "torch.nn.functional":
        return FUNCTIONAL  # may write in place (inplace=True, running stats, max_norm)
    if name in _COMBINERS:
        return COMBINE
    return PLAIN


# Reads whose result is not worth a cut record when library code makes them: optimizers,
# zero_grad, clip_grad_norm_ and GradScaler read every parameter's .grad on every step, and a
# gradient read inside a library never reaches the user as a tensor cut from the graph.
_LIBRARY_READS = frozenset({"__get__:grad"})


def is_library_read(func) -> bool:
    return op_name(func) in _LIBRARY_READS


def is_zeroing(func) -> bool:
    """`zero_` and friends: the optimizer checks count them (gradients reset between steps)."""
    return getattr(func, "__name__", None) in _ZEROING


def uses_gradients(func) -> bool:
    """GradScaler's unscale: the gradients are used for a step, even one the scaler then skips
    (inf/NaN found): a reset after it loses nothing."""
    return getattr(func, "__name__", None) == "_amp_foreach_non_finite_check_and_unscale_"


class SpecialCalls:
    """Handlers of rare calls; each is called after the call returned, with its result."""

    def __init__(self, graph: Graph, leaves: Leaves, cuts: Cuts, events: EventLog, optimizers: Optimizers, clock):
        self._graph = graph
        self._optimizers = optimizers
        self._leaves = leaves
        self._cuts = cuts
        self._events = events
        self._clock = clock
        self.grad_resets: list[int] = []  # seq of each `.grad = None`

    def handler(self, func):
        """The bound handler for a callable that classify() called SPECIAL."""
        return _HANDLERS[op_name(func)].__get__(self)

    @handles("tensor", "as_tensor")
    def no_event(self, func, args, out):
        """Copies: nothing of their own to record (their result's cut is noted as for any op)."""

    @handles("detach_")
    def detached_in_place(self, func, args, out):
        """`t.detach_()`: its cut is taken before the op runs (mode.py), while `t` has its graph."""

    @handles("__set__:grad")
    def grad_set(self, func, args, out):
        if len(args) > 1 and args[1] is None:
            if len(self.grad_resets) < MAX_EVENTS:
                self.grad_resets.append(next(self._clock.seq))
            self._optimizers.accumulation.reset(args[0])
        elif len(args) > 1:  # `p.grad = g`: the program makes the gradients the step uses itself
            self._optimizers.accumulation.written()

    @handles("item", "tolist", "numpy", "__float__", "__int__", "__index__", "__array__")
    def escape(self, func, args, out):
        tensor = args[0] if args else None
        if not isinstance(tensor, Tensor):
            return
        if tensor.requires_grad:
            node = self._graph.record_of(grad_fn_of(tensor))
            clock, loc = self._clock, capture_stack()[0]
            self._events.add("escape", lambda loc: Escape(next(clock.seq), op_name(func), loc, clock.backwards,
                                                          self._graph.pin(node)), loc)
            if type(out) is float:
                self._cuts.number(func, tensor, out, loc)
        elif type(out) is float and self._cuts.tainted:  # `.detach().item()`
            self._cuts.number(func, tensor, out, None)

    @handles("__get__:grad")
    def grad_read(self, func, args, out):
        tensor = args[0] if args else None
        if out is not None or not isinstance(tensor, Tensor):
            return
        grad_fn = grad_fn_of(tensor)
        seq = self._clock.seq
        if grad_fn is None:
            leaf = self._leaves.pinned_id(tensor) if tensor.requires_grad else None
            if "clip_grad" in (entry_label(capture()[1]) or ""):
                # (clip_grad_norm_ found no gradient to clip: called before the backward)
                self._events.add("clip", lambda loc: ScalerEvent(next(seq), "clip", loc))
            self._events.add("grad_read", lambda loc: GradRead(next(seq), loc, True, leaf=leaf))
        elif grad_fn is not UNREADABLE and not tensor.retains_grad:
            node = self._graph.record_of(grad_fn)
            self._events.add("grad_read", lambda loc: GradRead(next(seq), loc, False, node=self._graph.pin(node)))

    @handles("_set_grad_enabled")
    def grad_mode(self, func, args, out):
        if args and args[0] is False:
            where = capture()
            via = entry_label(where[1])
            frame = sys._getframe(1)
            while frame is not None:  # a reentrant checkpoint turns grad off under a few wrappers
                if frame.f_code.co_filename.endswith(_CHECKPOINT_FILE):
                    via = "torch/utils/checkpoint.py"
                    break
                frame = frame.f_back
            del frame
            self._cuts.grad_off = (where[0], via)

    @handles("_foreach_norm")
    def norms_measured(self, func, args, out):
        """clip_grad_norm_ measures the gradients with it (user code seldom calls it)."""
        where = capture()
        if "clip_grad" in (entry_label(where[1]) or ""):
            seq = self._clock.seq
            self._events.add("clip", lambda loc: ScalerEvent(next(seq), "clip", loc))

    def gradients_unscaled(self) -> None:
        """A GradScaler divided the gradients by its scale (in `unscale_`, or in `step` if not yet):
        called by the recording mode for the op `uses_gradients` names, an in-place op it records."""
        seq = self._clock.seq
        self._events.add("unscale", lambda loc: ScalerEvent(next(seq), "unscale", loc))

    @handles("register_hook")
    def hook_registered(self, func, args, out):
        hook = args[1] if len(args) > 1 else None
        name = getattr(hook, "__name__", type(hook).__name__)
        seq = self._clock.seq
        self._events.add("hook", lambda loc: HookRegistration(next(seq), name, loc, definition_site(hook)))
