"""Errors raised by a forward torch call: explained with the lines behind the tensor involved.

The failing line is in the traceback already; what the user needs is the line that made the
tensor what it is: where the view was taken, where the tensor stopped being a leaf, where it
was cut from the graph, the inference_mode block it was made in.
"""

from __future__ import annotations

import re
from typing import Callable

from ..trace.findings import Finding, Location
from ..trace.locations import Site, is_library_path, source_line, user_site
from ..trace.model import OpFailure, TensorArg, Trace
from ..analyses.settings import inference_mode_options, library_entry
from ..analyses.modes import mode_set_in, root_call_site
from ..trace.queries import project_files, user_files
from ..trace.call_sites import argument_made_at, caller_in_source
from ..trace.source_search import (assigned_values, enclosing_condition, grad_off_returns, hook_registrations, names_written, binding_line, calls_named, carrying_statement, enclosing_block,
                                   enclosing_loop, loop_variable_changed, mode_regions, return_lines, returned_inplace,
                                   same_function, sibling_method, split_base_read_later, string_settings)
from . import _cuts
from ._words import leaf_words, node_words, op_words, uncaught_note, where


def _first(failure: OpFailure) -> TensorArg | None:
    return failure.tensors[0] if failure.tensors else None


def _first_node(trace: Trace, failure: OpFailure):
    """The node that made the op's first tensor argument (None for a leaf, or if unknown)."""
    arg = _first(failure)
    return trace.node(arg.node) if arg else None


def _finding(trace, index, failure, rule, title, explanation, fix, *locations) -> Finding:
    failed = Location.at(failure.site, "failed", f"{op_words(failure.op)} raises")
    return Finding.naming(rule, "error", title, explanation, fix, [*locations, failed],
                          uncaught_note(trace, failure_index=index))


def _on_graph_tensor(rule, title, does, why, fix):
    """An op refused on a tensor that is part of the graph: names the op that made the tensor."""
    def explain(trace, index, failure):
        node = _first_node(trace, failure)
        return _finding(
            trace, index, failure, rule, title,
            f"{op_words(failure.op)} at {where(failure.site)} {does} a tensor that is part of the autograd graph"
            + (f" (made by {node_words(node)})" if node else "") + why,
            fix, Location.at(node.site if node else None, "created", "tensor created"))
    return explain


_numpy = _on_graph_tensor(
    "numpy-on-requires-grad", "numpy() on a tensor that requires grad", "converts",
    " to NumPy; NumPy cannot carry its gradient.",
    "Convert a copy cut from the graph: `t.detach().cpu().numpy()` (or `t.numpy(force=True)`).")
_resize = _on_graph_tensor(
    "resize-requires-grad", "resize_ on a tensor that requires grad", "resizes",
    "; autograd cannot follow a resize.",
    "Resize a copy cut from the graph: `t = t.detach().clone()` first (or build a new tensor).")


def _multi_view(trace, index, failure):
    node = _first_node(trace, failure)
    named = re.search(r"Output \d+ of (\w+)", failure.error.message)
    backward_name = named.group(1) if named else None
    split = _up_the_views(trace, node)
    maker = re.sub(r"(with\w+)?backward\d*$", "", (split.name if split else backward_name or "unbind").lower())
    loop = " (iterating over a tensor, `for row in t:`, calls unbind)" if maker == "unbind" else ""
    finding = _finding(
        trace, index, failure, "multi-output-view-inplace", "In-place change of a view returned by " + maker,
        f"{op_words(failure.op)} at {where(failure.site)} modifies in place a view made by `{maker}` at "
        f"{where((split or node).site if (split or node) else None)}{loop}. Functions that return several views "
        "of one tensor (unbind, split, chunk) do not allow them to be modified in place: autograd could not tell "
        "which gradient belongs to which view.",
        "Use the out-of-place op (`row = row - mean` instead of `row.sub_(mean)`), or `clone()` the view "
        "before modifying it.",
        Location.at(split.site if split else None, "created", f"splits the tensor into views ({maker})"),
        Location.at(node.site if node and node is not split else None, "view", "the view changed, made from them"))
    made, changed = user_site(split.site if split else None), user_site(failure.site)
    if made is not None and changed is not None and not split_base_read_later(made.path, made.line, changed.line):
        # Nothing reads the split tensor after the change: it was meant for the part alone, so the
        # out-of-place op changes nothing else the program uses.
        looped = loop_variable_changed(changed.path, changed.line)
        finding.mark_fix(changed, "changes in place a part of a split tensor that nothing reads afterwards: "
                                  + (f"use the out-of-place op here and store its result back into `{looped[1]}` "
                                     f"(`{looped[1]}[i] = ...`): rebinding `{looped[0]}` alone would leave "
                                     f"`{looped[1]}` unchanged" if looped else
                                     "use the out-of-place op here (`q = q * s` for `q *= s`)"))
    return finding


