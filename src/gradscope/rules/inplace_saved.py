"""A tensor saved for backward was changed in place before the backward that needs it.

torch raises "one of the variables needed for gradient computation has been modified by an
inplace operation" and names neither line. The recorder found, post mortem, the node whose
saved tensor is stale; here we add where it was saved, where it came from, and every in-place
change to the same memory after the save.
"""

from __future__ import annotations

import re

from ..analyses.provenance import crossings_at
from ..analyses.modes import module_built_at
from ..trace.findings import Finding, Location
from ..trace.locations import Site, source_line, user_site
from ..trace.model import BackwardCall, InplaceChange, Trace
from ..trace.queries import changes_after_save, frame_in_caller_of, model_call_site, saved_tensor_of, user_files
from ..trace.source_search import (alias_assignment, rebinds_own_tensor, views_handed_out, attribute_set_to, names_written, constructor_calls, constructor_calls_in, saved_tensors_changed,
                                   writes_an_argument, writes_own_local, calls_in_function, assignments, same_function, sibling_method)
from ._words import ACTIVATIONS, call_words, leaf_words, node_words, op_words, shape_words, uncaught_note, where
from .ddp import DDP_BUFFERS_FIX, buffer_written_by_ddp

RULE_ID = "inplace-modified-saved-tensor"


def check(trace: Trace) -> list[Finding]:
    return [_explain(trace, call) for call in trace.backward_calls if call.version_failure is not None]


