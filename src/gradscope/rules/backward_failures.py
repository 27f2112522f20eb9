"""Errors raised by a backward call, other than stale or freed saved tensors: explained with the
lines behind them (the output that was not a scalar, the custom Function or hook that returned a
wrong gradient, the unused input, the node that produced NaN under anomaly mode, ...)."""

from __future__ import annotations

import re

from ..trace.findings import Finding, Location
from ..trace.locations import Site, is_library_path, source_line, user_site
from ..analyses.settings import branch_options, guard_options, option_set
from ..trace.queries import accumulates_into, graph_of, project_files, user_files
from ..trace.model import Trace
from ..trace.call_sites import caller_in_source
from ..trace.source_search import (assignments, calls_named, calls_passing, returned_element, same_function, enclosing_function_name, keyword_argument, function_applies, hooks_registered, returns_tuple_or_none, mode_calls, calls_with_argument, reentrant_checkpoint_calls, return_lines,
                                   sibling_method)
from ..trace.wording import BROKEN_COLLECTIVE, broken_collective_words
from . import _cuts, _nan
from ._explainers import Explainers, explain_first, matches
from ._words import call_words, leaf_words, node_words, op_words, shape_words, uncaught_note, where
from .ddp import traced_paths


def _finding(trace, call, rule, title, explanation, fix, *locations) -> Finding:
    backward = Location.at(call.site, "backward", "backward fails here")
    return Finding.naming(rule, "error", title, explanation, fix, [*locations, backward],
                          uncaught_note(trace, call=call))


def _root(trace, call):
    return trace.node(call.roots[0]) if call.roots else None


# Nodes that combine terms into a loss (sums and scalings), and reductions over some dims only
# (`.mean([1, 2])`, `.sum(dim=1)`), which leave one value per sample.
_SUMS = frozenset({"AddBackward0", "AddBackward1", "SubBackward0", "SubBackward1", "MulBackward0", "MulBackward1",
                   "DivBackward0", "DivBackward1", "NegBackward0"})
_PARTIAL_REDUCTIONS = frozenset({"MeanBackward1", "SumBackward1"})


def _partial_terms(trace, root, limit: int = 64) -> list:
    """The terms summed into `root` (through sums and scalings) that reduce over some dims only."""
    found, seen, todo = [], set(), [root.id] if root is not None else []
    while todo and len(seen) < limit:
        node = trace.node(todo.pop())
        if node is None or node.id in seen:
            continue
        seen.add(node.id)
        if node.name in _SUMS:
            todo.extend(node.next_ids)
        elif node.name in _PARTIAL_REDUCTIONS and node.id != root.id:
            found.append(node)
    return found


def _not_scalar(trace, call, found):
    out = call.outputs[0] if call.outputs else None
    node = _root(trace, call)
    shape = f" of shape {shape_words(out.shape)}" if out else ""
    # A loss module built with reduction='none': where that was chosen is the line to change.
    unreduced = _built_unreduced(trace, node)
    if unreduced is not None:
        module_call, chosen = unreduced
        finding = _not_scalar_finding(trace, call, node, shape)
        made = user_site(node.site)
        if made is None or (made.path, made.line) != (module_call.site.path, module_call.site.line):
            finding.add(Location.at(module_call.site, "called", f"calls the {module_call.type} built with "
                                                               "reduction='none': one value per element"))
        built = _built_where(trace, module_call, "reduction")
        if built is not None and (chosen.path, chosen.line) != (built.path, built.line):
            finding.add(Location.at(built, "built", f"builds the {module_call.type}"))
        finding.mark_fix(chosen, f"chooses reduction='none' for the {module_call.type} whose output is "
                                 "backpropagated: use 'mean' (or reduce its output before backward)", first=True)
        finding.fix = (f"Build the {module_call.type} with reduction='mean' (or 'sum') at {where(chosen)}, or reduce "
                       "its output (`.mean()`) before calling backward if you need the per-element values too.")
        return finding
    # A loss summed from terms, one of which was reduced over some dims only: that term is why
    # the sum is not a scalar (the others are means over everything).
    partial = _partial_terms(trace, node) if node is not None and node.name in _SUMS else []
    sites = {(t.site.path, t.site.line) for t in partial if t.site is not None}
    if partial and len(sites) == 1 and partial[0].site is not None:
        term = partial[0]
        finding = _not_scalar_finding(trace, call, node, shape)
        finding.add(Location.at(term.site, "term", "a term reduced over some dims only: one value per sample"))
        finding.mark_fix(term.site, f"reduces over some dims only ({op_words(term.op)}), likely leaving one value "
                                    f"per sample (the only such term summed into the loss at {where(node.site)}): "
                                    "reduce it to a scalar here (`.mean()`)", first=True)
        return finding
    return _not_scalar_finding(trace, call, node, shape)


