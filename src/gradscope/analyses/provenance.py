"""Provenance: where the values a graph is built from were made.

A graph that reaches back into an earlier iteration's graph (an RNN state, a memory kept on a
module, a running total) crosses from nodes made after a backward call into nodes made before
it. The crossing is the fact a diagnosis needs: the old node is where the carried value got its
graph; the new node is the first op of the new iteration that used it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..trace.model import Node, Trace


@dataclass(frozen=True)
class Crossing:
    new: Node  # made after the backward call that freed the old graph: the use
    old: Node  # made before it: where the carried value was made


def crossings(trace: Trace, roots: list[int], made_after: int, limit: int = 4) -> list[Crossing]:
    """Edges of the graph under `roots` from a node made after `made_after` backward calls to one
    made before (at most `limit`, in the order a depth-first walk from the roots meets them)."""
    return _crossings(trace, roots, lambda node: node.backwards_before < made_after, limit)


def crossings_at(trace: Trace, roots: list[int], seq: int, limit: int = 4) -> list[Crossing]:
    """The same, across event `seq` (an optimizer step): from a node made after it to one made
    before it, where the graph under `roots` reuses what an earlier forward computed."""
    return _crossings(trace, roots, lambda node: node.seq < seq, limit)


def _crossings(trace: Trace, roots: list[int], is_old, limit: int) -> list[Crossing]:
    found, seen, stack = [], set(), list(roots)
    while stack and len(found) < limit:
        node = trace.node(stack.pop())
        if node is None or node.id in seen:
            continue
        seen.add(node.id)
        if is_old(node):
            continue  # an old node reached from the roots directly: no new use of it to name
        for input_id in node.next_ids:
            inner = trace.node(input_id)
            if inner is None:
                continue
            if is_old(inner):
                found.append(Crossing(node, inner))
            else:
                stack.append(input_id)
    return found