def _explain(trace: Trace, call: BackwardCall) -> Finding:
    failure = call.version_failure
    node = trace.node(failure.node)
    saved = saved_tensor_of(node.saved if node else [], failure.attr, failure.expected_version)
    changes = changes_after_save(trace, node, saved, call)

    finding = Finding(
        rule=RULE_ID,
        severity="error",
        title="A tensor saved for backward was modified in place",
        explanation="",
        fix=fix_for(changes),
        details={**uncaught_note(trace, call=call), "attr": failure.attr,
                 "expected_version": failure.expected_version, "current_version": failure.current_version},
    )
    produced_by = None
    if saved is not None:
        if saved.producer_node is not None and saved.producer_node != failure.node:
            producer = trace.node(saved.producer_node)
            produced_by = f"the output of {node_words(producer)}" if producer else None
            if producer is not None and node is not None and producer.site != node.site:
                finding.add(Location.at(producer.site, "created", "tensor produced"))
        elif saved.producer_node == failure.node:
            produced_by = f"the output of that same {op_words(node.op)}"
        elif saved.producer_leaf is not None:
            leaf = trace.leaf(saved.producer_leaf)
            produced_by = leaf_words(leaf)
            finding.add(Location.at(leaf.site if leaf else None, "created", "leaf created"))
    finding.add(Location.at(node.site if node else None, "saved", "saved for backward"))
    if saved is not None and saved.producer_node is None and saved.producer_leaf is None and changes:
        # (made where no graph was recorded, under no_grad: from the source, where the name the
        # write changes was bound)
        written = user_site(changes[0].site)
        names = [n.split("[")[0] for n in names_written(written.path, written.line)] if written else []
        made = assignments(written.path, names[0], before=written.line) if names and names[0].isidentifier() else []
        if made and same_function(written.path, made[-1], written.line):
            finding.add(Location.at(Site(written.path, made[-1], written.function, written.callers), "created",
                                    "makes the tensor the write changes"))
    # (saved inside a library layer built in a loop of the program: the statement that built it)
    saver = trace.module_calls.get(node.module_call) if node is not None and node.module_call is not None else None
    built_at = module_built_at(saver, tuple(user_files(trace)[:24])) if saver is not None else None
    finding.add(Location.at(built_at, "created", f"builds the `{saver.type}` whose forward saved it") if built_at else None)
    stepped = any(_by_optimizer(c) for c in changes)
    if not stepped and any(_updates_a_parameter(trace, c, saved) for c in changes):
        finding.fix = ("The program's own update of the parameters (under no_grad, between a forward and a backward "
                       "that needs its saved weights) changed them in place. If that update is meant to come between "
                       "the two (a perturbation, as in SAM), do not reuse for the second loss what the first forward "
                       "computed: compute it again after the update, or `.detach()` it where it is reused.")
    # An optimizer step between a forward and its backward: the line to change is the one that
    # ran that forward through the stepped model (its outermost module call), not the layer
    # inside it that saved the weight.
    built = model_call_site(trace, node) if stepped and node is not None else None
    finding.add(Location.at(built, "built", "the forward through the stepped module"))
    for change in changes:
        finding.add(Location.at(change.site, "modified", f"in-place {op_words(change.op)}"))
    built_inplace = inplace_constructors(trace, [c.module_call for c in changes if c.inplace_kwarg]
                                         + [node.module_call if node else None])
    _mark_fix(finding, trace, node, saved, changes, built, built_inplace, call)
    # No recorded op changed it: a custom Function's backward (whose ops run inside autograd, out of
    # gradscope's sight) may change its own saved tensors; its source says so.
    own_writes = _backward_writes_saved(trace, node) if not changes else []
    for site in own_writes:
        finding.add(Location.at(site, "modified", "the Function's backward changes its saved tensor in place"))
        finding.mark_fix(site, "the Function's backward changes, in place, the tensor it saved: the next backward "
                               "through this graph finds it changed; work on a copy (drop the trailing _)")
    if changes:
        # (saved by a custom Function's forward: saving a copy there is the other fix)
        for site in _function_saves(trace, node):
            finding.add(Location.at(site, "saved", "the Function's forward saves it"))
            finding.mark_fix(site, "or save a copy here (`.clone()` of the tensor changed later), so the change "
                                   "made after the forward does not reach the backward")
    if own_writes:
        finding.fix = ("Do not modify saved tensors in backward: compute a new tensor (`grad = grad * grad_output`) "
                       "instead of `grad.mul_(grad_output)`.")
    ddp_pair = buffer_written_by_ddp(trace, call) if not changes else None
    if ddp_pair is not None:
        finding.add(Location.at(ddp_pair[0].site, "forward", "first DDP forward: its BatchNorm saved the buffers"))
        finding.add(Location.at(ddp_pair[1].site, "again", "second DDP forward: DDP rewrites the buffers"))
        finding.fix = DDP_BUFFERS_FIX
    finding.add(Location.at(call.site, "backward", "backward fails here"))

    what = shape_words(saved.shape, saved.dtype) if saved else "A tensor"
    story = [f"{call_words(call)} needs a tensor ({what}) that {node_words(node)} saved for its backward pass"
             + (f"; it is {produced_by}." if produced_by else ".")]
    story.append(f"It was saved at version {failure.expected_version}, but it is now at version "
                 f"{failure.current_version}:")
    if changes:
        lines = ", ".join(f"{op_words(c.op)} at {where(c.site)}" for c in changes)
        story.append(f"it was changed in place by {lines} after it was saved.")
    elif ddp_pair is not None:
        first, second = ddp_pair
        story.append(f"DistributedDataParallel changed it: called again at {where(second.site)} before this "
                     f"backward, it copied rank 0's buffers into the model in place (broadcast_buffers=True), "
                     f"and `{failure.attr.removeprefix('_saved_')}` is a BatchNorm running statistic that the "
                     f"forward at {where(first.site)} saved.")
    elif own_writes:
        story.append(f"the custom Function's own backward changes the tensor it saved, in place (at "
                     f"{', '.join(where(s) for s in own_writes)}), so a second backward through the same graph "
                     "finds it changed.")
    else:
        story.append("it was changed in place by code gradscope did not see (another thread, a C++ "
                     "extension, or a write through an alias made before recording started).")
    story.append("Autograd would compute a wrong gradient from the changed value, so it stops.")
    if built is not None:
        story.append(f"That forward pass ran at {where(built)}, before the step.")
    finding.explanation = " ".join(story)
    return finding