_UNREDUCED = ("'none'", '"none"')


def _built_unreduced(trace, node):
    """(the module call, where reduction='none' was chosen) for the innermost module call, around
    the op that made the backpropagated tensor, whose module was built passing `reduction=` a
    value that is 'none': written there, or assigned to the name passed just before."""
    call = trace.module_calls.get(node.module_call) if node is not None and node.module_call is not None else None
    for _ in range(8):
        if call is None:
            return None
        built = _built_where(trace, call, "reduction")
        passed = keyword_argument(built.path, built.line, "reduction") if built is not None else None
        if passed is not None:
            value, assigned = passed
            if value in _UNREDUCED:
                return call, built
            if assigned and assigned[0][1] in _UNREDUCED:
                return call, Site(built.path, assigned[0][0], built.function, built.callers)
            return None
        call = trace.module_calls.get(call.parent) if call.parent is not None else None
    return None


def _built_where(trace, call, keyword: str) -> Site | None:
    """The statement that built the module of `call` passing `keyword=`: the one that put it into
    its model, or else the only call of its class in the program's files that passes it (a
    criterion kept in a variable)."""
    built = call.registered_at
    if built is not None and keyword_argument(built.path, built.line, keyword) is not None:
        return built
    places = [Site(path, line, enclosing_function_name(path, line) or "") for path in project_files(trace)
              for line in calls_passing(path, call.type, keyword)]
    return places[0] if len(places) == 1 else None


def _not_scalar_finding(trace, call, node, shape):
    return _finding(
        trace, call, "backward-non-scalar", "backward() on a non-scalar tensor",
        f"{call_words(call)} is called on a tensor{shape}, made by {node_words(node)}. Without `gradient=`, "
        "backward needs a single number to differentiate (a loss); for a tensor of many values it would not "
        "know how to weigh them.",
        "Reduce it to the loss you mean: `.mean()` or `.sum()` (a loss with reduction='none' needs one of them), "
        "or pass `gradient=torch.ones_like(out)` to backpropagate every element with weight 1.",
        Location.at(node.site if node else None, "created", "non-scalar output made"))


def _grad_shape(trace, call, found):
    node = _root(trace, call)
    return _finding(
        trace, call, "backward-gradient-mismatch", "gradient= does not match the output",
        f"{call_words(call)} passes a gradient whose shape or dtype differs from the output it is for "
        f"(made by {node_words(node)}): {found.group(0).rstrip('.')}.",
        "Give `gradient=` exactly the output's shape and dtype (`torch.ones_like(out)`); for a 0-d loss, pass "
        "nothing (not torch.ones(1)).",
        Location.at(node.site if node else None, "created", "output made"))


def _function_gradient(trace, call, found):
    name = found.group("name")
    defined = trace.functions.get(name)
    node = trace.node(call.failed_node)
    if "incorrect number" in found.group(0):
        what = (f"returned {found.group('got')} gradients, but its forward took {found.group('expected')} "
                "inputs: backward must return one gradient per forward input")
        fix = "Return one value per forward argument, in order, with None for non-tensor or non-differentiable ones."
    else:
        what = f"returned a gradient at index {found.group('index')} that does not fit its input ({found.group(0).split(' - ')[-1]})"
        fix = "Return, for each input, a gradient with that input's shape, dtype and device (or None)."
    returns = ([Site(defined.path, line, defined.function) for line in return_lines(defined.path, defined.line)]
               if defined else [])
    if returns and not source_line(returns[0].path, returns[0].line).lstrip().startswith("return"):
        what += "; it has no `return` statement, so it returned None"
    # (a wrong device, dtype or layout is not the computation's fault: the return is the line)
    made = _gradient_made(returns, found.groupdict().get("index")) if "expected shape" in found.group(0) else None
    finding = _finding(
        trace, call, "custom-function-bad-gradient", f"Custom Function {name} returned a wrong gradient",
        f"During {call_words(call)}, the backward of the custom Function `{name.removesuffix('Backward')}`"
        + (f" (defined at {where(defined)})" if defined else "") + f" {what}.",
        fix,
        *(Location.at(site, "returned", "backward returns here") for site in returns),
        Location.at(defined, "function", "backward defined here") if not returns else None,
        *_applied(trace, name, node),
        Location.at(_forward_of(defined), "defined", "its forward: the inputs backward answers for"))
    if made is not None:
        finding.mark_fix(made[0], f"computes `{made[1]}`, the gradient backward returns at index "
                                  f"{found.group('index')}, in a shape that is not its input's: give it the input's "
                                  "shape (reshape it back, or sum over the broadcast dims)", first=True)
    return finding


