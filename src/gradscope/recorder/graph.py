"""The autograd graph as recorded: one tuple per node (see records.py), what each node saved,
which backward call ran or freed it, and how long records are kept.

Invariants, kept by this object's methods only:
* `storages[s]` counts the saved tensors of kept records that live in storage `s`;
  `pending[s]` counts only those of records not `settled` (their backward has not run and their
  node is not known dead). An in-place write to memory in neither cannot break a backward.
* A record leaves `records` only through `prune`, which uncounts it from both maps.
"""

from __future__ import annotations

import gc
from collections import OrderedDict, deque

import torch

from ..trace.locations import capture, capture_stack
from ..trace.model import StaleLink
from .events import EventLog
from .functions import FunctionApplies
from .leaves import Leaves
from .modules import Modules
from .process import hide_gradscope_frames
from .reads import (UNREADABLE, Tensor, TypeInfo, grad_fn_of, input_grad_fns, op_name, packed_by_hooks, shape_of,
    storage_key)
from .records import (BACKWARDS_BEFORE, HIDDEN_IN_COPYSLICES, HOOKED, MAX_LINKERS, MAX_PINNED_GRAPHS, MODULE,
    NAME, NEXT_IDS, NID, OP, PRODUCER_LEAF, PRODUCER_NODE, SAVED, SEQ, STORAGE)

MAX_FORGOTTEN = 2_000  # pruned records kept to be found again (their memory stays flat past it)
_is_anomaly_enabled = torch.is_anomaly_enabled
_saved_tensors_hooks_now = torch._C._autograd._top_saved_tensors_default_hooks


