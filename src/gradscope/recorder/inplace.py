"""In-place writes: the log of writes to memory a recorded node saved, and the check, made at
the write, of whether a not-yet-run backward would now fail (or silently use changed values)."""

from __future__ import annotations

from collections import deque

import torch

from ..trace.locations import capture_stack
from ..trace.model import Freeze, InplaceChange, LeafMoved, Revival, SavedHazard
from .cuts import Cuts
from .events import EventLog
from .graph import Graph, live_node
from .leaves import Leaves
from .modules import Modules
from .reads import (UNREADABLE, Tensor, entry_label, grad_fn_of, inside_gradcheck, op_name, shape_of,
    storage_key, unpack_state)
from .records import ATTR, LOC, MAX_EVENTS, MAX_INPLACE_CHANGES, SAVED, STORAGE

_is_grad_enabled = torch.is_grad_enabled


def versions_before(tensors_in_lists: bool, args, kwargs) -> list:
    """(tensor, _version) of each tensor a call may write: its tensor arguments and `out=`.
    `tensors_in_lists`: also tensors inside list arguments (torch._foreach_*_)."""
    tensors = [arg for arg in args if isinstance(arg, Tensor)]
    if tensors_in_lists:
        for arg in args:
            if isinstance(arg, (list, tuple)):
                tensors.extend(t for t in arg if isinstance(t, Tensor))
    out = kwargs.get("out")
    if isinstance(out, Tensor):
        tensors.append(out)
    elif isinstance(out, (list, tuple)):
        tensors.extend(t for t in out if isinstance(t, Tensor))
    try:
        return [(t, t._version) for t in tensors]
    except RuntimeError:  # inference tensors have no version counter
        return [(t, t._version) for t in tensors if not t.is_inference()]

Parameter = torch.nn.Parameter
_FREEZES = frozenset({"requires_grad_", "__set__:requires_grad"})  # a parameter frozen (noted per line)
MAX_FROZEN = 100_000


