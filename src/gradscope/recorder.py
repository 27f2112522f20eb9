"""Records a running program's autograd activity without changing what it computes.

How it hooks in, and why (costs measured on torch 2.13 CPU, see the benchmarks):

* One ``TorchFunctionMode`` sees every torch call made from Python: ops, in-place dunders,
  ``Tensor.backward``, ``torch.autograd.backward``/``grad``. It costs ~1.5 µs a call and, unlike
  a dispatch mode, is not re-entered for the aten ops that backward and the optimizer run.
* Each autograd node is known by its ``_sequence_nr()`` (unique per thread, unlike the id of
  its Python wrapper in general). Records are tuples of atoms, which Python's cyclic GC stops
  tracking: a training step makes tens of thousands of them, and GC-tracked records made the
  collector rescan the whole process once per step (that alone doubled a tiny-op loop's time).
  Retention is bounded: the graphs of the last `keep_backwards` backward calls in full, at most
  `max_nodes` records, plus whatever a failure needs.
* Saved tensors are read from the node's ``_saved_*`` attributes right after the op that made
  it, when their version is the version at save time. We do not install
  ``saved_tensors_hooks``: they switch off torch's own version check of saved tensors.
* When a backward call fails, we look at the graph it was given (still alive, held by the
  caller's tensors) and find the node whose saved tensor is stale or already freed, by asking
  torch to unpack each saved tensor again.

Every hook catches its own failures: an error in gradscope is recorded and reported at the end,
never raised into the user's program. Tensors are never held: only ids, weak references and
the storage address of saved tensors (for matching in-place writes to them).
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import inspect
import itertools
import os
import re
import sys
import threading
import traceback
import warnings
import weakref
from collections import deque

import torch
from torch.overrides import TorchFunctionMode

from . import as_caller, locations
from .as_caller import trampoline
from .locations import capture, resolve
from .trace import (
    BackwardCall,
    ErrorInfo,
    Escape,
    FreedFailure,
    GradHazard,
    GradRead,
    GraphCut,
    HookRegistration,
    InplaceChange,
    Leaf,
    LeafMoved,
    ModuleCall,
    NanOrigin,
    Node,
    OpFailure,
    Revival,
    SavedHazard,
    SavedTensor,
    StaleLink,
    TensorArg,
    Trace,
    VersionFailure,
)

locations.add_internal_dir(os.path.dirname(torch.__file__))
as_caller.set_dispatch_code(torch.overrides.handle_torch_function.__code__)
_TORCH_DIR = os.path.dirname(os.path.dirname(torch.__file__)) + os.sep

_Tensor = torch.Tensor
_BackwardCFunction = torch.autograd.function.BackwardCFunction
_is_grad_enabled = torch.is_grad_enabled
_is_anomaly_enabled = torch.is_anomaly_enabled
_is_inference_enabled = torch.is_inference_mode_enabled
_is_compiling = torch.compiler.is_compiling
_saved_tensors_hooks_now = torch._C._autograd._top_saved_tensors_default_hooks

# How a torch call is handled; decided once per callable.
_PLAIN, _MUTATING, _FUNCTIONAL, _BACKWARD, _SPECIAL, _PASS = range(6)
# Attribute writes gradscope records; any other (`_backward_hooks`, `name`, ...) is passed
# through untouched: torch itself sets `_backward_hooks` while it holds a view's autograd lock
# (rebasing its history after `ctx.mark_dirty`), and reading that tensor's grad_fn then
# would wait on the same lock for ever.
_RECORDED_SETTERS = frozenset({"__set__:data", "__set__:requires_grad", "__set__:grad"})
# Calls with a handler of their own (rare calls, each worth a look): name -> Recorder method.
_SPECIAL_CALLS = {
    "item": "_escape", "tolist": "_escape", "numpy": "_escape", "__float__": "_escape",
    "__int__": "_escape", "__index__": "_escape", "__array__": "_escape",
    "__get__:grad": "_grad_read",
    "_set_grad_enabled": "_grad_mode",
    "register_hook": "_hook_registered",
    "__set__:grad": "_grad_set",
    "tensor": "_no_event", "as_tensor": "_no_event",
}
_ZEROING = frozenset({"zero_", "_foreach_zero_"})
# Why an op's result stopped requiring grad, by op (with grad mode on).
_CUT_REASONS = {"detach": "detach", "detach_": "detach", "__get__:data": "data", "tensor": "copy",
                "as_tensor": "copy", "Tensor": "copy", "new_tensor": "copy"}
_INPLACE_DUNDERS = frozenset(
    "__iadd__ __isub__ __imul__ __itruediv__ __ifloordiv__ __imod__ __ipow__ __imatmul__ "
    "__iand__ __ior__ __ixor__ __ilshift__ __irshift__ __setitem__ __set__".split()
)
_BACKWARD_APIS = {
    _Tensor.backward: "Tensor.backward",
    torch.autograd.backward: "torch.autograd.backward",
    torch.autograd.grad: "torch.autograd.grad",
}

_CHECKPOINT_FILE = os.path.join("utils", "checkpoint.py")
_GRADCHECK_FILE = os.path.join("torch", "autograd", "gradcheck.py")
_COMPILE_HOOK_WARNING = r"Using `torch\.compile\(module\)` when there are global hooks on modules"
_VERSION_MISMATCH = "modified by an inplace operation"
_FREED = "backward through the graph a second time"
_NODE_NAME_IN_MESSAGE = re.compile(r"\b([A-Z]\w*Backward\d*)\b|Function '?(\w+)'? returned")

# Bounds on what is kept beyond the live graph (a long training loop must stay flat).
MAX_INPLACE_CHANGES = 4_096
MAX_BACKWARD_CALLS = 256
MAX_OP_FAILURES = 200
MAX_INTERNAL_ERRORS = 20
MAX_PINNED_GRAPHS = 10  # graphs of failing backward calls kept whole, for `gradscope graph`
MAX_EVENTS = 256  # graph cuts, escapes, .grad reads, hooks, stale links (deduplicated by line)
MAX_LINKERS = 4_096  # nodes that linked into freed graphs, watched for being carried further
GRAD_CHECK_STEPS = 3  # an optimizer's first steps on which every parameter's .grad is looked at


# A node record is a plain tuple of atoms: exact tuples are the only containers Python's GC
# stops tracking (a NamedTuple stays tracked), and a step makes tens of thousands of records.
# Fields, by index:
NID = 0  # the node's sequence number
NAME = 1  # its class, e.g. "MulBackward0"
OP = 2  # the torch call that made it
LOC = 3  # raw user location (code, offset)
SEQ = 4  # position in the shared event order
EPOCH = 5  # backward calls made before it was created
LATE = 6  # made by code we did not see; LOC is where it was first seen
MODULE = 7  # id of the innermost module call it was made in
NEXT_IDS = 8  # sequence numbers of its inputs' nodes
LEAF_IDS = 9  # leaves it accumulates into
SAVED = 10  # saved tensors, as tuples (see _saved_tensor)
HOOKED = 11  # its saved tensors were packed by saved_tensors_hooks: never read (see _add_record)


class _ModuleCall:
    """An nn.Module forward call in progress (on the thread's stack of calls)."""

    __slots__ = ("cid", "module_id")

    def __init__(self, cid, module_id):
        self.cid = cid
        self.module_id = module_id


class _TypeInfo:
    __slots__ = ("name", "is_accumulate", "saved_attrs", "defined_at")

    def __init__(self, node_type):
        self.name = node_type.__name__
        self.is_accumulate = self.name == "AccumulateGrad"
        attrs = [a for a in dir(node_type) if a.startswith("_saved_")]
        self.defined_at = None
        if issubclass(node_type, _BackwardCFunction):
            attrs.append("saved_tensors")
            self.defined_at = _definition_site(getattr(node_type, "_forward_cls", None))
        self.saved_attrs = tuple(attrs)


class _OptimizerState:
    """What gradscope remembers of one optimizer between its steps (no tensors: weak refs)."""

    __slots__ = ("ref", "name", "steps", "param_ids", "sample", "epoch", "zeroings", "reported")

    def __init__(self, optimizer):
        self.ref = weakref.ref(optimizer)
        self.name = type(optimizer).__name__
        self.steps = 0
        self.param_ids: set[int] = set()
        self.sample: list = []  # (param ref, grad ref) of a few parameters at the last step
        self.epoch = -1  # backward calls made before the last step
        self.zeroings = 0  # zero_ calls seen before the last step
        self.reported: set[str] = set()


class _LeafRecord:
    __slots__ = ("lid", "name", "kind", "shape", "dtype", "loc", "owner")

    def __init__(self, lid, kind, shape, dtype, loc, owner=None):
        self.lid = lid
        self.name = None
        self.kind = kind
        self.shape = shape
        self.dtype = dtype
        self.loc = loc
        self.owner = owner


def _op_name(func) -> str:
    name = getattr(func, "__name__", None)
    if name in ("__get__", "__set__"):
        owner = getattr(getattr(func, "__self__", None), "__name__", "")
        return f"{name}:{owner}" if owner else name
    return name or repr(func)


def _entry_label(frame) -> str | None:
    """'torch/optim/sgd.py:SGD.step' for the library frame a user line called into."""
    if frame is None:
        return None
    filename = frame.f_code.co_filename
    if filename.startswith(_TORCH_DIR):
        filename = filename[len(_TORCH_DIR):]
    return f"{filename}:{getattr(frame.f_code, 'co_qualname', frame.f_code.co_name)}"


class Recorder(TorchFunctionMode):
    """The recording session. Use `start()`/`stop()` around the user's program."""

    def __init__(self, keep_backwards: int = 4, max_nodes: int = 100_000, freeze_gc: bool = True,
                 check_nan: bool = False, grad_flow: tuple[str, ...] | None = None,
                 flow_thresholds: dict | None = None, flow_max_steps: int = 512):
        super().__init__()
        self.saw_compiled = False  # torch.compile traced code: its regions are not recorded
        self._flow = None  # --grad-flow: watch patterns given (empty: every module)
        self._flow_thresholds = dict(flow_thresholds or {})
        if grad_flow is not None:
            from .flow_recorder import FlowCollector

            self._flow = FlowCollector(self, tuple(grad_flow), max_steps=flow_max_steps)
        self.freeze_gc = freeze_gc
        self.check_nan = check_nan
        self._froze_gc = False
        self._warning_filter = None
        self._kinds: dict = {}
        self._zeroers: set = set()
        self._handlers: dict = {}  # special callable -> the method that records it
        self._op_names: dict = {}
        self._types: dict = {}
        self._signatures: dict = {}
        self._seq = itertools.count()
        self._leaf_ids = itertools.count(1)
        self._epoch = 0  # backward calls so far
        self.keep_backwards = keep_backwards
        self.max_nodes = max_nodes
        self._records: dict[int, tuple] = {}
        self._record_order: deque = deque()  # (epoch, nid) in creation order, for pruning
        self._freed: dict[int, int] = {}  # nid -> index of the backward call that released it
        self._ran: dict[int, int] = {}  # nid -> index of the first backward call that ran it
        # storage address -> how many recorded saved tensors live in it. An in-place write
        # elsewhere (optimizer state, a data buffer) cannot break a backward, so it is not
        # recorded: that keeps optimizer steps cheap.
        self._saved_storages: dict[int, int] = {}
        # The same, counting only records whose backward has not run (nor been found dead): a
        # write there may be a hazard even if no backward ever comes (see _check_hazard).
        self._pending_storages: dict[int, int] = {}
        self._settled: set[int] = set()  # nids no longer counted in _pending_storages
        self._saved_hazards: list[SavedHazard] = []
        self._hazard_sites: set = set()  # locations of changes found hazardous (never looked at again)
        self._pinned: dict[int, tuple] = {}
        self._leaves: dict[int, _LeafRecord] = {}
        self._leaf_index: dict[int, tuple] = {}
        self._pinned_leaves: set[int] = set()
        self._modules: list = []
        self._module_ids: set[int] = set()
        self._inplace: deque = deque(maxlen=MAX_INPLACE_CHANGES)
        self._backward_calls: deque = deque(maxlen=MAX_BACKWARD_CALLS)
        self._op_failures: deque = deque(maxlen=MAX_OP_FAILURES)
        self._failure_by_exc: dict[int, tuple] = {}
        self._internal_errors: list[str] = []
        self._threads = threading.local()  # per thread: the stack of module calls in progress
        # While an optimizer steps, its hundreds of small in-place ops are not looked at one by
        # one; the parameters' versions are compared once, before and after (see _on_step_end).
        self._stepping = None  # (optimizer, [(param, version)]) during optimizer.step()
        self._module_call_ids = itertools.count(1)
        self._module_calls: dict[int, tuple] = {}  # cid -> (module id, class name, parent cid)
        self._module_call_order: deque = deque()  # (epoch, cid), for pruning
        self._module_names: dict[int, str] = {}
        self._last_graph: list = []  # records of the last backward's graph, kept for drawing
        self._failed_graphs: deque = deque(maxlen=MAX_PINNED_GRAPHS)
        self._internal_error_count = 0
        self._hook_handles: list = []
        # Graph cuts: id(tensor) -> (weak ref, cut id) for results that descend from a cut.
        self._tainted: dict[int, tuple] = {}
        self._cuts: dict[int, GraphCut] = {}
        self._cut_keys: dict = {}
        self._cut_ids = itertools.count(1)
        self._grad_off = None  # (location, library entry) of the last switch to no-grad mode
        self._events: dict[str, dict] = {"escape": {}, "grad_read": {}, "hook": {}, "stale": {}, "revival": {}, "moved": {}}
        self._stale_epochs: dict = {}  # location of a stale link -> the last epoch it was seen in
        self._linkers: dict[int, tuple] = {}  # nid of a node that linked into a freed graph -> its location
        self._zeroings = 0
        self._optimizers: dict[int, _OptimizerState] = {}
        self._never_graded: dict[int, tuple] = {}  # leaf id -> (step site, optimizer, step)
        self._graded: set[int] = set()
        self._not_in_optimizer: dict[int, tuple] = {}
        self._hazards: list[GradHazard] = []
        self._nan_origins: list[NanOrigin] = []
        self._grad_resets: list[int] = []  # seq of each `.grad = None`

    # ------------------------------------------------------------------ life cycle
    def start(self) -> None:
        _allow_deep_graphs()
        # torch keeps a Python wrapper alive for every node we look at; without this, those
        # wrappers make the collector rescan all of torch's import-time objects about once per
        # training step (measured: the largest cost of recording a tiny-op loop).
        self._froze_gc = self.freeze_gc and gc.isenabled() and gc.get_freeze_count() == 0
        if self._froze_gc:
            gc.freeze()
        from torch.nn.modules import module as modules
        from torch.optim import optimizer as optimizers

        if not modules._has_any_global_hook():
            # torch warns on each call of a torch.compile'd module while any global module hook
            # exists; only gradscope's would, so that warning would not appear under Python.
            warnings.filterwarnings("ignore", message=_COMPILE_HOOK_WARNING, category=UserWarning)
            self._warning_filter = warnings.filters[0]
        try:
            for register, hook in [
                (modules.register_module_parameter_registration_hook, self._on_parameter),
                (modules.register_module_module_registration_hook, self._on_submodule),
                (modules.register_module_forward_pre_hook, self._on_module_enter),
                (functools.partial(modules.register_module_forward_hook, always_call=True), self._on_module_exit),
                (optimizers.register_optimizer_step_pre_hook, self._on_step_begin),
                (optimizers.register_optimizer_step_post_hook, self._on_step_end),
            ]:
                self._hook_handles.append(register(hook))
            self.__enter__()
        except BaseException:
            self._remove_hooks()
            raise

    def stop(self) -> None:
        try:
            self.__exit__(None, None, None)
        except Exception as exc:  # the user's own mode stack was left unbalanced
            self._internal(exc)
        self._remove_hooks()

    def _remove_hooks(self) -> None:
        for handle in self._hook_handles:
            handle.remove()
        self._hook_handles.clear()
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

    def _internal(self, exc: BaseException) -> None:
        self._internal_error_count += 1
        if len(self._internal_errors) < MAX_INTERNAL_ERRORS:
            where = traceback.extract_tb(exc.__traceback__)[-1:] if exc.__traceback__ else []
            place = f" (at {os.path.basename(where[0].filename)}:{where[0].lineno})" if where else ""
            self._internal_errors.append(f"{type(exc).__name__}: {exc}{place}")

    # ------------------------------------------------------------------ the hot path
    def __torch_function__(self, func, types, args=(), kwargs=None):
        __tracebackhide__ = True  # pytest: show the user's traceback as without gradscope
        if kwargs is None:
            kwargs = {}
        if _is_compiling():  # Dynamo is tracing: compiled regions are opaque to gradscope
            self.saw_compiled = True
            return func(*args, **kwargs)
        if self._stepping is not None:
            out = trampoline()(func, args, kwargs)
            grad_fn = _grad_fn(out) if type(out) is _Tensor and _is_grad_enabled() else None
            if grad_fn is not None and grad_fn is not UNREADABLE:
                # Building graph: the step is over (one that raised never calls its post hook).
                self._stepping = None
                self._note_outputs(func, out, args)
            return out
        try:
            kind = self._kinds[func]
        except KeyError:
            kind = self._classify(func)
        except TypeError:  # an unhashable callable: record nothing about it
            kind = _PLAIN
        if kind == _BACKWARD:
            return self._backward(func, args, kwargs)
        if kind == _SPECIAL:
            return self._special(func, args, kwargs)
        if kind == _PASS:  # torch calls it while changing a tensor's autograd state: hands off
            return trampoline()(func, args, kwargs)

        before = None
        if kind != _PLAIN or (kwargs and "out" in kwargs):
            try:
                before = self._versions_before(kind, args, kwargs)
            except Exception as exc:
                self._internal(exc)
        try:
            out = trampoline()(func, args, kwargs)
        except Exception as exc:
            self._op_failed(func, args, exc)
            raise
        try:
            if before:
                self._note_changes(func, before, args, kwargs)
            if type(out) is _Tensor:  # the common case: _note_tensor inlined (one call fewer per op)
                try:
                    grad_fn = out.grad_fn
                except RuntimeError:  # a view torch forbids to touch: nothing to record
                    return out
                if grad_fn is not None:
                    if grad_fn._sequence_nr() not in self._records:
                        self._new_nodes(grad_fn, func, args)
                elif out.requires_grad:
                    self._ensure_leaf(out)
                else:
                    self._maybe_cut(func, out, args)
            else:
                self._note_outputs(func, out, args)
        except Exception as exc:
            self._internal(exc)
        return out

    def _classify(self, func) -> int:
        name = getattr(func, "__name__", "")
        name = name if isinstance(name, str) else ""
        if name in _ZEROING:
            self._zeroers.add(func)
        op = _op_name(func)
        if func in _BACKWARD_APIS:
            kind = _BACKWARD
        elif name == "__set__" and op not in _RECORDED_SETTERS:
            kind = _PASS
        elif op in _SPECIAL_CALLS:
            kind = _SPECIAL
            self._handlers[func] = getattr(self, _SPECIAL_CALLS[op])
        elif name in _INPLACE_DUNDERS or (name.endswith("_") and not name.endswith("__")):
            kind = _MUTATING
        elif getattr(func, "__module__", None) == "torch.nn.functional":
            kind = _FUNCTIONAL  # may write in place (inplace=True, running stats, max_norm)
        else:
            kind = _PLAIN
        self._kinds[func] = kind
        return kind

    def _versions_before(self, kind, args, kwargs):
        tensors = [arg for arg in args if isinstance(arg, _Tensor)]
        if kind == _MUTATING:  # torch._foreach_*_ take lists
            for arg in args:
                if isinstance(arg, (list, tuple)):
                    tensors.extend(t for t in arg if isinstance(t, _Tensor))
        out = kwargs.get("out")
        if isinstance(out, _Tensor):
            tensors.append(out)
        elif isinstance(out, (list, tuple)):
            tensors.extend(t for t in out if isinstance(t, _Tensor))
        try:
            return [(t, t._version) for t in tensors]
        except RuntimeError:  # inference tensors have no version counter
            return [(t, t._version) for t in tensors if not t.is_inference()]

    def _note_outputs(self, func, out, args):
        if isinstance(out, _Tensor):
            self._note_tensor(func, out, args)
        elif type(out) is tuple or type(out) is list:
            for item in out:
                if isinstance(item, _Tensor):
                    self._note_tensor(func, item, args)
                elif type(item) is tuple:  # e.g. lstm's (output, (h, c))
                    for inner in item:
                        if isinstance(inner, _Tensor):
                            self._note_tensor(func, inner, args)

    def _note_tensor(self, func, tensor, args):
        grad_fn = _grad_fn(tensor)
        if grad_fn is UNREADABLE:
            return
        if grad_fn is not None:
            if grad_fn._sequence_nr() not in self._records:
                self._new_nodes(grad_fn, func, args)
        elif tensor.requires_grad:
            self._ensure_leaf(tensor)
        else:
            self._maybe_cut(func, tensor, args)

    # ------------------------------------------------------------------ graph cuts
    def _maybe_cut(self, func, out, args):
        """`out` does not require grad: if an input did (or descends from a cut), remember where.

        Runs only for results that do not require grad, and keeps nothing but weak references.
        """
        tainted = self._tainted
        source = cut = None
        for arg in args:
            if isinstance(arg, _Tensor):
                if arg.requires_grad:
                    source = arg
                    break
                if cut is None and tainted:
                    entry = tainted.get(id(arg))
                    if entry is not None and entry[0]() is arg:
                        cut = entry[1]
            elif (type(arg) is list or type(arg) is tuple) and arg and isinstance(arg[0], _Tensor):
                for item in arg:
                    if isinstance(item, _Tensor) and item.requires_grad:
                        source = item
                        break
                if source is not None:
                    break
        if source is not None:
            cut = self._cut(func, source, out)
        elif cut is None:
            if not _is_inference_enabled():
                return
            cut = self._cut(func, None, out)  # everything made under inference_mode is one
        self._taint(out, cut)

    def _cut(self, func, source, out, reason=None) -> int:
        stack = self._module_stack()
        module = stack[-1].module_id if stack else None
        if reason is None:
            if _is_inference_enabled():
                reason = "inference_mode"
            elif not _is_grad_enabled():
                reason = "no_grad"
        if reason in ("no_grad", "inference_mode") and module is not None:
            # One record per no-grad block and module: an eval loop must stay cheap.
            key = (reason, self._grad_off[0] if self._grad_off else None, module)
            found = self._cut_keys.get(key)
            if found is not None:
                return found
            loc = capture()[0]
        else:
            loc = capture()[0]
            if reason is None:
                name = _op_name(func)
                reason = _CUT_REASONS.get(name)
                if reason is None:
                    reason = "other" if (out.is_floating_point() or out.is_complex()) else "integer"
            key = (reason, loc)
            found = self._cut_keys.get(key)
            if found is not None:
                return found
        cid = next(self._cut_ids)
        grad_off = self._grad_off if reason == "no_grad" else None
        input_node = input_leaf = None
        if source is not None:
            grad_fn = _grad_fn(source)
            if grad_fn is not None:
                input_node = self._pin(self._record_of(grad_fn))
            else:
                input_leaf = self._leaf_id(source, None)
                self._pinned_leaves.add(input_leaf)
        self._cuts[cid] = GraphCut(
            id=cid, seq=next(self._seq), op=_op_name(func) if func is not None else "autograd.grad",
            site=loc, reason=reason, epoch=self._epoch,
            grad_off_site=grad_off[0] if grad_off else None, grad_off_via=grad_off[1] if grad_off else None,
            input_node=input_node, input_leaf=input_leaf, module=module)
        self._cut_keys[key] = cid
        if len(self._cuts) > MAX_EVENTS:  # forget the oldest
            oldest = next(iter(self._cuts))
            del self._cuts[oldest]
            self._cut_keys = {k: v for k, v in self._cut_keys.items() if v != oldest}
        return cid

    def _taint(self, tensor, cut) -> None:
        key = id(tensor)
        self._tainted[key] = (weakref.ref(tensor, functools.partial(self._untaint, key)), cut)

    def _untaint(self, key, ref):
        entry = self._tainted.get(key)
        if entry is not None and entry[0] is ref:
            del self._tainted[key]

    def _cut_of(self, tensor) -> int | None:
        entry = self._tainted.get(id(tensor))
        if entry is not None and entry[0]() is tensor:
            return entry[1]
        return None

    def _is_data_alias(self, tensor) -> bool:
        """Written through `.data` (or a view of it): a write torch's version check cannot see."""
        for candidate in (tensor, tensor._base):
            if candidate is not None:
                cut = self._cuts.get(self._cut_of(candidate))
                if cut is not None and cut.reason == "data":
                    return True
        return False

    # ------------------------------------------------------------------ calls with their own handler
    def _special(self, func, args, kwargs):
        __tracebackhide__ = True
        handler = self._handlers[func]
        try:
            out = trampoline(3)(func, args, kwargs)
        except Exception as exc:
            self._op_failed(func, args, exc)
            raise
        try:
            handler(func, args, out)
            self._note_outputs(func, out, args)
        except Exception as exc:
            self._internal(exc)
        return out

    def _no_event(self, func, args, out):
        pass

    def _grad_set(self, func, args, out):
        if len(args) > 1 and args[1] is None and len(self._grad_resets) < MAX_EVENTS:
            self._grad_resets.append(next(self._seq))

    def _event(self, kind: str, make, loc=None) -> None:
        """Record one event per user line (and kind); `make(loc)` builds it."""
        if loc is None:
            loc = capture()[0]
        events = self._events[kind]
        if loc not in events and len(events) < MAX_EVENTS:
            events[loc] = make(loc)

    def _escape(self, func, args, out):
        tensor = args[0] if args else None
        if isinstance(tensor, _Tensor) and tensor.requires_grad:
            node = self._record_of(_grad_fn(tensor))
            self._event("escape", lambda loc: Escape(next(self._seq), _op_name(func), loc, self._epoch,
                                                     self._pin(node)))

    def _grad_read(self, func, args, out):
        tensor = args[0] if args else None
        if out is not None or not isinstance(tensor, _Tensor):
            return
        grad_fn = _grad_fn(tensor)
        if grad_fn is None:
            leaf = self._leaf_id(tensor, None) if tensor.requires_grad else None
            if leaf is not None:
                self._pinned_leaves.add(leaf)
            self._event("grad_read", lambda loc: GradRead(next(self._seq), loc, True, leaf=leaf))
        elif grad_fn is not UNREADABLE and not tensor.retains_grad:
            node = self._record_of(grad_fn)
            self._event("grad_read", lambda loc: GradRead(next(self._seq), loc, False, node=self._pin(node)))

    def _grad_mode(self, func, args, out):
        if args and args[0] is False:
            where = capture()
            via = _entry_label(where[1])
            frame = sys._getframe(1)
            while frame is not None:  # a reentrant checkpoint turns grad off under a few wrappers
                if frame.f_code.co_filename.endswith(_CHECKPOINT_FILE):
                    via = "torch/utils/checkpoint.py"
                    break
                frame = frame.f_back
            del frame
            self._grad_off = (where[0], via)

    def _hook_registered(self, func, args, out):
        hook = args[1] if len(args) > 1 else None
        name = getattr(hook, "__name__", type(hook).__name__)
        self._event("hook", lambda loc: HookRegistration(next(self._seq), name, loc, _definition_site(hook)))

    # ------------------------------------------------------------------ nodes
    def _type_info(self, node_type) -> _TypeInfo:
        info = self._types.get(node_type)
        if info is None:
            info = self._types[node_type] = _TypeInfo(node_type)
        return info

    def _new_nodes(self, root, func, args, loc=None) -> tuple:
        """Record `root` and every unrecorded node behind it; return the root's record."""
        if loc is None:
            loc = capture()[0]
        try:
            op = self._op_names[func]
        except KeyError:
            op = self._op_names[func] = _op_name(func)
        except TypeError:  # an unhashable callable
            op = _op_name(func)
        try:
            stack = self._threads.stack
        except AttributeError:
            stack = self._module_stack()
        module = stack[-1].cid if stack else None
        records, types, freed, linkers = self._records, self._types, self._freed, self._linkers
        root_nid = root._sequence_nr()
        found = {root_nid: (root, False, [], [])}  # nid -> (node, late, next ids, leaf ids)
        todo = [root_nid]
        inputs = None  # grad_fns of the call's tensor inputs, found only if needed
        while todo:
            nid = todo.pop()
            node, late, next_ids, leaf_ids = found[nid]
            for next_node, _ in node.next_functions:
                if next_node is None:
                    continue
                info = types.get(type(next_node))
                if info is None:
                    info = self._type_info(type(next_node))
                if info.is_accumulate:
                    leaf_ids.append(self._leaf_of_accumulator(next_node))
                    continue
                child = next_node._sequence_nr()
                next_ids.append(child)
                if child in records:
                    if child in freed:  # reaches into a graph a backward already ran
                        self._stale_link(op, loc, child, nid)
                    elif linkers and child in linkers:
                        self._linker_extended(child)
                    continue
                if child in found:
                    continue
                # Unrecorded: made inside this same call (linear's transpose, say) or by code we
                # did not see (a custom Function's apply): the latter is an input's grad_fn.
                if inputs is None:
                    inputs = _input_grad_fns(args)
                found[child] = (next_node, late or any(next_node is g for g in inputs), [], [])
                todo.append(child)
        # Saved tensors last: a saved input made inside this call (linear's weight.t()) has
        # its producer known only now.
        for nid, (node, late, next_ids, leaf_ids) in found.items():
            self._add_record(node, nid, op, loc, late, module, tuple(next_ids), tuple(leaf_ids))
        root_record = records[root_nid]
        if len(records) > self.max_nodes:  # a loop that never calls backward (evaluation)
            self._prune()
        return root_record

    def _note_hidden_save(self, view, record) -> None:
        """An in-place op on a view keeps its own backward (which usually saves the view) inside
        CopySlices, out of Python's reach. Remember the view's memory as saved by the CopySlices
        node, so later writes to it are logged and a version error can be traced to them."""
        nid = next((n for n in [record[NID], *record[NEXT_IDS]]
                    if self._records.get(n, (None, ""))[NAME] == "CopySlices"), None)
        if nid is None:
            return
        base = self._records[nid]
        hidden = ("(inside CopySlices)", _shape_of(view), view.dtype, view.device, view._version,
                  _storage_key(view), None, None)
        self._records[nid] = base[:SAVED] + (base[SAVED] + (hidden,),) + base[SAVED + 1:]
        for counts in (self._saved_storages, self._pending_storages):
            counts[hidden[5]] = counts.get(hidden[5], 0) + 1

    def _stale_link(self, op, loc, old_nid, new_nid) -> None:
        if len(self._linkers) < MAX_LINKERS:
            self._linkers[new_nid] = loc
        seen = self._events["stale"].get(loc)
        if seen is not None:
            if self._stale_epochs.get(loc) != self._epoch:  # the same line, in a later iteration
                self._stale_epochs[loc] = self._epoch
                seen.repeats += 1
            return
        self._stale_epochs[loc] = self._epoch
        self._event("stale", lambda at: StaleLink(next(self._seq), op, at, self._epoch,
                                                  self._pin(self._records.get(old_nid))), loc)

    def _linker_extended(self, nid) -> None:
        """A node that linked into a freed graph is an input of a new one. Made in an earlier
        iteration (before the last backward call), the value holding those old graphs survived
        into this one and keeps growing (`total += loss`); a value made and consumed within one
        step (a logged sum of two losses) never is."""
        record = self._records.get(nid)
        if record is None or record[EPOCH] >= self._epoch:
            return
        event = self._events["stale"].get(self._linkers.pop(nid))
        if event is not None:
            event.carried += 1

    def _add_record(self, node, nid, op, loc, late, module, next_ids=(), leaf_ids=()) -> tuple:
        info = self._types.get(type(node)) or self._type_info(type(node))
        saved, hooked = (), False
        if info.saved_attrs:
            # Saved tensors packed by saved_tensors_hooks (activation checkpointing, CPU offload)
            # unpack through those hooks, which would run the user's code again (checkpoint
            # recomputes its function): such a node's saved tensors stay unread.
            hooked = _saved_tensors_hooks_now(False) is not None or (late and _packed_by_hooks(node, info.saved_attrs))
            if not hooked:
                saved = self._read_saved(node, info.saved_attrs)
        record = (nid, info.name, op, loc, next(self._seq), self._epoch, late, module, next_ids, leaf_ids, saved,
                  hooked)
        self._records[nid] = record
        storages, pending = self._saved_storages, self._pending_storages
        for tensor in saved:
            key = tensor[5]
            storages[key] = storages.get(key, 0) + 1
            pending[key] = pending.get(key, 0) + 1
        self._record_order.append((self._epoch, nid))
        if _is_anomaly_enabled():
            _hide_gradscope_frames(node.metadata)
        if self.check_nan and not self._nan_origins:
            node.register_hook(functools.partial(self._check_finite, nid))
        return record

    def _check_finite(self, nid, grad_inputs, grad_outputs):
        """--check-nan: note the first node whose gradients turn non-finite from finite ones."""
        if self._nan_origins:
            return
        try:
            with torch._C.DisableTorchFunction():
                if any(g is not None and not bool(torch.isfinite(g).all()) for g in grad_outputs):
                    return  # it only passed on what it was given
                for index, grad in enumerate(grad_inputs):
                    if grad is not None and not bool(torch.isfinite(grad).all()):
                        value = "nan" if bool(torch.isnan(grad).any()) else "inf"
                        self._pin(self._records.get(nid))
                        self._nan_origins.append(NanOrigin(nid, index, value, self._epoch - 1))
                        return
        except Exception as exc:
            self._internal(exc)

    def _leaf_of_accumulator(self, node) -> int | None:
        variable = node.variable
        entry = self._leaf_index.get(id(variable))
        if entry is not None and entry[0]() is variable:
            return entry[1]
        return self._leaf_id(variable, None)

    def _read_saved(self, node, attrs) -> tuple:
        saved = []
        for attr in attrs:
            try:
                value = getattr(node, attr)
            except Exception:  # already stale or freed: nothing to learn
                continue
            if isinstance(value, _Tensor):
                saved.append(self._saved_tensor(attr, value))
            elif isinstance(value, (list, tuple)):
                for i, item in enumerate(value):
                    if isinstance(item, _Tensor):
                        saved.append(self._saved_tensor(f"{attr}[{i}]", item))
        return tuple(saved)

    def _saved_tensor(self, attr, tensor) -> tuple:
        producer_node = producer_leaf = None
        grad_fn = _grad_fn(tensor)
        if grad_fn is None:
            if tensor.requires_grad:
                producer_leaf = self._leaf_id(tensor, None)
        elif grad_fn is not UNREADABLE:
            producer_node = grad_fn._sequence_nr()
        return (attr, _shape_of(tensor), tensor.dtype, tensor.device, tensor._version,
                _storage_key(tensor), producer_node, producer_leaf)

    def _record_of(self, node, loc=None) -> tuple | None:
        """The record of a node met in a graph walk, recording it (as seen late) if new."""
        if node is None or node is UNREADABLE:
            return None
        info = self._types.get(type(node)) or self._type_info(type(node))
        if info.is_accumulate:
            return None
        nid = node._sequence_nr()
        record = self._records.get(nid) or self._pinned.get(nid)
        if record is not None and record[NAME] == info.name:
            return record
        with torch._C.DisableTorchFunction():  # its saved tensors may be stale views: see _unpacking_fails
            return self._add_record(node, nid, "?", loc, True, None,
                                    tuple(n._sequence_nr() for n, _ in node.next_functions if n is not None))

    def _pin(self, record: tuple | None) -> int | None:
        """Keep a record (and the records of its saved tensors' producers) past pruning."""
        if record is None:
            return None
        self._pinned[record[NID]] = record
        for saved in record[SAVED]:
            producer = self._records.get(saved[6]) if saved[6] is not None else None
            if producer is not None:
                self._pinned[producer[NID]] = producer
            if saved[7] is not None:
                self._pinned_leaves.add(saved[7])
        return record[NID]

    def _prune(self) -> None:
        """Forget nodes older than the last `keep_backwards` backward calls, and beyond `max_nodes`."""
        order, records, freed, settled = self._record_order, self._records, self._freed, self._settled
        oldest_epoch = self._epoch - self.keep_backwards
        storages = self._saved_storages
        while order and (order[0][0] < oldest_epoch or len(records) > self.max_nodes):
            _, nid = order.popleft()
            record = records.pop(nid, None)
            freed.pop(nid, None)
            if self._linkers:
                self._linkers.pop(nid, None)
            self._ran.pop(nid, None)
            if record is None:
                continue
            if nid in settled:
                settled.discard(nid)
            else:
                _uncount(self._pending_storages, record)
            _uncount(storages, record)
        calls = self._module_call_order
        while calls and (calls[0][0] < oldest_epoch or len(calls) > self.max_nodes):
            self._module_calls.pop(calls.popleft()[1], None)
        # An in-place change older than every saved tensor we still know cannot explain one.
        oldest = next((records[nid][SEQ] for _, nid in order if nid in records), None)
        kept = [oldest] if oldest is not None else []
        kept += [record[SEQ] for record in self._pinned.values()]
        changes = self._inplace
        while changes and (not kept or changes[0].seq < min(kept)):
            changes.popleft()

    # ------------------------------------------------------------------ leaves
    def _leaf_id(self, tensor, loc, kind=None, owner=None) -> int:
        key = id(tensor)
        entry = self._leaf_index.get(key)
        if entry is not None and entry[0]() is tensor:
            return entry[1]
        lid = next(self._leaf_ids)
        if kind is None:
            kind = "parameter" if isinstance(tensor, torch.nn.Parameter) else "tensor"
        self._leaves[lid] = _LeafRecord(lid, kind, _shape_of(tensor), tensor.dtype, loc, owner)
        ref = weakref.ref(tensor, functools.partial(self._leaf_died, key, lid))
        self._leaf_index[key] = (ref, lid)
        return lid

    def _ensure_leaf(self, tensor) -> None:
        """Note a leaf that requires grad, capturing where it was made only the first time."""
        entry = self._leaf_index.get(id(tensor))
        if entry is None or entry[0]() is not tensor:
            self._leaf_id(tensor, capture()[0])

    def _leaf_died(self, key, lid, _ref):
        entry = self._leaf_index.get(key)
        if entry is not None and entry[1] == lid:
            del self._leaf_index[key]
        if lid not in self._pinned_leaves:
            self._leaves.pop(lid, None)

    def _remember_module(self, module) -> None:
        if id(module) not in self._module_ids:
            self._module_ids.add(id(module))
            self._modules.append(weakref.ref(module, functools.partial(self._module_died, id(module))))

    def module_name(self, module) -> str | None:
        """A module's path from its root model ("encoder.0"; "" for the model itself)."""
        name = self._module_names.get(id(module))
        if name is None:
            self.name_parameters()
            name = self._module_names.get(id(module))
        return name

    def module_name_by_id(self, module_id: int) -> str | None:
        return self._module_names.get(module_id)

    def _live_modules(self) -> list:
        return [m for m in (ref() for ref in self._modules) if m is not None]

    def _module_died(self, key, _ref):
        self._module_ids.discard(key)
        self._module_names.pop(key, None)  # its id may be reused by a new module

    def _module_stack(self) -> list:
        try:
            return self._threads.stack
        except AttributeError:
            stack = self._threads.stack = []
            return stack

    def _on_module_enter(self, module, args):
        if _is_compiling():
            return
        try:
            stack = self._module_stack()
            cid = next(self._module_call_ids)
            self._module_calls[cid] = (id(module), type(module).__name__, stack[-1].cid if stack else None)
            self._module_call_order.append((self._epoch, cid))
            stack.append(_ModuleCall(cid, id(module)))
            self._remember_module(module)
        except Exception as exc:
            self._internal(exc)

    def _on_module_exit(self, module, args, output):
        if _is_compiling():
            return
        try:
            stack = self._module_stack()
            while stack:  # also unwinds calls that an exception cut short
                if stack.pop().module_id == id(module):
                    break
            if self._flow is not None:
                self._flow.module_output(module, output)
        except Exception as exc:
            self._internal(exc)

    def _on_step_begin(self, optimizer, args, kwargs):
        try:
            params = [p for group in optimizer.param_groups for p in group["params"] if isinstance(p, _Tensor)]
            self._stepping = (optimizer, [(p, p._version) for p in params])
        except Exception as exc:
            self._stepping = None
            self._internal(exc)
            return
        try:  # our own torch calls below run while _stepping is set: the hot path lets them through
            self._check_gradients(optimizer, params)
        except Exception as exc:
            self._internal(exc)

    def _check_gradients(self, optimizer, params) -> None:
        """Silent gradient hazards, looked at once per optimizer step (never per op)."""
        state = self._optimizers.get(id(optimizer))
        if state is None or state.ref() is not optimizer:
            state = self._optimizers[id(optimizer)] = _OptimizerState(optimizer)
        state.steps += 1
        if state.steps <= GRAD_CHECK_STEPS:
            state.param_ids.update(id(p) for p in params)
        with_grad = [p for p in params if p.grad is not None]
        site = None

        def step_site():
            nonlocal site
            if site is None:
                site = capture()[0]
            return site

        # Gradients not reset since the last step: the same .grad tensors, no zero_ in between.
        if (state.sample and self._epoch > state.epoch and self._zeroings == state.zeroings
                and "not-zeroed" not in state.reported
                and all(p() is not None and g() is not None and p().grad is g() for p, g in state.sample)):
            state.reported.add("not-zeroed")
            self._hazards.append(GradHazard("not-zeroed", [self._leaf_id(p(), None) for p, _ in state.sample],
                                            step_site(), state.name, state.steps))
        state.sample = [(weakref.ref(p), weakref.ref(p.grad)) for p in with_grad[:3]]
        state.epoch, state.zeroings = self._epoch, self._zeroings

        if with_grad and "nonfinite" not in state.reported:
            dense = [p.grad for p in with_grad if p.grad.layout == torch.strided]
            if dense and not bool(torch.isfinite(torch.stack(torch._foreach_norm(dense))).all()):
                bad = [p for p in with_grad if not bool(torch.isfinite(p.grad).all())]
                state.reported.add("nonfinite")
                self._hazards.append(GradHazard("nonfinite", [self._leaf_id(p, None) for p in bad[:8]],
                                                step_site(), state.name, state.steps))

        if state.steps <= GRAD_CHECK_STEPS and with_grad:
            for p in params:
                if p.grad is not None:
                    self._graded.add(self._leaf_id(p, None))
                elif p.requires_grad:
                    self._never_graded.setdefault(self._leaf_id(p, None), (step_site(), state.name, state.steps))
            known = set().union(*(s.param_ids for s in self._optimizers.values()))
            for module in self._live_modules():
                for p in module.parameters(recurse=False):
                    if p.grad is not None and id(p) not in known:
                        self._not_in_optimizer.setdefault(self._leaf_id(p, None), (step_site(), state.name, state.steps, id(p)))

    def _on_step_end(self, optimizer, args, kwargs):
        stepping, self._stepping = self._stepping, None
        try:
            if stepping is None or stepping[0] is not optimizer:
                return
            where = None
            for param, version in stepping[1]:
                if param._version == version:
                    continue
                storage = _storage_key(param)
                if storage not in self._saved_storages:
                    continue
                if where is None:
                    where = capture()
                change = InplaceChange(
                    seq=next(self._seq), op=f"{type(optimizer).__name__}.step", site=where[0],
                    storage=storage, shape=_shape_of(param), version_before=version,
                    version_after=param._version, grad_enabled=False,
                    leaf=self._leaf_id(param, None), via=_entry_label(where[1]) or "torch/optim/optimizer.py")
                self._inplace.append(change)
                if storage in self._pending_storages:
                    self._check_hazard(change)
        except Exception as exc:
            self._internal(exc)

    def _on_parameter(self, module, name, param):
        try:
            self._remember_module(module)
            if param is not None:
                self._leaf_id(param, capture()[0], "parameter", f"{type(module).__name__}.{name}")
        except Exception as exc:
            self._internal(exc)

    def _on_submodule(self, module, name, submodule):
        """A container (Sequential, ModuleList) may never run forward itself: know it from its
        children, so that parameters are named by their path in the model."""
        try:
            self._remember_module(module)
        except Exception as exc:
            self._internal(exc)

    def name_parameters(self) -> None:
        """Name parameters and modules by their path ("encoder.0.weight"), from the modules alive now."""
        modules = self._live_modules()
        self._modules = [weakref.ref(m, functools.partial(self._module_died, id(m))) for m in modules]
        for root in _roots(modules):
            for name, module in root.named_modules(remove_duplicate=False):
                known = self._module_names.get(id(module))
                if known is None or len(name) < len(known):
                    self._module_names[id(module)] = name
            for name, param in root.named_parameters(remove_duplicate=False):
                entry = self._leaf_index.get(id(param))
                if entry is not None and entry[0]() is param:
                    record = self._leaves.get(entry[1])
                    if record is not None and (record.name is None or len(name) < len(record.name)):
                        record.name = name

    # ------------------------------------------------------------------ in-place changes
    def _note_changes(self, func, before, args, kwargs):
        if func in self._zeroers:
            self._zeroings += 1
        where = None  # captured once per call, and only if a write matters
        for tensor, version in before:
            if tensor._version == version:
                continue
            storage = _storage_key(tensor)
            grad_fn = _grad_fn(tensor)
            if storage in self._saved_storages:  # memory a recorded backward needs: log the write
                if where is None:
                    where = capture()
                change = self._log_change(func, tensor, grad_fn, storage, version, where, kwargs)
                if storage in self._pending_storages or change.bypasses_version:
                    self._check_hazard(change)
            # An in-place op gives a non-leaf a new grad_fn (CopySlices for x[i] = ...).
            if grad_fn is not None and grad_fn is not UNREADABLE and grad_fn._sequence_nr() not in self._records:
                record = self._new_nodes(grad_fn, func, args, where[0] if where else None)
                if tensor._base is not None:
                    self._note_hidden_save(tensor, record)
                entry = self._leaf_index.get(id(tensor))
                if entry is not None and entry[0]() is tensor:  # it was a leaf a graph may hold
                    self._pinned_leaves.add(entry[1])
                    self._event("moved", lambda loc: LeafMoved(next(self._seq), _op_name(func), loc, entry[1]))
        first = args[0] if args else None
        if isinstance(first, _Tensor) and first.requires_grad and _grad_fn(first) is None:
            self._ensure_leaf(first)  # requires_grad_() / .requires_grad = True
            cut = self._cut_of(first) if self._tainted else None
            if cut is not None and self._cuts[cut].reason not in ("inference_mode",):
                self._event("revival", lambda loc: Revival(next(self._seq), loc, cut))

    def _log_change(self, func, tensor, grad_fn, storage, version, where, kwargs) -> InplaceChange:
        loc, entry = where
        leaf = None
        if grad_fn is None and tensor.requires_grad:
            leaf = self._leaf_id(tensor, None)
        else:
            base = tensor._base
            if base is not None and base.requires_grad and _grad_fn(base) is None:
                leaf = self._leaf_id(base, None)
        change = InplaceChange(
            seq=next(self._seq), op=_op_name(func), site=loc, storage=storage,
            shape=_shape_of(tensor), version_before=version, version_after=tensor._version,
            grad_enabled=_is_grad_enabled(), leaf=leaf, via=_entry_label(entry),
            inplace_kwarg=kwargs.get("inplace") is True,
            bypasses_version=bool(self._tainted) and self._is_data_alias(tensor),
        )
        self._inplace.append(change)
        return change

    # ------------------------------------------------------------------ hazards
    def _check_hazard(self, change: InplaceChange) -> None:
        """A write hit memory saved by a node whose backward has not run: is that node alive, and
        would its backward now fail? Asked of torch itself, so torch's own exceptions (a node
        already run, `allow_mutation_on_saved_tensors`, saved-tensor hooks) are exceptions here too.

        Rare (the write must hit a not-yet-run graph), so it may cost: one scan of the objects
        made since recording began, which finds every live node and settles the dead ones.
        """
        if change.site in self._hazard_sites:
            return  # a line already found hazardous is not looked at again: loops stay cheap
        if _inside_gradcheck():
            return  # gradcheck's own perturbations of its inputs, undone before it differentiates
        records, settled, freed = self._records, self._settled, self._freed
        # Nodes whose backward has not run; for a silent write also those of a retained graph
        # that has run but may run again (it keeps its saved tensors).
        candidates = [r for nid, r in records.items()
                      if (nid not in settled or (change.bypasses_version and nid not in freed))
                      and any(s[5] == change.storage for s in r[SAVED])]
        if not candidates:
            return
        live = self._live_nodes()

        def node_of(record):  # the live node a record describes (sequence numbers repeat across threads)
            node = live.get(record[NID])
            return node if node is not None and type(node).__name__ == record[NAME] else None

        for nid, record in list(records.items()):
            if nid not in settled and node_of(record) is None:
                settled.add(nid)  # its node is gone: nothing can run its backward any more
                _uncount(self._pending_storages, record)
        reported = set()  # one hazard per saving line and attribute (two blocks built on one line)
        for record in candidates:
            node = node_of(record)
            if node is None:
                continue
            for saved in record[SAVED]:
                key = (record[LOC], saved[0])
                if saved[5] != change.storage or key in reported or len(self._saved_hazards) >= MAX_EVENTS:
                    continue
                state = _unpack(node, saved[0], change.storage)
                # A silent write (through `.data`, or any alias with its own version counter) has no
                # torch check to confirm it: the saved memory changed and torch will not notice.
                # torch's own library code (gradcheck's perturbations) does so on purpose and puts
                # the values back, so only the program's writes count.
                silent = state == "same memory" and not (change.via or "").startswith("torch/")
                if state == "stale" or silent:
                    reported.add(key)
                    self._hazard_sites.add(change.site)
                    self._saved_hazards.append(SavedHazard(change, self._pin(record), saved[0], silent=silent))

    def _live_nodes(self) -> dict:
        """nid -> node, for every node of a known type still alive.

        A node's Python wrapper lives exactly as long as the node once made (every recorded node
        had one made), and was made after `import torch`: outside gc.freeze()'s permanent set.
        """
        types, live = self._types, {}
        for generation in range(3):
            for obj in gc.get_objects(generation):
                if type(obj) in types:
                    try:
                        live[obj._sequence_nr()] = obj
                    except Exception:
                        continue
        return live

    # ------------------------------------------------------------------ failing ops
    def _op_failed(self, func, args, exc):
        try:
            loc = capture()[0]
            tensors = [self._describe(a) for a in args[:4] if isinstance(a, _Tensor)]
            failure = OpFailure(
                seq=next(self._seq), op=_op_name(func), site=loc,
                error=ErrorInfo(type(exc).__name__, str(exc)), tensors=tensors,
                grad_enabled=_is_grad_enabled(),
            )
            self._op_failures.append(failure)
            self._failure_by_exc[id(exc)] = ("op", failure)
            self.name_parameters()
        except Exception as inner:
            self._internal(inner)

    def _describe(self, tensor) -> TensorArg:
        leaf = base_leaf = node = None
        grad_fn = _grad_fn(tensor)
        if tensor.requires_grad and grad_fn is None:
            leaf = self._leaf_id(tensor, None)
            self._pinned_leaves.add(leaf)
        base = tensor._base
        if base is not None and base.requires_grad and _grad_fn(base) is None:
            base_leaf = self._leaf_id(base, None)
            self._pinned_leaves.add(base_leaf)
        if grad_fn is not None:
            node = self._pin(self._record_of(grad_fn))
        cut = self._cut_of(tensor)
        if cut is None and base is not None:
            cut = self._cut_of(base)
        return TensorArg(_shape_of(tensor), tensor.requires_grad, grad_fn is None, leaf, base_leaf, node,
                         dtype=_dtype_name(tensor.dtype), cut=cut, inference=tensor.is_inference())

    # ------------------------------------------------------------------ backward calls
    def _backward(self, func, args, kwargs):
        __tracebackhide__ = True
        try:
            call, roots, outputs, inputs = self._begin_backward(func, args, kwargs)
        except Exception as exc:
            self._internal(exc)
            return trampoline(3)(func, args, kwargs)
        try:
            result = trampoline(3)(func, args, kwargs)
        except Exception as exc:
            try:
                call.outputs = [self._describe(t) for t in outputs[:8] if isinstance(t, _Tensor)]
                call.inputs = [self._describe(t) for t in inputs[:16] if isinstance(t, _Tensor)]
                self._backward_failed(call, roots, exc)
                self._prune()
                if self._flow is not None:
                    self._flow.forget()
            except Exception as inner:
                self._internal(inner)
            raise
        try:
            marked = self._mark_run(call.roots, call.index, frees=not call.retain_graph)
            if not call.retain_graph:
                call.freed_nodes = marked
            if call.index < GRAD_CHECK_STEPS and call.api != "torch.autograd.grad":
                self._check_graded(call)
            if self._flow is not None and call.api != "torch.autograd.grad":
                self._flow.after_backward(call.index, _roots(self._live_modules()))
            elif self._flow is not None:
                self._flow.forget()
            if call.api == "torch.autograd.grad" and not call.create_graph:
                # Gradients made without create_graph=True are constants to autograd.
                for grad in result:
                    if isinstance(grad, _Tensor) and not grad.requires_grad and _grad_fn(grad) is None:
                        self._taint(grad, self._cut(None, None, grad, reason="grad_result"))
            self._prune()
        except Exception as exc:
            self._internal(exc)
        return result

    def _begin_backward(self, func, args, kwargs):
        signature = self._signatures.get(func)
        if signature is None:
            signature = self._signatures[func] = inspect.signature(func)
        bound = signature.bind_partial(*args, **kwargs).arguments
        outputs = bound.get("self", bound.get("tensors", bound.get("outputs")))
        outputs = [outputs] if isinstance(outputs, _Tensor) else list(outputs or ())
        inputs = bound.get("inputs")
        inputs = [inputs] if isinstance(inputs, _Tensor) else list(inputs or ())
        create_graph = bool(bound.get("create_graph", False))
        retain_graph = bound.get("retain_graph")
        loc = capture()[0]
        roots, root_ids = [], []
        for tensor in outputs:
            grad_fn = _grad_fn(tensor) if isinstance(tensor, _Tensor) else None
            if grad_fn is not None and grad_fn is not UNREADABLE:
                roots.append(grad_fn)
                record = self._record_of(grad_fn, loc)
                if record is not None:
                    root_ids.append(record[NID])
        call = BackwardCall(
            index=self._epoch, api=_BACKWARD_APIS[func], site=loc, seq=next(self._seq),
            retain_graph=create_graph if retain_graph is None else bool(retain_graph),
            create_graph=create_graph, roots=root_ids,
        )
        self._epoch += 1
        self._backward_calls.append(call)
        return call, roots, outputs, inputs

    def _walk(self, roots):
        """Yield (node, parent record) over a graph, each node once, AccumulateGrad skipped."""
        seen, keep_alive = set(), []
        stack = [(node, None) for node in roots]
        while stack:
            node, parent = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            keep_alive.append(node)  # ids stay unique only while the wrappers live
            descend = yield node, parent
            if descend is False:
                continue
            record = self._record_of(node)
            for next_node, _ in node.next_functions:
                if next_node is not None and not self._type_info(type(next_node)).is_accumulate:
                    stack.append((next_node, record))

    def _mark_run(self, root_ids, call_index, frees: bool) -> int:
        """Settle the nodes this call ran (their saved tensors may change now); if it released
        them (no retain_graph), mark them freed and keep them as the last graph to draw.

        Walks our records' `next_ids` (plain ints), not torch's nodes: a tenth of the cost.
        """
        records, freed, settled, pending, ran = self._records, self._freed, self._settled, self._pending_storages, self._ran
        done = freed if frees else settled
        graph = []
        stack = list(root_ids)
        while stack:
            nid = stack.pop()
            if nid in done:
                continue  # already marked, and so is everything behind it
            record = records.get(nid)
            if record is None:
                continue
            if frees:
                freed[nid] = call_index
            ran.setdefault(nid, call_index)
            if nid not in settled:
                settled.add(nid)
                _uncount(pending, record)
            graph.append(record)
            stack.extend(record[NEXT_IDS])
        if frees:
            self._last_graph = graph
        return len(graph)

    def _backward_failed(self, call, roots, exc):
        message = str(exc)
        call.error = ErrorInfo(type(exc).__name__, message)
        self._failure_by_exc[id(exc)] = ("backward", call)
        if "does not require grad" in message:
            call.trainable_params, call.total_params = self._count_parameters()
        if _VERSION_MISMATCH in message:
            call.version_failure = self._find_stale_saved(roots, message)
        elif _FREED in message:
            call.freed_failures = self._find_freed(roots, call.index)
        else:
            call.failed_node = self._find_named_node(roots, message)
        for nid in call.roots:
            self._pin(self._records.get(nid))
        # Keep the whole failing graph for `gradscope graph`, even after the program drops it.
        self._failed_graphs.append([r for r in (self._record_of(n) for n, _ in self._walk(roots)) if r])
        self.name_parameters()

    def _check_graded(self, call) -> None:
        """After one of the first backward calls: parameters left with .grad None while others of
        the same model got one (without an optimizer, the step checks never run)."""
        for root in _roots(self._live_modules()):
            params = [p for p in root.parameters() if p.requires_grad]
            if not any(p.grad is not None for p in params):
                continue
            for p in params:
                if p.grad is not None:
                    self._graded.add(self._leaf_id(p, None))
                else:
                    self._never_graded.setdefault(self._leaf_id(p, None), (call.site, "backward", call.index + 1))

    def _count_parameters(self) -> tuple[int, int]:
        seen, trainable = set(), 0
        for module in self._live_modules():
            for param in module.parameters(recurse=False):
                if id(param) not in seen:
                    seen.add(id(param))
                    trainable += bool(param.requires_grad)
        return trainable, len(seen)

    def _find_stale_saved(self, roots, message):
        found = re.search(r"is at version (\d+); expected version (\d+)", message)
        current, expected = (int(found.group(1)), int(found.group(2))) if found else (-1, -1)
        for node, _ in self._walk(roots):
            if self._hooked(node):
                continue  # unpacking would run the hooks (a checkpoint's recomputation)
            for attr in self._type_info(type(node)).saved_attrs:
                try:
                    with torch._C.DisableTorchFunction():  # see _unpacking_fails
                        getattr(node, attr)
                except RuntimeError as err:
                    if str(err) == message:
                        nid = self._pin(self._record_of(node))
                        return VersionFailure(nid, attr, expected, current)
                except Exception:
                    continue
        # Not among the graph's saved attributes: saved inside a node Python cannot look into (an
        # in-place op on a view keeps its own backward inside CopySlices). The versions still
        # say which: the latest CopySlices whose view was saved at the expected version.
        hidden = [r for r in self._records.values()
                  if any(s[0] == "(inside CopySlices)" and s[4] == expected for s in r[SAVED])]
        if hidden:
            latest = max(hidden, key=lambda r: r[SEQ])
            return VersionFailure(self._pin(latest), "(inside CopySlices)", expected, current)
        return VersionFailure(None, "", expected, current) if found else None

    def _find_freed(self, roots, call_index, limit=5):
        """The first nodes, walking from the roots, that an earlier backward released.

        Buffers being gone post mortem is not proof: the failing call itself released the new
        graph's nodes it ran before failing. So the marks left by earlier calls decide; only
        if there are none (freed by a call we did not see) do emptied buffers of nodes made
        before the previous backward call count.
        """
        marked, unmarked = [], []
        walk = self._walk(roots)
        answer = None
        while len(marked) < limit:
            try:
                node, parent = walk.send(answer)
            except StopIteration:
                break
            record = self._record_of(node)
            answer = True
            if record is None:
                continue
            if record[NID] in self._freed:
                marked.append((record, parent))
                answer = False
            elif record[EPOCH] < call_index and len(unmarked) < limit and self._buffers_freed(node):
                unmarked.append((record, parent))
        found = marked or unmarked
        return [FreedFailure(self._pin(record), self._pin(parent)) for record, parent in found]

    def _buffers_freed(self, node) -> bool:
        if self._hooked(node):
            return False
        for attr in self._type_info(type(node)).saved_attrs:
            try:
                with torch._C.DisableTorchFunction():  # see _unpacking_fails
                    getattr(node, attr)
            except RuntimeError as err:
                if _FREED in str(err):
                    return True
            except Exception:
                pass
        return False

    def _hooked(self, node) -> bool:
        """Whether a node's saved tensors were packed by saved_tensors_hooks, from its record (made
        when the node was; see _add_record). Never from the node itself after that: torch
        crashes reading the raw saved value of one whose `register_hooks` is running or failed."""
        record = self._record_of(node)
        return record is not None and record[HOOKED]

    def _find_named_node(self, roots, message):
        found = _NODE_NAME_IN_MESSAGE.search(message)
        if not found:
            return self._pin(self._record_of(roots[0])) if roots else None
        wanted = found.group(1) or found.group(2)
        for node, _ in self._walk(roots):
            name = self._type_info(type(node)).name
            if name == wanted or name == wanted + "Backward":
                return self._pin(self._record_of(node))
        return None

    # ------------------------------------------------------------------ the result
    def _add_module_call(self, trace: Trace, cid: int | None) -> int | None:
        first, known = cid, cid in self._module_calls if cid is not None else False
        while cid is not None and cid not in trace.module_calls and cid in self._module_calls:
            module_id, type_name, parent = self._module_calls[cid]
            trace.module_calls[cid] = ModuleCall(id=cid, type=type_name, name=self._module_names.get(module_id),
                                                 parent=parent if parent in self._module_calls else None)
            cid = parent
        return first if known or first in trace.module_calls else None

    def _finish_gradient_checks(self) -> None:
        """Turn the candidates seen at the first steps into hazards, now that every optimizer is known."""
        known = set().union(*(s.param_ids for s in self._optimizers.values())) if self._optimizers else set()
        if self._not_in_optimizer:
            known |= _params_of_live_optimizers()  # also those that never stepped (the run failed first)
        never = [lid for lid in self._never_graded if lid not in self._graded]
        if never:
            site, name, step = self._never_graded[never[0]]
            self._hazards.append(GradHazard("never-graded", never[:16], site, name, step))
        stray = [lid for lid, entry in self._not_in_optimizer.items() if entry[3] not in known]
        if stray:
            site, name, step, _ = self._not_in_optimizer[stray[0]]
            self._hazards.append(GradHazard("not-in-optimizer", stray[:16], site, name, step))
        if not any(h.kind == "nonfinite" for h in self._hazards) and self._backward_calls:
            # No optimizer step saw it: look at the .grad of the leaves still alive, once.
            bad = []
            for ref, lid in list(self._leaf_index.values())[:10_000]:
                tensor = ref()
                grad = tensor.grad if tensor is not None else None
                if grad is not None and grad.layout == torch.strided and not bool(torch.isfinite(grad).all()):
                    bad.append(lid)
            if bad:
                last = self._backward_calls[-1]
                self._hazards.append(GradHazard("nonfinite", bad[:8], last.site, "backward", last.index + 1))
        for hazard in self._hazards:
            self._pinned_leaves.update(hazard.leaves)
        self._never_graded.clear()
        self._not_in_optimizer.clear()

    def _export_events(self, trace: Trace) -> None:
        for cut in self._cuts.values():
            module = cut.module
            trace.cuts[cut.id] = GraphCut(
                id=cut.id, seq=cut.seq, op=cut.op, site=_resolved(cut.site), reason=cut.reason, epoch=cut.epoch,
                grad_off_site=_resolved(cut.grad_off_site), grad_off_via=cut.grad_off_via,
                input_node=cut.input_node if cut.input_node in trace.nodes else None,
                input_leaf=cut.input_leaf,
                module=self._module_names.get(module) if isinstance(module, int) else module)
        for kind, target in [("escape", trace.escapes), ("grad_read", trace.grad_reads), ("hook", trace.hooks),
                             ("stale", trace.stale_links), ("revival", trace.revivals),
                             ("moved", trace.leaves_moved)]:
            for event in self._events[kind].values():
                target.append(dataclasses.replace(event, site=_resolved(event.site)))
        for hazard in self._hazards:
            trace.grad_hazards.append(dataclasses.replace(hazard, site=_resolved(hazard.site)))
        for hazard in self._saved_hazards:
            hazard.change.site = _resolved(hazard.change.site)
            trace.saved_hazards.append(hazard)
        trace.nan_origins = list(self._nan_origins)
        trace.grad_resets = list(self._grad_resets)
        for info in self._types.values():
            if info.defined_at is not None:
                trace.functions[info.name] = info.defined_at

    def describe_exception(self, exc: BaseException) -> list[TensorArg]:
        """Tensors held by the innermost frame an uncaught error came from (e.g. the optimizer's
        `param` in "can't optimize a non-leaf Tensor")."""
        tb = exc.__traceback__
        if tb is None:
            return []
        while tb.tb_next is not None:
            tb = tb.tb_next
        try:
            values = list(tb.tb_frame.f_locals.values())
            return [self._describe(v) for v in values if isinstance(v, _Tensor)][:4]
        except Exception as inner:
            self._internal(inner)
            return []

    def stats(self) -> dict[str, int]:
        """How much the recorder holds now (for tests and benchmarks: memory must stay flat)."""
        return {
            "nodes": len(self._records),
            "pinned_nodes": len(self._pinned),
            "saved_tensors": sum(len(record[SAVED]) for record in self._records.values()),
            "saved_storages": len(self._saved_storages),
            "pending_storages": len(self._pending_storages),
            "leaves": len(self._leaves),
            "module_calls": len(self._module_calls),
            "inplace_changes": len(self._inplace),
            "tainted": len(self._tainted),
            "backward_calls": self._epoch,
            "flow_pending": self._flow.pending() if self._flow is not None else 0,
        }

    def failure_for(self, exc: BaseException):
        """The recorded failure an uncaught exception came from: ("op"|"backward", record)."""
        return self._failure_by_exc.get(id(exc))

    def to_trace(self, argv: list[str]) -> Trace:
        try:
            self.name_parameters()
        except Exception as exc:
            self._internal(exc)
        trace = Trace(argv=list(argv), meta=_run_meta())
        trace.meta["backward_calls"] = self._epoch  # all of them; the trace keeps the latest
        if self.saw_compiled:
            trace.meta["notes"] = ["torch.compile'd code ran: gradscope sees a compiled region as one opaque "
                                   "op (its inner ops, saved tensors and in-place changes are not recorded)"]
        records = dict(self._records)
        records.update(self._pinned)
        for graph in [self._last_graph, *self._failed_graphs]:
            records.update((r[NID], r) for r in graph)
        versions_now = _versions_now(self._inplace)
        call_seqs = {call.index: call.seq for call in self._backward_calls}
        for record in records.values():
            nid = record[NID]
            ran_seq = call_seqs.get(self._ran.get(nid))
            trace.nodes[nid] = Node(
                id=nid, name=record[NAME], op=record[OP], site=resolve(record[LOC]),
                seq=record[SEQ], epoch=record[EPOCH],
                saved=[_saved_from_tuple(s, record[SEQ], versions_now, ran_seq) for s in record[SAVED]],
                freed_by=self._freed.get(nid), ran_by=self._ran.get(nid), first_seen_late=record[LATE],
                next_ids=list(record[NEXT_IDS]), leaf_ids=[i for i in record[LEAF_IDS] if i is not None],
                module_call=self._add_module_call(trace, record[MODULE]), saved_unknown=record[HOOKED],
            )
        self._finish_gradient_checks()
        for leaf in list(self._leaves.values()):
            trace.leaves[leaf.lid] = Leaf(
                id=leaf.lid, name=leaf.name, kind=leaf.kind, shape=leaf.shape,
                dtype=_dtype_name(leaf.dtype), site=resolve(leaf.loc), owner=leaf.owner,
            )
        for change in self._inplace:
            change.site = _resolved(change.site)
            trace.inplace_changes.append(change)
        for call in self._backward_calls:
            call.site = _resolved(call.site)
            trace.backward_calls.append(call)
        for failure in self._op_failures:
            failure.site = _resolved(failure.site)
            trace.op_failures.append(failure)
        self._export_events(trace)
        if self._flow is not None:
            def leaf_site(lid):
                leaf = self._leaves.get(lid)
                return resolve(leaf.loc) if leaf is not None else None
            trace.grad_flow = self._flow.to_trace(self._flow_thresholds, _resolved, leaf_site)
        trace.internal_errors = list(self._internal_errors)
        if self._internal_error_count > len(self._internal_errors):
            trace.internal_errors.append(
                f"... and {self._internal_error_count - len(self._internal_errors)} more")
        return trace


def _hide_gradscope_frames(metadata) -> None:
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


_RUNNER_FILE = f'"{os.path.join(os.path.dirname(os.path.abspath(__file__)), "runner.py")}"'
_GRADSCOPE_FILE_MARK = f'"{os.path.dirname(os.path.abspath(__file__))}{os.sep}'


STACK_LIMIT = 256 << 20


def _allow_deep_graphs() -> None:
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


def _run_meta() -> dict:
    import platform

    from . import __version__
    return {"python": platform.python_version(), "torch": torch.__version__, "gradscope": __version__,
            "platform": platform.platform()}


def _versions_now(changes) -> dict:
    """storage -> [(seq, version after)] of every recorded in-place change, in order."""
    by_storage: dict = {}
    for change in changes:
        if change.storage is not None and not change.bypasses_version:
            by_storage.setdefault(change.storage, []).append((change.seq, change.version_after))
    return by_storage


def _roots(modules: list) -> list:
    """The modules that are inside no other module (the models). Descendants, not just children:
    a ModuleList that never runs forward is never seen, but its layers are inside the model."""
    inside = {id(sub) for m in modules for sub in m.modules() if sub is not m}
    return [m for m in modules if id(m) not in inside]


def _resolved(location):
    """A Site from a raw location; already resolved ones (or None) as they are."""
    return resolve(location) if isinstance(location, tuple) else location


def _params_of_live_optimizers() -> set[int]:
    """Ids of the parameters held by every optimizer still alive (one scan, at the end of a run)."""
    found = set()
    optimizer = torch.optim.Optimizer
    for obj in gc.get_objects():
        # type(), not isinstance(): isinstance reads `__class__`, and some module-level objects
        # warn when touched (torch.distributed.reduce_op: a FutureWarning under our name).
        if issubclass(type(obj), optimizer):
            found.update(id(p) for group in obj.param_groups for p in group["params"])
    return found


def _definition_site(obj):
    """Where a custom autograd.Function (its forward) or a hook function is defined."""
    target = obj
    if isinstance(obj, type):
        target = obj.__dict__.get("backward") or obj.__dict__.get("forward")
        target = getattr(target, "__func__", target)
    code = getattr(target, "__code__", None)
    if code is None:
        return None
    return locations.Site(locations.real_path(code.co_filename), code.co_firstlineno, code.co_name)


def _input_grad_fns(args):
    found = []
    for arg in args:
        if isinstance(arg, _Tensor):
            found.append(_grad_fn(arg))
        elif isinstance(arg, (list, tuple)):
            found.extend(_grad_fn(t) for t in arg if isinstance(t, _Tensor))
    return found


UNREADABLE = object()  # a grad_fn torch refuses to give (see _grad_fn)


def _shape_of(tensor) -> tuple:
    """The tensor's shape; () where it has none to give (a nested tensor's sizes raise)."""
    try:
        return tuple(tensor.shape)
    except RuntimeError:
        return ()


def _inside_gradcheck() -> bool:
    """Whether torch.autograd.gradcheck is on the stack (however it was reached: test suites wrap
    it). One walk of the stack, made only when a write hit memory a live node saved."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_filename.endswith(_GRADCHECK_FILE):
            return True
        frame = frame.f_back
    return False


def _packed_by_hooks(node, attrs) -> bool:
    """Whether any of the node's saved tensors was packed by saved_tensors_hooks, asked of the raw
    saved values (`_raw_saved_*`), which answers without unpacking. Only for a node just met (see
    _hooked): torch 2.13 dereferences a null pointer when asked about a saved value whose
    per-tensor `register_hooks` is in progress or failed."""
    for attr in attrs:
        try:
            raw = getattr(node, "_raw" + attr if attr.startswith("_saved_") else "_raw_" + attr, None)
        except Exception:
            continue
        for value in (raw if isinstance(raw, (list, tuple)) else (raw,)):
            if getattr(value, "unpack_hook", None) is not None:
                return True
    return False


def _grad_fn(tensor):
    """`tensor.grad_fn`, or UNREADABLE where reading it raises: a view made under no_grad (or by
    unbind, or inside a custom Function) whose base changed in place since. Such a read must not
    fail gradscope, and is no fact to record."""
    try:
        return tensor.grad_fn
    except RuntimeError:
        return UNREADABLE


def _uncount(storages: dict, record: tuple) -> None:
    """Take a record's saved tensors out of a storage -> count map."""
    for tensor in record[SAVED]:
        left = storages.get(tensor[5], 0) - 1
        if left > 0:
            storages[tensor[5]] = left
        else:
            storages.pop(tensor[5], None)


def _unpack(node, attr: str, storage: int | None) -> str | None:
    """Unpack a saved tensor as backward would: "stale" when torch's version check fails, "same
    memory" when it passes but the tensor backward would use still lives in `storage` (the memory
    just written), "elsewhere" when torch kept a copy (allow_mutation_on_saved_tensors, saved-tensor
    hooks), None when it cannot be unpacked (freed, say).

    With torch functions off: unpacking a view whose base changed regenerates its grad_fn under
    a lock and calls the tensor's `_backward_hooks` setter, which would re-enter our mode and
    ask for that grad_fn again: a deadlock.
    """
    name, _, index = attr.partition("[")
    try:
        with torch._C.DisableTorchFunction():
            value = getattr(node, name)
            if index:
                value = value[int(index.rstrip("]"))]
    except RuntimeError as err:
        return "stale" if _VERSION_MISMATCH in str(err) else None
    except Exception:
        return None
    if not isinstance(value, _Tensor):
        return None
    return "same memory" if _storage_key(value) == storage else "elsewhere"


def _storage_key(tensor) -> int | None:
    """Address of the tensor's storage: the memory an in-place write to any of its views changes.

    Computed from the data pointer and offset (`untyped_storage()` costs up to 10 µs).
    """
    try:
        return tensor.data_ptr() - tensor.storage_offset() * tensor.element_size()
    except Exception:  # sparse, nested, or a subclass without storage
        return None


def _dtype_name(dtype) -> str:
    return str(dtype).replace("torch.", "")


def _saved_from_tuple(saved, saved_at_seq, versions_now, ran_seq=None) -> SavedTensor:
    attr, shape, dtype, device, version, storage, producer_node, producer_leaf = saved
    now = at_backward = version
    for seq, after in versions_now.get(storage, ()):
        if seq > saved_at_seq:
            now = max(now, after)
            if ran_seq is not None and seq < ran_seq:
                at_backward = max(at_backward, after)
    return SavedTensor(attr=attr, shape=shape, dtype=_dtype_name(dtype), device=str(device),
                       version=version, storage=storage, producer_node=producer_node,
                       producer_leaf=producer_leaf, version_now=now,
                       version_at_backward=at_backward if ran_seq is not None else None)