class Graph:
    def __init__(self, leaves: Leaves, modules: Modules, events: EventLog, clock,
                 keep_backwards: int, max_nodes: int):
        self._leaves = leaves
        self._modules = modules
        self._threads = modules.threads
        self._events = events
        self._clock = clock
        self.keep_backwards = keep_backwards
        self.max_nodes = max_nodes
        self.types: dict[type, TypeInfo] = {}
        self.applies = FunctionApplies()  # where custom Functions were applied
        self._op_names: dict = {}
        self.records: dict[int, tuple] = {}
        self._order: deque = deque()  # (backward calls before it, nid) in creation order, for pruning
        self.freed: dict[int, int] = {}  # nid -> index of the backward call that released it
        self.ran: dict[int, int] = {}  # nid -> index of the first backward call that ran it
        self.storages: dict[int, int] = {}  # see the module docstring
        self.pending: dict[int, int] = {}
        self.settled: set[int] = set()
        self.pinned: dict[int, tuple] = {}  # records kept past pruning (findings name them)
        # The latest pruned records: a node reached again later is recorded as it was made, not there.
        self.forgotten: OrderedDict[int, tuple] = OrderedDict()
        self.revived: dict[int, int] = {}  # nid -> seq of a record made again from `forgotten`
        self.last_graph: list = []  # records of the last backward's graph, kept for drawing
        self.failed_graphs: deque = deque(maxlen=MAX_PINNED_GRAPHS)
        self.linkers: dict[int, tuple] = {}  # nid of a node that linked into a freed graph -> its location
        self._stale_seen_at: dict = {}  # location of a stale link -> the backward count it was last seen at
        self.on_new_node = None  # called with (node, nid) for each new record (the NaN watch)
        self.new_node_types = None  # only for nodes of these class names, if given
        self.on_full = None  # called when more than max_nodes records are kept

    # ------------------------------------------------------------------ recording nodes
    def type_info(self, node_type) -> TypeInfo:
        info = self.types.get(node_type)
        if info is None:
            info = self.types[node_type] = TypeInfo(node_type)
        return info

    def new_nodes(self, root, func, args, loc=None) -> tuple:
        """Record `root` and every unrecorded node behind it; return the root's record."""
        if loc is None:
            loc = capture()[0]
        try:
            op = self._op_names[func]
        except KeyError:
            op = self._op_names[func] = op_name(func)
        except TypeError:  # an unhashable callable
            op = op_name(func)
        try:  # Modules.stack() inlined: this runs once per recorded op
            stack = self._threads.stack
        except AttributeError:
            stack = self._modules.stack()
        module = stack[-1].cid if stack else None
        records, types, freed, linkers = self.records, self.types, self.freed, self.linkers
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
                    info = self.type_info(type(next_node))
                if info.is_accumulate:
                    leaf_ids.append(self._leaves.of_accumulator(next_node))
                    continue
                child = next_node._sequence_nr()
                next_ids.append(child)
                if child in records:
                    if child in freed:  # reaches into a graph a backward already ran
                        self._stale_link(op, loc, child, nid)
                    elif linkers and child in linkers:
                        self._linker_extended(child, nid)
                    continue
                if child in found:
                    continue
                # Unrecorded: made inside this same call (linear's transpose, say) or by code we
                # did not see (a custom Function's apply): the latter is an input's grad_fn.
                if inputs is None:
                    inputs = input_grad_fns(args)
                found[child] = (next_node, late or any(next_node is g for g in inputs), [], [])
                todo.append(child)
        # Saved tensors last: a saved input made inside this call (linear's weight.t()) has
        # its producer known only now.
        hooks_on = _saved_tensors_hooks_now(False) is not None  # once per call: its nodes share it
        add = self.add
        for nid, (node, late, next_ids, leaf_ids) in found.items():
            add(node, nid, op, loc, late, module, tuple(next_ids), tuple(leaf_ids), hooks_on)
        root_record = records[root_nid]
        if len(records) > self.max_nodes and self.on_full is not None:  # a loop that never calls backward
            self.on_full()
        return root_record

    def add(self, node, nid, op, loc, late, module, next_ids=(), leaf_ids=(), hooks_on=None) -> tuple:
        """Record one node. `hooks_on`: whether saved_tensors_hooks are active (asked if None)."""
        info = self.types.get(type(node)) or self.type_info(type(node))
        if late and info.defined_at is not None:
            loc = self.applies.where.get(type(node), loc)  # a custom Function: where it was applied
        saved, hooked = (), False
        if info.saved_attrs:
            # Saved tensors packed by saved_tensors_hooks (activation checkpointing, CPU offload)
            # unpack through those hooks, which would run the user's code again (checkpoint
            # recomputes its function): such a node's saved tensors stay unread.
            if hooks_on is None:
                hooks_on = _saved_tensors_hooks_now(False) is not None
            hooked = hooks_on or (late and packed_by_hooks(node, info.saved_attrs))
            if not hooked:
                saved = self._read_saved(node, info.saved_attrs)
        clock = self._clock
        old = self.forgotten.pop(nid, None) if late and self.forgotten else None
        if old is not None:  # (and what it saved, read when it was made: by now they may be stale)
            op, loc, seq, backwards, late, module, saved = old[OP:MODULE + 1] + (old[SAVED],)
            self.revived[nid] = seq
        else:
            seq, backwards = next(clock.seq), clock.backwards
        record = (nid, info.name, op, loc, seq, backwards, late, module, next_ids, leaf_ids, saved, hooked)
        self.records[nid] = record
        storages, pending = self.storages, self.pending
        for tensor in saved:
            key = tensor[STORAGE]
            storages[key] = storages.get(key, 0) + 1
            pending[key] = pending.get(key, 0) + 1
        self._order.append((backwards, nid))
        if _is_anomaly_enabled():
            hide_gradscope_frames(node.metadata)
        if self.on_new_node is not None and (self.new_node_types is None or info.name in self.new_node_types):
            self.on_new_node(node, nid)
        return record

    def _read_saved(self, node, attrs) -> tuple:
        saved = []
        for attr in attrs:
            try:
                value = getattr(node, attr)
            except Exception:  # already stale or freed: nothing to learn
                continue
            if isinstance(value, Tensor):
                saved.append(self._saved_tensor(attr, value))
            elif isinstance(value, (list, tuple)):
                for i, item in enumerate(value):
                    if isinstance(item, Tensor):
                        saved.append(self._saved_tensor(f"{attr}[{i}]", item))
        return tuple(saved)

    def _saved_tensor(self, attr, tensor) -> tuple:
        """A saved-tensor tuple (fields in records.py)."""
        producer_node = producer_leaf = None
        grad_fn = grad_fn_of(tensor)
        if grad_fn is None:
            if tensor.requires_grad:
                producer_leaf = self._leaves.id_of(tensor)
        elif grad_fn is not UNREADABLE:
            producer_node = grad_fn._sequence_nr()
        return (attr, shape_of(tensor), tensor.dtype, tensor.device, tensor._version,
                storage_key(tensor), producer_node, producer_leaf)

    def note_hidden_save(self, view, record) -> None:
        """An in-place op on a view keeps its own backward (which usually saves the view) inside
        CopySlices, out of Python's reach. Remember the view's memory as saved by the CopySlices
        node, so later writes to it are logged and a version error can be traced to them."""
        nid = next((n for n in [record[NID], *record[NEXT_IDS]]
                    if self.records.get(n, (None, ""))[NAME] == "CopySlices"), None)
        if nid is None:
            return
        base = self.records[nid]
        hidden = (HIDDEN_IN_COPYSLICES, shape_of(view), view.dtype, view.device, view._version,
                  storage_key(view), None, None)
        self.records[nid] = base[:SAVED] + (base[SAVED] + (hidden,),) + base[SAVED + 1:]
        for counts in (self.storages, self.pending):
            counts[hidden[STORAGE]] = counts.get(hidden[STORAGE], 0) + 1

    def record_of(self, node, loc=None) -> tuple | None:
        """The record of a node met in a graph walk, recording it (as seen late) if new."""
        if node is None or node is UNREADABLE:
            return None
        info = self.types.get(type(node)) or self.type_info(type(node))
        if info.is_accumulate:
            return None
        nid = node._sequence_nr()
        record = self.records.get(nid) or self.pinned.get(nid)
        if record is not None and record[NAME] == info.name:
            return record
        with torch._C.DisableTorchFunction():  # its saved tensors may be stale views (see reads.unpack_state)
            return self.add(node, nid, "?", loc, True, None,
                            tuple(n._sequence_nr() for n, _ in node.next_functions if n is not None))

    def node_record(self, node, loc=None) -> int | None:
        """record_of, pinned, as the nid a finding can name."""
        return self.pin(self.record_of(node, loc))

    def hooked(self, node) -> bool:
        """Whether a node's saved tensors were packed by saved_tensors_hooks, from its record (made
        when the node was; see add). Never from the node itself after that: torch crashes reading
        the raw saved value of one whose `register_hooks` is running or failed."""
        record = self.record_of(node)
        return record is not None and record[HOOKED]

    # ------------------------------------------------------------------ links into freed graphs
    def _stale_link(self, op, loc, old_nid, new_nid) -> None:
        if len(self.linkers) < MAX_LINKERS:
            self.linkers[new_nid] = loc
        seen = self._events.get("stale", loc)
        backwards = self._clock.backwards
        if seen is not None:
            if self._stale_seen_at.get(loc) != backwards:  # the same line, in a later iteration
                self._stale_seen_at[loc] = backwards
                seen.repeats += 1
            return
        self._stale_seen_at[loc] = backwards
        # (with the calls that led there, once per line: a meter's `update(val)` is fixed by its caller)
        self._events.add("stale", lambda at: StaleLink(next(self._clock.seq), op, capture_stack()[0] or at, backwards,
                                                       self.pin(self.records.get(old_nid))), loc)

    def _linker_extended(self, nid, new_nid) -> None:
        """A node that linked into a freed graph (or descends from one that did) is an input of
        a new one, which holds those old graphs too. Made in an earlier iteration (before the
        last backward call), the value holding them survived into this one and keeps growing
        (`total += loss`, a meter's `self.sum += val * n`); a value made and consumed within
        one step (a logged sum of two losses) never is."""
        loc = self.linkers.get(nid)
        record = self.records.get(nid)
        if record is None:
            return
        if len(self.linkers) < MAX_LINKERS:
            self.linkers[new_nid] = loc
        if record[BACKWARDS_BEFORE] >= self._clock.backwards:
            return
        self.linkers.pop(nid, None)
        event = self._events.get("stale", loc)
        if event is not None:
            event.carried += 1

    # ------------------------------------------------------------------ retention
    def pin(self, record: tuple | None) -> int | None:
        """Keep a record (and the records of its saved tensors' producers) past pruning."""
        if record is None:
            return None
        self.pinned[record[NID]] = record
        for saved in record[SAVED]:
            producer = self.records.get(saved[PRODUCER_NODE]) if saved[PRODUCER_NODE] is not None else None
            if producer is not None:
                self.pinned[producer[NID]] = producer
            if saved[PRODUCER_LEAF] is not None:
                self._leaves.pinned.add(saved[PRODUCER_LEAF])
        return record[NID]

    def prune(self) -> int | None:
        """Forget records older than the last `keep_backwards` backward calls, and beyond
        `max_nodes`. Returns the seq of the oldest record still kept (None: none is)."""
        order, records, freed, settled = self._order, self.records, self.freed, self.settled
        oldest_backwards = self._clock.backwards - self.keep_backwards
        while order and (order[0][0] < oldest_backwards or len(records) > self.max_nodes):
            _, nid = order.popleft()
            record = records.pop(nid, None)
            freed.pop(nid, None)
            self.linkers.pop(nid, None)
            if nid not in self.pinned:  # (a pinned record keeps which backward ran it: findings ask)
                self.ran.pop(nid, None)
            if record is None:
                continue
            if nid not in self.pinned:
                self.forgotten[nid] = record  # (the tuple as it is: a reference, no copy)
                if len(self.forgotten) > MAX_FORGOTTEN:
                    self.forgotten.popitem(last=False)
            if nid in settled:
                settled.discard(nid)
            else:
                _uncount(self.pending, record)
            _uncount(self.storages, record)
        oldest = next((records[nid][SEQ] for _, nid in order if nid in records), None)
        kept = [oldest] if oldest is not None else []
        kept += [record[SEQ] for record in self.pinned.values()]
        self.revived = {nid: seq for nid, seq in self.revived.items() if nid in records}
        kept += list(self.revived.values())  # (made again with their first seq: out of `order`'s order)
        return min(kept) if kept else None

    def mark_run(self, root_ids, call_index, frees: bool) -> int:
        """Settle the nodes a backward call ran (their saved tensors may change now); if it
        released them (no retain_graph), mark them freed and keep them as the last graph to draw.

        Walks our records' `next_ids` (plain ints), not torch's nodes: a tenth of the cost.
        """
        records, freed, settled, pending, ran = self.records, self.freed, self.settled, self.pending, self.ran
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
            self.last_graph = graph
        return len(graph)

    def keep_failed_graph(self, roots) -> None:
        """Keep the whole graph of a failing backward for `gradscope graph`, even after the program drops it."""
        self.failed_graphs.append([r for r in (self.record_of(n) for n, _ in self.walk(roots)) if r])

    # ------------------------------------------------------------------ live nodes
    def walk(self, roots):
        """Yield (node, parent record) over a graph, each node once, AccumulateGrad skipped.
        Send False to skip what lies behind the node just yielded."""
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
            record = self.record_of(node)
            for next_node, _ in node.next_functions:
                if next_node is not None and not self.type_info(type(next_node)).is_accumulate:
                    stack.append((next_node, record))

    def live_nodes(self) -> dict:
        """nid -> node, for every node of a known type still alive.

        A node's Python wrapper lives exactly as long as the node once made (every recorded node
        had one made), and was made after `import torch`: outside gc.freeze()'s permanent set.
        """
        types, live = self.types, {}
        for generation in range(3):
            for obj in gc.get_objects(generation):
                if type(obj) in types:
                    try:
                        live[obj._sequence_nr()] = obj
                    except Exception:
                        continue
        return live

    def settle_dead(self, live: dict) -> None:
        """Records whose node is gone can never run their backward: no write to their memory matters."""
        settled = self.settled
        for nid, record in list(self.records.items()):
            if nid not in settled and live_node(live, record) is None:
                settled.add(nid)
                _uncount(self.pending, record)

    def saving(self, storage: int, include_retained: bool) -> list:
        """Records whose backward has not run and that saved memory in `storage`; with
        `include_retained` also those of retained graphs that ran but may run again."""
        settled, freed = self.settled, self.freed
        return [r for nid, r in self.records.items()
                if (nid not in settled or (include_retained and nid not in freed))
                and any(s[STORAGE] == storage for s in r[SAVED])]

    def stats(self) -> dict[str, int]:
        return {"nodes": len(self.records), "pinned_nodes": len(self.pinned),
                "saved_tensors": sum(len(record[SAVED]) for record in self.records.values()),
                "saved_storages": len(self.storages), "pending_storages": len(self.pending)}


def live_node(live: dict, record: tuple):
    """The live node a record describes (sequence numbers repeat across threads), or None."""
    node = live.get(record[NID])
    return node if node is not None and type(node).__name__ == record[NAME] else None


def _uncount(storages: dict, record: tuple) -> None:
    """Take a record's saved tensors out of a storage -> count map."""
    for tensor in record[SAVED]:
        left = storages.get(tensor[STORAGE], 0) - 1
        if left > 0:
            storages[tensor[STORAGE]] = left
        else:
            storages.pop(tensor[STORAGE], None)