class InplaceLog:
    def __init__(self, graph: Graph, leaves: Leaves, cuts: Cuts, events: EventLog, clock, modules: Modules):
        self._graph = graph
        self._modules = modules
        self._leaves = leaves
        self._cuts = cuts
        self._events = events
        self._clock = clock
        self.changes: deque = deque(maxlen=MAX_INPLACE_CHANGES)
        self.hazards: list[SavedHazard] = []
        self._hazard_sites: set = set()  # locations of changes found hazardous (never looked at again)
        self._frozen: dict[int, tuple] = {}  # leaf id -> (its Freeze event, backward calls then)

    def note_changes(self, func, before, args, kwargs) -> None:
        """After a call that may have written in place: log the writes that matter."""
        graph = self._graph
        where = None  # captured once per call, and only if a write matters
        for tensor, version in before:
            if tensor._version == version:
                continue
            storage = storage_key(tensor)
            grad_fn = grad_fn_of(tensor)
            if storage in graph.storages:  # memory a recorded backward needs: log the write
                if where is None:
                    where = capture_stack()
                change = self._log(func, tensor, grad_fn, storage, version, where, kwargs)
                if storage in graph.pending or change.bypasses_version:
                    self.check_hazard(change)
            # An in-place op gives a non-leaf a new grad_fn (CopySlices for x[i] = ...).
            if grad_fn is not None and grad_fn is not UNREADABLE and grad_fn._sequence_nr() not in graph.records:
                record = graph.new_nodes(grad_fn, func, args, where[0] if where else None)
                if tensor._base is not None:
                    graph.note_hidden_save(tensor, record)
                lid = self._leaves.known_id(tensor)
                if lid is not None:  # it was a leaf a graph may hold
                    self._leaves.pinned.add(lid)
                    self._events.add("moved", lambda loc: LeafMoved(next(self._clock.seq), op_name(func), loc, lid))
        first = args[0] if args else None
        if isinstance(first, Tensor) and first.requires_grad and grad_fn_of(first) is None:
            self._leaves.ensure(first)  # requires_grad_() / .requires_grad = True
            cut = self._cuts.cut_of(first) if self._cuts.tainted else None
            if cut is not None and self._cuts.reason_of(cut) != "inference_mode":
                lid = self._leaves.pinned_id(first)
                self._events.add("revival", lambda loc: Revival(next(self._clock.seq), loc, cut, lid))
            elif self._frozen and isinstance(first, Parameter):
                frozen_at = self._frozen.pop(self._leaves.known_id(first), None)
                if frozen_at is not None:  # frozen earlier, now trainable again
                    lid = self._leaves.known_id(first)
                    self._events.add("unfreeze", lambda loc: Freeze(next(self._clock.seq), loc, lid, *frozen_at,
                                                                    self._clock.backwards))
        elif isinstance(first, Parameter) and not first.requires_grad and op_name(func) in _FREEZES:
            lid = self._leaves.pinned_id(first)
            self._clock.freezes += 1  # (each optimizer's next step is looked at again)
            self._events.add("freeze", lambda loc: Freeze(next(self._clock.seq), loc, lid))
            freeze = self._events.get_last("freeze")
            if freeze is not None and len(self._frozen) < MAX_FROZEN:
                self._frozen[lid] = (freeze.seq, self._clock.backwards)

    def _log(self, func, tensor, grad_fn, storage, version, where, kwargs) -> InplaceChange:
        loc, entry = where
        leaf = None
        if grad_fn is None and tensor.requires_grad:
            leaf = self._leaves.id_of(tensor)
        else:
            base = tensor._base
            if base is not None and base.requires_grad and grad_fn_of(base) is None:
                leaf = self._leaves.id_of(base)
        change = InplaceChange(
            seq=next(self._clock.seq), op=op_name(func), site=loc, storage=storage,
            shape=shape_of(tensor), version_before=version, version_after=tensor._version,
            grad_enabled=_is_grad_enabled(), leaf=leaf, via=entry_label(entry),
            inplace_kwarg=kwargs.get("inplace") is True,
            module_call=self._modules.current_call() if kwargs.get("inplace") is True else None,
            bypasses_version=bool(self._cuts.tainted) and self._cuts.is_data_alias(tensor),
        )
        self.changes.append(change)
        return change

    def note_step(self, optimizer, params_before) -> None:
        """After an optimizer step: one change per parameter it wrote that a recorded node saved
        (its hundreds of small in-place ops are not looked at one by one)."""
        graph, where = self._graph, None
        for ref, version in params_before:
            param = ref()
            if param is None or param._version == version:
                continue
            storage = storage_key(param)
            if storage not in graph.storages:
                continue
            if where is None:
                where = capture_stack()
            change = InplaceChange(
                seq=next(self._clock.seq), op=f"{type(optimizer).__name__}.step", site=where[0],
                storage=storage, shape=shape_of(param), version_before=version,
                version_after=param._version, grad_enabled=False,
                leaf=self._leaves.id_of(param), via=entry_label(where[1]) or "torch/optim/optimizer.py")
            self.changes.append(change)
            if storage in graph.pending:
                self.check_hazard(change)

    def forget_before(self, seq: int | None) -> None:
        """A change older than every saved tensor still known cannot explain one (None: forget all)."""
        changes = self.changes
        while changes and (seq is None or changes[0].seq < seq):
            changes.popleft()

    def check_hazard(self, change: InplaceChange) -> None:
        """A write hit memory saved by a node whose backward has not run: is that node alive, and
        what does torch now say when the saved tensor is unpacked? Asked of torch itself, so torch's
        own exceptions (a node already run, `allow_mutation_on_saved_tensors`, saved-tensor hooks)
        are exceptions here too.

        Rare (the write must hit a not-yet-run graph), so it may cost: one scan of the objects
        made since recording began, which finds every live node and settles the dead ones.
        """
        if change.site in self._hazard_sites:
            return  # a line already found hazardous is not looked at again: loops stay cheap
        if inside_gradcheck():
            return  # gradcheck's own perturbations of its inputs, undone before it differentiates
        graph = self._graph
        # Nodes whose backward has not run; for a silent write also those of a retained graph
        # that has run but may run again (it keeps its saved tensors).
        candidates = graph.saving(change.storage, include_retained=change.bypasses_version)
        if not candidates:
            return
        live = graph.live_nodes()
        graph.settle_dead(live)
        reported = set()  # one hazard per saving line and attribute (two blocks built on one line)
        for record in candidates:
            node = live_node(live, record)
            if node is None:
                continue
            for saved in record[SAVED]:
                key = (record[LOC], saved[ATTR])
                if saved[STORAGE] != change.storage or key in reported or len(self.hazards) >= MAX_EVENTS:
                    continue
                state = unpack_state(node, saved[ATTR], change.storage)
                # A silent write (through `.data`, or any alias with its own version counter) has no
                # torch check to confirm it: the saved memory changed and torch will not notice.
                # torch's own library code (gradcheck's perturbations) does so on purpose and puts
                # the values back, so only the program's writes count.
                silent = state == "same memory" and not (change.via or "").startswith("torch/")
                if state == "stale" or silent:
                    reported.add(key)
                    self._hazard_sites.add(change.site)
                    self.hazards.append(SavedHazard(change, graph.pin(record), saved[ATTR], silent=silent))
