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


# Ops that move or regroup values without computing new ones: the value they hold was computed
# upstream, where a fix (a detach, a no_grad) belongs.
MOVES = frozenset({"view", "view_as", "reshape", "reshape_as", "flatten", "unflatten", "select", "__getitem__",
                   "narrow", "transpose", "permute", "t", "squeeze", "unsqueeze", "expand", "expand_as",
                   "contiguous", "clone", "to", "stack", "cat", "concat", "concatenate", "hstack", "vstack",
                   "unbind", "split", "chunk", "index_select", "gather", "repeat", "float", "double", "half",
                   "type_as", "movedim", "swapaxes", "__iter__"})


def computed_at(trace: Trace, node: Node, limit: int = 12) -> Node | None:
    """For a node that only moved a value (a flatten, a stack, an index), the first node up its
    first inputs that computed one, on another line: where the value was made. None when the
    walk ends at a leaf or a node gradscope did not track, or `node` computed its value itself."""
    if node.op not in MOVES:
        return None
    current = node
    for _ in range(limit):
        if not current.next_ids:
            return None
        current = trace.node(current.next_ids[0])
        if current is None:
            return None
        if current.op not in MOVES and current.site is not None and current.site != node.site:
            return current
    return None


def made_in_module(trace: Trace, node: Node, limit: int = 64) -> Node | None:
    """The nearest node up the graph from `node` (itself included) that a module's forward made
    from a parameter (a loss module's own ops hold none): where the model whose output a value
    was computed from trained. None within `limit` nodes."""
    seen, queue = set(), [node.id]
    while queue and len(seen) < limit:
        current = trace.node(queue.pop(0))
        if current is None or current.id in seen:
            continue
        seen.add(current.id)
        if current.module_call is not None and current.leaf_ids:
            return current
        queue.extend(current.next_ids)
    return None


@dataclass(frozen=True)
class UnusedGradientGraph:
    """A graph of gradients asked for with `create_graph=True` (a gradient penalty, a meta-learning
    inner step) that no later backward went through: the value computed from it trained nothing."""

    call: object  # the autograd.grad / backward call (BackwardCall) that built the gradients' graph
    value: Node  # the last node computed from those gradients (nothing consumed it)
    next_backward: object  # the first later backward that ran without it (BackwardCall)


def unused_gradient_graphs(trace: Trace) -> list[UnusedGradientGraph]:
    """Per call site of a `create_graph=True` gradient call: the graph built on its gradients,
    when no backward ever ran a node of it at any call from that site, though later backwards ran.
    The gradients' own nodes are the ones autograd made during the call (seen first as inputs of
    the program's next ops); the value is what the program computed from them."""
    consumers: dict[int, list[int]] = {}
    for node in trace.nodes.values():
        for nid in node.next_ids:
            consumers.setdefault(nid, []).append(node.id)
    found: dict[object, UnusedGradientGraph | None] = {}
    calls = [c for c in trace.backward_calls if c.create_graph and c.error is None]
    for call in calls:
        later = next((c for c in trace.backward_calls if c.index > call.index and c.error is None
                      and not c.create_graph), None)
        made = [n for n in trace.nodes.values() if n.first_seen_late and n.backwards_before == call.index + 1]
        if later is None or not made:
            continue
        # (which backward ran a node is forgotten once its record is old: where the later call's
        # own root does not say it ran, nothing is known)
        if not any(trace.node(r) is not None and trace.node(r).ran_by == later.index for r in later.roots):
            continue
        graph, todo = set(), [n.id for n in made]
        while todo:
            nid = todo.pop()
            if nid not in graph:
                graph.add(nid)
                todo.extend(consumers.get(nid, ()))
        key = (call.site.path, call.site.line) if call.site is not None else None
        if any(trace.nodes[nid].ran_by is not None for nid in graph):
            found[key] = None  # used at this call: the site is not one whose graph goes unused
            continue
        sinks = [trace.nodes[nid] for nid in graph if nid not in consumers and not trace.nodes[nid].first_seen_late]
        if sinks and key not in found:
            found[key] = UnusedGradientGraph(call, max(sinks, key=lambda n: n.seq), later)
    return [unused for unused in found.values() if unused is not None]


@dataclass(frozen=True)
class ValueLeftOut:
    """A loss-like value (a reduction of something that trains) computed in a training iteration,
    beside the loss that iteration backpropagated, and never backpropagated itself."""

    value: Node  # the value: nothing consumed it, no backward ran it
    loss: Node  # the root of the iteration's backward
    backward: object  # that backward call (BackwardCall)


_REDUCTIONS = ("MeanBackward", "SumBackward", "NormBackward", "LinalgVectorNormBackward")
_SCALINGS = ("MulBackward", "DivBackward", "AddBackward", "SubBackward", "NegBackward")


