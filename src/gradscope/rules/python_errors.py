"""Errors that come out of library Python code rather than a torch call (autograd.Function
machinery, torch.optim, AMP, DDP, gradcheck) or out of the user's own code because a `.grad`
was None. The traceback names the line; we add the cause and, where the trace knows it, the
line behind it."""

from __future__ import annotations

import re

from ..trace.findings import Finding, Location
from ..trace.locations import Site
from ..trace.model import Trace
from ..trace.queries import project_files, user_files
from ..trace.source_search import (assignments, called_function, calls_named, class_methods, enclosing_condition,
                                   function_classes, function_def, method_call_arguments, return_lines,
                                   same_function)
from ._explainers import Explainers, explain_first
from ._words import node_words, where
from .backward_failures import ddp_constructions
from .ddp import traced_paths


def _finding(trace, error, rule, title, explanation, fix, *locations) -> Finding:
    failed = Location.at(error.site, "failed", "raised here")
    return Finding.naming(rule, "error", title, explanation, fix, [*locations, failed], {"uncaught": True})


def _optimizer_non_leaf(trace, error, found):
    arg = next((t for t in error.tensors if not t.is_leaf), None)
    node = trace.node(arg.node) if arg else None
    return _finding(
        trace, error, "optimizer-non-leaf", "Optimizer given a tensor that is not a leaf",
        f"The optimizer built at {where(error.site)} is given a tensor computed from another one"
        + (f": it became a non-leaf at {where(node.site)} ({node_words(node)})" if node else "")
        + ". An optimizer can only update leaves: a computed tensor's gradient is never stored, and "
          "updating it would not change what it was computed from.",
        "Create the tensor directly with its final device, dtype and scale, then turn on requires_grad: "
        "`w = (torch.randn(n, device=d) * 0.01).requires_grad_()`, or wrap it in `nn.Parameter(...)`.",
        Location.at(node.site if node else None, "non-leaf", "became a non-leaf"))


_INSTANCE_CALL = re.compile(r"([A-Za-z_]\w*)\(\s*\)\s*\(")


def _legacy_function(trace, error, found):
    """Name the class's non-static forward/backward, found in the files of the failing line."""
    called = _INSTANCE_CALL.search(error.site.code) if error.site else None
    methods = []
    if called:
        for frame in (error.site, *reversed(error.site.callers)):
            defined = class_methods(frame.path, called.group(1), ("forward", "backward"))
            if defined:
                methods = [Site(frame.path, line, name) for name, (line, static) in defined.items() if not static]
                break
    name = f"`{called.group(1)}`" if called else "a custom autograd.Function"
    return _finding(
        trace, error, "legacy-autograd-function", "autograd.Function instance called directly",
        f"At {where(error.site)} {name} is instantiated and called (`Fn()(x)`), the pre-1.3 style"
        + (f", with forward/backward as instance methods (at {', '.join(where(m) for m in methods)})" if methods else "")
        + ". Functions are now used through their class.",
        "Make forward and backward @staticmethods taking `ctx` first (`def forward(ctx, x)`), and call "
        "`Fn.apply(x)`.",
        *(Location.at(m, "fix", "make it a @staticmethod taking ctx") for m in methods))


_APPLIED = re.compile(r"(\w+)\.apply\(")
_ARGUMENT = re.compile(r"argument (\d+) is of type (\w+)")


