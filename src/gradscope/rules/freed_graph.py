"""A backward reached graph buffers that an earlier backward already freed.

torch raises "Trying to backward through the graph a second time" and names no line. The
recorder marked, after each backward without retain_graph, the nodes it released, and found
post mortem which freed node the failing backward reached and from where.
"""

from __future__ import annotations

from ..analyses.modes import conditional_resets
from ..analyses.provenance import crossings
from ..analyses.settings import options_read
from ..trace.findings import Finding, Location
from ..trace.locations import Site, is_library_path, user_site
from ..trace.model import GRAD_CHECK_STEPS, BackwardCall, Node, Trace
from ..trace.queries import accumulates_into, earlier_use, frame_in_caller_of, model_call_site, project_files
from ..trace.source_search import (attribute_cache_check, branch_skipped_implies, caching_block, calls_named,
                                   carrying_statement, enclosing_condition,
                                   enclosing_loop, ineffective_detaches, kept_on_objects, passthrough_rebind,
                                   reads_a_parameter, same_function)
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
        finding.fix = _mark_twice(finding, call, freeing, freed) or (
            "Backpropagate each forward pass once: delete the extra backward call (one of the two is usually "
            "a leftover, or a library already calls backward on the loss you return). If two passes through "
            "one forward pass are really meant, run the forward pass again before the second, or pass "
            f"retain_graph=True to the first (at {where(freeing.site if freeing else None)}).")
    elif root is not None and freeing is not None and root.backwards_before <= freeing.index:
        finding.title = "Two backward calls share one graph; the first freed the shared part"
        finding.mark_fix(user_site(freeing.site), "this first backward frees the part of the graph that the loss "
                                                  f"backpropagated at {where(call.site)} also uses: sum the losses "
                                                  "and call backward once, or pass retain_graph=True here")
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
        # Where the new graph reaches into the freed one: the value made before the freeing
        # backward (where it got its graph), and the first op of this iteration that used it;
        # and the statement that keeps that value for the next iteration (`self.memory = m`).
        crossing, stored = _carried_crossing(trace, freeing, call)
        # A state carried on (an RNN's hidden state, a running memory) is made again each
        # iteration from its old value; a cached value (a kernel, a weight computed from the
        # parameters) is only read again. `.detach()` suits the first; for the second it would
        # stop the training of what it is made from: recompute it instead.
        # Neither applies where the backward that freed it does not train what made it (a
        # critic's backward that went through the generator's output): the use that put it into
        # that graph should have been detached.
        # (the same backward statement run again, as in a critic loop: the use that linked it into
        # the first graph is the use in the second; across two statements, `linked` below finds it)
        foreign = (crossing is not None and _next_iteration(freeing, call) and _steps_between(trace, freeing)
                   and not _trains_producer(trace, freeing, crossing.old)
                   and not _held_by_no_optimizer(trace, crossing.old))  # (else: made before the loop, below)
        if foreign:
            stored = None
        cached = (crossing is not None and _next_iteration(freeing, call) and not foreign
                  and not _made_before_the_loop(crossing.old.site, call.site)
                  and not _made_again(trace, freeing, crossing.old))
        if cached:
            stored, carried, loop_line = None, False, None
        # The use that put the tensor into the graph the first backward freed (a discriminator
        # step `netD(fake)`): where a detach() would keep it out.
        linked, linked_at_freeing, through_state = None, False, False
        # Nothing but the old tensor ties the failing loss to a parameter (a second loss built
        # from the logits of a forward whose backward ran): `.detach()` would leave it without a
        # graph; the tensor must be computed again.
        # (not where the freeing backward went through it without training what made it: the
        # use that put it there is the cause, a detach there the fix)
        recompute = (consumer is not None and freeing is not None and call.roots and not foreign
                     and not _new_part_trains(trace, call, freeing))
        if recompute:
            cached = False
        if not carried and not cached and not recompute and stored is None and freed is not None \
                and freeing is not None:
            use = earlier_use(trace, freed, freeing, consumer)
            # The user's own line of that use (inside a model's forward, where the detach goes),
            # else the call of the model it ran in.
            # (and every line where the failing loss uses it anew: a detach inside a model's
            # forward that both losses run would cut the second one too)
            named = [s for s in (freeing.site, consumer.site if consumer else None) if s is not None] \
                + [each.new.site for each in crossings(trace, call.roots, freeing.index + 1) if each.new.site]
            candidates = [user_site(use.site), model_call_site(trace, use)] if use is not None else []
            if len(candidates) == 2 and candidates[1] is None and candidates[0] is not None:
                # (a method that is not the module's forward, `D.forward_soft(fake)`: no module call
                # is recorded; its call before the freeing backward, in the backward's function)
                candidates[1] = _call_before(candidates[0], freeing.site)
            linked = next((c for c in candidates if c is not None and not any(
                (c.path, c.line) == (s.path, s.line) for s in named[1:])), None) or next(
                (c for c in candidates if c is not None), None)
            if linked is not None and freeing.site is not None \
                    and (linked.path, linked.line) == (freeing.site.path, freeing.site.line):
                linked_at_freeing = True  # `d_loss = D(fake).mean(); ...backward()` on one line
            if linked is not None and any((linked.path, linked.line) == (s.path, s.line) for s in named):
                linked = None  # the same line as the freeing backward or the new use: already named
            # The use was the new use's own line, run by an earlier forward (`torch.cat([h] + self.bank)`):
            # the tensor reaches it through state the model keeps between calls, not as an argument
            # of the model call, so no detach at that call would keep it out.
            # (the same model call both times too: two calls, `netD(fake)` for each loss, pass it along)
            again_by = model_call_site(trace, consumer) if consumer is not None else None
            through_state = (linked is not None and len(candidates) == 2 and candidates[0] is not None
                             and linked is candidates[1] and consumer is not None and consumer.site is not None
                             and (candidates[0].path, candidates[0].line) == (consumer.site.path, consumer.site.line)
                             and again_by is not None and (again_by.path, again_by.line) == (linked.path, linked.line))
        # Kept in a list on an object (a replay memory): it outlives the backward that frees it.
        kept = (kept_on_objects(consumer.site.path, consumer.site.line)
                if not carried and stored is None and linked is None and consumer is not None and consumer.site
                else [])
        library_twice = _library_backpropagates_users_loss(call, freeing, consumer)
        again = None if library_twice or stored is not None or linked_at_freeing else _helper_called_again(call, freeing)
        before_loop = (not library_twice and stored is None and not linked_at_freeing and again is None
                       and _made_before_the_loop(crossing.old.site if crossing else None, call.site))
        carried_fix = None
        kept_for_its_gradient = stored is not None and not _trains_besides_old(trace, crossing, freeing)
        entry = _entry_of(crossing) if stored is not None else None
        if library_twice:
            finding.title = "The loss is backpropagated twice: by this code and by the library"
            _mark_twice(finding, call, freeing, None)
        elif recompute and again is None:
            use = user_site(consumer.site)
            passed = _caller_passing(use) if use is not None and reads_a_parameter(use.path, use.line) else None
            finding.mark_fix(passed or use, f"{'passes' if passed else 'uses'} a tensor whose graph the backward at "
                                            f"{where(freeing.site)} freed, and this loss trains nothing else: compute "
                                            "it again with a new forward pass here (`.detach()` would leave the loss "
                                            "without a graph)")
        elif foreign:
            # (where the value went into the graph of the backward that freed it: the earlier use;
            # the new use of the failing loss may be the value's own, meant use)
            early = earlier_use(trace, crossing.old, freeing, None)
            use = (user_site(early.site) if early is not None else None) or user_site(crossing.new.site) \
                or crossing.new.site
            finding.mark_fix(use, f"puts the value made at {where(crossing.old.site)} into the graph of the backward "
                                  f"at {where(freeing.site)}, which does not train what made it and frees its graph: "
                                  "use `.detach()` of it here")
            carried_fix = (f"The backward at {where(freeing.site)} trains other parameters than those that made the "
                           f"value at {where(crossing.old.site)}, yet its graph goes through that value (used at "
                           f"{where(use)}), so it frees the value's graph and the next backward through it fails. Use "
                           "`.detach()` of the value there; retain_graph=True would only hide this (and let that "
                           "backward put gradients into the other model).")
        elif cached:
            hit, store = _cache_hit(crossing.old.site), _stored_at(user_site(crossing.old.site))
            # Two ways out, said as such: recompute on each pass, or keep a detached copy. The
            # copy first only where no optimizer step trains what the kept value was made from
            # (detaching a kernel made from a trained parameter would stop its training).
            stepped = {lid for step in trace.param_steps for lid in step.changed_leaves}
            detach_first = not accumulates_into(trace, crossing.old.id, stepped, limit=20_000)
            if store is not None and hit is not None and (store.path, store.line) != (hit.path, hit.line) \
                    and detach_first:
                finding.mark_fix(store, f"keeps the value made at {where(crossing.old.site)} for later passes with "
                                        "its graph, and no optimizer step trains what it was made from: store "
                                        "`.detach()` of it")
            finding.mark_fix(hit, f"reuses the value made at {where(crossing.old.site)} in an earlier iteration, "
                                  f"whose graph the backward at {where(freeing.site)} freed: recompute it for each "
                                  "forward pass (do not keep it across backward calls)")
        elif kept_for_its_gradient:
            # (a log-prob kept for a later update: `.detach()` of it would leave the term it
            # feeds without a gradient, as the op that uses it again takes nothing new)
            use = user_site(crossing.new.site)
            finding.mark_fix(use, f"uses again the value made at {where(crossing.old.site)}, whose graph the "
                                  f"backward at {where(freeing.site)} freed, and nothing new: `.detach()` of it "
                                  "would leave this term without a gradient; compute the value again here, "
                                  "from what was kept with it")
        elif entry is not None:
            finding.mark_fix(entry, f"the value kept from the previous iteration (made at "
                                                  f"{where(crossing.old.site)}) comes back in here with the graph "
                                                  f"that the backward at {where(freeing.site)} freed: take "
                                                  "`.detach()` of it here")
        elif stored is not None and _mark_skipped_reset(finding, trace, stored):
            pass
        elif stored is not None:
            finding.mark_fix(stored, f"keeps the value made at {where(crossing.old.site)} for the next iteration "
                                     f"with its graph, which the backward at {where(freeing.site)} frees: keep "
                                     "`.detach()` of it here")
        elif linked_at_freeing:
            finding.mark_fix(freeing.site, f"this backward also goes through the graph of the tensor made at "
                                           f"{where(freed.site if freed else None)}, and frees it: if it is not meant "
                                           "to train what made that tensor, use `.detach()` of the tensor here")
        elif again is not None:
            finding.mark_fix(again, f"calls again the code whose backward at {where(call.site)} already ran for "
                                    f"this graph (from {where(freeing.site.callers[-1])}): call it once")
        elif before_loop:
            entry = _graph_enters(trace, crossing.old)
            model_output = next((found for found in map(trace.node, entry.next_ids)
                                 if found is not None and found.module_call is not None), None)
            finding.add(Location.at(model_call_site(trace, model_output) if model_output else None, "created",
                                    "the model output whose graph the value carries"))
            if entry is not crossing.old:
                finding.mark_fix(entry.site, f"takes the graph of a model's output into the value that line "
                                             f"{crossing.old.site.line} makes once, before the loop whose first backward "
                                             "frees it: `.detach()` it here, if nothing before it is meant to train "
                                             "(or compute it inside the loop)")
            finding.mark_fix(crossing.old.site, "made once, before the loop whose first backward frees its graph: "
                                                "compute it inside the loop (or `.detach()` it, if nothing before it "
                                                "is meant to train)")
        else:
            carried_fix = _mark_carried(finding, trace, freed, loop_line, kept, None if through_state else linked,
                                        consumer, freeing, carried, call)
        if crossing is not None and not library_twice:
            made, used = (("value made once, before the loop", "used again in the next iteration") if before_loop
                          else ("value made in an earlier iteration", "used again in the next iteration")
                          if _next_iteration(freeing, call) else
                          ("value made before the first backward", "used again after it"))
            for each in _distinct(crossings(trace, call.roots, freeing.index + 1)):
                finding.add(Location.at(each.old.site, "created", made))
                finding.add(Location.at(each.new.site, "used", used))
        if not _names(finding, freed.site if freed else None, "created"):
            finding.add(Location.at(freed.site if freed else None, "created", "tensor made before that graph was freed"))
        for line, holder in kept:
            finding.add(Location.at(Site(consumer.site.path, line), "kept", f"kept in `{holder}`, across backward calls"))
        finding.add(Location.at(loop_line, "carried", "the loop feeds the old tensor back in here"))
        finding.add(Location.at(linked, "linked", "the earlier use that put it into the freed graph"))
        if stored is None and not _names(finding, consumer.site if consumer else None, "used"):
            finding.add(Location.at(consumer.site if consumer else None, "used", "used again in the new graph"))
        finding.add(Location.at(freeing.site if freeing else None, "freed", "its graph was freed here"))
        finding.add(Location.at(call.site, "backward", "backward fails here"))
        finding.explanation = (
            f"The graph of {call_words(call)} reaches back through a tensor made by {node_words(freed)} "
            f"before {freed_where}. "
            + ("The same line feeds its own earlier output back in: a value carried from one "
               "iteration into the next keeps the old graph attached."
               if carried else
               f"It is used again by {node_words(consumer)}, so backward tries to go through the old, "
               "already freed graph."))
        finding.fix = (
            "Cut the carried tensor from its old graph where the new iteration starts using it"
            + (f" (before the call at {where(loop_line)})" if loop_line else "") + ": "
            "`state = state.detach()` (truncated backpropagation), or compute it again inside "
            "the loop. retain_graph=True would only hide this: the graph would grow every iteration.")
        if kept:
            holder = kept[0][1]
            finding.fix = (
                f"`{holder}` keeps tensors with their graphs past the backward that frees them. Store "
                "what you need to rebuild them (states, actions) or `.detach()`ed values, and compute "
                "the tensors that need gradients again in the update. retain_graph=True would only hide this.")
        if stored is not None:
            finding.explanation = (
                f"The graph of {call_words(call)} reaches, through {node_words(crossing.new)}, into a value "
                f"made by {node_words(crossing.old)} in an earlier iteration. {where(stored)} keeps that value "
                f"for the next iteration together with its graph, and {freed_where}.")
            finding.fix = (
                f"Keep the value without its graph at {where(stored)} (`.detach()` it there): each iteration "
                "then backpropagates through its own graph only (truncated backpropagation). retain_graph=True "
                "would only hide this: the graph would grow every iteration.")
            if entry is not None:
                finding.fix = (
                    f"Take `.detach()` of the kept value where it comes back in, at {where(entry)}: each "
                    "iteration then backpropagates through its own graph only (truncated backpropagation). "
                    "retain_graph=True would only hide this: the graph would grow every iteration.")
            if kept_for_its_gradient:
                finding.fix = (
                    f"The value kept at {where(stored)} is used again at {where(crossing.new.site)} for its "
                    "gradient, by an op that takes nothing else that trains: `.detach()` of it would leave that "
                    "term without a gradient. Keep what is needed to compute it (states, actions) and compute "
                    "it again there, in the update. retain_graph=True would only hide this.")
        if recompute and again is None:
            finding.fix = (f"The loss of {call_words(call)} is built on a tensor made at "
                           f"{where(freed.site if freed else None)} before {freed_where}, and on nothing else that "
                           "trains. Compute that tensor again with a new forward pass for this loss (after the "
                           "optimizer step, if one ran in between). `.detach()` would leave the loss without a graph; "
                           "retain_graph=True on the first backward would make this loss use stale activations.")
        if cached:
            finding.fix = (f"The value made at {where(crossing.old.site)} is computed once and reused by later "
                           f"iterations, though the backward at {where(freeing.site)} freed its graph; nothing makes "
                           "it again from itself, so it is a cached value, not a state carried on. Recompute it for "
                           "each forward pass (clear such a cache after each backward, or do not cache what depends "
                           "on trained parameters). `.detach()` would stop the training of what it is made from; "
                           "retain_graph=True would only hide this.")
        if before_loop:
            finding.fix = (f"The value made at {where(crossing.old.site)} is computed once, before the loop, with a "
                           "graph that the first iteration's backward frees; every later iteration backpropagates "
                           "through it again. If what made it is meant to train, compute it inside the loop; if not, "
                           "compute it under `torch.no_grad()` (or `.detach()` it). retain_graph=True would only "
                           "hide this.")
        if again is not None:
            finding.fix = (f"The code that computes this loss and backpropagates it runs twice for one graph: "
                           f"from {where(freeing.site.callers[-1])} and again from {where(again)}. Call it once "
                           "and reuse what it returns. retain_graph=True would only hide this: the gradients "
                           "would be added twice.")
        if through_state:
            finding.fix = (
                f"The line at {where(consumer.site)} used the same tensor in an earlier forward and again in this "
                "one: the model keeps it between calls (a list or cache on a module, filled by a hook or by "
                "the forward), past the backward that freed its graph. Check where that state is reset: it "
                "must be emptied after every backward (or keep detached values in it). retain_graph=True "
                "would only hide this.")
            finding.fix_basis = "guess"
        elif linked is not None:
            finding.fix = (
                f"The earlier use at {where(linked)} put the tensor into the graph that "
                f"{call_words(freeing)} freed. If that backward is not meant to train what made the "
                "tensor, pass it detached there (`.detach()`); otherwise compute the tensor again for the "
                "second loss. retain_graph=True would only hide this.")
        if carried_fix:
            finding.fix = carried_fix
        reset = next((loc for loc in finding.locations if loc.role == "reset"), None)
        if reset is not None:
            finding.fix = (f"Reset the kept state before each pass that starts afresh: the reset at "
                           f"{where(reset)} runs only when its condition holds, so the other passes start from a "
                           "state whose graph the last backward freed. (`.detach()` of the kept state would also "
                           "stop the error, but keeps the state across passes that were meant to start afresh.)")
    finding.add(_repeating_loop(freeing, call))
    return finding


