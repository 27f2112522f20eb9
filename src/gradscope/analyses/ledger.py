"""The parameter ledger: what the optimizers' first steps found in each parameter's .grad, and
which parameters they changed (trace.param_steps), with where each parameter was defined, who
froze it, and the training flag of the modules it belongs to.

Each question is a pure function of the trace; the rules word the answers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..trace.locations import Site, is_library_path, source_line, user_site
from ..trace.model import Freeze, ParamStep, Trace
from ..trace.queries import optimizer_built, root_call, top_module
from ..trace.source_search import (assignments, called_function, enclosing_condition, method_def, first_argument_name, function_def, return_lines,
                                   same_function)

# Normalization layers: kept in eval mode on purpose while their parameters train (frozen
# statistics in detection models), so their mode says nothing about a freeze.
_NORMS = ("BatchNorm", "SyncBatchNorm", "LayerNorm", "GroupNorm", "InstanceNorm", "LocalResponseNorm", "RMSNorm")


@dataclass
class FrozenButChanged:
    leaves: list[int]
    step: ParamStep  # the first step that changed them
    freezes: list[Freeze] = field(default_factory=list)  # the lines that set requires_grad=False on them
    # those the step changed although their .grad was None: torch's optimizers skip such a
    # parameter, so the optimizer's own code moves it (decay applied to all, a zero gradient made up)
    without_grad: list[int] = field(default_factory=list)


def frozen_but_changed(trace: Trace) -> FrozenButChanged | None:
    """Parameters with requires_grad=False that an optimizer step still changed (weight decay or
    momentum on a .grad left at zero, a parameter frozen after the optimizer was built)."""
    for step in trace.param_steps:
        if step.frozen_changed:
            leaves = list(step.frozen_changed)
            return FrozenButChanged(leaves, step, _freezes_of(trace, leaves)[:2],
                                    [lid for lid in leaves if lid in step.frozen_grad_none])
    return None


def _freezes_of(trace: Trace, leaves: list[int]) -> list[Freeze]:
    """The freeze lines behind `leaves`. A line is recorded once, with the first parameter it
    froze (a loop over `model.backbone.parameters()`): failing an exact match, a line that froze
    a parameter of the same top-level module; failing that, the program's only freeze line."""
    exact = [f for f in trace.freezes if f.leaf in leaves]
    if exact:
        return exact
    modules = {top_module(trace, lid) for lid in leaves} - {None}
    near = [f for f in trace.freezes if f.leaf is not None and top_module(trace, f.leaf) in modules]
    return near or (list(trace.freezes) if len(trace.freezes) == 1 else [])


@dataclass
class TrainedInEval:
    module: str  # its path in the model
    module_type: str
    leaves: list[int]
    step: ParamStep
    forward: Site | None = None  # the line that called it (for a whole model: `model(x)`)


def trained_in_eval(trace: Trace) -> TrainedInEval | None:
    """A module (not a normalization layer) that ran every recorded forward in eval mode while a
    step changed its parameters: `.eval()` taken for a freeze."""
    modes: dict[str, list[bool]] = {}
    types: dict[str, str] = {}
    forward_sites: dict[str, Site | None] = {}
    # Only forwards that built graph count: the calls kept may be an evaluation's (the last
    # ones run), which say nothing about the mode the module trained in.
    built = _calls_that_built_graph(trace)
    mixed = _roots_with_modes_set_apart(trace, built)
    for call in trace.module_calls.values():
        # (inside a whole model that runs in train mode, or whose parts were put in train and eval
        # mode one by one: a model evaluated as a whole says nothing)
        if (call.training is not None and call.id in built and call.name is not None
                and (call.name and _root_training(trace, call) is True or root_call(trace, call.id) in mixed)):
            modes.setdefault(call.name, []).append(call.training)
            types[call.name] = call.type
            forward_sites.setdefault(call.name, call.site)
    for step in trace.param_steps:
        by_module: dict[str, list[int]] = {}
        for lid in step.changed_leaves:
            leaf = trace.leaf(lid)
            module = leaf.name.rsplit(".", 1)[0] if leaf and leaf.name and "." in leaf.name else None
            if module is None or module not in modes or types[module].startswith(_NORMS):
                continue
            if not any(modes[module]):
                by_module.setdefault(module, []).append(lid)
        if by_module:
            top = _outermost_in_eval(sorted(by_module), modes)
            if _holds_batch_norm(top, types) and not filter_froze_nothing(trace, step) \
                    and _eval_call_says_freeze(trace, top) is None:
                # A module holding batch norm, put in eval mode while it trains, is a known recipe
                # (frozen batch statistics, as detection backbones do): not a mistaken freeze.
                continue
            leaves = [lid for module, lids in by_module.items() if module.startswith(top) for lid in lids]
            return TrainedInEval(top, types.get(top, "Module"), leaves, step, forward_sites.get(top))
    return None