def _mark_fix(finding: Finding, trace: Trace, node, saved, changes: list[InplaceChange], built, built_inplace,
              call: BackwardCall) -> None:
    """The line to change, from how the saved tensor was changed (best first)."""
    saver = f"{op_words(node.op)} at {where(node.site)}" if node is not None else "an op"
    # (a torch optimizer's step; or the program's own update of its parameters under no_grad, a
    # perturbation such as SAM's `first_step` that is meant to come between two backward calls:
    # moving that one would break the method, so only the reuse is marked)
    stepped = [c for c in changes if _by_optimizer(c) or _updates_a_parameter(trace, c, saved)]
    for change in [c for c in stepped if _by_optimizer(c)]:
        finding.mark_fix(user_site(change.site),
                         f"this step changes in place the weights that {saver} saved, before the backward "
                         f"at {where(call.site)} that needs them has run: call it after that backward")
    if stepped:
        # The failing loss reuses an output computed before the step (`g_loss = bce(d_fake, ...)`
        # with `d_fake = D(fake)` from before `opt_d.step()`): computing it again where it is
        # reused, after the step, is the other fix (and the one that keeps this loss's gradients
        # out of what the step applies). The line that passes the old output on (the call of a
        # penalty helper), rather than the helper's own line.
        reuse = next((c for c in crossings_at(trace, call.roots, stepped[0].seq)
                      if user_site(c.new.site) is not None), None)
        if reuse is not None:
            old, new = user_site(reuse.old.site), user_site(reuse.new.site)
            # (a node's line comes without its callers: the backward's own chain has them when the
            # reuse is made on its line, inside a helper that differentiates what it is given)
            backward = user_site(call.site)
            chain = backward if backward is not None and (backward.path, backward.line) == (new.path, new.line) else new
            # (or, where the old value's callers are gone, the frame of the reuse in the function
            # that runs the failing backward: the loop that reuses it)
            same = next((f for f in (new, *reversed(new.callers)) if backward is not None and f.path == backward.path
                         and f.function == backward.function), None)
            finding.mark_fix(frame_in_caller_of(chain, built or old) or same or new,
                             f"{'or ' if finding.fix_sites else ''}compute again here, after the step, what this line "
                             f"takes from the forward at {where(built or old)}, so the backward uses the new weights; "
                             "or take it `.detach()`ed, if no gradient is meant to flow through it")
            finding.add(Location.at(reuse.old.site, "built", "computed before the step, reused after it"))
        elif built is not None:
            finding.mark_fix(built, "or run this forward again after the step, so the backward uses the new weights")
        else:
            # (the program's own update, called from the step function between its forward and
            # the backward, a callback's weight merge: the call to move after the backward)
            for change in stepped[:1]:
                caller = frame_in_caller_of(user_site(change.site), user_site(node.site) if node else None)
                finding.mark_fix(caller, f"runs the program's own update of the weights (at {where(change.site)}) "
                                         f"after the forward that saved them and before the backward at "
                                         f"{where(user_site(call.site) or call.site)}: call it after that backward")
        return
    for site in built_inplace:
        finding.mark_fix(site, f"built with inplace=True: it overwrites its input, which {saver} saved for "
                               "backward; make it inplace=False")
    # What was saved is a view of memory written later (`t = x[:, 0]` saved, then `x[:, 0] = ...`):
    # the view shares it; a copy taken there does not.
    producer = trace.node(saved.producer_node) if saved is not None else None
    view_copy = None
    if producer is not None and producer.op in _VIEW_OPS and changes and not built_inplace \
            and not _writes_the_view_itself(producer.site, changes[0].site):
        view_copy = user_site(producer.site)
        written = user_site(changes[0].site)
        if written is None or not writes_own_local(written.path, written.line):
            finding.mark_fix(view_copy, f"takes a view of memory that the in-place write at "
                                        f"{where(changes[0].site)} then changes: take a copy here (`.clone()`)")
            view_copy = None
        # (else the write goes into the function's own local tensor: making it out of place is
        # the first fix, a copy where the view is taken the other)
    for change in changes:
        site = user_site(change.site)
        if site is None or (change.inplace_kwarg and built_inplace):
            continue  # (a module built with inplace=True: its constructor is the line to change)
        if producer is None:
            # (what was saved is no op's output: a view of a buffer the object hands out, and
            # then writes into, `return self._memory[:n]` ... `self._memory[i:j] = x`)
            for line in views_handed_out(site.path, site.line):
                finding.mark_fix(Site(site.path, line), f"hands out a view of the buffer that the in-place write at "
                                                        f"line {site.line} then changes, while {saver} holds it for "
                                                        "backward: return a copy (`.clone()`)")
        alias = alias_assignment(site.path, site.line)
        if alias is not None and rebinds_own_tensor(site.path, alias):
            finding.add(Location.at(Site(site.path, alias, site.function, site.callers), "created",
                                    f"the name written at line {site.line} names the tensor {saver} saved"))
            # (a rename, `x = features`: where the tensor itself was made)
            renamed = re.fullmatch(r"\s*\w+\s*=\s*(\w+)\s*", source_line(site.path, alias))
            made = assignments(site.path, renamed.group(1), before=alias) if renamed else []
            if made and same_function(site.path, made[-1], alias):
                finding.add(Location.at(Site(site.path, made[-1], site.function, site.callers), "created",
                                        "makes that tensor"))
            alias = None
        if alias is not None and _visible_inplace(change) and _saved_through_name(node, site, alias):
            # (the op that saved it was given that very name, after it was bound: the name is the
            # tensor, not a copy the program meant to make; the write is what changed it)
            finding.mark_fix(site, f"{op_words(change.op)} here changes in place the tensor {saver} saved "
                                   "for backward: make this write out of place")
            finding.mark_fix(Site(site.path, alias, site.function, site.callers), "or assign a copy here (`.clone()`)")
        elif alias is not None:
            finding.mark_fix(Site(site.path, alias, site.function, site.callers),
                             f"this makes another name for the tensor {saver} saved, so the in-place write "
                             f"at line {site.line} changes that tensor too: assign a copy here (`.clone()`)")
            if _visible_inplace(change):
                finding.mark_fix(site, "or make this write out of place")
        elif site.callers and writes_an_argument(site.path, site.line):
            finding.mark_fix(site, f"changes its argument in place, and the caller's tensor is the one {saver} "
                                   "saved: make this out of place")
            finding.mark_fix(site.callers[-1], "or pass a copy here (`.clone()`)")
        elif not _visible_inplace(change):
            # An op that is not in-place by its name (`embedding` with max_norm renormalises the
            # weight it looks up): it cannot be "made out of place" here; a copy where the
            # tensor is saved leaves the saved value alone.
            saved_at = user_site(node.site) if node is not None else None
            finding.mark_fix(saved_at, f"saves the tensor that {op_words(change.op)} at {where(site)} then changes in "
                                       "place (an option of that op or its module makes it write): save a copy "
                                       "here (`.clone()`), or turn that option off")
        else:
            finding.mark_fix(site, f"{op_words(change.op)} here changes in place the tensor {saver} saved for "
                                   "backward: make it out of place")
    if view_copy is not None:
        finding.mark_fix(view_copy, "or take a copy (`.clone()`) of the view saved here")


