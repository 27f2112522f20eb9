"""An in-place change that would break a backward, caught before any backward ran.

The recorder notes, at the moment of the change, that a live node saved the tensor for a
backward that had not run yet, and checks with torch that this backward would now fail. Nothing
raised in this run (an evaluation pass, a forward-only test, a code path that returned early),
but the same code in training raises "modified by an inplace operation". A CI gate wants to
know now.

When a later backward did run through that node, other rules already explain what happened:
`inplace-modified-saved-tensor` for the error torch raised, `data-write-to-saved-tensor` for a
write through `.data` that torch could not see.
"""

from __future__ import annotations

from ..trace.findings import Finding, Location
from ..trace.model import SavedHazard, Trace
from ..trace.queries import extended_after, graph_of, ran_after
from ._words import leaf_words, node_words, op_words, shape_words, where
from .inplace_saved import fix_for

RULE_ID = "inplace-hazard"


def check(trace: Trace) -> list[Finding]:
    failed = [call for call in trace.backward_calls if call.version_failure is not None]
    findings = []
    for hazard in trace.saved_hazards:
        node = trace.node(hazard.node)
        if node is not None and node.ran_by is not None and node.ran_by < _calls_before(trace, hazard.change.seq):
            continue  # it had run before the change (a retained graph): not a hazard
        if ran_after(trace, hazard.node, hazard.change.seq) is not None:
            continue  # a backward ran through it later: data-write-to-saved-tensor says what it did
        if any(call.seq > hazard.change.seq and (hazard.node == call.version_failure.node
                                                 or hazard.node in graph_of(trace, call.roots)) for call in failed):
            continue  # a later backward through it failed: inplace-modified-saved-tensor explains it
        if _used_as_a_constant(trace, hazard):
            continue
        if not extended_after(trace, hazard.node, hazard.change.seq):
            continue  # nothing used that graph after the change: no backward of the program needs it
        findings.append(_explain(trace, hazard))
    return findings


def _used_as_a_constant(trace: Trace, hazard: SavedHazard) -> bool:
    """Before the change, the graph's result had been taken out of autograd (`.detach()`, `.data`,
    `.item()`) and it was never backpropagated: a target computed with grad on and then detached
    (a DQN/DDPG target network, soft-updated afterwards), a logged value. No backward will go
    through it. (A change made before that, inside the forward, is still a hazard.) Cuts and
    escapes are kept once per line, so graphs are compared by their lines, not their node ids."""
    node = trace.node(hazard.node)
    if node is None or node.site is None:
        return False
    seq = hazard.change.seq
    # Taken out after the node was made (a later op of the same forward: a larger node id) and
    # before the change; its graph may be partly pruned, so not only reachability counts.
    roots = [c.input_node for c in trace.cuts.values()
             if c.reason in ("detach", "data") and c.input_node is not None and node.seq < c.seq < seq]
    roots += [e.node for e in trace.escapes if e.node is not None and node.seq < e.seq < seq]
    if any(root >= node.id for root in roots):
        return True
    lines = {(n.site.path, n.site.line, n.op) for n in map(trace.node, graph_of(trace, roots)) if n and n.site}
    return (node.site.path, node.site.line, node.op) in lines


def _calls_before(trace: Trace, seq: int) -> int:
    """How many backward calls had been made before event `seq`."""
    return sum(1 for call in trace.backward_calls if call.seq < seq)


def _explain(trace: Trace, hazard: SavedHazard) -> Finding:
    change, node = hazard.change, trace.node(hazard.node)
    saved = next((s for s in (node.saved if node else []) if s.attr == hazard.attr), None)
    leaf = trace.leaf(change.leaf)
    what = leaf_words(leaf) if leaf else (f"a tensor ({shape_words(saved.shape, saved.dtype)})" if saved else "a tensor")
    how = "writes through `.data` into" if hazard.silent else "changes in place"
    story = (f"{op_words(change.op)} at {where(change.site)} {how} {what} that {node_words(node)} saved "
             "for its backward pass, and that backward has not run yet. Nothing failed in this run, "
             "because no backward went through this graph afterwards; ")
    if hazard.silent:
        story += ("one that does would raise nothing, since `.data` bypasses the version counter, and "
                  "would compute its gradient from the overwritten values: silently wrong.")
    else:
        story += ("one that does (the same code in training) raises \"one of the variables needed for "
                  "gradient computation has been modified by an inplace operation\".")
    fix = fix_for([change])
    if change.via and change.via.startswith("torch/optim/"):
        fix = (f"If the graph built at {where(node.site if node else None)} is never backpropagated (an "
               "evaluation pass), build it under `torch.no_grad()` (or `torch.inference_mode()`). If it is, "
               "call step() only after its backward has run, or run that forward pass again after step().")
    if hazard.silent:
        fix = ("Do not write through `.data` to values a graph still needs: make the change out of place, "
               "on a clone(), or after the backward.")
    return Finding.naming(
        RULE_ID, "error", "In-place change of a tensor saved for a backward that has not run", story, fix,
        [Location.at(node.site if node else None, "saved", "saved for backward"),
         Location.at(change.site, "modified", ("written through .data" if hazard.silent
                                               else f"in-place {op_words(change.op)}"))],
        {"attr": hazard.attr, "silent": hazard.silent, "node": node.name if node else None})
