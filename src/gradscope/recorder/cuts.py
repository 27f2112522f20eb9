"""Graph cuts: where a result stopped requiring grad although an input did (detach, `.data`,
no_grad, `torch.tensor(t)`, an integer op), and which later tensors descend from a cut ("taint").

Runs only for results that do not require grad, and keeps nothing but weak references.
"""

from __future__ import annotations

import functools
import itertools
import weakref

import torch

from ..trace.locations import capture_stack
from ..trace.model import DeadTerm, GraphCut, Revival
from .events import EventLog
from .graph import Graph
from .leaves import Leaves
from .modules import Modules
from .reads import Tensor, grad_fn_of, op_name
from .records import MAX_EVENTS

_is_grad_enabled = torch.is_grad_enabled
_is_inference_enabled = torch.is_inference_mode_enabled

_NUMBERS_KEPT = 32  # floats read by `.item()` remembered for the sums they are added to

# Why an op's result stopped requiring grad, by op (with grad mode on).
_CUT_REASONS = {"detach": "detach", "detach_": "detach", "__get__:data": "data", "tensor": "copy",
                "as_tensor": "copy", "Tensor": "copy", "new_tensor": "copy"}


class Cuts:
    def __init__(self, graph: Graph, leaves: Leaves, modules: Modules, clock, events: EventLog):
        self._graph = graph
        self._events = events
        self._leaves = leaves
        self._modules = modules
        self._clock = clock
        self.tainted: dict[int, tuple] = {}  # id(tensor) -> (weak ref, cut id) for results that descend from a cut
        self.cuts: dict[int, GraphCut] = {}
        self._keys: dict = {}  # what makes two cuts the same one -> cut id
        self._ids = itertools.count(1)
        self.grad_off = None  # (location, library entry) of the last switch to no-grad mode
        # The last few floats `.item()` read from a tensor with a graph (or one descending from a
        # cut) -> (the float, cut id). The float is kept so that `is` tells it apart from one
        # that took its id: a handful of Python floats, no tensors.
        self.numbers: dict[int, tuple] = {}

    def maybe_cut(self, func, out, args) -> None:
        """`out` does not require grad: if an input did (or descends from a cut), remember where."""
        tainted = self.tainted
        source = cut = None
        for arg in args:
            if isinstance(arg, Tensor):
                if arg.requires_grad:
                    source = arg
                    break
                if cut is None and tainted:
                    entry = tainted.get(id(arg))
                    if entry is not None and entry[0]() is arg:
                        cut = entry[1]
            elif (type(arg) is list or type(arg) is tuple) and arg and isinstance(arg[0], Tensor):
                for item in arg:  # torch.stack / torch.cat of a list
                    if isinstance(item, Tensor):
                        if item.requires_grad:
                            source = item
                            break
                        if cut is None and tainted:
                            cut = self.cut_of(item)
                if source is not None:
                    break
        if source is not None:
            if not _is_grad_enabled():
                self._graph.applies.note_forward()
            cut = self.cut(func, source, out)
        elif cut is None:
            if not _is_inference_enabled():
                return
            cut = self.cut(func, None, out)  # everything made under inference_mode is one
        self.taint(out, cut)

    def maybe_rewrapped(self, func, out, args) -> None:
        """`out` is a new leaf that requires grad: if a copy constructor (`torch.tensor(values,
        requires_grad=True)`) made it from tensors that required grad, it is a cut and a
        revival at once: the same line stopped the graph and started a new one that trains nothing."""
        if _CUT_REASONS.get(getattr(func, "__name__", None)) != "copy":
            return
        source = None
        for arg in args[:1]:
            items = arg if type(arg) is list or type(arg) is tuple else (arg,)
            # (only a value with a graph: one the program detached first was cut on purpose, as
            # an adversarial input `torch.tensor(x.detach(), requires_grad=True)` is)
            source = next((item for item in items if isinstance(item, Tensor) and item.requires_grad), None)
        if source is None or source is out:  # (`as_tensor(x)` of a tensor returns x itself)
            return
        loc = capture_stack()[0]
        cut = self.cut(func, source, out, reason="copy", loc=loc)
        lid = self._leaves.pinned_id(out)
        self._events.add("revival", lambda where: Revival(next(self._clock.seq), where, cut, lid), loc)

    def number(self, func, tensor, out, loc) -> None:
        """`out`, a float, was read from `tensor` at `loc` (`.item()`, `float(t)`): if the tensor had
        a graph (or descends from a cut), remember the float, for the sum it may be added to."""
        if tensor.requires_grad:
            cut = self.cut(func, tensor, out, reason="number", loc=loc)
        else:
            cut = self.cut_of(tensor)
            if cut is None:
                return
        numbers = self.numbers
        numbers[id(out)] = (out, cut)
        if len(numbers) > _NUMBERS_KEPT:
            del numbers[next(iter(numbers))]

    def cut(self, func, source, out, reason=None, loc=None, grad_fn=None) -> int:
        """The cut `out` was made at (from `source`, which required grad), recorded once per line."""
        module = self._modules.current_module()
        if reason is None:
            if _is_inference_enabled():
                reason = "inference_mode"
            elif not _is_grad_enabled():
                reason = "no_grad"
        if reason in ("no_grad", "inference_mode") and module is not None:
            # One record per no-grad block and module: an eval loop must stay cheap.
            key = (reason, self.grad_off[0] if self.grad_off else None, module)
            found = self._keys.get(key)
            if found is not None:
                return found
            loc = capture_stack()[0]
        else:
            if loc is None:
                loc = capture_stack()[0]
            if reason is None:
                reason = _CUT_REASONS.get(op_name(func))
                if reason is None:
                    reason = "other" if (out.is_floating_point() or out.is_complex()) else "integer"
            key = (reason, loc)
            found = self._keys.get(key)
            if found is not None:
                return found
        cid = next(self._ids)
        grad_off = self.grad_off if reason == "no_grad" else None
        input_node = input_leaf = None
        if grad_fn is not None:  # (the node `source` had before an in-place detach took it)
            input_node = self._graph.node_record(grad_fn)
        elif source is not None:
            grad_fn = grad_fn_of(source)
            if grad_fn is not None:
                input_node = self._graph.node_record(grad_fn)
            else:
                input_leaf = self._leaves.pinned_id(source)
        self.cuts[cid] = GraphCut(
            id=cid, seq=next(self._clock.seq), op=op_name(func) if func is not None else "autograd.grad",
            site=loc, reason=reason, backwards_before=self._clock.backwards,
            grad_off_site=grad_off[0] if grad_off else None, grad_off_via=grad_off[1] if grad_off else None,
            input_node=input_node, input_leaf=input_leaf,
            module=self._modules.names.get(module, module))  # its path, if the modules were named already
        self._keys[key] = cid
        if len(self.cuts) > MAX_EVENTS:  # forget the oldest
            oldest = next(iter(self.cuts))
            del self.cuts[oldest]
            self._keys = {k: v for k, v in self._keys.items() if v != oldest}
        return cid

    def dead_term(self, out, args, grad_fn) -> None:
        """A 0-d sum (`loss = lm_loss + balance_loss`) that trains, with a 0-d term descending from a
        cut: that term adds a number and no gradient. Noted once per line, with the sum's node."""
        if out.dim() > 1 or out.numel() != 1:  # (a loss of shape [1] is one number too)
            return
        numbers = self.numbers
        for arg in args:
            cut = None
            if type(arg) is float:  # a number `.item()` read from a graph (`loss + aux.item()`)
                entry = numbers.get(id(arg))
                if entry is not None and entry[0] is arg:
                    cut = entry[1]
            elif isinstance(arg, Tensor) and not arg.requires_grad and arg.dim() <= 1 and arg.numel() == 1:
                cut = self.cut_of(arg)
            if cut is not None:
                graph, number = self._graph, type(arg) is float
                self._events.add("dead_term", lambda loc: DeadTerm(next(self._clock.seq), loc, cut,
                                                                    graph.pin(graph.record_of(grad_fn)), number))
                return

    def name_modules(self, names: dict) -> None:
        """Put the module paths known now on the cuts (a module's name is gone once it dies)."""
        for cut in self.cuts.values():
            if isinstance(cut.module, int) and cut.module in names:
                cut.module = names[cut.module]

    def taint(self, tensor, cut) -> None:
        key = id(tensor)
        self.tainted[key] = (weakref.ref(tensor, functools.partial(self._untaint, key)), cut)

    def _untaint(self, key, ref):
        entry = self.tainted.get(key)
        if entry is not None and entry[0] is ref:
            del self.tainted[key]

    def cut_of(self, tensor) -> int | None:
        entry = self.tainted.get(id(tensor))
        if entry is not None and entry[0]() is tensor:
            return entry[1]
        return None

    def reason_of(self, cut: int | None) -> str | None:
        found = self.cuts.get(cut)
        return found.reason if found is not None else None

    def is_data_alias(self, tensor) -> bool:
        """Written through `.data` (or a view of it): a write torch's version check cannot see."""
        for candidate in (tensor, tensor._base):
            if candidate is not None and self.reason_of(self.cut_of(candidate)) == "data":
                return True
        return False