_SPLIT_NODE = re.compile(r"^(Unsafe)?(Split|SplitWithSizes|Unbind|Chunk|TensorSplit)\w*Backward\d*$")


def _up_the_views(trace, node, limit: int = 12):
    """The node of the split that made the views (`SplitBackward0` of a chunk), found by going up
    from the view that was changed (the error names the last view op: a transpose of a chunk)."""
    for _ in range(limit):
        if node is None:
            return None
        if _SPLIT_NODE.match(node.name or ""):
            return node
        node = trace.node(node.next_ids[0]) if node.next_ids else None
    return None


def _module_name(trace, node) -> str | None:
    """The path of the module a node was made in (`layer4.1.bn2`), if known; for a node made
    after the module's forward returned (a backward hook's wrapper), that of its input's node."""
    for candidate in ([node, *(trace.node(i) for i in node.next_ids[:1])] if node is not None else []):
        call = trace.module_calls.get(candidate.module_call) if candidate and candidate.module_call else None
        if call is not None and call.name:
            return call.name
    return None


def _function_view(trace, index, failure):
    node = _first_node(trace, failure)
    name = re.search(r"Output \d+ of (\w+)", failure.error.message)
    name = name.group(1) if name else "a custom Function"
    if "BackwardHookFunction" in name:
        explanation = (f"{op_words(failure.op)} at {where(failure.site)} modifies in place the output of a module "
                       "that has a full backward hook (register_full_backward_hook): the hook wraps the output "
                       "in a custom Function, and an in-place op on it (e.g. ReLU(inplace=True)) would bypass it.")
        fix = ("Use inplace=False for the activation after the hooked module, `clone()` its output, or hook the "
               "module whose output is not changed in place (register_full_backward_hook wraps the output).")
        files = project_files(trace)
        hooks = [Site(path, line) for path in files for line in calls_named(path, "register_full_backward_hook")]
        fixes = [Location.at(site, "fix", "registers the full backward hook whose wrapped output the in-place op "
                                          "then changes: hook another module, or register_forward_hook with "
                                          "tensor hooks instead") for site in hooks[:1]]
        fixes += [Location.at(site, "hook", "full backward hook registered") for site in hooks[:2]]
        # The module hooked, when the program names it in a setting (`"target_layer": "layer4.1.bn2"`).
        hooked = _module_name(trace, node)
        named = [Site(path, line) for path in files for line in string_settings(path, hooked)] if hooked else []
        if 0 < len(named) <= 2:
            fixes += [Location.at(site, "fix", f"names `{hooked}`, whose output the model changes in place, as the "
                                               "module to hook: name one whose output is left alone") for site in named]
    else:
        defined = trace.functions.get(name + "Backward") or trace.functions.get(name)
        forward = sibling_method(defined.path, defined.line, "forward") if defined else None
        returns = [Site(defined.path, line, "forward") for line in return_lines(defined.path, forward)] if forward else []
        writes = [Site(defined.path, line, "forward") for line in returned_inplace(defined.path, forward)] if forward else []
        explanation = (f"{op_words(failure.op)} at {where(failure.site)} modifies in place a view that the "
                       f"custom Function `{name}`"
                       + (f" (defined at {where(defined)})" if defined else "")
                       + " returned (it returned an input, or a view of one, as its output"
                       + (f", at {', '.join(where(r) for r in returns)}" if returns else "")
                       + "). Autograd's view handling would replace the Function's own backward.")
        fix = ("Return `x.clone()` (not `x` or a view of it) from the Function's forward, or clone before modifying. "
               "If forward changes its input in place on purpose, declare it with `ctx.mark_dirty(x)`.")
        if writes:
            explanation += (f" Its forward changes that input in place (at {', '.join(where(w) for w in writes)}) "
                            "without declaring it with `ctx.mark_dirty`.")
            fix = ("Declare the in-place change: call `ctx.mark_dirty(x)` in forward after changing `x` (then "
                   "autograd handles the returned tensor correctly), or work on `x.clone()`.")
        fixes = [Location.at(w, "fix", "changed in place in forward") for w in writes]
        fixes.append(Location.at(returns[0], "returned", "forward returns its input") if returns
                     else Location.at(defined, "function", "Function defined"))
    return _finding(trace, index, failure, "custom-function-view-inplace",
                    "In-place change of a view made inside a custom Function", explanation, fix,
                    *fixes,
                    Location.at((node.site if node else None) or _applied_at(failure.site), "view", "view returned here"))