def _gradient_made(returns: list[Site], index: str | None) -> tuple[Site, str] | None:
    """(the line, the name) where the one `return` of a Function's backward got the gradient it
    returns at `index`, when that is a name assigned earlier in the same function."""
    if len(returns) != 1 or index is None:
        return None
    returned = returns[0]
    name = returned_element(returned.path, returned.line, int(index))
    if name is None or not name.isidentifier():
        return None
    lines = [line for line in assignments(returned.path, name, before=returned.line, limit=4)
             if same_function(returned.path, line, returned.line)]
    return (Site(returned.path, lines[-1], returned.function), name) if lines else None


def _applied(trace, name: str, node) -> list[Location | None]:
    """Where the custom Function `name` was applied. Its node is first seen by the op that uses
    its output (see recorder/functions): where that line holds no `.apply` of it, the program's
    lines that do, with the one call of the helper around each (a `checkpoint(fn, *args)`
    wrapper, called inside `if self.efficient:`)."""
    site = node.site if node is not None else None
    class_name = name.removesuffix("Backward")
    if site is not None and f"{class_name}.apply" in source_line(site.path, site.line):
        return [Location.at(site, "created", "Function applied")]
    files = project_files(trace)
    found = []
    for path in files:
        for line in function_applies(path, class_name):
            caller = caller_in_source(path, line, files)
            callers = (Site(caller[0], caller[1]),) if caller is not None else ()
            found.append(Location.at(Site(path, line, "", callers), "created", "Function applied"))
    return found[:2] or [Location.at(site, "created", "output of the Function first used here")]


def _forward_of(defined: Site | None) -> Site | None:
    """The `forward` beside a custom Function's `backward`."""
    line = sibling_method(defined.path, defined.line, "forward") if defined is not None else None
    return Site(defined.path, line, "forward") if line else None


def _hook_changed(trace, call, found):
    name = found.group(1)
    hook = next((h for h in reversed(trace.hooks) if h.name == name), None)
    return _finding(
        trace, call, "hook-changed-gradient", f"Hook {name} changed the gradient's {found.group(2)}",
        f"The tensor hook `{name}`"
        + (f" (registered at {where(hook.site)}, defined at {where(hook.defined_at)})" if hook else "")
        + f" returned a gradient of a different {found.group(2)} than the one it was given; a hook may only "
          "change the values.",
        "Return a tensor of the same shape and dtype as the hook's argument (or None to keep it).",
        Location.at(hook.defined_at if hook else None, "hook", "hook defined"),
        Location.at(hook.site if hook else None, "registered", "hook registered"))