def _repeating_loop(freeing: BackwardCall | None, call: BackwardCall) -> Location | None:
    """The loop that ran one backward line twice over one graph (a critic updated five times on
    a batch whose fake samples carry the generator's graph): where the repetition comes from."""
    first, again = user_site(freeing.site) if freeing else None, user_site(call.site)
    if first is None or again is None or (first.path, first.line) != (again.path, again.line):
        return None
    for frame in [again, *reversed(again.callers)]:
        if is_library_path(frame.path) or frame.path.startswith("<"):
            continue
        loop = enclosing_loop(frame.path, frame.line)
        if loop is not None:
            return Location.at(Site(frame.path, loop[0], frame.function, frame.callers), "outer",
                               "repeats the backward over the same graph")
    return None


def _mark_twice(finding: Finding, call: BackwardCall, freeing: BackwardCall | None, loss: Node | None) -> str | None:
    """One graph backpropagated twice: which of the two calls to delete. Where a library makes one
    of them (Lightning's automatic optimization calls backward on the loss `training_step`
    returns), the user's own call is the extra one. Where one backward line ran twice, the
    second run is the mistake: a helper called again, or a loss made once before the loop."""
    first = freeing.site if freeing else None
    if (again := _helper_called_again(call, freeing)) is not None:
        finding.mark_fix(again, f"calls again the code whose backward at {where(call.site)} already ran for "
                                f"this graph (from {where(first.callers[-1])}): call it once")
        return (f"The code that computes this loss and backpropagates it runs twice for one graph: from "
                f"{where(first.callers[-1])} and again from {where(again)}. Call it once and reuse what it "
                "returns. retain_graph=True would only hide this: the gradients would be added twice.")
    made = user_site(loss.site) if loss is not None else None
    looped = _loop_frame(made, call.site) if _next_iteration(freeing, call) else None
    if looped is not None and (looped.path, looped.line) != (call.site.path, call.site.line):
        # (the backward is in a helper that the loop calls with the loss made before it)
        finding.mark_fix(looped, f"hands the loss made once at {where(made)}, before this loop, to "
                                 f"`{call.site.function}`, which backpropagates it, every iteration: compute the "
                                 "loss inside the loop and pass that")
    if looped is not None:
        finding.mark_fix(made, "the loss is made once, before the loop whose backward runs it again each "
                               "iteration: compute it inside the loop")
        return (f"The loss made at {where(made)} is computed once, before the loop, and each iteration "
                f"backpropagates it again. Compute it inside the loop, from that iteration's batch and the "
                "current parameters. retain_graph=True would only hide this: each step would reuse the old "
                "outputs and add their gradients again.")
    if first is not None and call.site is not None and is_library_path(call.site.path) \
            and not is_library_path(first.path):
        finding.mark_fix(first, f"library code backpropagates this loss again (from {where(user_site(call.site))}) "
                                "after this call freed its graph: delete this call")
        return
    if first is not None and is_library_path(first.path) and call.site is not None \
            and not is_library_path(call.site.path):
        finding.mark_fix(call.site, f"library code already backpropagated this loss (from "
                                    f"{where(user_site(first))}): delete this call")
        return
    finding.mark_fix(user_site(call.site), f"backpropagates again the graph that the backward at {where(first)} "
                                           "freed: delete one of the two calls (this one, if the loss is meant to "
                                           "be backpropagated once)")