_MODIFIED_NAME = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?:[-+*/%&|^@]|//|\*\*|<<|>>)?=|^\s*([A-Za-z_]\w*)\.\w+_\(")


def _applied_at(site):
    """The `x = Fn.apply(...)` line that made the tensor modified at `site` (`x *= s`,
    `x.mul_(s)`), found in the source when the Function's node was not seen being made."""
    found = _MODIFIED_NAME.search(site.code) if site is not None else None
    name = (found.group(1) or found.group(2)) if found else None
    if name is None:
        return None
    lines = [line for line, value in assigned_values(site.path, name, before=site.line, limit=1) if ".apply(" in value]
    return Site(site.path, lines[-1], site.function) if lines else None


def _no_grad_view(trace, index, failure):
    arg = _first(failure)
    view = trace.leaf(arg.leaf) if arg else None
    base = trace.leaf(arg.base_leaf) if arg else None
    block = enclosing_block(view.site.path, view.site.line) if view and view.site else None
    block_site = Site(view.site.path, block) if block else None
    finding = _finding(
        trace, index, failure, "no-grad-view-inplace", "View made under no_grad, modified with grad on",
        f"The view modified at {where(failure.site)} was taken "
        f"{f'at {where(view.site)} ' if view and view.site else ''}while gradient tracking was off{f' ({_cuts.block_words(block_site)} at {where(block_site)})' if block_site else ''}"
        f"{f', from {leaf_words(base)}' if base else ''}. Modifying it now, with grad on, "
        "is ambiguous: autograd never saw the view being made.",
        f"Do both inside the {_cuts.block_words(block_site)} block (if the change is not to be differentiated) "
        "or both outside it.",
        Location.at(view.site if view else None, "view", "view taken under no_grad"),
        Location.at(block_site, "no-grad-block", "gradient tracking switched off"))
    if view is None or view.site is None:
        _view_from_source(trace, finding, failure.site)
    return finding