def _unused_input(trace, call, found):
    index = int(found.group(1))
    arg = call.inputs[index] if index < len(call.inputs) else None
    leaf = trace.leaf(arg.leaf) if arg else None
    node = trace.node(arg.node) if arg else None
    made = leaf.site if leaf else (node.site if node else None)
    detach = next((c for c in trace.cuts.values() if leaf and c.input_leaf == leaf.id and c.reason == "detach"), None)
    # (used only inside a reentrant checkpoint: its inner graph exists only while .backward()
    # recomputes it, so autograd.grad finds no use of it)
    reentrant = [] if detach or leaf is None or any(leaf.id in n.leaf_ids for n in trace.nodes.values()) else \
        list(dict.fromkeys(user_site(c.grad_off_site) for c in trace.cuts.values()
                           if c.grad_off_via and "checkpoint" in c.grad_off_via and c.grad_off_site is not None))
    reentrant = [site for site in reentrant if site is not None][:2]
    through = (f" It reaches the output only through `.detach()` at {where(detach.site)}, which cuts it off."
               if detach else
               f" It is used only inside the reentrant checkpoint at {where(reentrant[0])}: with use_reentrant=True "
               "the checkpointed function's graph is built only while .backward() recomputes it, so "
               "torch.autograd.grad never sees it used." if reentrant else " Nothing in the output depends on it.")
    finding = _finding(
        trace, call, "grad-input-unused", f"autograd.grad input {index} is not used by the output",
        f"{call_words(call)} asks for the gradient with respect to input {index}, "
        f"{leaf_words(leaf) if leaf else 'a tensor'} made at {where(made)}, but the graph of the output never "
        f"uses it.{through}",
        ("Check the code between this input and the outputs: the outputs must be computed from it (a function "
         "that ignores its argument, a copy used in its place). If it is meant to be unused, pass "
         "allow_unused=True (and materialize_grads=True to get zeros instead of None), or drop it from `inputs`."
         if detach is None else
         "Pass allow_unused=True (and materialize_grads=True to get zeros instead of None), or drop it from `inputs`."),
        Location.at(made, "input", f"input {index} made"),
        Location.at(detach.site if detach else None, "cut", "cut by detach"))
    if reentrant:
        finding.fix = "Pass use_reentrant=False to torch.utils.checkpoint, whose graph torch.autograd.grad can see."
    cut = _cut_after(trace, node, leaf, call) if detach is None and not reentrant else None
    if cut is not None:
        # (computed from the input, then cut: an integer index, a rounding, a copy)
        finding.explanation += (f" What was computed from it in this pass leaves the graph where {_cuts.sentence(cut)}: "
                                "no gradient can flow back to it along that path.")
        finding.add(Location.at(cut.site, "cut", "the values computed from the input leave the graph here"))
        here = user_site(cut.site)
        files = project_files(trace)
        options = (branch_options(here, files) or [found[:3] for found in guard_options(here, files)]) \
            if here is not None else []
        for place, option, value in options:
            finding.mark_fix(place, f"sets `{option}` to {value}, which takes the branch where the input's values "
                                    f"leave the graph ({where(cut.site)}): choose the differentiable path")
        _cuts.mark_fix_sites(finding, trace, cut)
    if arg is None or (leaf is not None and leaf.kind == "parameter" and not detach and not reentrant):
        _modules_that_never_ran(trace, call, finding)
    for site in reentrant:
        finding.mark_fix(site, "runs its function with reentrant checkpointing, whose graph torch.autograd.grad "
                               "cannot see: pass use_reentrant=False")
        finding.add(Location.at(site, "checkpoint", "reentrant checkpoint"))
    return finding


def _cut_after(trace, node, leaf, call):
    """The cut made in the forward of `call` from the tensor that is `node`'s output (or the leaf
    `leaf`), when there is exactly one (with several, as a logging `.detach()` beside the path,
    which one cut it is unknown)."""
    if node is None and leaf is None:
        return None

    def made_from(cut) -> bool:
        if leaf is not None and cut.input_leaf == leaf.id:
            return True
        if cut.input_node is None:
            return False
        return (node is not None and node.id in graph_of(trace, [cut.input_node])) \
            or (leaf is not None and accumulates_into(trace, cut.input_node, {leaf.id}))
    found = [cut for cut in trace.cuts.values() if cut.seq <= call.seq and cut.backwards_before == call.index
             and (node is None or cut.seq >= node.seq) and made_from(cut)]
    return found[0] if len(found) == 1 else None


def _modules_that_never_ran(trace, call, finding) -> None:
    """An unused input past those recorded (a list of every parameter): the parameters no
    recorded op used, by module. A module that never ran in the forward (an auxiliary head that
    only runs in train mode) leaves its parameters out of every graph; the statement that passes
    every parameter is where to choose them, and the mode the model ran in may be why."""
    used = {lid for node in trace.nodes.values() if node.seq < call.seq for lid in node.leaf_ids}
    unused = [leaf for leaf in trace.leaves.values() if leaf.kind == "parameter" and leaf.id not in used and leaf.name]
    if not unused:
        return
    ran = {c.name for c in trace.module_calls.values() if c.name}
    modules = list(dict.fromkeys(leaf.name.rsplit(".", 1)[0] for leaf in unused))
    def never_ran(name):
        return name not in ran and not any(r.startswith(name + ".") for r in ran)
    # (the outermost module that never ran: `aux1`, not each of its layers)
    idle = list(dict.fromkeys(next((".".join(m.split(".")[:i]) for i in range(1, m.count(".") + 2)
                                    if never_ran(".".join(m.split(".")[:i]))), m)
                              for m in modules if never_ran(m)))
    finding.explanation += (f" {len(unused)} parameters were used by no op before this call"
                            + (f"; the module{'s' if len(idle) > 1 else ''} {', '.join(f'`{m}`' for m in idle[:4])} "
                               "never ran in the forward"
                               if idle else "") + ".")
    finding.add(Location.at(unused[0].site, "defined", f"defines `{unused[0].name}`, used by no op"))
    frames = (call.site, *reversed(call.site.callers)) if call.site is not None else ()
    passes = next((frame for frame in frames if not is_library_path(frame.path) and ".parameters()" in frame.code),
                  None)
    finding.mark_fix(passes, "asks for the gradient of every parameter, including those no op used: pass only "
                             "those the output depends on, or allow_unused=True")
    roots = [c for c in trace.module_calls.values() if c.parent is None and c.training is False and c.site]
    if idle and roots:
        for path in dict.fromkeys(f.path for f in (roots[0].site, *roots[0].site.callers) if not is_library_path(f.path)):
            for line in mode_calls(path, training=False)[:1]:
                finding.add(Location(path, line, "mode", "eval mode set: the modules that run only in training "
                                                         "mode never ran"))


