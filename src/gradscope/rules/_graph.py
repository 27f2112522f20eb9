"""Questions about the recorded graphs that several rules ask."""

from __future__ import annotations

from ..trace import Trace


def graph_of(trace: Trace, roots: list[int]) -> set[int]:
    """Ids of the recorded nodes reachable from `roots` (a backward call's graph)."""
    seen, todo = set(), list(roots)
    while todo:
        nid = todo.pop()
        if nid in seen or nid not in trace.nodes:
            continue
        seen.add(nid)
        todo.extend(trace.nodes[nid].next_ids)
    return seen


def ran_after(trace: Trace, node_id: int, seq: int):
    """The first backward call after event `seq` that ran through node `node_id` without failing."""
    for call in trace.backward_calls:
        if call.seq > seq and call.error is None and node_id in graph_of(trace, call.roots):
            return call
    return None