def _eval_call_says_freeze(trace: Trace, module: str) -> Site | None:
    """The program's `.eval()` call on `module` (from the recorded mode calls), when the program's
    own words around it say freeze: the `if` it runs under, or the function it is in
    (`if freeze_backbone: self.backbone.eval()`, `def freeze_encoder(self)`)."""
    for setter in trace.mode_sets:
        site = user_site(setter.site)
        if setter.training or setter.module != module or site is None:
            continue
        if site.function == "train":
            continue  # (an override of train() that keeps a part in eval mode: the frozen-statistics recipe)
        condition = enclosing_condition(site.path, site.line)
        words = (source_line(site.path, condition) if condition else "") + " " + (site.function or "")
        # (`freeze_bn`, `frozen_stats`: the statistics are what is meant fixed, not the weights)
        if re.search(r"(?i)freez|frozen", words) and not re.search(r"(?i)unfreez|bn|norm|stat", words):
            return site
    return None


def _holds_batch_norm(module: str, types: dict[str, str]) -> bool:
    """Whether a module recorded under `module` (itself or a submodule) is a batch norm."""
    return any(kind.startswith(_BATCH_NORMS) for name, kind in types.items()
               if name is not None and (name == module or name.startswith(module + ".")))


_BATCH_NORMS = ("BatchNorm", "SyncBatchNorm", "FrozenBatchNorm")


def _outermost_in_eval(modules: list[str], modes: dict[str, list[bool]]) -> str:
    """The outermost module, around the first of these, that also ran only in eval mode (the
    `backbone` whose `.eval()` was called, rather than its first conv)."""
    path = modules[0]
    best = path
    parts = path.split(".")
    for i in range(len(parts) - 1, -1, -1):
        outer = ".".join(parts[:i])  # ("" at the end: the whole model, put in eval mode as a whole)
        if outer in modes and not any(modes[outer]):
            best = outer
    return best


def zero_gradient_leaves(trace: Trace) -> tuple[list[int], ParamStep] | None:
    """Parameters whose .grad was zero everywhere at each of their optimizer's recorded steps
    (two at least), with the last of those steps."""
    for steps in _by_optimizer(trace):
        always = set(steps[0].grad_zero)
        for step in steps[1:]:
            always &= set(step.grad_zero)
        if always and len(steps) >= 2:
            return sorted(always), steps[-1]
    return None


def never_graded_optimizer(trace: Trace) -> tuple[list[int], ParamStep] | None:
    """An optimizer whose parameters had no .grad at all at any of its first steps, though a
    backward ran before them: what it steps is cut off from every loss."""
    for steps in _by_optimizer(trace):
        if len(steps) >= 2 and all(s.grad_none and s.grad_nonzero == 0 and not s.grad_zero and s.changed == 0
                                   for s in steps) and trace.backward_calls:
            return list(steps[0].grad_none), steps[-1]
    return None


def reached_by_backward(trace: Trace, leaves: list[int]) -> bool:
    """Whether a backward ran a recorded node that accumulates into one of `leaves`: it gave
    them gradients (so a parameter without .grad at its step lost it in between). A graph that
    was built from them but never backpropagated (its loss re-wrapped as a new leaf) does not count."""
    wanted = set(leaves)
    return any(wanted & set(node.leaf_ids) for node in trace.nodes.values()
               if node.leaf_ids and node.ran_by is not None)