_VIEW_NODES = ("TBackward", "TransposeBackward", "PermuteBackward", "ViewBackward", "ExpandBackward",
               "SelectBackward", "SliceBackward", "UnsqueezeBackward", "SqueezeBackward", "AsStridedBackward")


def _saved_through_name(node, written: Site, alias: int) -> bool:
    """Was the saving op called, in the writing function, after `alias` bound the written name,
    on a line that reads that name?"""
    site = node.site if node is not None else None
    bound = re.match(r"\s*(\w+)\s*=", source_line(written.path, alias))
    if site is None or bound is None:
        return False
    for frame in [*site.callers, site]:
        if frame.path == written.path and alias < frame.line < written.line \
                and same_function(frame.path, frame.line, written.line):
            return re.search(rf"\b{bound.group(1)}\b", source_line(frame.path, frame.line)) is not None
    return False


def _writes_the_view_itself(made: Site | None, written: Site | None) -> bool:
    """Whether the in-place write goes into the name the view was bound to (`v = x[0]` ...
    `v.add_(1)`), not through the tensor it views: a copy taken where the view is made would
    only move the write onto the copy. Unknown source: assume so (say nothing)."""
    made, written = user_site(made), user_site(written)
    if made is None or written is None:
        return True
    bound = set(names_written(made.path, made.line))
    target = set(names_written(written.path, written.line))
    return not bound or not target or bool(bound & target)


def _function_saves(trace: Trace, node) -> list[Site]:
    """The `save_for_backward` lines of a custom Function's forward (its definition recorded)."""
    defined = trace.functions.get(node.name) if node is not None else None
    forward = sibling_method(defined.path, defined.line, "forward") if defined is not None else None
    return [Site(defined.path, line, "forward") for line in calls_in_function(defined.path, forward, "save_for_backward")] \
        if forward else []


def _backward_writes_saved(trace: Trace, node) -> list[Site]:
    """Lines of a custom Function's backward (its definition recorded) that change in place a
    tensor it unpacked from ctx.saved_tensors."""
    defined = trace.functions.get(node.name) if node is not None else None
    if defined is None:
        return []
    return [Site(defined.path, line, defined.function) for line in saved_tensors_changed(defined.path, defined.line)]


_VIEW_OPS = frozenset({"view", "reshape", "select", "__getitem__", "narrow", "transpose", "permute", "squeeze",
                       "unsqueeze", "expand", "flatten", "unflatten", "t", "as_strided", "diagonal", "movedim",
                       "view_as", "reshape_as", "unbind", "split", "chunk"})


def _visible_inplace(change: InplaceChange) -> bool:
    """Whether the program's line shows the write: a trailing-underscore op, an assignment into
    the tensor (`x[i] = v`, `x += v`), an `inplace=True` call, `.data`/`.copy_` and the like."""
    op = change.op.rsplit(".", 1)[-1]
    return (op.endswith("_") and not op.startswith("__")) or op.startswith("__i") or op in (
        "__setitem__", "set_", "copy_", "data") or change.inplace_kwarg or change.bypasses_version