def _save_non_tensor(trace, error, found):
    finding = _finding(
        trace, error, "custom-function-misuse", "save_for_backward given a non-tensor",
        f"At {where(error.site)} `ctx.save_for_backward` is given a value that is not a tensor ({found.group(0)}).",
        "Save only tensors with save_for_backward; store other values as attributes: `ctx.k = k`.")
    # From the Function applied on the failing line to its forward's save_for_backward, the
    # argument named in the message, and where that value was made (a helper's return).
    applied = _APPLIED.search(error.site.code) if error.site else None
    argument = _ARGUMENT.search(error.message)
    if argument is None:
        return finding
    index = int(argument.group(1))
    # (the Function named on the line; else, `self.pool(...)` with the Function chosen elsewhere,
    # the one Function of the program whose forward saves that many values)
    candidates = []
    for path in project_files(trace):
        for name in ([applied.group(1)] if applied else function_classes(path)):
            forward = class_methods(path, name, ("forward",)).get("forward")
            saves = method_call_arguments(path, forward[0], "save_for_backward") if forward else []
            if saves and index < len(saves[0][1]):
                candidates.append((path, saves[0]))
    if len(candidates) == 1:
        path, (line, names) = candidates[0]
        name = names[index]
        finding.add(Location.at(Site(path, line, "forward"), "raises", f"saves a {argument.group(2)}"))
        made = assignments(path, name, before=line) if name else []
        if made and same_function(path, made[-1], line):
            finding.add(Location.at(Site(path, made[-1], "forward"), "created", f"`{name}` made here"))
            helper = called_function(path, made[-1])
            start = function_def(path, helper) if helper else None
            returned = return_lines(path, start)[:1] if start else []
            for at in returned:
                finding.mark_fix(Site(path, at, helper), f"returns a {argument.group(2)}, which the Function "
                                                         f"saves with save_for_backward: return a tensor")
            if not returned:
                finding.mark_fix(Site(path, made[-1], "forward"), f"makes `{name}` a {argument.group(2)}: keep it "
                                                                  f"as an attribute (`ctx.{name} = {name}`), or save a "
                                                                  "tensor")
    return finding


def _no_backward(trace, error, found):
    return _finding(
        trace, error, "custom-function-misuse", "Custom Function without backward",
        f"A custom autograd.Function used in the graph backpropagated at {where(error.site)} defines no backward.",
        "Implement `@staticmethod def backward(ctx, *grad_outputs)` returning one gradient per forward input.")


def _none_grad(trace, error, found):
    read = next((r for r in trace.grad_reads if r.site == error.site), None)
    if read is None:
        read = next((r for r in reversed(trace.grad_reads) if error.site and r.site
                     and r.site.path == error.site.path), None)
    if read is None:
        return None
    if not read.is_leaf:
        node = trace.node(read.node)
        why = (f"it was read from a tensor that is not a leaf (computed by {node_words(node)}), and autograd "
               "stores .grad only for leaves")
        fix = ("Read `.grad` of the leaf (the parameter itself); if you rebound it with `w = w - lr * w.grad`, "
               "update in place under no_grad instead: `with torch.no_grad(): w -= lr * w.grad`. For an "
               "intermediate, call `t.retain_grad()` before backward.")
        locations = [Location.at(node.site if node else None, "non-leaf", "became a non-leaf")]
    else:
        why = ("no backward has written it yet: .grad is None before the first backward, after "
               "`zero_grad()` (which sets it to None), and for parameters that were not used in the loss")
        fix = "Check `if p.grad is not None:` before using it, or read it after backward."
        locations = []
    return _finding(trace, error, "grad-is-none", ".grad is None here",
                    f"The `.grad` read at {where(read.site)} is None: {why}.", fix,
                    *locations, Location.at(read.site, "read", ".grad read (None)"))


def _worded(rule, title, explanation, fix):
    """An explainer that needs only the error's line and the matched text: `{at}` is the line,
    `{match}` the text the pattern matched."""
    def explain(trace, error, found):
        return _finding(trace, error, rule, title,
                        explanation.format(at=where(error.site), match=found.group(0)), fix)
    return explain


_amp_fp16 = _worded(
    "amp-fp16-master-weights", "GradScaler given fp16 parameters",
    "GradScaler.unscale_ (reached from {at}) found float16 gradients: the parameters "
    "themselves are float16 (model.half() or an fp16 checkpoint).",
    "Keep parameters in float32 and run the forward under `torch.autocast`; or use bfloat16 without a scaler.")
_UNUSED_INDICES = re.compile(r"Parameter indices which did not receive grad for rank (\d+): ([\d ]+)")
_UNUSED_NAMES = re.compile(r"Parameters which did not receive grad for rank (\d+): ([\w.,\s]+)")


