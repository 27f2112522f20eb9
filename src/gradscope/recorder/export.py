"""The trace: a read of what the parts recorded, resolved into plain data. Changes nothing in them."""

from __future__ import annotations

import dataclasses

from ..trace.locations import MAX_CALLERS, resolve
from ..trace.model import (MODE_DEPENDENT, BuiltInForward, DdpForward, Leaf, ModeSet, ModeSwitch, ModuleCall, ModuleFlag, Node,
                           SavedTensor, StateLoad, Trace)
from .reads import dtype_name
from .records import BACKWARDS_BEFORE, HOOKED, LATE, LEAF_IDS, LOC, MODULE, NAME, NEXT_IDS, NID, OP, SAVED, SEQ

_EVENT_TARGETS = {"escape": "escapes", "grad_read": "grad_reads", "hook": "hooks", "stale": "stale_links",
                  "revival": "revivals", "moved": "leaves_moved", "freeze": "freezes", "dead_term": "dead_terms", "unfreeze": "unfreezes",
                  "clip": "clips", "unscale": "unscales"}


def export(trace: Trace, *, graph, leaves, modules, cuts, events, inplace, backward_calls, op_failures,
           gradient_hazards, nan_origins, grad_resets, functions, first_steps=(), param_steps=(),
           mode_sets=(), state_loads=()) -> Trace:
    """Fill `trace` from the parts (see recorder.Recorder.to_trace for who they are)."""
    trace.ddp_parameters = list(modules.ddp_parameters)
    if modules.ddp_rank is not None:
        trace.meta["ddp_rank"] = modules.ddp_rank
    trace.ddp_forwards = [DdpForward(resolve(loc), before, broadcasts) for loc, before, broadcasts in modules.ddp_forwards]
    records = dict(graph.records)
    records.update(graph.pinned)
    for kept in [graph.last_graph, *graph.failed_graphs]:
        records.update((r[NID], r) for r in kept)
    versions_now = _versions_now(inplace.changes)
    call_seqs = {call.index: call.seq for call in backward_calls}
    for record in records.values():
        nid = record[NID]
        ran_by = graph.ran.get(nid)
        module_call = _module_call(trace, modules, record[MODULE])
        trace.nodes[nid] = Node(
            id=nid, name=record[NAME], op=record[OP],
            site=_reached_through(resolve(record[LOC]), trace.module_calls.get(module_call)),
            seq=record[SEQ], backwards_before=record[BACKWARDS_BEFORE],
            saved=[_saved(s, record[SEQ], versions_now, call_seqs.get(ran_by)) for s in record[SAVED]],
            freed_by=graph.freed.get(nid), ran_by=ran_by, first_seen_late=record[LATE],
            next_ids=list(record[NEXT_IDS]), leaf_ids=[i for i in record[LEAF_IDS] if i is not None],
            module_call=module_call, saved_unknown=record[HOOKED],
        )
    trace.module_flags = [_module_flag(flag, modules, leaves) for flag in modules.flags]  # (pins leaves)
    for cid, call in list(modules.calls.items()):  # the calls of whole models (two names, one model?)
        if call[2] is None:
            _module_call(trace, modules, cid)
    trace.mode_switches = [ModeSwitch(module=modules.described(module_id, seq=seq)[0], module_type=type_name,
                                      training=training if isinstance(training, bool) else None,
                                      backwards_before=backwards, steps_before=steps, seq=seq, site=resolve(loc),
                                      module_id=module_id)
                           for module_id, type_name, training, backwards, steps, seq, loc in modules.mode_switches]
    trace.state_loads = [StateLoad(seq, type_name, backwards, steps, resolve(loc), tensors)
                         for seq, type_name, backwards, steps, loc, tensors in state_loads]
    trace.mode_sets = [ModeSet(seq, module_id, modules.described(module_id, seq=seq)[0], type_name, training, backwards,
                               resolve(loc), [tuple(entry) for entry in undid])
                       for seq, module_id, type_name, training, backwards, loc, undid in mode_sets]
    if any(switch[2] is False for switch in modules.mode_switches):
        # the layers that make eval mode matter: in eval mode they make no node, so no call of
        # theirs is exported above (their last call each, a few)
        last: dict = {}
        for cid, call in modules.calls.items():
            if call[1].startswith(MODE_DEPENDENT):
                last[call[0]] = cid
        for cid in list(last.values())[-8:]:
            _module_call(trace, modules, cid)
    trace.frozen_norms = list(modules.frozen_norms)
    trace.frozen_since = list(modules.frozen_norms.values())
    try:
        trace.unfed_norms = modules.unfed_norms()
    except Exception:  # a read that failed is a fact not known
        trace.unfed_norms = []
    evaluating = [cid for cid, call in modules.calls.items() if call[0] in trace.unfed_norms and call[4] is False]
    for cid in evaluating[-4:]:  # their last evaluating calls, for the finding to name
        _module_call(trace, modules, cid)
    if modules.frozen_norms:  # their calls in train mode (no node is made in a frozen layer: not exported above)
        shown = [cid for cid, call in modules.calls.items()
                 if call[4] is True and cid > modules.frozen_norms.get(call[0], cid)]
        for cid in shown[-4:]:
            _module_call(trace, modules, cid)
    trace.first_calls = {type_name: resolve(loc) for type_name, loc in list(modules.first_calls.items())[:500]}
    trace.built_in_forward = [BuiltInForward(resolve(loc), type_name, inside)
                              for loc, type_name, inside in modules.built_in_forward.values()]
    for leaf in list(leaves.records.values()):
        trace.leaves[leaf.lid] = Leaf(id=leaf.lid, name=leaf.name, kind=leaf.kind, shape=leaf.shape,
                                      dtype=dtype_name(leaf.dtype), site=resolve(leaf.loc), owner=leaf.owner,
                                      tied=next((n for n in leaf.tied or () if n != leaf.name), None))
    trace.inplace_changes = [dataclasses.replace(change, site=resolved(change.site),
                                                 module_call=_module_call(trace, modules, change.module_call))
                             for change in inplace.changes]
    trace.backward_calls = [_with_site(call) for call in backward_calls]
    trace.op_failures = [dataclasses.replace(_with_site(failure), module_call=_module_call(trace, modules, failure.module_call))
                         for failure in op_failures]
    for cut in cuts.cuts.values():
        module = cut.module
        trace.cuts[cut.id] = dataclasses.replace(
            cut, site=resolved(cut.site), grad_off_site=resolved(cut.grad_off_site),
            input_node=cut.input_node if cut.input_node in trace.nodes else None,
            module=modules.described(module, seq=cut.seq)[0] if isinstance(module, int) else module)
    for kind, target in _EVENT_TARGETS.items():
        getattr(trace, target).extend(_with_site(event) for event in events.by_kind[kind].values())
    trace.grad_hazards = [dataclasses.replace(hazard, site=resolved(hazard.site), zero_sites=[resolved(s) for s in hazard.zero_sites],
                                              backward_site=resolved(hazard.backward_site),
                                              container_sites=[resolved(s) for s in hazard.container_sites])
                          for hazard in gradient_hazards]
    trace.saved_hazards = [dataclasses.replace(hazard, change=_with_site(hazard.change))
                           for hazard in inplace.hazards]
    trace.nan_origins = list(nan_origins)
    trace.first_steps = [_with_site(step) for step in first_steps]
    trace.param_steps = [dataclasses.replace(_with_site(step), backward_sites=[resolved(s) for s in step.backward_sites])
                         for step in param_steps]
    trace.grad_resets = list(grad_resets)
    trace.functions.update(functions)
    return trace