def _loss_like(trace: Trace, node: Node) -> bool:
    """A reduction or a loss function, or a scaling or sum of one."""
    for _ in range(4):
        if node.name.startswith(_REDUCTIONS) or "LossBackward" in node.name:
            return True
        if not node.name.startswith(_SCALINGS) or not node.next_ids:
            return False
        nxt = trace.node(node.next_ids[0])
        if nxt is None:
            return False
        node = nxt
    return False


def _computed_apart(trace: Trace, node: Node) -> bool:
    """Whether the value's own computation is outside every backward that ran: an input of it
    that no backward ran (a metric over outputs the loss trained through, `out.mean()`, or a sum
    of losses each backpropagated, is not a term left out)."""
    inputs = [trace.node(nid) for nid in node.next_ids]
    return any(n is not None and n.ran_by is None for n in inputs)


def _before_the_backward(value: Node, call) -> bool:
    """Whether the value's line comes before the backward call's in the program's source, where
    both are in one file (a value computed after the step, for logging, is no term left out)."""
    frames = [*call.site.callers, call.site] if call.site is not None else []
    beside = [f for f in frames if f.path == value.site.path]
    return not beside or value.site.line < beside[-1].line


def values_left_out(trace: Trace, same_function) -> list[ValueLeftOut]:
    """Per backward call (not autograd.grad), the loss-like values made since the previous one, in
    the function that built its loss, that nothing consumed and no backward ran, while the loss
    itself ran (which backward ran a node is known). `same_function(site, other)`: whether two
    lines are in one function (source reading stays out of this module)."""
    consumed = {nid for node in trace.nodes.values() for nid in node.next_ids}
    found, previous, seen = [], -1, set()
    for call in trace.backward_calls:
        if call.api == "torch.autograd.grad":
            continue
        start, previous = previous, call.index
        loss = trace.node(call.roots[0]) if call.error is None and call.roots else None
        if loss is None or loss.ran_by != call.index or loss.site is None:
            continue
        for node in trace.nodes.values():
            if start < node.backwards_before <= call.index and node.ran_by is None and node.id not in consumed \
                    and not node.first_seen_late and node.site is not None and node.id != loss.id \
                    and (node.site.path, node.site.line) not in seen and same_function(node.site, loss.site) \
                    and _loss_like(trace, node) and _computed_apart(trace, node) and _before_the_backward(node, call):
                seen.add((node.site.path, node.site.line))
                found.append(ValueLeftOut(node, loss, call))
    return found


# Nodes through which a loss is a linear combination of its terms: sums, scalings, reductions.
# (a product or quotient of two tensors that both train is not: one is no weight of the other)
_LINEAR = ("AddBackward", "SubBackward", "MulBackward", "DivBackward", "NegBackward", "MeanBackward", "SumBackward")
_TWO_SIDED = ("MulBackward", "DivBackward")


@dataclass
class SummedTwice:
    """A term that reaches the loss along two paths of sums and scalings: it is counted twice (an
    auxiliary loss added into the main loss in place, then added again)."""

    term: Node  # the term counted twice
    via: list[Node]  # the two sums or scalings it enters, one per path
    loss: Node  # the root of the backward
    backward: object  # that backward call (BackwardCall)


def terms_summed_twice(trace: Trace, limit: int = 2_000) -> SummedTwice | None:
    """The first backward call whose loss, read as a linear combination of its terms, takes one
    term along two paths; None where none does. The same tensor added to itself (`x + x`) is
    one path, and written so on purpose."""
    for call in trace.backward_calls:
        loss = trace.node(call.roots[0]) if call.error is None and call.roots else None
        if loss is None or call.api == "torch.autograd.grad" or not loss.name.startswith(_LINEAR):
            continue
        parents: dict[int, list[int]] = {}
        order, todo, seen = [], [loss.id], {loss.id}
        while todo and len(order) < limit:
            node = trace.node(todo.pop(0))
            if node is None:
                continue
            order.append(node.id)
            if not node.name.startswith(_LINEAR) or (node.name.startswith(_TWO_SIDED) and len(node.next_ids) > 1):
                continue
            for child in dict.fromkeys(node.next_ids):
                parents.setdefault(child, []).append(node.id)
                if child not in seen:
                    seen.add(child)
                    todo.append(child)
        for nid in order:
            via = [trace.node(p) for p in parents.get(nid, [])]
            # (two statements: one expression that uses a value twice, `x - x.mean()`, means it)
            lines = {(v.site.path, v.site.line) for v in via if v is not None and v.site is not None}
            # (and one of them added in place into another loss, `main += aux`: a sum written
            # out twice, `last + 0.5 * mean(all)`, weights a term more on purpose)
            in_place = any(v is not None and v.op in ("add_", "__iadd__") for v in via)
            if len(via) >= 2 and len(lines) >= 2 and in_place and trace.node(nid).site is not None:
                return SummedTwice(trace.node(nid), via[:2], loss, call)
    return None