@dataclass
class LeakedIntoFirstStep:
    step: ParamStep  # the optimizer's first step
    extra: list[Site]  # the backward lines whose gradients only that step applied
    steady: list[Site]  # the backward lines every later step applied


def leaked_into_first_step(trace: Trace) -> LeakedIntoFirstStep | None:
    """An optimizer's first step that applied, besides the gradients of the backward lines that
    every later step applies, those of a backward line that ran once before (an initial
    gradient check, a warm-up pass) with no reset of .grad after it. Needs two later steps of
    the ledger that agree on their lines (a loop that settled)."""
    for steps in _by_optimizer(trace):
        steps = sorted(steps, key=lambda step: step.step)
        if len(steps) < 3 or steps[0].step != 1 or not steps[0].backward_sites:
            continue
        # (the user's lines: a library's backward, as `accelerator.backward(loss)` runs it, is one line)
        later = [{_line(s) for s in step.backward_sites} - {None} for step in steps[1:]]
        if not later[0] or any(lines != later[0] for lines in later[1:]):
            continue
        first = [user_site(s) for s in steps[0].backward_sites if user_site(s) is not None]
        extra = [s for s in first if _line(s) not in later[0]]
        if extra and {_line(s) for s in first} >= later[0]:
            steady = [s for s in first if (s.path, s.line) in later[0]]
            return LeakedIntoFirstStep(steps[0], extra, steady)
    return None


def _line(site: Site | None) -> tuple[str, int] | None:
    site = user_site(site)
    return (site.path, site.line) if site is not None else None


def _by_optimizer(trace: Trace) -> list[list[ParamStep]]:
    found: dict[int, list[ParamStep]] = {}
    for step in trace.param_steps:
        found.setdefault(step.optimizer_index, []).append(step)
    return list(found.values())


def site_of(trace: Trace, lid: int) -> Site | None:
    leaf = trace.leaf(lid)
    return leaf.site if leaf else None


def definition_sites(trace: Trace, leaves: list[int], limit: int = 3) -> list[Site]:
    """Where these parameters were defined, each line once (a head and the loss's own
    `nn.Parameter`s are two lines to name, a layer's weight and bias one)."""
    found: list[Site] = []
    # (the program's own lines first: a layer it added to a library model, `model.fc = nn.Linear(...)`,
    # says more than the library's layers around it)
    sites = [site_of(trace, lid) for lid in leaves]
    ordered = [s for s in sites if s is not None and not is_library_path(s.path)] + \
        [s for s in sites if s is not None and is_library_path(s.path)]
    for site in ordered:
        if site is not None and not any((s.path, s.line) == (site.path, site.line) for s in found):
            found.append(site)
            if len(found) >= limit:
                break
    return found



def _calls_that_built_graph(trace: Trace) -> set[int]:
    """The module calls a recorded node was made in, and the calls around them."""
    found: set[int] = set()
    for node in trace.nodes.values():
        cid = node.module_call
        while cid is not None and cid not in found:
            found.add(cid)
            call = trace.module_calls.get(cid)
            cid = call.parent if call is not None else None
    return found


def filter_froze_nothing(trace: Trace, step: ParamStep) -> bool:
    """The optimizer was given the parameters that require grad (`filter(lambda p:
    p.requires_grad, ...)`), yet the program froze none: whoever wrote it took something else
    (an `.eval()`) for the freeze."""
    built = optimizer_built(step.site)
    return built is not None and "requires_grad" in built.code and not trace.freezes


def _roots_with_modes_set_apart(trace: Trace, built: set[int]) -> set[int]:
    """Outermost calls in eval mode whose forward ran some modules in train mode: the parts'
    modes were set one by one (`model.eval()`, then `model.head.train()`), so a part left in
    eval mode was left there on purpose."""
    flags: dict[int, set] = {}
    for call in trace.module_calls.values():
        if call.id in built and call.training is not None:
            flags.setdefault(root_call(trace, call.id), set()).add(call.training)
    return {root for root, seen in flags.items()
            if seen == {True, False} and (call := trace.module_calls.get(root)) is not None and call.training is False}