def _view_from_source(trace, finding, written: Site | None) -> None:
    """The view was made where nothing was recorded (no graph under no_grad): from the source,
    the statement of the caller that bound what the write changes (`inputs, locs =
    sampler(batch)` for `x[l] = ...` in `forward(self, x, locs)`), and the program's function run
    under `@torch.no_grad()` that returns a slice it took (`patches = volume[:, :, z:z + p]`),
    where there is one such function: the line to make a copy."""
    if written is None or not written.callers:
        return
    names = [name.split("[")[0].split(".")[0] for name in names_written(written.path, written.line)]
    caller = written.callers[-1]
    made = argument_made_at(written.path, written.line, names[0], caller.path, caller.line) if names else None
    if made is None:
        return
    finding.add(Location(caller.path, made, "outer", f"binds the tensor that line {written.line} changes, which "
                                                     f"the call at line {caller.line} hands it", caller.function,
                         caller.callers))
    views = [(path, found) for path in project_files(trace) for found in grad_off_returns(path)]
    if len(views) == 1:
        path, (decorator, returned, bound) = views[0]
        finding.mark_fix(Site(path, bound), "takes a slice (a view) inside a function run under no_grad and returns "
                                            "it: the only such function of the program, so likely where the view "
                                            "came from; return a copy (`.clone()`), or take the slice outside it",
                         first=True)
        finding.add(Location(path, decorator, "no-grad-block", "gradient tracking switched off"))
        finding.add(Location(path, returned, "returned", "hands out the view"))


def _detach_view(trace, index, failure):
    node = _first_node(trace, failure)
    return _finding(
        trace, index, failure, "detach-view-inplace", "detach_() on a view",
        f"`detach_()` at {where(failure.site)} is called on a view (made by {node_words(node)}): a view cannot be "
        "detached in place because it shares its base's graph.",
        "Use the out-of-place form: `x = x.detach()`.",
        Location.at(node.site if node else None, "view", "view taken"))


def _out_argument(trace, index, failure):
    return _finding(
        trace, index, failure, "out-argument-with-grad", "out= used with tensors that require grad",
        f"{op_words(failure.op)} at {where(failure.site)} writes its result into an `out=` tensor while an "
        "argument requires grad; autograd does not record out= calls.",
        f"Use the functional form: `result = torch.{failure.op}(...)` without out=.")


def _non_leaf_flag(trace, index, failure):
    node = _first_node(trace, failure)
    flagged, made = user_site(failure.site), user_site(node.site) if node else None
    picked = None
    if flagged is not None and made is not None and (
            flagged.path != made.path or not same_function(flagged.path, flagged.line, made.line)):
        # Made by other code (a helper's clone of the model): the line that picked this tensor
        # to flag is where to pick the leaf it was computed from instead.
        line = binding_line(flagged.path, flagged.line)
        picked = Site(flagged.path, line, flagged.function, flagged.callers) if line else None
    finding = _finding(
        trace, index, failure, "requires-grad-on-non-leaf", "requires_grad changed on a non-leaf tensor",
        f"At {where(failure.site)} `requires_grad` is changed on a tensor that is not a leaf: it was computed by "
        f"{node_words(node)}, so it is part of a graph and its flag follows from its inputs.",
        "To start a new graph from its value: `x = x.detach().requires_grad_()`. To stop gradients "
        "through it: `x = x.detach()`. For a parameter, create it on its device and dtype directly, or "
        "wrap it in `nn.Parameter`.",
        Location.at(node.site if node else None, "non-leaf", f"became a non-leaf ({node.op if node else '?'})"))
    if picked is not None:
        finding.fix = (f"The tensors flagged at {where(flagged)} were computed by {node.op} at {where(made)}; only "
                       "leaves have a flag of their own. Set `requires_grad` on the leaves they come from (the "
                       "original parameters) where they are picked, or leave these out of the computation.")
        finding.mark_fix(picked, f"picks tensors made by {node.op} at {where(made)} (not leaves): set the flag on the "
                                 "leaves they were computed from (the original parameters) instead")
    return finding


def _integer_grad(trace, index, failure):
    arg = _first(failure)
    dtype = f" ({arg.dtype})" if arg and arg.dtype else ""
    return _finding(
        trace, index, failure, "only-float-requires-grad", "requires_grad on an integer tensor",
        f"At {where(failure.site)} a tensor of an integer or bool dtype{dtype} is asked to require grad; "
        "gradients exist only for floating point and complex values.",
        "Create it as float (`dtype=torch.float32`, or `1.0` instead of `1`), or keep integer data (indices, "
        "counts) without requires_grad, as a buffer.")