def _mark_skipped_reset(finding: Finding, trace: Trace, kept: Site) -> bool:
    """Where the state kept at `kept` has a reset the program calls only under a condition (see
    conditional_resets): mark the option the condition reads and the condition (a `.detach()`
    would change the method: the state was meant to start afresh). Whether it found one."""
    files = project_files(trace)
    resets = conditional_resets(kept.path, kept.line, files)
    for condition, reset in resets:
        # (a reset skipped on the failing pass: what the `if` says of its options, when it is around the reset)
        skipped = branch_skipped_implies(condition.path, condition.line) \
            if (reset.path, reset.line) != (condition.path, condition.line) and enclosing_condition(reset.path, reset.line) == condition.line else {}
        for place, name, value in options_read(condition, files, expect=skipped):
            finding.mark_fix(place, f"sets `{name}` to {value}, which the condition at {where(condition)} reads: the "
                                    f"reset at {where(reset)} of the state kept at {where(kept)} is then skipped, and "
                                    "the next iteration starts from a state whose graph the backward freed")
        finding.mark_fix(condition, f"runs the reset at {where(reset)} of the state kept at {where(kept)} only on "
                                    "some iterations: the others start from a state whose graph the backward freed; "
                                    "reset it before each")
        finding.add(Location.at(reset, "reset", "resets the kept state, on some iterations only"))
    if resets:
        finding.add(Location.at(kept, "kept", "keeps the state, with its graph, for the next pass"))
    return bool(resets)