def _input_without_grad(trace, call, found):
    index = next((i for i, t in enumerate(call.inputs) if not t.requires_grad), None)
    return _finding(
        trace, call, "grad-input-without-grad", "autograd.grad input does not require grad",
        f"{call_words(call)} asks for the gradient with respect to "
        + (f"input {index} ({shape_words(call.inputs[index].shape)})" if index is not None else "an input")
        + ", which does not require grad: autograd never tracked it.",
        "Create that input with requires_grad=True (or `.requires_grad_()` before using it), or leave it out of "
        "`inputs`.",
        *(Location.at(f.site, "frozen", "requires_grad=False set here") for f in _cuts.freezes_before(trace, call)[:2]))


def _leaf_moved(trace, call, found):
    moved = max(trace.leaves_moved, key=lambda m: m.seq, default=None)
    leaf = trace.leaf(moved.leaf) if moved else None
    return _finding(
        trace, call, "leaf-moved-into-graph", "A leaf became a graph node after being used",
        f"{call_words(call)} reaches a leaf that the graph used as a leaf, but "
        + (f"{op_words(moved.op)} at {where(moved.site)} wrote a tensor that requires grad into "
           f"{leaf_words(leaf) if leaf else 'it'}, giving it a grad_fn" if moved else "it has since been given a grad_fn")
        + ": its gradient can no longer be accumulated.",
        "Modify a copy (`x = x.clone()`) instead of the leaf, or build the graph again after the change.",
        Location.at(leaf.site if leaf else None, "created", "leaf created"),
        Location.at(moved.site if moved else None, "modified", "leaf given a grad_fn"))


def _no_derivative(trace, call, found):
    op = found.group(1).split(":")[0].strip().lstrip("_").removesuffix("2")
    node = next((n for n in sorted(trace.nodes.values(), key=lambda n: -n.seq)
                 if n.op.lstrip("_") == op or n.name.lower().startswith(op.lower())), None)
    return _finding(
        trace, call, "derivative-not-implemented", f"No derivative for {op}",
        f"{call_words(call)} needs the derivative of `{op}`"
        + (f" (used at {where(node.site)})" if node else "")
        + ", which PyTorch does not implement (for this argument, or at this order).",
        "Use a differentiable alternative, compute that part under torch.no_grad() if it needs no gradient, "
        "or write a custom autograd.Function with your own backward.",
        Location.at(node.site if node else None, "created", f"{op} used"))


def _worded(rule, title, explanation, fix):
    """An explainer that needs only the failing call and the message's groups: `{call}` names the
    call, `{0}`, `{1}`... are the groups."""
    def explain(trace, call, found):
        words = {"call": call_words(call)}
        return _finding(trace, call, rule, title.format(*found.groups(), **words),
                        explanation.format(*found.groups(), **words), fix)
    return explain


_custom_op = _worded(
    "derivative-not-implemented", "No autograd formula for {0}",
    "{call} goes through the custom op `{0}`, which has no backward registered.",
    "Register one with `torch.library.register_autograd`, or call the op under torch.no_grad().")
_checkpoint_grad_words = _worded(
    "checkpoint-reentrant-grad", "Reentrant checkpoint used with autograd.grad",
    "{call} uses torch.autograd.grad (or backward with inputs=) through a region wrapped in "
    "torch.utils.checkpoint with use_reentrant=True, which supports only plain .backward().",
    "Pass use_reentrant=False to torch.utils.checkpoint.")