def _hook_without_grad(trace, index, failure):
    arg = _first(failure)
    cut = trace.cut(arg.cut) if arg else None
    explanation = f"`register_hook` at {where(failure.site)} is called on a tensor that does not require grad"
    locations = []
    if cut is not None:
        explanation += f": {_cuts.sentence(cut)}."
        locations = _cuts.locations(trace, cut)
    frozen = [f for f in trace.freezes if arg is not None and f.leaf is not None and f.leaf == arg.leaf
              and f.site is not None] if cut is None else []
    if frozen:
        leaf = trace.leaf(arg.leaf)
        explanation += (f": {leaf_words(leaf)}, frozen (requires_grad=False) at {where(frozen[0].site)}.")
        locations = [Location.at(frozen[0].site, "frozen", "frozen here"),
                     Location.at(leaf.site if leaf else None, "defined", "parameter defined")]
    # (no cut, not a leaf itself: computed from tensors none of which required grad, such as
    # parameters the program froze before it)
    froze = [f for f in trace.freezes if f.seq < failure.seq and f.site is not None] \
        if cut is None and not frozen and arg is not None and arg.leaf is None else []
    if froze:
        explanation += (" (computed from tensors none of which required grad; the program froze parameters "
                        f"before it, at {', '.join(where(f.site) for f in froze[:2])})")
        locations = [Location.at(f.site, "frozen", "parameters frozen before the hook") for f in froze[:2]]
    elif cut is None:
        explanation += " (a frozen parameter, data, or a value computed without gradient tracking)."
    explanation += " No gradient will ever flow through it, so a hook could never run."
    finding = _finding(trace, index, failure, "hook-on-tensor-without-grad", "Hook on a tensor that gets no gradient",
                       explanation, "Register the hook only when `t.requires_grad` is True, or compute the tensor "
                       "with gradient tracking on.", *locations)
    if len({(f.site.path, f.site.line) for f in froze}) == 1:
        finding.mark_fix(froze[0].site, "freezes parameters, the program's only freeze before the hook; the "
                                        "hooked tensor was computed from no tensor that requires grad, most likely "
                                        "from these: do not freeze them for this use (or hook only tensors that "
                                        "require grad)")
    hooked = user_site(failure.site)
    # (grad switched off by the hook's own code, a probing forward of the extractor: the hook is
    # what to guard; switched off by the program around its use of it, that block is)
    off = user_site(cut.grad_off_site) if cut is not None else None
    if hooked is not None and off is not None and off.path == hooked.path \
            and cut.reason in ("no_grad", "inference_mode") and _mark_module_hook(finding, trace, hooked):
        return finding
    loop = enclosing_loop(hooked.path, hooked.line) if hooked is not None and frozen else None
    if loop is not None and "parameters(" in source_line(hooked.path, loop[0]):
        # A hook put on every parameter of a model with frozen ones: the loop is what to change.
        finding.mark_fix(Site(hooked.path, loop[0], hooked.function, hooked.callers),
                         "registers a hook on every parameter, the frozen ones too: skip those that do not "
                         "require grad (`if param.requires_grad:`)")
    elif loop is not None:
        # (a loop over parameters the program collected, a frozen one among them)
        finding.mark_fix(hooked, f"registers a hook on each tensor of the loop at line {loop[0]}, the parameter "
                                 f"frozen at {where(frozen[0].site)} too: register it only "
                                 "`if param.requires_grad`")
    return finding