def _mark_carried(finding: Finding, trace: Trace, freed: Node | None, loop_line: Site | None, kept: list,
                  linked: Site | None, consumer: Node | None, freeing: BackwardCall | None, carried: bool,
                  call: BackwardCall) -> str | None:
    """A tensor from before the freeing backward, used again: the statement that carries it into
    the next iteration (found in the source; only when the failing backward is the freeing one's
    statement run again, `across` iterations), the loop line that feeds it back, the container
    that keeps it, or the earlier use that put it into the freed graph. Returns the fix text
    when the cause is one the finding's general text does not cover (a caching context)."""
    made = user_site(freed.site) if freed is not None else None
    across = _next_iteration(freeing, call)
    # A detach the program meant for this, which changes nothing it keeps (a loop variable
    # rebound to the detached tensor): the line to make effective.
    # (in the files of the value's making and of the failing backward's calls only)
    files = dict.fromkeys(f.path for f in ([made, *made.callers] if made is not None else [])
                          + ([call.site, *call.site.callers] if call.site is not None else [])
                          if not is_library_path(f.path)) if across else {}
    for path in files:
        for line in ineffective_detaches(path):
            finding.mark_fix(Site(path, line), "detaches only a loop variable: the tensors the state keeps are "
                                               "not changed and carry their freed graph into the next iteration "
                                               "(assign the detached tensors back, or use `detach_()`)")
    # Both backward calls inside a caching context (`with parametrize.cached():` around the
    # accumulation loop): it hands the first forward's value, with its freed graph, to the next.
    failing = user_site(call.site)
    cache = caching_block(failing.path, failing.line) if failing is not None and across else None
    if cache is not None:
        finding.mark_fix(Site(failing.path, cache, failing.function, failing.callers),
                         "caches what is computed inside it for every backward in the block: the first pass's "
                         "value, whose graph that backward frees, is handed to the next; enter it per forward pass, "
                         "or not at all")
        return ("Keep the cache to one forward pass: enter the caching context around each forward (or not at "
                "all), so that each backward gets values computed, with their graph, for it.")
    carry = carrying_statement(made.path, made.line) if made is not None and across else None
    # (a reset of that state exists but runs under a condition that skipped it: the condition,
    # and the option it reads, are what to change; keeping `.detach()` would change the method)
    resets = _mark_skipped_reset(finding, trace, Site(made.path, carry)) if carry is not None else False
    if carry is not None and not resets:
        finding.mark_fix(Site(made.path, carry, made.function, made.callers),
                         f"keeps the tensor made at {where(made)} for the next iteration with its graph, which the "
                         f"backward at {where(freeing.site if freeing else None)} frees: keep `.detach()` of it")
    elif loop_line is not None:
        finding.mark_fix(loop_line, "feeds the tensor from the previous iteration, with its freed graph, back in: "
                                    "pass it `.detach()`ed")
    elif kept and consumer is not None and consumer.site is not None:
        line, holder = kept[0]
        finding.mark_fix(Site(consumer.site.path, line), f"`{holder}` keeps the tensor with its graph past the "
                                                         "backward that frees it: keep what rebuilds it instead")
    elif linked is not None and _two_losses_one_step(trace, freeing, call):
        # Two losses of one step over one graph, each backpropagated on its own: keeping the
        # graph for the second is meant (a detach would cut what the second loss trains).
        finding.mark_fix(freeing.site, f"frees the graph that the next loss (backpropagated at {where(call.site)}, "
                                       "before any optimizer step) goes through again: pass `retain_graph=True` here, "
                                       "or add the losses and call backward once")
        return ("Two losses of the same step share this graph and are backpropagated one after the other: keep the "
                f"graph in the first backward (`retain_graph=True` at {where(freeing.site)}) or add the losses and "
                "call backward once.")
    elif linked is not None and consumer is not None and _trains_producer(trace, freeing, freed):
        # The freeing backward is the one that trains what made the tensor (its optimizer step
        # changed those parameters): the new use is the one that must not go through it.
        finding.mark_fix(user_site(consumer.site), "uses again a tensor whose graph the earlier backward, which "
                                                   "trains what made it, freed: use `.detach()` of it here")
    elif linked is not None:
        finding.mark_fix(linked, "puts the tensor into the graph that the earlier backward freed: pass it "
                                 "`.detach()`ed here if that backward is not meant to train what made it")
    elif carried and made is not None:
        finding.mark_fix(made, "feeds its own output from the previous iteration back in, with the graph that "
                               "iteration's backward freed: pass that value `.detach()`ed here")


