"""Leaf tensors (parameters, inputs that require grad): a record each, found again by weak reference."""

from __future__ import annotations

import functools
import itertools
import weakref

import torch

from ..trace.locations import capture
from .reads import shape_of


class LeafRecord:
    __slots__ = ("lid", "name", "kind", "shape", "dtype", "loc", "owner", "tied")

    def __init__(self, lid, kind, shape, dtype, loc, owner=None):
        self.lid = lid
        self.name = None  # its path in a model ("encoder.0.weight"), once known
        self.kind = kind  # "parameter" or "tensor"
        self.shape = shape
        self.dtype = dtype
        self.loc = loc  # raw location where it was made (None: not seen being made)
        self.owner = owner  # "Linear.weight", for a parameter registered on a module
        self.tied = None  # its two paths in one model, for a parameter two modules share


class Leaves:
    """id(tensor) -> leaf id, valid while the tensor lives; a leaf's record outlives it only if
    pinned (a finding names it)."""

    def __init__(self):
        self.records: dict[int, LeafRecord] = {}
        self.index: dict[int, tuple] = {}  # id(tensor) -> (weak ref, leaf id)
        self.pinned: set[int] = set()
        self._placed: set[int] = set()  # leaves named by where a plain container holds them (kept)
        self._ids = itertools.count(1)

    def id_of(self, tensor, loc=None, kind=None, owner=None) -> int:
        """The tensor's leaf id, making its record (made at `loc`) the first time."""
        key = id(tensor)
        entry = self.index.get(key)
        if entry is not None and entry[0]() is tensor:
            return entry[1]
        lid = next(self._ids)
        if kind is None:
            kind = "parameter" if isinstance(tensor, torch.nn.Parameter) else "tensor"
        self.records[lid] = LeafRecord(lid, kind, shape_of(tensor), tensor.dtype, loc, owner)
        ref = weakref.ref(tensor, functools.partial(self._died, key, lid))
        self.index[key] = (ref, lid)
        return lid

    def known_id(self, tensor) -> int | None:
        """The tensor's leaf id if it has one already (never makes a record)."""
        entry = self.index.get(id(tensor))
        if entry is not None and entry[0]() is tensor:
            return entry[1]
        return None

    def ensure(self, tensor) -> None:
        """Note a leaf that requires grad, capturing where it was made only the first time."""
        entry = self.index.get(id(tensor))
        if entry is None or entry[0]() is not tensor:
            self.id_of(tensor, capture()[0])

    def pinned_id(self, tensor) -> int:
        """The tensor's leaf id, kept past the tensor's death (a finding will name it)."""
        lid = self.id_of(tensor)
        self.pinned.add(lid)
        return lid

    def of_accumulator(self, node) -> int | None:
        """The leaf an AccumulateGrad node accumulates into."""
        variable = node.variable
        entry = self.index.get(id(variable))
        if entry is not None and entry[0]() is variable:
            return entry[1]
        return self.id_of(variable)

    def name(self, tensor, name: str) -> None:
        """Name a known leaf by its path in a model, keeping the shortest path seen."""
        entry = self.index.get(id(tensor))
        if entry is not None and entry[0]() is tensor:
            record = self.records.get(entry[1])
            if record is not None and entry[1] not in self._placed \
                    and (record.name is None or len(name) < len(record.name)):
                record.name = name

    def tie(self, tensor, first: str, second: str) -> None:
        """Note a known leaf's two paths in one model (tied weights: `lm_head.weight` is
        `transformer.wte.weight`)."""
        entry = self.index.get(id(tensor))
        if entry is not None and entry[0]() is tensor:
            record = self.records.get(entry[1])
            if record is not None and record.tied is None:
                record.tied = (first, second)

    def place(self, tensor, name: str) -> None:
        """Name a parameter of a module no model registers by where it is kept
        (`hids[0][0].weight`): that name stays (its module's own root would call it `weight`);
        the record is kept past the tensor's death, for the finding that names it."""
        lid = self.id_of(tensor)
        self.pinned.add(lid)
        self._placed.add(lid)
        self.records[lid].name = name

    def alive(self, limit: int):
        """(tensor, leaf id) of up to `limit` leaves still alive."""
        for ref, lid in list(self.index.values())[:limit]:
            tensor = ref()
            if tensor is not None:
                yield tensor, lid

    def _died(self, key, lid, _ref):
        entry = self.index.get(key)
        if entry is not None and entry[1] == lid:
            del self.index[key]
        if lid not in self.pinned:
            self.records.pop(lid, None)