def _mark_module_hook(finding: Finding, trace: Trace, hooked: Site) -> bool:
    """A module hook of the program (run by torch, not called by the line before it) that puts a
    tensor hook on an output in every forward, the forwards run without grad too (a probing
    forward under no_grad): the guard belongs in that hook. Whether it was one."""
    caller = next((f for f in reversed(hooked.callers) if not is_library_path(f.path)), None)
    if caller is None or not hooked.function or caller.line in calls_named(caller.path, hooked.function, limit=64):
        return False
    registered = [Site(path, line) for path in project_files(trace)
                  for line in hook_registrations(path, hooked.function)]
    if not registered:
        return False
    for place in registered:
        finding.add(Location.at(place, "registered", f"registers `{hooked.function}` as a module hook: it runs in "
                                                     "every forward of the module, those without grad too"))
    condition = enclosing_condition(hooked.path, hooked.line)
    guard = Site(hooked.path, condition, hooked.function, hooked.callers) \
        if condition is not None and same_function(hooked.path, condition, hooked.line) else hooked
    finding.mark_fix(guard, f"`{hooked.function}`, a module hook, registers a tensor hook in every forward, also in "
                            "one run without grad: register it only when the output requires grad (`if "
                            "output.requires_grad:` / `torch.is_grad_enabled()`)", first=True)
    finding.fix = (f"Guard the `register_hook` in `{hooked.function}`: register it only when the output requires "
                   "grad; forwards run without grad (a probing or evaluation forward) give nothing to hook.")
    return True


def _inference(trace, index, failure):
    arg = next((t for t in failure.tensors if t.inference), _first(failure))
    cut = trace.cut(arg.cut) if arg else None
    leaf = trace.leaf(arg.leaf) if arg else None
    made = cut.site if cut else (leaf.site if leaf else None)
    block_site = _cuts.block_around(made, ("inference_mode",))
    entered = library_entry(made) if block_site is None else None
    options = inference_mode_options(project_files(trace)) if entered is not None else []
    if not options:
        entered = None  # (a call into a library says nothing unless the library runs inference_mode itself)
    # (made inside a library: where the record first saw it, which may be long after it was made)
    in_library = made is not None and is_library_path(made.path)
    stored = carrying_statement(made.path, made.line) if made is not None and not in_library else None
    finding = _finding(
        trace, index, failure, "inference-tensor-in-autograd", "Inference tensor used with autograd",
        f"{op_words(failure.op)} at {where(failure.site)} uses a tensor made "
        f"{f'at {where(made)} ' if made and not in_library else '(where, gradscope did not see: before recording or in library code; first seen at ' + where(made) + ') ' if made else '(where, gradscope did not see: before recording or in code it does not trace) '}under "
        f"torch.inference_mode(){f' (opened at {where(block_site)})' if block_site else ''}. Inference tensors "
        "have no version counter, so autograd can neither save them for backward nor see them modified.",
        "Clone it outside the block before training on it (`t = t.clone()`), or use `torch.no_grad()` instead "
        "of inference_mode for code whose results are trained on.",
        Location.at(made, "used" if in_library else "inference",
                    "first seen here, inside library code" if in_library else "made under inference_mode"),
        Location.at(block_site, "no-grad-block", "inference_mode opened"),
        Location.at(entered, "mode", "calls into library code that runs this under inference_mode"))
    for site, constructor, option in options:
        finding.mark_fix(site, f"builds the {constructor} whose loop runs {where(entered)} under "
                               f"torch.inference_mode() (its default): pass `{option}`")
    if stored is not None:
        finding.mark_fix(Site(made.path, stored, made.function, made.callers),
                         "keeps a tensor made under inference_mode for later calls, with grad on too: do not cache "
                         "what is made in inference mode (or rebuild it when grad is on)")
    if block_site is None and not options and stored is None:
        _program_inference_regions(trace, finding, made)
    if options or stored is not None:
        finding.fix = ((f"Build the {options[0][1]} with `{options[0][2]}`: its evaluation then runs under "
                        "torch.no_grad(), whose results can be used in training. " if options else "")
                       + ("Or do not keep tensors made during evaluation in a cache that training reads."
                          if stored is not None else ""))
    return finding


