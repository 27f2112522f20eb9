"""A backward reached graph buffers that an earlier backward already freed.

torch raises "Trying to backward through the graph a second time" and names no line. The
recorder marked, after each backward without retain_graph, the nodes it released, and found
post mortem which freed node the failing backward reached and from where.
"""

from __future__ import annotations

from ..trace.findings import Finding, Location
from ..trace.locations import Site
from ..trace.model import BackwardCall, Node, Trace
from ..trace.queries import earlier_use, frame_in_caller_of, model_call_site
from ..trace.source_search import kept_on_objects
from ._words import backward_call, call_words, node_words, uncaught_note, where

RULE_ID = "backward-through-freed-graph"


def check(trace: Trace) -> list[Finding]:
    return [_explain(trace, call) for call in trace.backward_calls if call.freed_failures]


def _freeing_call(trace: Trace, freed: Node | None, failing: BackwardCall) -> BackwardCall | None:
    if freed is not None and freed.freed_by is not None:
        return backward_call(trace, freed.freed_by)
    # Not marked (e.g. freed by a call made before recording): the last call that could have.
    candidates = [c for c in trace.backward_calls
                  if c.index < failing.index and not c.retain_graph and c.error is None
                  and (freed is None or c.seq > freed.seq)]
    return candidates[-1] if candidates else None


def _explain(trace: Trace, call: BackwardCall) -> Finding:
    first = call.freed_failures[0]
    freed = trace.node(first.freed_node)
    consumer = trace.node(first.consumer_node)
    freeing = _freeing_call(trace, freed, call)
    root = trace.node(call.roots[0]) if call.roots else None

    finding = Finding(rule=RULE_ID, severity="error", title="", explanation="", fix="",
                      details={**uncaught_note(trace, call=call),
                               "freed_by_call": freeing.index if freeing else None})
    freed_where = f"{call_words(freeing)} freed it" if freeing else "an earlier backward freed it"

    if consumer is None:
        finding.title = "backward() called twice on the same graph"
        finding.add(Location.at(freed.site if freed else None, "created", "graph built"))
        finding.add(Location.at(freeing.site if freeing else None, "freed", "first backward frees the graph"))
        finding.add(Location.at(call.site, "backward", "second backward fails"))
        finding.explanation = (
            f"{call_words(call)} runs backward through the graph of {node_words(freed)} again, but "
            f"{freed_where}: after a backward pass autograd releases the tensors it saved.")
        finding.fix = (
            "Run the forward pass again before the second backward. If you really need two backward "
            f"passes through one forward pass, pass retain_graph=True to the first one "
            f"(at {where(freeing.site if freeing else None)}).")
    elif root is not None and freeing is not None and root.backwards_before <= freeing.index:
        finding.title = "Two backward calls share one graph; the first freed the shared part"
        finding.add(Location.at(freed.site if freed else None, "created", "shared part built"))
        finding.add(Location.at(consumer.site, "used", "second loss built on it"))
        finding.add(Location.at(freeing.site, "freed", "first backward frees it"))
        finding.add(Location.at(call.site, "backward", "second backward fails"))
        finding.explanation = (
            f"The loss of {call_words(call)} was built on {node_words(freed)}, which the graph of an "
            f"earlier loss also uses. {freed_where} before this backward reached it.")
        finding.fix = (
            "Add the losses and call backward once (`(loss_a + loss_b).backward()`), or pass "
            f"retain_graph=True to the first backward call (at {where(freeing.site)}) if both "
            "backward passes are really needed separately.")
    else:
        finding.title = "This loss reuses a tensor whose graph an earlier backward freed"
        carried = (consumer is not None and freed is not None and consumer.site == freed.site)
        # The line that carries it: the loop's own call that feeds the state back in (the
        # model call, when the state is made inside the model's forward). The fix goes there.
        loop_line = frame_in_caller_of(freed.site, call.site) if carried else None
        # The use that put the tensor into the graph the first backward freed (a GAN's
        # discriminator step `netD(fake)`): where a detach() would keep it out.
        linked = None
        if not carried and freed is not None and freeing is not None:
            use = earlier_use(trace, freed, freeing, consumer)
            linked = (model_call_site(trace, use) or use.site) if use is not None else None
            named = [s for s in (freeing.site, consumer.site if consumer else None) if s is not None]
            if linked is not None and any((linked.path, linked.line) == (s.path, s.line) for s in named):
                linked = None  # the same line as the freeing backward or the new use: already named
        # Kept in a list on an object (a replay memory): it outlives the backward that frees it.
        kept = (kept_on_objects(consumer.site.path, consumer.site.line)
                if not carried and linked is None and consumer is not None and consumer.site else [])
        finding.add(Location.at(freed.site if freed else None, "created", "tensor made before that graph was freed"))
        for line, holder in kept:
            finding.add(Location.at(Site(consumer.site.path, line), "kept", f"kept in `{holder}`, across backward calls"))
        finding.add(Location.at(loop_line, "carried", "the loop feeds the old tensor back in here"))
        finding.add(Location.at(linked, "linked", "the earlier use that put it into the freed graph"))
        finding.add(Location.at(consumer.site if consumer else None, "used", "used again in the new graph"))
        finding.add(Location.at(freeing.site if freeing else None, "freed", "its graph was freed here"))
        finding.add(Location.at(call.site, "backward", "backward fails here"))
        finding.explanation = (
            f"The graph of {call_words(call)} reaches back through a tensor made by {node_words(freed)} "
            f"before {freed_where}. "
            + ("The same line feeds its own earlier output back in: a state carried across "
               "iterations (an RNN hidden state, a running total) keeps the old graph attached."
               if carried else
               f"It is used again by {node_words(consumer)}, so backward tries to go through the old, "
               "already freed graph."))
        finding.fix = (
            "Cut the carried tensor from its old graph where the new iteration starts using it"
            + (f" (before the call at {where(loop_line)})" if loop_line else "") + ": "
            "`h = h.detach()` (truncated backpropagation through time), or compute it again inside "
            "the loop. For a GAN's fake batch, use `D(fake.detach())` for the discriminator loss. "
            "retain_graph=True would only hide this: the graph would grow every iteration.")
        if kept:
            holder = kept[0][1]
            finding.fix = (
                f"`{holder}` keeps tensors with their graphs past the backward that frees them. Store "
                "what you need to rebuild them (states, actions) or `.detach()`ed values, and compute "
                "the tensors that need gradients again in the update (for REINFORCE: the log-probabilities "
                "of the stored actions). retain_graph=True would only hide this.")
        if linked is not None:
            finding.fix = (
                f"The earlier use at {where(linked)} put the tensor into the graph that "
                f"{call_words(freeing)} freed. If that backward is not meant to train what made the "
                "tensor, pass it detached there (a GAN's discriminator step: `netD(fake.detach())`); "
                "otherwise compute the tensor again for the second loss. retain_graph=True would "
                "only hide this.")
    return finding