def _carried_crossing(trace: Trace, freeing: BackwardCall | None, call: BackwardCall):
    """Where the failing backward's graph crosses from this iteration into the one the freeing
    backward freed, and the statement that stores the old value somewhere that outlives its
    function (`self.memory = m`): (crossing, that statement's Site), a stored one first; (None,
    None) when the graph does not cross."""
    if freeing is None or not call.roots:
        return None, None
    found = crossings(trace, call.roots, freeing.index + 1)
    if not _next_iteration(freeing, call):
        # Two backward statements of one iteration (a discriminator's, then a generator's):
        # `self.fake = G(z)` keeps the value for the second loss on purpose; detaching it there
        # would stop the generator's training. The earlier use that put it into the first
        # graph is the line to name (found by the caller).
        return (found[0] if found else None), None
    for crossing in found:
        stored = _stored_at(user_site(crossing.old.site))
        if stored is not None:
            return crossing, stored
    return (found[0] if found else None), None


def _next_iteration(freeing: BackwardCall, call: BackwardCall) -> bool:
    """Whether the failing backward is the freeing backward's own statement run again from the
    same callers (the loop's next iteration; not a helper called from two lines), so that a
    value kept on an object was carried across iterations."""
    return (freeing is not None and freeing.site is not None and call.site is not None
            and (freeing.site.path, freeing.site.line) == (call.site.path, call.site.line)
            and [(c.path, c.line) for c in freeing.site.callers] == [(c.path, c.line) for c in call.site.callers])


