"""What is found after a failure: the tensors an op or backward was given, and, for a failed
backward, the node behind the error (the stale saved tensor, the freed nodes, the named node),
looked for in the graph it was given, which the caller's tensors still hold."""

from __future__ import annotations

import re

from ..trace.model import ErrorInfo, FreedFailure, TensorArg, VersionFailure
from .cuts import Cuts
from .graph import Graph
from .leaves import Leaves
from .modules import Modules
from .reads import FREED, VERSION_MISMATCH, dtype_name, grad_fn_of, shape_of, unpack_error
from .records import ATTR, BACKWARDS_BEFORE, HIDDEN_IN_COPYSLICES, NID, SAVED, SEQ, VERSION

_NODE_NAME_IN_MESSAGE = re.compile(r"\b([A-Za-z_]\w*Backward\d*)\b|[Ff]unction '?(\w+)'? returned")
_VERSIONS_IN_MESSAGE = re.compile(r"is at version (\d+); expected version (\d+)")


class PostMortem:
    def __init__(self, graph: Graph, leaves: Leaves, cuts: Cuts, modules: Modules):
        self._graph = graph
        self._leaves = leaves
        self._cuts = cuts
        self._modules = modules

    def describe(self, tensor) -> TensorArg:
        """A tensor given to a failing call: leaf or not, its node, the cut it descends from."""
        leaf = base_leaf = node = None
        grad_fn = grad_fn_of(tensor)
        if tensor.requires_grad and grad_fn is None:
            leaf = self._leaves.pinned_id(tensor)
        elif grad_fn is None:
            leaf = self._leaves.known_id(tensor)  # (a parameter frozen since it was seen: the same leaf)
        base = tensor._base
        if base is not None and base.requires_grad and grad_fn_of(base) is None:
            base_leaf = self._leaves.pinned_id(base)
        if grad_fn is not None:
            node = self._graph.node_record(grad_fn)
        cut = self._cuts.cut_of(tensor)
        if cut is None and base is not None:
            cut = self._cuts.cut_of(base)
        return TensorArg(shape_of(tensor), tensor.requires_grad, grad_fn is None, leaf, base_leaf, node,
                         dtype=dtype_name(tensor.dtype), cut=cut, inference=tensor.is_inference())

    def explain_backward(self, call, roots, exc) -> None:
        """Fill in a failed BackwardCall: the error, and the nodes behind it."""
        message = str(exc)
        call.error = ErrorInfo(type(exc).__name__, message)
        if "does not require grad" in message:
            call.trainable_params, call.total_params = self._modules.count_parameters()
        if VERSION_MISMATCH in message:
            call.version_failure = self._find_stale_saved(roots, message)
        elif FREED in message:
            call.freed_failures = self._find_freed(roots, call.index)
        else:
            call.failed_node = self._find_named_node(roots, message)
        for nid in call.roots:
            self._graph.pin(self._graph.records.get(nid))
        self._graph.keep_failed_graph(roots)

    def _find_stale_saved(self, roots, message):
        graph = self._graph
        found = _VERSIONS_IN_MESSAGE.search(message)
        current, expected = (int(found.group(1)), int(found.group(2))) if found else (-1, -1)
        for node, _ in graph.walk(roots):
            if graph.hooked(node):
                continue  # unpacking would run the hooks (a checkpoint's recomputation)
            for attr in graph.type_info(type(node)).saved_attrs:
                if unpack_error(node, attr) == message:
                    return VersionFailure(graph.node_record(node), attr, expected, current)
        # Not among the graph's saved attributes: saved inside a node Python cannot look into (an
        # in-place op on a view keeps its own backward inside CopySlices). The versions still
        # say which: the latest CopySlices whose view was saved at the expected version.
        hidden = [r for r in graph.records.values()
                  if any(s[ATTR] == HIDDEN_IN_COPYSLICES and s[VERSION] == expected for s in r[SAVED])]
        if hidden:
            latest = max(hidden, key=lambda r: r[SEQ])
            return VersionFailure(graph.pin(latest), HIDDEN_IN_COPYSLICES, expected, current)
        return VersionFailure(None, "", expected, current) if found else None

    def _find_freed(self, roots, call_index, limit=5):
        """The first nodes, walking from the roots, that an earlier backward released.

        Buffers being gone post mortem is not proof: the failing call itself released the new
        graph's nodes it ran before failing. So the marks left by earlier calls decide; only
        if there are none (freed by a call we did not see) do emptied buffers of nodes made
        before the previous backward call count.
        """
        graph = self._graph
        marked, unmarked = [], []
        walk = graph.walk(roots)
        answer = None
        while len(marked) < limit:
            try:
                node, parent = walk.send(answer)
            except StopIteration:
                break
            record = graph.record_of(node)
            answer = True
            if record is None:
                continue
            if record[NID] in graph.freed:
                marked.append((record, parent))
                answer = False
            elif record[BACKWARDS_BEFORE] < call_index and len(unmarked) < limit and self._buffers_freed(node):
                unmarked.append((record, parent))
        found = marked or unmarked
        return [FreedFailure(graph.pin(record), graph.pin(parent)) for record, parent in found]

    def _buffers_freed(self, node) -> bool:
        if self._graph.hooked(node):
            return False
        for attr in self._graph.type_info(type(node)).saved_attrs:
            error = unpack_error(node, attr)
            if error is not None and FREED in error:
                return True
        return False

    def _find_named_node(self, roots, message):
        graph = self._graph
        found = _NODE_NAME_IN_MESSAGE.search(message)
        if not found:
            return graph.node_record(roots[0]) if roots else None
        wanted = found.group(1) or found.group(2)
        for node, _ in graph.walk(roots):
            name = graph.type_info(type(node)).name
            if name == wanted or name == wanted + "Backward":
                return graph.node_record(node)
        return None