def _checkpoint_grad(trace, call, found):
    """The checkpoint calls that run reentrant: where the run went through one (a cut made by
    it), else the `checkpoint(` calls written without `use_reentrant=False` in the program's files."""
    finding = _checkpoint_grad_words(trace, call, found)
    calls = [user_site(c.grad_off_site) for c in trace.cuts.values()
             if c.grad_off_via and "checkpoint" in c.grad_off_via and c.grad_off_site is not None]
    if not calls:
        calls = [Site(path, line) for path in user_files(trace)
                 for line in reentrant_checkpoint_calls(path)][:2]
    for site in dict.fromkeys(s for s in calls if s is not None):
        finding.mark_fix(site, "runs its function with reentrant checkpointing (use_reentrant is not False), "
                               "which torch.autograd.grad cannot go through: pass use_reentrant=False")
        finding.add(Location.at(site, "checkpoint", "reentrant checkpoint"))
    return finding


def _checkpoint_recompute(trace, call, found):
    """The recomputation in backward saw other values than the forward: name the checkpoint
    calls, and the program's own in-place writes made between the forward and this backward
    (state the checkpointed function may read: a buffer a forward hook updates)."""
    checkpoints = [Site(path, line) for path in user_files(trace)[:24] for line in calls_named(path, "checkpoint")]
    since = max((c.seq for c in trace.backward_calls if c.index < call.index), default=-1)
    writes = [change for change in trace.inplace_changes
              if since < change.seq < call.seq and change.via is None and change.site is not None
              and (change.op.endswith("_") or change.op == "__setitem__") and user_site(change.site) is change.site]
    finding = _finding(
        trace, call, "checkpoint-recompute-mismatch", "Checkpoint recomputation differs from the forward",
        f"During {call_words(call)}, torch.utils.checkpoint ran the checkpointed function again"
        + (f" (checkpointed at {', '.join(where(c) for c in checkpoints[:2])})" if checkpoints else "")
        + " and it saved different tensors than the first time."
        + (f" Between the forward and this backward the program changed a tensor in place at "
           f"{where(writes[0].site)} (`{writes[0].op}`): if the checkpointed function reads it, the "
           "recomputation no longer matches the forward." if writes else
           " Something the function reads changed in between (state kept on an object, such as a cache "
           "that grows at each call, a counter, random routing)."),
        "Make the checkpointed function compute the same thing when run again in backward: change the state "
        "it reads only after the backward (after `optimizer.step()`), and turn caches off in training "
        "(`use_cache=False`).")
    finding.fix_basis = "guess"
    # (a cache turned on for the training forward grows in the forward and again in the
    # recomputation: the program's use_cache setting, where it sets it in few places)
    for place, value in [(place, value) for place, value in option_set(project_files(trace), "use_cache",
                                                                          unless=("False", "None")) if value == "True"]:
        finding.mark_fix(place, f"sets use_cache={value}: a checkpointed block that appends to a cache does so in "
                                "the forward and again when backward recomputes it; turn the cache off for "
                                "training (use_cache=False)")
    for place in checkpoints[:2]:
        finding.add(Location.at(place, "checkpoint", "checkpointed: backward runs it again"))
    for change in writes[:2]:
        finding.add(Location.at(change.site, "modified", "changed in place between the forward and its recomputation"))
    return finding


def _no_backward(trace, call, found):
    node = trace.node(call.failed_node)
    return _finding(
        trace, call, "custom-function-misuse", "Custom Function without backward",
        f"{call_words(call)} reaches a custom autograd.Function"
        + (f" ({node_words(node)})" if node else "") + " that defines no backward.",
        "Implement `@staticmethod def backward(ctx, *grad_outputs)` returning one gradient per forward input.",
        *_applied(trace, node.name if node else "", node))


def _inf_source(trace, node, depth: int = 4):
    """The nearest node that backward ran just before `node` (its consumers in the forward) and
    whose op is known to make infinite gradients."""
    if node is None:
        return None
    consumers: dict[int, list] = {}
    for candidate in trace.nodes.values():
        for child in candidate.next_ids:
            consumers.setdefault(child, []).append(candidate)
    frontier = [node]
    for _ in range(depth):
        frontier = [c for n in frontier for c in consumers.get(n.id, [])]
        known = [c for c in frontier if _nan.is_known(c.op)]
        if known:
            return known[0]
    return None