def _stored_at(made: Site | None) -> Site | None:
    """The statement that keeps the value made at `made` on an object: in the function that made
    it, or in one of the user's frames around it (`self._cache = self.encoder(x)` memoises what
    the encoder's forward made)."""
    if made is None:
        return None
    frames = (made, *reversed(made.callers))
    for depth, frame in enumerate(frames):
        line = carrying_statement(frame.path, frame.line)
        if line is not None:  # (frame `depth` out is made.callers[-depth]: its callers are those before it)
            return Site(frame.path, line, frame.function, made.callers[:len(made.callers) - depth])
    return None


def _distinct(found: list, limit: int = 2) -> list:
    seen, kept = set(), []
    for crossing in found:
        key = (crossing.old.site, crossing.new.site)
        if key not in seen and len(kept) < limit:
            seen.add(key)
            kept.append(crossing)
    return kept


def _library_backpropagates_users_loss(call: BackwardCall, freeing: BackwardCall | None, consumer: Node | None) -> bool:
    """The user's backward freed a graph that library code then used and backpropagated (a
    manual `loss.backward()` in a LightningModule's training_step, which returns the loss)."""
    return (freeing is not None and freeing.site is not None and not is_library_path(freeing.site.path)
            and call.site is not None and is_library_path(call.site.path)
            and (consumer is None or consumer.site is None or is_library_path(consumer.site.path)))