def _root_training(trace: Trace, call) -> bool | None:
    """The train/eval flag of the outermost module call around `call` (None: it is the outermost)."""
    root = root_call(trace, call.id)
    return trace.module_calls[root].training if root != call.id else None


def optimizer_made(step_site: Site | None, files: list[str]) -> list[tuple[Site, str]]:
    """(where, what) the optimizer stepped at `step_site` was made from, in the program's source:
    "built", the statement that builds it (and the return of the program's own helper where a
    call of one made it, `optimizer = build_optimizer(model, cfg)`); "params", the statement that
    collects the parameters it is given (`params = [p for p in model.parameters() if ...]`)."""
    built = optimizer_built(step_site)
    if built is None:
        # (a trainer that asks the model for its optimizer, Lightning's `configure_optimizers`:
        # the program's method of that name builds it)
        for path in files:
            start = method_def(path, "configure_optimizers")
            returned = return_lines(path, start)[:1] if start is not None else []
            if returned:
                # (the line that calls an optimizer class, `torch.optim.AdamW(...)`, else the return)
                built = next((line for line in range(start, returned[0] + 1)
                              if re.search(r"\boptim\.\w+\(|\b(Adam|AdamW|SGD|RMSprop|Adagrad|LBFGS)\(",
                                           source_line(path, line))), returned[0])
                return [(Site(path, built, "configure_optimizers"), "built")]
        return []
    found = [(built, "built")]
    helper = called_function(built.path, built.line)
    for path in (files if helper else []):
        start = function_def(path, helper)
        if start is not None:
            found += [(Site(path, line, helper), "built") for line in return_lines(path, start)[:1]]
            break
    if helper and len(found) == 1:
        return found  # (a helper not in the program's files: what it is given says nothing of the parameters)
    made = found[-1][0]
    given = first_argument_name(made.path, made.line)
    lines = assignments(made.path, given, before=made.line) if given else []
    if lines and same_function(made.path, lines[-1], made.line):
        found.append((Site(made.path, lines[-1], made.function), "params"))
    return found


@dataclass
class SummedAccumulation:
    """Optimizer steps that each apply the gradients of several backward calls of one line (a
    gradient-accumulation loop), where the loss backpropagated is not scaled down: the step
    applies their sum, `count` times the gradient of their mean."""

    step: ParamStep
    count: int  # backward calls per step
    backward: object  # the first backward call of the window (BackwardCall)


_SCALED = ("DivBackward", "MulBackward")


def summed_accumulation(trace: Trace) -> SummedAccumulation | None:
    """From the first steps of an optimizer: the same number (> 1) of backward calls, from one
    line, before each, whose losses are not divided or multiplied (by an accumulation count)."""
    if any(h.kind == "accumulation-wiped" for h in trace.grad_hazards):
        return None  # (reset between the backward calls: the step applies the last one only)
    steps = sorted((s for s in trace.param_steps if s.optimizer_index == 0), key=lambda s: s.seq)
    calls = [c for c in trace.backward_calls if c.error is None and c.api != "torch.autograd.grad"]
    windows, previous = [], -1
    for step in steps:
        window = [c for c in calls if previous < c.seq < step.seq]
        previous = step.seq
        windows.append(window)
    if len(windows) < 2 or len({len(w) for w in windows}) != 1 or len(windows[0]) < 2:
        return None
    window = windows[0]
    if len({(c.site.path, c.site.line) for w in windows for c in w if c.site is not None}) != 1:
        return None  # (two losses backpropagated one after the other: a sum the program asked for)
    if any(c.retain_graph for w in windows for c in w):
        return None  # (several losses of one forward, one after the other, PCGrad's: not micro-batches)
    roots = [root for w in windows for c in w if c.roots and (root := trace.node(c.roots[0])) is not None]
    if not roots or any(r.name.startswith(_SCALED) for r in roots):  # (older records forgotten: the kept ones say)
        return None
    return SummedAccumulation(steps[0], len(window), window[0])