def _program_inference_regions(trace, finding, made) -> None:
    """Where the record does not place the making of the inference tensor (made inside a
    library, first seen later): the program's own inference_mode regions. An inference tensor is
    made only under inference_mode; where the program enters it at one place, that is the place."""
    files = project_files(trace)
    regions = [(path, line, def_line) for path in files for line, def_line in mode_regions(path)]
    if len(regions) != 1:
        return
    path, line, def_line = regions[0]
    finding.mark_fix(Site(path, line), "the program's only torch.inference_mode(): what is made under it (a "
                                       "parameter a helper resizes or builds) cannot be saved for backward; use "
                                       "torch.no_grad() here")
    finding.explanation += (f" The program enters inference_mode at one place only, {where(Site(path, line))}: "
                            "a tensor made under it is an inference tensor for good, even after the block ends.")
    finding.fix = ("Use `torch.no_grad()` instead of `torch.inference_mode()` where tensors are made that training "
                   "uses later (a layer grown or built under it), or clone them outside the block.")
    called = caller_in_source(path, def_line, files) if def_line is not None else None
    if called is not None:
        finding.add(Location(called[0], called[1], "outer", f"calls `{called[2]}`, which runs under inference_mode"))


def _captured_mutation(trace, index, failure):
    """An in-place op inside a torch.func transform (grad, vmap, vjp) on a tensor the function
    captured instead of taking as an input: a layer's buffer, most often a BatchNorm's running
    statistics, updated in train mode."""
    module = trace.module_calls.get(failure.module_call) if failure.module_call is not None else None
    norm = module is not None and "Norm" in module.type and module.training is True
    made = [Site(path, line) for path in user_files(trace)[:24] for line in calls_named(path, module.type)] \
        if module is not None else []
    built = made[0] if len(made) == 1 else module.registered_at if module is not None else None
    finding = _finding(
        trace, index, failure, "func-transform-mutates-capture", "A torch.func transform meets an in-place write",
        f"{op_words(failure.op)} at {where(failure.site)} writes in place, inside a torch.func transform, into a "
        "tensor the transformed function captured rather than took as an input"
        + (f": the running statistics of the {module.type} built at {where(built)}, which its forward updates in "
           "train mode" if norm else "") + ". The transform cannot follow such a write.",
        ("Build the norm layers without running statistics (`track_running_stats=False`), or patch them with "
         "`torch.func.replace_all_batch_norm_modules_(model)`, or run them in eval mode inside the transform."
         if norm else "Pass the tensor that is written as an input of the transformed function (for a module's "
         "buffers, `functional_call(model, (params, buffers), ...)`), or write out of place."),
        Location.at(built, "built", f"builds the {module.type}") if module is not None else None)
    if module is not None and module.registered_at is not None and built is not module.registered_at:
        finding.add(Location.at(module.registered_at, "built", f"puts the {module.type} into its model"))
    if norm:
        finding.mark_fix(built, f"builds the {module.type} with running statistics, which its forward updates in "
                                "place in train mode, inside the transform: pass `track_running_stats=False`")
        for setter in mode_set_in(root_call_site(trace, module.id), True)[:1]:
            finding.add(Location.at(setter, "mode", "sets train mode"))
    return finding


_EXPLAINERS: list[tuple[str, Callable]] = [
    ("Can't call numpy() on Tensor that requires grad", _numpy),
    ("output of a function that returns multiple views", _multi_view),
    ("This view was created inside a custom Function", _function_view),
    ("A view was created in no_grad mode", _no_grad_view),
    ("Can't detach views in-place", _detach_view),
    ("cannot resize variables that require grad", _resize),
    ("functions with out=... arguments don't support automatic differentiation", _out_argument),
    ("you can only change requires_grad flags of leaf variables", _non_leaf_flag),
    ("can require gradients", _integer_grad),
    ("cannot register a hook on a", _hook_without_grad),
    ("inference tensor", _inference),
    ("Inference tensors cannot be saved", _inference),
    ("that would mutate a captured Tensor", _captured_mutation),
]


def check(trace: Trace) -> list[Finding]:
    findings = []
    for index, failure in enumerate(trace.op_failures):
        message = failure.error.message
        for text, explain in _EXPLAINERS:
            if text.lower() in message.lower():
                findings.append(explain(trace, index, failure))
                break
    return findings