def _anomaly_nan(trace, call, found):
    node = trace.node(call.failed_node)
    # Anomaly mode checks for NaN only: an inf made just before (sqrt or log at 0) turns into
    # NaN one node later (0 * inf). The node that fed it its gradient is then the real source.
    source = _inf_source(trace, node)
    text = (f" Its incoming gradient was already infinite: the backward of {node_words(source)} made it so, "
            "and 0 * inf = NaN." if source else "")
    finding = _finding(
        trace, call, "nan-in-backward", f"{found.group(1)} produced NaN in backward",
        f"Anomaly mode stopped {call_words(call)}: the backward of {node_words(node)} returned NaN for its "
        f"input {found.group(2)}.{text}",
        _nan.advice(source.op if source else (node.op if node else None)),
        Location.at(source.site if source else None, "source", "gradient becomes inf here"),
        Location.at(node.site if node else None, "created", "op whose gradient is NaN"))
    # (which op each line ran: fix_sites looks for a guard on that op's input)
    finding.details["op_at"] = {role: n.op for role, n in (("source", source), ("created", node)) if n is not None}
    return finding


_READY_TWICE = re.compile(r"Parameter at index (\d+)(?: with name (\S+))? has been marked as ready twice")


def _ddp_ready_twice(trace, call, found):
    """DDP got one parameter's gradient twice in a backward: name the parameter, and the lines
    that use its module more than once (through reentrant checkpoint calls, or twice in forward)."""
    named = _READY_TWICE.search(call.error.message)
    name = None
    if named:
        index = int(named.group(1))
        name = named.group(2) or (trace.ddp_parameters[index] if index < len(trace.ddp_parameters) else None)
    module = name.rpartition(".")[0] if name else None
    sites = []
    if module:
        parent = module.rpartition(".")[0]  # `block` for `block.0`: the module a checkpoint is given
        wanted = traced_paths(module) | (traced_paths(parent) if parent else set())
        for module_call in sorted(trace.module_calls.values(), key=lambda c: c.id):
            if module_call.name in wanted and module_call.site and module_call.site not in sites:
                sites.append(module_call.site)
    reentrant = [site for site in sites if "checkpoint" in site.code]
    if not reentrant and module:  # the checkpoint calls, from the source of the files the run went through
        attribute = module.split(".")[0]  # the model's attribute (`self.block`) a checkpoint call is given
        for path in dict.fromkeys(c.site.path for c in trace.module_calls.values() if c.site):
            for line, keywords in calls_with_argument(path, "checkpoint", attribute):
                if "use_reentrant=False" not in keywords:
                    reentrant.append(Site(path, line))
    uses = reentrant or sites
    what = f"`{name}`" if name else "a parameter"
    if reentrant:
        why = (f"{what} is used inside reentrant activation checkpointing at "
               + ", ".join(where(site) for site in reentrant[:3])
               + ": each reentrant checkpoint runs its part of the graph in a backward of its own, so DDP's "
                 "hook fires once per checkpoint call")
        fix = ("Pass `use_reentrant=False` to torch.utils.checkpoint.checkpoint (the non-reentrant form runs in "
               "the same backward); or construct DDP with `static_graph=True`.")
    else:
        why = (f"{what} is used more than once in one forward" + (f" (at {', '.join(where(s) for s in uses[:3])})"
                                                                 if len(uses) > 1 else "")
               + " while DDP looks for unused parameters, or through reentrant checkpointing")
        fix = ("Construct DDP with `static_graph=True` (and without find_unused_parameters) when the same layers are "
               "used twice per forward; with checkpointing, pass `use_reentrant=False`.")
    finding = _finding(trace, call, "ddp-marked-ready-twice", "DDP: a parameter's gradient arrived twice in one iteration",
                       f"{call_words(call)} failed in DistributedDataParallel's reducer: {why}, and DDP expects each "
                       "parameter's gradient once per iteration.", fix,
                       *(Location.at(site, "checkpoint" if site in reentrant else "used", "uses the module again")
                         for site in uses[:3]))
    for site in reentrant[:1]:
        finding.mark_fix(site, "a reentrant checkpoint runs this part of the graph in a backward of its own: pass "
                               "use_reentrant=False")
    for site in ddp_constructions(trace)[:1]:
        finding.mark_fix(site, "wraps the model in DDP: construct it with static_graph=True when layers are used "
                               "more than once per forward")
    return finding


def ddp_constructions(trace) -> list[Site]:
    """The program's `DistributedDataParallel(...)` calls (where its options go), from the source."""
    return [Site(path, line) for path in user_files(trace)[:12]
            for name in ("DistributedDataParallel", "DDP") for line in calls_named(path, name)]