def _updates_a_parameter(trace: Trace, change: InplaceChange, saved=None) -> bool:
    """A write, with grad off, into a parameter by the program's own code (an optimizer of its
    own, a weight perturbation, weights merged in through `state_dict()`'s detached tensors: the
    saved parameter's own memory)."""
    leaf = trace.leaf(change.leaf)
    if leaf is None and saved is not None and saved.producer_leaf is not None and change.storage is not None \
            and change.storage == saved.storage:
        leaf = trace.leaf(saved.producer_leaf)
    elif leaf is None and saved is not None and saved.producer_node is not None and change.storage == saved.storage:
        # (a view of the parameter was saved: `linear` saves `weight.t()`)
        producer = trace.node(saved.producer_node)
        if producer is not None and len(producer.leaf_ids) == 1 and not producer.next_ids and (
                producer.op in _VIEW_OPS or producer.name.startswith(_VIEW_NODES)):
            leaf = trace.leaf(producer.leaf_ids[0])
    return leaf is not None and leaf.kind == "parameter" and not change.grad_enabled and not _by_optimizer(change)


def _by_optimizer(change: InplaceChange) -> bool:
    return bool(change.via and change.via.startswith("torch/optim/"))


def fix_for(changes: list[InplaceChange]) -> str:
    """Advice that fits how the saved tensor was changed."""
    if any(_by_optimizer(c) for c in changes):
        return ("optimizer.step() changed weights that a later backward still needs. Call step() only "
                "after every backward pass through that forward pass has run (reorder, or sum the losses "
                "first), or run the forward pass through the stepped model again after step(), so the "
                "second loss is built on the new weights.")
    if any(c.inplace_kwarg or c.op in ACTIVATIONS for c in changes):
        return ("An activation with inplace=True overwrote its input, which the previous op saved. "
                "Use inplace=False (e.g. nn.ReLU(inplace=False)), or call the activation out of place: "
                "`h = torch.relu(h)`.")
    if any(c.op == "__setitem__" for c in changes):
        return ("Indexed assignment writes into the saved tensor. Change a copy instead "
                "(`y = y.clone()` before `y[i] = ...`), or build the new values out of place with "
                "torch.where / torch.cat.")
    if any(c.op.startswith("__i") for c in changes):
        ops = sorted({op_words(c.op) for c in changes if c.op.startswith("__i")})
        return (f"Use the out-of-place form instead of {', '.join(ops)}: write `x = x + y` rather than "
                "`x += y`, so the saved value stays intact.")
    if changes and all(not c.grad_enabled for c in changes):
        return ("The change was made under torch.no_grad(), which keeps it out of the graph but not "
                "out of the version check. Make it before the forward pass that uses the tensor, after "
                "the backward, or on a clone().")
    return ("Use the out-of-place form of the op (e.g. `x = x.mul(2)` instead of `x.mul_(2)`), or "
            "clone() the tensor before changing it.")


def inplace_constructors(trace: Trace, module_calls: list) -> list[Site]:
    """Where the modules of these calls were built with `inplace=True` (`nn.ReLU(inplace=True)`,
    `nn.Dropout(p, inplace=True)`): the argument the user changes. Looked for in the statement
    that put the module into its parent, else anywhere in the program's files when only one
    such call of that class is there (a registry, a factory function)."""
    sites = []
    for cid in module_calls:
        call = trace.module_calls.get(cid) if cid is not None else None
        if call is None:
            continue
        made = call.registered_at
        found = [Site(made.path, line, made.function) for line in constructor_calls(made.path, made.line, call.type)] \
            if made is not None else []
        caller = user_site(made)
        if not found and caller is not None and caller != made:
            # Built inside a library's block that the user's statement builds (torchvision's
            # `MLP(..., inplace=True)` makes its ReLU and Dropout so): the flag passed there.
            found = [Site(caller.path, line, caller.function, caller.callers)
                     for line in constructor_calls(caller.path, caller.line, None)]
        if not found:
            anywhere = constructor_calls_in(user_files(trace), call.type)
            found = [Site(path, line) for path, line in anywhere] if len(anywhere) == 1 else []
        if not found:  # (switched after it was built: `m.inplace = True` over a model's layers)
            switched = [Site(path, line) for path in user_files(trace) for line in attribute_set_to(path, "inplace", True)]
            found = switched if len(switched) <= 2 else []
        for site in found:
            if site not in sites:
                sites.append(site)
    return sites