def _ddp_unused(trace, error, found):
    """DDP's reducer waited for gradients that never came: the parameters by name (DDP gives
    indices, or names under TORCH_DISTRIBUTED_DEBUG=DETAIL), their module, and the line that
    uses that module only on some iterations (or the line that built a module never used)."""
    rank, names = _unused_parameters(trace, error.message)
    modules = list(dict.fromkeys(name.rpartition(".")[0] for name in names))
    uses, conditions, built = [], [], []
    for module in modules:
        calls = [c for c in trace.module_calls.values() if c.name in traced_paths(module) and c.site]
        if calls:
            use = calls[0].site
            uses.append(use)
            branch = enclosing_condition(use.path, use.line)
            if branch is not None:
                conditions.append(Site(use.path, branch))
        else:
            parameters = {p for name in names if name.startswith(f"{module}.") for p in traced_paths(name)}
            leaf = next((l for l in trace.leaves.values() if l.name in parameters), None)
            if leaf is not None and leaf.site is not None:
                built.append(leaf.site)
    shown = ", ".join(f"`{n}`" for n in names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
    explanation = (f"DistributedDataParallel (at {where(error.site)}) waits, in each iteration, for a gradient of "
                   "every parameter it wraps before the next forward; "
                   + (f"on rank {rank}, {shown} got none" if names else "some parameters got none")
                   + " in the previous iteration")
    # Under Lightning the DDP is built by its strategy: the option is the strategy's name.
    finds_unused = ("`strategy=\"ddp_find_unused_parameters_true\"` in the Trainer" if "LightningModule" in error.message
                    else "DDP with `find_unused_parameters=True`")
    if conditions:
        explanation += (f": `{modules[0]}` is called at {where(uses[0])} only when the condition at "
                        f"{where(conditions[0])} holds, and it did not in that iteration")
        fix = (f"`{modules[0]}` is used on some iterations only: construct {finds_unused} "
               "(it then looks for unused parameters after each forward), "
               f"or make the branch at {where(conditions[0])} use `{modules[0]}` on every iteration "
               "(e.g. add `0 * its output` to the loss when it is skipped).")
    elif built:
        explanation += f": `{modules[0]}` (built at {where(built[0])}) is never called in forward"
        fix = (f"Remove `{modules[0]}` from the model, or freeze it (`requires_grad_(False)`) before wrapping "
               f"the model in DDP; if it is used elsewhere, construct {finds_unused}.")
    else:
        explanation += " (a branch not taken, or an output left out of the loss)"
        fix = f"Use every output in the loss, or construct {finds_unused} (or static_graph=True)."
    finding = _finding(trace, error, "ddp-unused-parameters", "DDP: parameters that got no gradient",
                       explanation + ".", fix,
                       *(Location.at(site, "skipped", "used only when the branch is taken") for site in uses[:2]),
                       *(Location.at(site, "condition", "the branch that skips it") for site in conditions[:2]),
                       *(Location.at(site, "unused", "built, never called") for site in built[:2]))
    lightning = "LightningModule" in error.message
    where_built = ([Site(path, line) for path in user_files(trace)[:12] for line in calls_named(path, "Trainer")]
                   if lightning else ddp_constructions(trace))
    for site in where_built[:1]:
        finding.mark_fix(site, ("builds the Trainer: give it strategy=\"ddp_find_unused_parameters_true\""
                                if lightning else "wraps the model in DDP: construct it with "
                                                  "find_unused_parameters=True")
                         + " (parameters go unused on some iterations)")
    for site in conditions[:1]:
        finding.mark_fix(site, f"skips `{modules[0]}` on some iterations: or use it on every iteration")
    finding.details["unused_parameters"] = names
    if rank is not None:
        finding.details["rank"] = rank
    return finding


def _unused_parameters(trace, message: str) -> tuple[int | None, list[str]]:
    """(rank, parameter names) from DDP's message: indices mapped through the parameters the
    DDP wraps (recorded in its order), or the names it gives itself."""
    named = _UNUSED_NAMES.search(message)
    if named:
        return int(named.group(1)), [n.strip() for n in named.group(2).split(",") if n.strip()]
    indexed = _UNUSED_INDICES.search(message)
    if not indexed:  # (Lightning replaces DDP's message by its own, without the indices)
        return trace.meta.get("ddp_rank"), _unreached_by_last_backward(trace)
    order = trace.ddp_parameters
    indices = [int(i) for i in indexed.group(2).split()]
    return int(indexed.group(1)), [order[i] if i < len(order) else f"parameter #{i}" for i in indices]


def _unreached_by_last_backward(trace) -> list[str]:
    """The parameters DDP wraps that the last backward call did not reach: its graph walked from
    its roots to the leaves it accumulates into. Empty when that graph is not in the trace."""
    calls = [c for c in trace.backward_calls if c.error is None and c.roots]
    if not calls or not trace.ddp_parameters:
        return []
    reached, seen, todo = set(), set(), list(calls[-1].roots)
    while todo:
        node = trace.node(todo.pop())
        if node is None or node.id in seen:
            continue
        seen.add(node.id)
        todo.extend(node.next_ids)
        reached.update(leaf.name for leaf in map(trace.leaf, node.leaf_ids) if leaf is not None and leaf.name)
    if not reached:
        return []
    return [name for name in trace.ddp_parameters if not any(_same_parameter(r, name) for r in reached)]


# Attributes through which wrappers hold the model: DDP (`module`), Lightning's strategy
# (`_forward_module`), torch.compile (`_orig_mod`).
_WRAPPERS = ("module", "_forward_module", "_orig_mod")


def _same_parameter(path: str, name: str) -> bool:
    """Whether `path` (as the trace names a parameter, from the outermost module) is DDP's `name`
    under wrappers only: `module._forward_module.aux_head.weight` is `aux_head.weight`, while
    `head.fc.weight` is not `fc.weight`."""
    if path == name:
        return True
    if not path.endswith(f".{name}"):
        return False
    return all(part in _WRAPPERS for part in path[: -len(name) - 1].split("."))


_gradcheck = _worded(
    "gradcheck-failure", "gradcheck: backward disagrees with finite differences",
    "torch.autograd.gradcheck at {at} found that the analytical gradient ({match}) "
    "differs from the numerical one.",
    "Check the custom backward's formula, and run gradcheck on float64 inputs (float32 is too imprecise).")

_integer_parameter = _worded(
    "only-float-requires-grad", "requires_grad on an integer tensor",
    "At {at} a tensor of an integer or bool dtype is asked to require grad, here through torch's "
    "own code (`nn.Parameter(torch.arange(n))`, `torch.randint(...)` made a parameter): gradients "
    "exist only for floating point and complex values.",
    "Create it as float (`torch.arange(n, dtype=torch.float32)`, `.float()`), or keep integer data "
    "(indices, positions, counts) without gradient, as a buffer: `self.register_buffer(\"pos\", t)`.")


_EXPLAINERS: Explainers = [
    (re.compile(r"can't optimize a non-leaf Tensor"), _optimizer_non_leaf),
    (re.compile(r"Legacy autograd function with non-static forward method"), _legacy_function),
    (re.compile(r"save_for_backward can only save variables, but argument \d+ is of type \w+"), _save_non_tensor),
    (re.compile(r"You must implement either the backward or vjp method"), _no_backward),
    (re.compile(r"'NoneType' object has no attribute|unsupported operand type\(s\) for .*NoneType"), _none_grad),
    (re.compile(r"Attempting to unscale FP16 gradients"), _amp_fp16),
    (re.compile(r"Expected to have finished reduction in the prior iteration"), _ddp_unused),
    (re.compile(r"your LightningModule has parameters that were not used in producing the loss"), _ddp_unused),
    (re.compile(r"Jacobian mismatch for output \d+ with respect to input \d+"), _gradcheck),
    (re.compile(r"Only Tensors of floating point and complex dtype can require gradients"), _integer_parameter),
]


# Errors that quote another process's error (torch.multiprocessing.spawn re-raises a worker's
# traceback as text in the parent). The worker is recorded too (children.py), and its report
# has the facts; the quote in the parent has none.
_RELAYED = {"ProcessRaisedException"}


def check(trace: Trace) -> list[Finding]:
    error = trace.error
    if error is None or error.backward_call is not None or error.op_failure is not None:
        return []
    if error.type in _RELAYED:
        return []  # a child process's error, quoted: the child's own report explains it
    finding = explain_first(_EXPLAINERS, error.message, trace, error)
    return [finding] if finding is not None else []