def _peer_stopped(trace, call, found):
    """The backward's collective broke because another rank stopped: this rank's graph is not
    at fault, and the finding says where to look instead of pointing at the loss."""
    waited_in = ("DistributedDataParallel's gradient all-reduce" if call.ddp_synced
                 else "a collective (a gradient all-reduce or reduce-scatter)")
    return _finding(
        trace, call, "ddp-peer-stopped", "Another rank stopped during this backward",
        f"{call_words(call)} waited in {waited_in}, and the collective failed: "
        f"{broken_collective_words(call.error.message)} Nothing in this rank's graph is at fault: another rank "
        "stopped (raised an error, crashed, was killed, or never reached this backward) before its part of "
        "the collective.",
        "Fix the rank that failed first: torchrun prints it under 'Root Cause (first observed failure)', and "
        "`gradscope report report.rank*.json` names it. If no rank failed, a rank made fewer backward calls "
        "(a branch on its own data, an uneven last batch): give every rank the same number of steps "
        "(`DistributedSampler(drop_last=True)`, or `model.join()` for uneven inputs).")


_MODULE_BACKWARD_HOOKS = ("register_full_backward_hook", "register_backward_hook")


def _module_hook_count(trace, call, found):
    """A module backward hook returned something other than one gradient per module input: the
    program's registrations of module backward hooks, and the `return` of the hook registered."""
    finding = _finding(
        trace, call, "hook-bad-return", "A module backward hook returned the wrong number of gradients",
        f"During {call_words(call)}, a backward hook of an nn.Module returned {found.group(1)} values where the "
        f"module has {found.group(2)} input(s): a module backward hook (`register_full_backward_hook`) must return "
        "None or a tuple with one gradient per input. A single tensor returned is read as a sequence of its rows.",
        "Return a tuple from the module hook, `return (new_grad,)`, or None to leave the gradients as they are.")
    for path in project_files(trace):
        for method in _MODULE_BACKWARD_HOOKS:
            for line, hook_def in hooks_registered(path, method):
                finding.add(Location.at(Site(path, line), "registered", "module backward hook registered"))
                if hook_def is None or returns_tuple_or_none(path, hook_def):
                    continue  # (this hook answers as it should: None or a tuple)
                for returned in return_lines(path, hook_def)[:1]:
                    finding.mark_fix(Site(path, returned), "returns what the hook gives back as the module's "
                                                           "grad_input, not as a tuple: return `(value,)`")
    return finding


_EXPLAINERS: Explainers = [
    (re.compile(r"Backward hook returned an invalid number of grad_input, got (\d+), but expected (\d+)"),
     _module_hook_count),
    (BROKEN_COLLECTIVE, _peer_stopped),
    (re.compile(r"Expected to mark a variable ready only once"), _ddp_ready_twice),
    (re.compile(r"grad can be implicitly created only for (real )?scalar outputs"), _not_scalar),
    (re.compile(r"Mismatch in (shape|dtype): grad_output\[\d+\][^\n]*"), _grad_shape),
    (re.compile(r"[Ff]unction (?P<name>\w+) returned an invalid gradient at index (?P<index>\d+) - .*"), _function_gradient),
    (re.compile(r"[Ff]unction (?P<name>\w+) returned an incorrect number of gradients "
                r"\(expected (?P<expected>\d+), got (?P<got>\d+)\)"), _function_gradient),
    (re.compile(r"hook '(.*)' has changed the (size|type) of value"), _hook_changed),
    (re.compile(r"The differentiated Tensor at index (\d+) appears to not have been used"), _unused_input),
    (re.compile(r"One of the differentiated Tensors does not require grad"), _input_without_grad),
    (re.compile(r"leaf variable has been moved into the graph interior"), _leaf_moved),
    (re.compile(r"the derivative for '([^']+)' is not implemented"), _no_derivative),
    (re.compile(r"Trying to backward through (\S+) but no autograd formula was registered"), _custom_op),
    (re.compile(r"When use_reentrant=True, torch\.utils\.checkpoint is incompatible"), _checkpoint_grad),
    (re.compile(r"torch\.utils\.checkpoint: (Recomputed values|A different number of tensors)"), _checkpoint_recompute),
    (re.compile(r"You must implement either the backward or vjp method"), _no_backward),
    (re.compile(r"Function '(\w+)' returned nan values in its (\d+)\w* output"), _anomaly_nan),
]

HANDLED_ELSEWHERE = ("does not require grad and does not have a grad_fn",)


def is_explained(message: str) -> bool:
    """Whether some rule has a specific explanation for this backward error."""
    return any(text in message for text in HANDLED_ELSEWHERE) or matches(_EXPLAINERS, message)


def check(trace: Trace) -> list[Finding]:
    findings = [explain_first(_EXPLAINERS, call.error.message, trace, call)
                for call in trace.backward_calls if call.error is not None]
    return [f for f in findings if f is not None]