def _module_flag(flag, modules, leaves) -> ModuleFlag:
    ref, type_name, value, trainable, name = flag
    module = ref()
    if module is not None:  # alive: as it is now (frozen properly later, it is fine)
        trainable = [leaves.pinned_id(p) for p in modules.trainable_parameters(module)[:8]]
        name = modules.names.get(id(module), name)
    return ModuleFlag(module=name, module_type=type_name, value=value, trainable=list(trainable))


def resolved(location):
    """A Site from a raw location; already resolved ones (or None) as they are."""
    return resolve(location) if isinstance(location, tuple) else location


def _reached_through(site, module_call):
    """A node's own line, with the callers of the module call it was made in (the node's own
    capture, per op, has no callers; the module call's, once per call, does)."""
    if site is None or module_call is None or module_call.site is None or site.callers:
        return site  # (a node with its own callers: a custom Function placed at its apply)
    outer = module_call.site
    chain = outer.callers if (outer.path, outer.line) == (site.path, site.line) else (*outer.callers, outer)
    return dataclasses.replace(site, callers=tuple(chain[-MAX_CALLERS:])) if chain else site


def _with_site(event):
    return dataclasses.replace(event, site=resolved(event.site))


def _module_call(trace: Trace, modules, cid: int | None) -> int | None:
    """Add a module call and its parents to the trace; the cid if it is known."""
    calls = modules.calls
    first, known = cid, cid in calls if cid is not None else False
    while cid is not None and cid not in trace.module_calls and cid in calls:
        module_id, type_name, parent, loc, training = calls[cid]
        name, registered = modules.described(module_id, cid)
        trace.module_calls[cid] = ModuleCall(id=cid, type=type_name, name=name,
                                             parent=parent if parent in calls else None, site=resolve(loc),
                                             module=module_id, registered_at=resolve(registered) if registered else None,
                                             training=training if isinstance(training, bool) else None)
        cid = parent
    return first if known or first in trace.module_calls else None


def _versions_now(changes) -> dict:
    """storage -> [(seq, version after)] of every recorded in-place change, in order."""
    by_storage: dict = {}
    for change in changes:
        if change.storage is not None and not change.bypasses_version:
            by_storage.setdefault(change.storage, []).append((change.seq, change.version_after))
    return by_storage


def _saved(saved, saved_at_seq, versions_now, ran_seq=None) -> SavedTensor:
    attr, shape, dtype, device, version, storage, producer_node, producer_leaf = saved
    now = at_backward = version
    for seq, after in versions_now.get(storage, ()):
        if seq > saved_at_seq:
            now = max(now, after)
            if ran_seq is not None and seq < ran_seq:
                at_backward = max(at_backward, after)
    return SavedTensor(attr=attr, shape=shape, dtype=dtype_name(dtype), device=str(device),
                       version=version, storage=storage, producer_node=producer_node,
                       producer_leaf=producer_leaf, version_now=now,
                       version_at_backward=at_backward if ran_seq is not None else None)