def _made_before_the_loop(made: Site | None, backward: Site | None) -> bool:
    """Whether the value made at `made` comes from before the loop around the backward at
    `backward` in its own function: computed once, then reused by every iteration."""
    found = _loop_frame(made, backward)
    return found is not None and found is backward


def _loop_frame(made: Site | None, backward: Site | None) -> Site | None:
    """The frame of the backward's stack (the backward itself, or a call of the helper that makes
    it) that a loop runs, where the value made at `made` comes from before that loop (in that
    frame's function: `made` itself, or the call in its chain made from there): computed once,
    then reused by every iteration. None where there is none."""
    if made is None or backward is None:
        return None
    for frame in (backward, *reversed(backward.callers)):
        if is_library_path(frame.path) or frame.path.startswith("<"):
            continue
        loop = enclosing_loop(frame.path, frame.line)
        if loop is None:
            continue
        here = (frame.path, frame.function)
        origin = next((f for f in (made, *reversed(made.callers)) if (f.path, f.function) == here), None)
        return frame if origin is not None and origin.line < loop[0] else None
    return None


def _helper_called_again(call: BackwardCall, freeing: BackwardCall | None) -> Site | None:
    """The same backward line, reached a second time from another line of the same caller (a
    helper that computes the loss and calls backward, run twice for one batch): that second call."""
    if freeing is None or freeing.site is None or call.site is None or freeing.site != call.site:
        return None
    first, second = freeing.site.callers, call.site.callers
    if not first or not second or first[-1] == second[-1] or (first[-1].path, first[-1].function) != (
            second[-1].path, second[-1].function):
        return None
    return second[-1]


def _names(finding: Finding, site: Site | None, role: str) -> bool:
    """Whether the finding names that line in that role already."""
    return site is not None and any((loc.path, loc.line, loc.role) == (site.path, site.line, role)
                                    for loc in finding.locations)


def _caller_passing(use: Site) -> Site | None:
    """The call that passed the value a function's line reads from its parameter: the recorded
    caller, else the one call of that function in its file (an op's site keeps no callers)."""
    if use.callers:
        return use.callers[-1]
    lines = calls_named(use.path, use.function) if use.function else []
    return Site(use.path, lines[0]) if len(lines) == 1 else None


def _made_again(trace: Trace, freeing: BackwardCall, old: Node) -> bool:
    """Whether the line that made `old` made the same op again after the freeing backward: a
    value computed each iteration (a recurrent state, a running memory), as opposed to one
    made once and only read again (a cache)."""
    where_old = user_site(old.site)
    if where_old is None:
        return True  # (unknown: keep the state reading)
    for node in trace.nodes.values():
        if node.backwards_before > freeing.index and node.name == old.name:
            here = user_site(node.site)
            if here is not None and (here.path, here.line) == (where_old.path, where_old.line):
                return True
    return False


def _cache_hit(made: Site | None) -> Site | None:
    """The `if` that returns the stored value instead of making it again (`if self._key == key:
    return self._cache`), else the statement that stores it (a memo filled once)."""
    made = user_site(made)
    if made is None:
        return None
    stored = _stored_at(made)
    if stored is None:
        return None
    line = attribute_cache_check(stored.path, stored.line)
    # (no separate hit branch, `if self._x is None: self._x = ...`: the store is the line)
    return Site(stored.path, line, stored.function) if line is not None else stored


def _new_part_trains(trace: Trace, call: BackwardCall, freeing: BackwardCall) -> bool:
    """Whether the failing loss's new graph (its ops made after the freeing backward) reaches a
    leaf of its own, or runs inside a module: something it trains besides what flows through
    the old tensor."""
    return _reaches_training(trace, list(call.roots), freeing)


def _trains_besides_old(trace: Trace, crossing, freeing: BackwardCall) -> bool:
    """Whether the op that uses an old value in the new graph also takes something that trains
    (a parameter, or an op inside a module) other than values made where the old one was (all
    of which a `.detach()` there would cut), so that it keeps a gradient; unknown: assume so."""
    if crossing is None or crossing.old.site is None:
        return True
    made = (crossing.old.site.path, crossing.old.site.line)
    return _reaches_training(trace, [crossing.new.id], freeing, skip=lambda node: node is not crossing.new
                             and node.site is not None and (node.site.path, node.site.line) == made)


