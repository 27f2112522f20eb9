"""nn.Module facts: which modules exist (weakly), their paths in the model, and the stack of
forward calls in progress on each thread (so a node knows the module call it was made in)."""

from __future__ import annotations

import functools
import itertools
import threading
import weakref
from collections import deque

import torch

from ..trace.locations import capture_stack
from .leaves import Leaves
from .reads import own_parameters, parameters_of, submodules, unique
from .records import MAX_EVENTS

_is_compiling = torch.compiler.is_compiling
_NORM_BASE = getattr(getattr(torch.nn.modules, "batchnorm", None), "_NormBase", None)  # BatchNorm, InstanceNorm


class ModuleCallFrame:
    """An nn.Module forward call in progress (on the thread's stack of calls)."""

    __slots__ = ("cid", "module_id")

    def __init__(self, cid, module_id):
        self.cid = cid
        self.module_id = module_id


MAX_DEAD = 20_000  # dead modules whose paths are kept


class Modules:
    def __init__(self, leaves: Leaves, clock, errors):
        self._leaves = leaves
        self._clock = clock
        self._errors = errors
        self._refs: list = []  # weak refs to every module seen
        self._ids: set[int] = set()
        self.names: dict[int, str] = {}  # id(module) -> path from its root model
        # The trainable parameters a DistributedDataParallel wraps, in its order: its errors name
        # parameters by their index in this list.
        self.ddp_parameters: list[str] = []
        # This process's rank in the first DDP's process group (of size > 1): names this rank's
        # outputs where the launcher's environment is gone by the end (Lightning removes it).
        self.ddp_rank: int | None = None
        self.ddp_forwards: list[tuple] = []  # (raw location, backward calls before, broadcasts buffers with grad on)
        self._ddp_modules: list = []  # weak references to the DDP modules that ran forward
        self.threads = threading.local()  # per thread: the stack of module calls in progress
        self._call_ids = itertools.count(1)
        self.calls: dict[int, tuple] = {}  # cid -> (module id, class name, parent cid, raw call site)
        self.first_calls: dict[str, object] = {}  # class name -> raw call site of its first forward
        self.registered_at: dict[int, tuple] = {}  # id(module) -> raw site where it was put into its parent
        # Modules that died (a model local to a function), what was known of them: id(module) ->
        # (path, raw registration site, the last module call id made before it died), so that the
        # calls it made keep their names after its id is free again. At most MAX_DEAD.
        self.dead: dict[int, tuple] = {}
        self.last_cid = 0
        self.registrations = 0  # submodules put into a parent so far (any module, any time)
        self._call_order: deque = deque()  # (backward calls before it, cid), for pruning
        self.on_exit = None  # called with (module, output) after each forward (--grad-flow)
        # Modules with a plain `requires_grad` attribute (`module.requires_grad = False` freezes
        # nothing): (weak ref to the module, its class name, the value if a bool else None, leaf
        # ids of its parameters that required grad when it was seen).
        self.flags: list[tuple] = []
        self._flagged: set[int] = set()
        # Parameters registered while a forward was running on this thread: layers built inside
        # forward (new random weights every call). (code, offset) -> (raw site, class, caller class)
        self.built_in_forward: dict[tuple, tuple] = {}
        # The train/eval mode whole models (calls with no module call around them) ran forward in,
        # each time it changed: (id(module), class, training, backward calls before, optimizer
        # steps before, seq, raw call site). A model that trained and then went on training after an
        # evaluation left it in eval mode shows here; the per-call flags of old calls are pruned.
        self.mode_switches: list[tuple] = []
        self._root_modes: dict[int, object] = {}
        # id() of normalization layers seen with every parameter frozen -> the last module call id
        # before they were seen so (calls before it ran while they still trained)
        self.frozen_norms: dict[int, int] = {}
        # Modules an `.eval()` call set apart (mode_sets.py): id -> [its call's index, ran forward since]
        self.evaled: dict[int, list] = {}

    # ------------------------------------------------------------------ the stack of calls
    def stack(self) -> list:
        try:
            return self.threads.stack
        except AttributeError:
            stack = self.threads.stack = []
            return stack

    def current_call(self) -> int | None:
        """The innermost module call in progress on this thread (its cid)."""
        stack = self.stack()
        return stack[-1].cid if stack else None

    def current_module(self) -> int | None:
        """id() of the module whose forward is innermost on this thread."""
        stack = self.stack()
        return stack[-1].module_id if stack else None

    def entered(self, module, args) -> None:
        """Global forward pre-hook."""
        if _is_compiling():
            return
        try:
            stack = self.stack()
            cid = self.last_cid = next(self._call_ids)
            # Where it was called from, with its callers: a node made inside has only its own
            # line (captured per op), and is reached through this (captured per module call).
            type_name = type(module).__name__
            loc = capture_stack()[0]
            # (read from the instance's __dict__: a property named `training` would be user code)
            training = vars(module).get("training")
            self.calls[cid] = (id(module), type_name, stack[-1].cid if stack else None, loc, training)
            if type_name not in self.first_calls:  # (kept past pruning: which classes ran, and where first)
                self.first_calls[type_name] = loc
            if not stack and self._root_modes.get(id(module), None) is not training:
                self._mode_switched(module, type_name, training, loc)
            self._call_order.append((self._clock.backwards, cid))
            if self.evaled and id(module) in self.evaled:
                self.evaled[id(module)][1] = True
            if type_name == "DistributedDataParallel" and len(self.ddp_forwards) < MAX_EVENTS:
                self._ddp_forward(module, loc)
            stack.append(ModuleCallFrame(cid, id(module)))
            self.remember(module)
        except Exception as exc:
            self._errors.add(exc)

    def _mode_switched(self, module, type_name: str, training, loc) -> None:
        self._root_modes[id(module)] = training
        if len(self.mode_switches) < MAX_EVENTS:
            clock = self._clock
            self.mode_switches.append((id(module), type_name, training, clock.backwards, clock.steps,
                                       next(clock.seq), loc))

    def _ddp_forward(self, module, loc) -> None:
        """A DDP forward: whether it broadcasts buffers into the model in place (rank 0's running
        statistics, at each forward in training), and whether a graph is being built."""
        broadcasts = bool(getattr(module, "broadcast_buffers", False)) and module.training and any(
            True for _ in getattr(module, "module", module).buffers())
        self.ddp_forwards.append((loc, self._clock.backwards, broadcasts and torch.is_grad_enabled()))
        if not any(ref() is module for ref in self._ddp_modules):
            self._ddp_modules.append(weakref.ref(module))
            if self.ddp_rank is None:
                self.ddp_rank = _rank_of(module)

    def ddp_sync_state(self) -> bool | None:
        """Whether a backward now all-reduces the gradients of the DDP modules seen (False inside
        `no_sync()`); None when no DDP module ran. A flag read, nothing else."""
        modules = [m for m in (ref() for ref in self._ddp_modules) if m is not None]
        if not modules:
            return None
        return all(bool(getattr(m, "require_backward_grad_sync", True)) for m in modules)

    def exited(self, module, args, output) -> None:
        """Global forward hook (always called, also when forward raised)."""
        if _is_compiling():
            return
        try:
            stack = self.stack()
            while stack:  # also unwinds calls that an exception cut short
                if stack.pop().module_id == id(module):
                    break
            if self.on_exit is not None:
                self.on_exit(module, output)
        except Exception as exc:
            self._errors.add(exc)

    def prune(self, oldest_backwards: int, max_calls: int) -> None:
        order = self._call_order
        while order and (order[0][0] < oldest_backwards or len(order) > max_calls):
            self.calls.pop(order.popleft()[1], None)

    # ------------------------------------------------------------------ which modules exist
    def remember(self, module) -> None:
        if id(module) not in self._ids:
            self._ids.add(id(module))
            self._refs.append(weakref.ref(module, functools.partial(self._died, id(module))))

    def parameter_registered(self, module, name, param) -> None:
        """Global parameter-registration hook: the parameter is a leaf made on the caller's line."""
        try:
            self.remember(module)
            self.registrations += 1  # (a parameter replaced after training began: also checked again)
            if param is not None:
                # With its callers: the line that built the whole model, past the __init__ frames.
                loc = capture_stack()[0]
                self._leaves.id_of(param, loc, "parameter", f"{type(module).__name__}.{name}")
                stack = self.stack()
                if stack and loc is not None and len(self.built_in_forward) < MAX_EVENTS and not _is_compiling():
                    caller = self.calls.get(stack[-1].cid)
                    self.built_in_forward.setdefault(loc[:2], (loc, type(module).__name__,
                                                               caller[1] if caller else None))
        except Exception as exc:
            self._errors.add(exc)

    def submodule_registered(self, module, name, submodule) -> None:
        """A container (Sequential, ModuleList) may never run forward itself: know it from its
        children, so that parameters are named by their path in the model. Where a module was
        put into its parent is kept: the statement that built it (`nn.ReLU(inplace=True)`)."""
        try:
            self.remember(module)
            self.registrations += 1  # (a layer replaced after training began: the optimizers are checked again)
            if submodule is not None and id(submodule) not in self.registered_at:
                self.remember(submodule)
                self.registered_at[id(submodule)] = capture_stack()[0]
        except Exception as exc:
            self._errors.add(exc)

    def live(self) -> list:
        return [m for m in (ref() for ref in self._refs) if m is not None]

    def roots(self) -> list:
        return roots_of(self.live())

    def name_of(self, module) -> str | None:
        """A module's path from its root model ("encoder.0"; "" for the model itself)."""
        name = self.names.get(id(module))
        if name is None:
            self.name_all()
            name = self.names.get(id(module))
        return name

    def name_all(self) -> None:
        """Name modules and parameters by their path ("encoder.0.weight"), from the modules alive now."""
        modules = self.live()
        self._refs = [weakref.ref(m, functools.partial(self._died, id(m))) for m in modules]
        for root in roots_of(modules):
            for name, module in submodules(root):
                known = self.names.get(id(module))
                if known is None or len(name) < len(known):
                    self.names[id(module)] = name
            first: dict[int, str] = {}
            for name, param in parameters_of(root):
                self._leaves.name(param, name)
                if first.setdefault(id(param), name) != name:  # (shared by two modules of one model)
                    self._leaves.tie(param, first[id(param)], name)
            if type(root).__name__ == "DistributedDataParallel" and not self.ddp_parameters:
                wrapped = getattr(root, "module", None)
                if wrapped is not None:
                    self.ddp_parameters = [name for name, param in unique(parameters_of(wrapped))
                                           if param.requires_grad]

    def count_parameters(self) -> tuple[int, int]:
        """(trainable, all) parameters of the modules alive now."""
        seen, trainable = set(), 0
        for module in self.live():
            for param in own_parameters(module):
                if id(param) not in seen:
                    seen.add(id(param))
                    trainable += bool(param.requires_grad)
        return trainable, len(seen)

    def scan_flags(self) -> None:
        """Note modules with a `requires_grad` attribute of their own (`module.requires_grad =
        False`): on a module that is a plain attribute, which freezes nothing. Looked for at the
        first steps and at the end (a dict lookup per module); the line is found in the source."""
        self._note_frozen_norms()
        if len(self.flags) >= MAX_EVENTS:
            return
        seen = self._flagged
        for module in self.live():
            value = vars(module).get("requires_grad", _MISSING)
            if value is not _MISSING and id(module) not in seen and "requires_grad" not in vars(type(module)):
                seen.add(id(module))
                trainable = [self._leaves.pinned_id(p) for p in self.trainable_parameters(module)[:8]]
                self.flags.append((weakref.ref(module), type(module).__name__, value if type(value) is bool else None,
                                   trainable, self.name_of(module)))

    def _note_frozen_norms(self) -> None:
        """Normalization layers that keep running statistics and whose parameters are all frozen:
        in train mode their statistics still change. Read from the instance dicts (no user code)."""
        norm_base = _NORM_BASE
        for module in self.live():
            if norm_base is None or not isinstance(module, norm_base) or id(module) in self.frozen_norms:
                continue
            state = vars(module)
            params = [p for p in state.get("_parameters", {}).values() if p is not None]
            if params and state.get("track_running_stats") is True and not any(p.requires_grad for p in params):
                self.frozen_norms[id(module)] = self._call_order[-1][1] if self._call_order else 0

    def unfed_norms(self) -> list[int]:
        """id() of the live normalization layers that ran forward in eval mode with running
        statistics they never gathered: none counted, mean still 0 and variance still 1 (an EMA
        copy that averages parameters only). Read once, at the end (a device read per layer)."""
        evaluated = {call[0] for call in self.calls.values() if call[4] is False}
        found = []
        for module in self.live():
            if _NORM_BASE is None or id(module) not in evaluated or not isinstance(module, _NORM_BASE):
                continue
            state = vars(module)
            buffers = state.get("_buffers", {})
            count, mean, var = (buffers.get(k) for k in ("num_batches_tracked", "running_mean", "running_var"))
            if state.get("track_running_stats") is not True or count is None or mean is None or var is None:
                continue
            # (and parameters that did change: a layer never trained at all, weight 1 and bias 0,
            # is an untrained model evaluated as it is, not statistics left out of a copy)
            weight, bias = (state.get("_parameters", {}).get(k) for k in ("weight", "bias"))
            changed = (weight is not None and not bool((weight == 1).all())) or \
                (bias is not None and bool(bias.any()))
            if changed and int(count) == 0 and not bool(mean.any()) and bool((var == 1).all()):
                found.append(id(module))
        return found[:16]

    def trainable_parameters(self, module) -> list:
        """The parameters of `module` and its children that require grad, read from the module
        dicts (an overridden `parameters()` is user code, not called here)."""
        found, seen, todo = [], set(), [module]
        while todo and len(seen) < 10_000:
            m = todo.pop()
            if id(m) in seen:
                continue
            seen.add(id(m))
            state = vars(m)
            found += [p for p in state.get("_parameters", {}).values() if p is not None and p.requires_grad]
            todo += [c for c in state.get("_modules", {}).values() if c is not None]
        return found

    def plain_holders(self, wanted) -> list[tuple]:
        """Where objects no model registers are kept: the plain list, tuple or dict attributes of
        live modules that hold some (directly or one level down). `wanted(obj)` says which
        (modules, or parameters). Returns [(holder, attribute name, "list"/"tuple"/"dict",
        {id(obj): (obj, path such as "hids[0][1]" or "waggrs[0]['w']")})]."""
        found = []
        for holder in self.live():
            for attr, value in list(vars(holder).items()):
                if type(value) not in (list, tuple, dict) or attr in _MODULE_OWN:
                    continue  # (`_modules`, `_parameters`, hooks: nn.Module's own registries)
                paths = {}
                for key, item in _items(value):
                    if wanted(item):
                        paths[id(item)] = (item, f"{attr}[{key!r}]")
                    elif type(item) in (list, tuple, dict):
                        for inner_key, inner in _items(item):
                            if wanted(inner):
                                paths[id(inner)] = (inner, f"{attr}[{key!r}][{inner_key!r}]")
                if paths:
                    found.append((holder, attr, type(value).__name__, paths))
                    if len(found) >= 4:
                        return found
        return found

    def _died(self, key, _ref, limit=MAX_DEAD):  # (bound now: module globals are gone at shutdown)
        try:
            self._ids.discard(key)
            registered = self.registered_at.pop(key, None)
            self.evaled.pop(key, None)
            name = self.names.pop(key, None)  # its id may be reused by a new module
            if (name is not None or registered is not None) and len(self.dead) < limit:
                self.dead[key] = (name, registered, self.last_cid, next(self._clock.seq))
        except Exception:  # (a weak reference's callback: nothing may come out of it)
            pass

    def described(self, module_id: int, cid: int | None = None, seq: int | None = None) -> tuple[str | None, tuple | None]:
        """(path, raw registration site) of a module, alive or dead: of the one that made call
        `cid` (or event `seq`) where a dead module's id was taken again by a new one."""
        dead = self.dead.get(module_id)
        if dead is not None and (cid <= dead[2] if cid is not None else seq <= dead[3] if seq is not None
                                 else module_id not in self.names):
            return dead[0], dead[1]
        return self.names.get(module_id), self.registered_at.get(module_id)


_MISSING = object()


# The attributes nn.Module itself keeps on every module (its registries and hooks), never the
# program's own containers (a private `self._layers = []` is the program's).
_MODULE_OWN = frozenset(vars(torch.nn.Module())) | {"_parameters", "_buffers", "_modules"}


def _items(container, limit: int = 1000):
    """(key, item) of a plain list, tuple or dict (keys: indices for sequences)."""
    items = container.items() if type(container) is dict else enumerate(container)
    return [pair for pair, _ in zip(items, range(limit))]


def roots_of(modules: list) -> list:
    """The modules that are inside no other module (the models). Descendants, not just children:
    a ModuleList that never runs forward is never seen, but its layers are inside the model."""
    inside = {id(sub) for m in modules for _, sub in submodules(m) if sub is not m}
    return [m for m in modules if id(m) not in inside]


def _rank_of(ddp) -> int | None:
    """The rank of a DDP module's process group (getters only, no collective), None if single."""
    try:
        group = ddp.process_group
        return int(group.rank()) if int(group.size()) > 1 else None
    except Exception:
        return None