def _reaches_training(trace: Trace, start: list[int], freeing: BackwardCall, skip=None) -> bool:
    """Walking down from `start` through nodes made after the freeing backward (and not
    `skip`ped): whether one holds a leaf or runs inside a module (whose parameters train)."""
    seen, stack = set(), list(start)
    while stack and len(seen) < 10_000:
        node = trace.node(stack.pop())
        if node is None or node.id in seen or node.backwards_before <= freeing.index or (skip and skip(node)):
            continue
        seen.add(node.id)
        if node.leaf_ids or node.module_call is not None:
            return True
        stack.extend(node.next_ids)
    return False


def _call_before(inside: Site, backward: Site | None) -> Site | None:
    """The one call of the function that runs `inside` made, in the backward's function, on a
    line before the backward."""
    if backward is None or not inside.function or is_library_path(backward.path):
        return None
    lines = [line for line in calls_named(backward.path, inside.function, limit=8)
             if line < backward.line and same_function(backward.path, line, backward.line)]
    return Site(backward.path, lines[-1], backward.function, backward.callers) if len(lines) == 1 else None


def _graph_enters(trace: Trace, node: Node, limit: int = 12) -> Node:
    """Up the inputs of a value a function computes, through its own ops on its earlier lines
    (not a model's, not another function's): the first of them, where a model's output (or a
    leaf) brought the graph in (`advantages = targets - values` under the normalisation of
    `advantages`). `node` itself when there is none."""
    here = node.site
    current = node
    for _ in range(limit):
        inner = next((found for found in map(trace.node, current.next_ids)
                      if found is not None and found.site is not None and found.module_call is None
                      and (found.site.path, found.site.function) == (here.path, here.function)
                      and found.site.line <= current.site.line), None) if here is not None and current.site else None
        if inner is None:
            return current
        current = inner
    return current


def _entry_of(crossing) -> Site | None:
    """The statement, before the new use of a value kept on an object, that binds it again from
    itself (`self.cache = self.cache.to(x)`): where it comes back into the iteration."""
    use = user_site(crossing.new.site) if crossing is not None else None
    if use is None:
        return None
    line = passthrough_rebind(use.path, use.line)
    return Site(use.path, line, use.function, use.callers) if line is not None else None


def _steps_between(trace: Trace, call: BackwardCall | None) -> bool:
    """Whether the ledger holds an optimizer step between backward `call` and the next one."""
    if call is None:
        return False
    later = next((c for c in trace.backward_calls if c.seq > call.seq), None)
    return any(s.seq > call.seq and (later is None or s.seq < later.seq) for s in trace.param_steps)


def _two_losses_one_step(trace: Trace, freeing: BackwardCall | None, call: BackwardCall) -> bool:
    """Whether the failing backward is another loss's (other roots), in the same iteration, with
    no optimizer step between the two backward calls, as far as the ledger can tell (its first
    steps of each optimizer: a step it does not hold could lie between)."""
    if freeing is None or freeing.site is None or _next_iteration(freeing, call) or set(freeing.roots) & set(call.roots):
        return False
    counts: dict[int, int] = {}
    for step in trace.param_steps:
        if step.seq < call.seq:
            counts[step.optimizer_index] = counts.get(step.optimizer_index, 0) + 1
    if any(n >= GRAD_CHECK_STEPS for n in counts.values()):
        return False  # (past the ledger's window: a step between would not be known)
    return not any(freeing.seq < step.seq < call.seq for step in trace.param_steps)


def _held_by_no_optimizer(trace: Trace, made: Node | None) -> bool:
    """Whether what made the value has parameters that got gradients but no optimizer holds (a
    projection computed once, before the loop, and never trained)."""
    stray = {lid for h in trace.grad_hazards if h.kind == "not-in-optimizer" for lid in h.leaves}
    return bool(stray) and made is not None and accumulates_into(trace, made.id, stray, limit=2_000)


def _trains_producer(trace: Trace, call: BackwardCall | None, made: Node | None) -> bool:
    """Whether the optimizer step after backward `call` (before the next backward) changed a
    parameter that the graph behind `made` accumulates into: that backward trains what made it."""
    if call is None or made is None:
        return False
    later = next((c for c in trace.backward_calls if c.seq > call.seq), None)
    steps = [s for s in trace.param_steps if s.seq > call.seq and (later is None or s.seq < later.seq)]
    if not steps:
        return False
    leaves, seen, stack = set(), set(), [made.id]
    while stack and len(seen) < 10_000:
        node = trace.node(stack.pop())
        if node is None or node.id in seen:
            continue
        seen.add(node.id)
        leaves.update(node.leaf_ids)
        stack.extend(node.next_ids)
    return any(leaves & set(step.changed_leaves) for step in steps)
