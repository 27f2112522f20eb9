"""Silent findings from the parameter ledger (analyses/ledger.py): frozen parameters an optimizer
still changes, a module trained while in eval mode, gradients that are exactly zero at every
step, an optimizer whose parameters never get a gradient."""

from __future__ import annotations

import re

from ..analyses import ledger, modes
from ..analyses.settings import options_read, settings_for
from ..trace.findings import Finding, Location
from ..trace.locations import Site, is_library_path, source_line, user_site
from ..trace.model import Trace
from ..trace.queries import (accumulates_into, made_later_in_function, optimizer_built, project_files, step_condition,
                             user_files)
from ..trace.source_search import (assigned_values, assignments, first_argument_name, calls_named, class_bases, class_methods, enclosing_condition,
                                   keyword_calls, keyword_uses, method_calls_on, missing_gradient_handled, requires_grad_writes,
                                   same_function)
from . import _cuts
from ._words import leaf_words, node_words, where

FROZEN_RULE_ID = "frozen-parameter-updated"
EVAL_RULE_ID = "eval-mode-module-trained"
ZERO_RULE_ID = "zero-gradient"
NEVER_STEPPED_RULE_ID = "optimizer-step-never-ran"

# Backward nodes whose derivative is zero everywhere (where it exists): a parameter behind one
# gets exactly zero gradients.
_ZERO_DERIVATIVE = re.compile(r"^(Round|Floor|Ceil|Sign|Sgn|Trunc|Heaviside)Backward\d*$")


def _names(trace: Trace, leaves: list[int], limit: int = 4) -> str:
    names = []
    for lid in leaves[:limit]:
        leaf = trace.leaf(lid)
        names.append(f"`{leaf.name or leaf.owner}`" if leaf and (leaf.name or leaf.owner) else leaf_words(leaf))
    more = len(leaves) - limit
    return ", ".join(names) + (f" and {more} more" if more > 0 else "")


LEAKED_RULE_ID = "gradients-leak-into-first-step"


def leaked_into_first_step(trace: Trace) -> list[Finding]:
    """The first optimizer step applies the gradients of a backward that ran once before the
    loop (an initial check), as nothing reset .grad after it."""
    found = ledger.leaked_into_first_step(trace)
    if found is None:
        return []
    step, extra = found.step, found.extra[0]
    stepped_at = user_site(step.site)
    finding = Finding(
        rule=LEAKED_RULE_ID, severity="warning", title="The first step applies gradients of an earlier backward",
        explanation=(f"{step.optimizer}.step() at {where(stepped_at)} (step 1) applied the gradients of the backward "
                     f"at {where(extra)} as well as those of the backward at {where(found.steady[0])}, which every "
                     "later step applies alone: nothing reset .grad between the two, so the first update adds a "
                     "gradient that belongs to no training step."),
        fix=("Reset the gradients before each backward of the training step (`optimizer.zero_grad()` at the top "
             f"of the step), or right after the backward at {where(extra)}."))
    zero = _zero_grad_after_step(stepped_at)
    if zero is not None:
        finding.mark_fix(zero, f"resets .grad only after the step, so the gradients of the backward at {where(extra)}, "
                               "run before the first step, are still there for it: reset before the backward instead")
    finding.mark_fix(extra, "its gradients stay in .grad and the first optimizer step applies them: reset them "
                            "after it (`optimizer.zero_grad()`), if it is only a check")
    finding.add(Location.at(stepped_at, "step", "step 1 applies both"))
    finding.add(Location.at(found.steady[0], "backward", "the training step's own backward"))
    return [finding]


def _frozen_inside_step(trace: Trace, found) -> Finding:
    """Parameters frozen inside the optimizer's step, by its own pre-hooks (a schedule of
    freezes), after the backward filled their .grad: that step applies it all the same."""
    step, hooks = found.step, found.step.step_hooks
    finding = Finding(
        rule=FROZEN_RULE_ID, severity="warning", title="Parameters frozen inside the optimizer step are still changed",
        explanation=(f"{_names(trace, found.leaves)} have requires_grad=False, yet {step.optimizer}.step() at "
                     f"{where(step.site)} (step {step.step}) changed them. The optimizer's step pre-hook (defined at "
                     f"{where(hooks[0])}) runs inside the step, after the backward had filled their .grad: setting "
                     "requires_grad=False there does not stop this step from applying that gradient."),
        fix=("Apply the freeze before the forward pass of the step (not from an optimizer step hook), or set "
             "their .grad to None where they are frozen, so this step skips them."))
    files = project_files(trace)
    writes = [Site(path, line) for path in files[:40] for line in requires_grad_writes(path)]
    if 0 < len(writes) <= 2:
        for write in writes:
            finding.mark_fix(write, f"freezes inside the optimizer's step (from the hook at {where(hooks[0])}), after "
                                    "the backward filled .grad: set the parameter's `.grad = None` here too, or freeze "
                                    "before the forward pass")
    registered = [Site(path, line) for path in files[:40] for line in calls_named(path, "register_step_pre_hook")]
    for site in registered[:1]:
        finding.mark_fix(site, "runs the freezes from a step pre-hook, after the backward: apply them before the "
                               "forward pass instead")
    for hook in hooks[:2]:
        finding.add(Location.at(hook, "hook", "the optimizer's step pre-hook: runs inside the step"))
    for place in ledger.definition_sites(trace, found.leaves):
        finding.add(Location.at(place, "defined", "parameter defined"))
    backward = max((c for c in trace.backward_calls if c.seq < step.seq), key=lambda c: c.seq, default=None)
    finding.add(Location.at(backward.site if backward else None, "backward", "fills their .grad before the step"))
    finding.add(Location.at(step.site, "step", "changes them"))
    return finding


def _zero_grad_after_step(step: Site | None) -> Site | None:
    """The `zero_grad` call of the step's function that comes after it (the loop resets after
    stepping), when it has exactly one."""
    if step is None or is_library_path(step.path):
        return None
    lines = [line for line in calls_named(step.path, "zero_grad") if line > step.line
             and same_function(step.path, line, step.line)]
    return Site(step.path, lines[0], step.function, step.callers) if len(lines) == 1 else None


def frozen_but_updated(trace: Trace) -> list[Finding]:
    found = ledger.frozen_but_changed(trace)
    if found is None:
        return []
    step = found.step
    if step.step_hooks and not found.freezes:
        return [_frozen_inside_step(trace, found)]
    built = optimizer_built(step.site)
    frozen_later = [f for f in found.freezes if made_later_in_function(f.site, built)]
    made_up = _gradient_made_up(trace, step.optimizer) if found.without_grad else None
    finding = Finding(
        rule=FROZEN_RULE_ID, severity="warning", title="Frozen parameters are still changed by the optimizer",
        explanation=(f"{_names(trace, found.leaves)} have requires_grad=False, yet {step.optimizer}.step() at "
                     f"{where(step.site)} (step {step.step}) changed them. The optimizer still holds them"
                     + (f" (it was built at {where(built)}, before they were frozen)" if frozen_later else "")
                     + (", and their .grad was None: torch's optimizers skip such a parameter, this one moves it"
                        + (f" (at {where(made_up)} it makes up a gradient instead of skipping it, and then "
                           "applies weight decay and momentum)" if made_up else "") + "."
                        if found.without_grad else
                        ", and with momentum or weight decay it keeps moving a parameter whose .grad is a zero "
                        "tensor rather than None (zero_grad(set_to_none=False) leaves zeros).")),
        fix=("Skip a parameter whose .grad is None in the optimizer's step (`if p.grad is None: continue`), or give "
             "the optimizer only the parameters that train." if found.without_grad else
             "Freeze before building the optimizer and give it only the parameters that train "
             "(`filter(lambda p: p.requires_grad, model.parameters())`), or set their .grad to None "
             "(`zero_grad(set_to_none=True)`) so the optimizer skips them."))
    finding.mark_fix(made_up, "updates a parameter that has no gradient (a frozen one) instead of skipping it: "
                              "`continue` here")
    if not found.without_grad:
        # Their .grad was a zero tensor: a reset that leaves zeros keeps them in every step.
        for path in user_files(trace)[:12]:
            for line in keyword_calls(path, "zero_grad", "set_to_none", False)[:1]:
                finding.mark_fix(Site(path, line), "leaves a zero .grad on the frozen parameters, so the optimizer "
                                                   "still applies momentum and weight decay to them: "
                                                   "`set_to_none=True` makes it skip them")
            # (set_to_none given by a setting, `set_to_none=cfg.zero_grad_to_none`: where it is set False)
            for line, _, value in keyword_uses(path, {"set_to_none": "True"})[:2]:
                if value in ("False", "True"):
                    continue
                options = options_read(Site(path, line), project_files(trace), accept=lambda written: written == "False")
                if options:
                    finding.add(Location.at(Site(path, line), "zero_grad", "resets .grad with set_to_none given by "
                                                                           f"`{options[0][1]}`"))
                for place, name, _ in options:
                    finding.mark_fix(place, f"sets `{name}` to False, which the reset at {where(Site(path, line))} "
                                            "passes as set_to_none: it leaves a zero .grad on the frozen parameters, "
                                            "so the optimizer still applies momentum and weight decay to them; set "
                                            "it to True")
    for freeze in frozen_later:
        finding.mark_fix(freeze.site, "freezes these parameters after the optimizer was built, which still holds "
                                      "and changes them: freeze before building it")
    # (frozen after training began, at an epoch of a schedule: the freeze is where their .grad
    # can be dropped too, so that the optimizer skips them)
    began = next((s.seq for s in trace.first_steps if s.optimizer == step.optimizer), None)
    if not found.without_grad and began is not None:
        for freeze in [f for f in found.freezes if f.seq > began and f not in frozen_later][:1]:
            finding.mark_fix(freeze.site, "freezes these parameters after training began, leaving their .grad in "
                                          "place: set `.grad = None` here too, so the optimizer skips them")
    if made_up is None:
        finding.mark_fix(built, "builds the optimizer with parameters that are frozen: give it only the "
                                "parameters that train")
    for freeze in found.freezes:
        finding.add(Location.at(freeze.site, "frozen", "requires_grad=False"))
    for place in ledger.definition_sites(trace, found.leaves):
        finding.add(Location.at(place, "defined", "parameter defined"))
    finding.add(Location.at(step.site, "step", "changes them"))
    return [finding]


def _gradient_made_up(trace: Trace, optimizer: str) -> Site | None:
    """In an optimizer class the program defines itself: the line of its `step` that handles a
    parameter whose .grad is None without skipping it."""
    for path in project_files(trace):
        step = class_methods(path, optimizer, ("step",)).get("step")
        line = missing_gradient_handled(path, step[0]) if step else None
        if line is not None:
            return Site(path, line, "step")
    return None


def trained_in_eval_mode(trace: Trace) -> list[Finding]:
    found = ledger.trained_in_eval(trace)
    if found is None or modes.left_in_eval(trace) is not None or modes.eval_from_start(trace) is not None:
        return []  # (a whole model left in eval mode, or never put in train mode: training-in-eval-mode says so)
    step = found.step
    attribute = found.module.rsplit(".", 1)[-1] or _called_as(found.forward)
    calls = [Site(path, line) for path in user_files(trace)[:12]
             for line in (method_calls_on(path, attribute, "eval") if attribute else [])]
    module = f"`{found.module}`" if found.module else f"the whole `{attribute or found.module_type}`"
    built = optimizer_built(step.site)
    filtered = ledger.filter_froze_nothing(trace, step)
    finding = Finding(
        rule=EVAL_RULE_ID, severity="warning", title="A module in eval mode is still trained",
        explanation=(f"{module} ({found.module_type}) ran every recorded forward in eval mode, yet "
                     f"{step.optimizer}.step() at {where(step.site)} changed its parameters "
                     f"({_names(trace, found.leaves)}). `.eval()` switches dropout and batch-norm statistics to "
                     "inference behaviour; it does not freeze anything"
                     + (f" (called at {', '.join(where(c) for c in calls[:2])})" if calls else "") + "."
                     + (f" The optimizer, built at {where(built)}, takes the parameters that require grad: all of "
                        "them, since none was frozen." if filtered else "")),
        fix=((f"To freeze {module}, set `requires_grad_(False)` on it" if found.module else
              "To freeze the parts `.eval()` left in eval mode, set `requires_grad_(False)` on them")
             + " and leave their parameters out of the optimizer; keep `.eval()` as well if their batch-norm "
               "statistics must not change. If they are meant to train, this is only a note: their dropout and "
               "batch norm run in inference mode."),
        fix_basis="guess")
    for call in calls[:2]:
        finding.mark_fix(call, f"`.eval()` here does not freeze {module}: its parameters still train")
    if filtered:
        finding.mark_fix(built, "filters the parameters on requires_grad, which no freeze ever set to False: "
                                "freeze them first, or give it only the parameters that train")
    for call in calls[:2]:
        finding.add(Location.at(call, "mode", "eval mode set"))
    # (the statement that put the module into its model: `self.backbone = nn.Sequential(...)`)
    registered = next((c.registered_at for c in trace.module_calls.values()
                       if found.module and c.name == found.module and c.registered_at is not None), None)
    defined = ledger.definition_sites(trace, found.leaves)
    if registered is not None and not any((d.path, d.line) == (registered.path, registered.line) for d in defined):
        finding.add(Location.at(registered, "defined", "the module put in eval mode"))
    for place in defined:
        finding.add(Location.at(place, "defined", "parameter defined"))
    finding.add(Location.at(step.site, "step", "changes them"))
    return [finding]


def _called_as(site: Site | None) -> str | None:
    """The name a model is called by at its forward call (`model` in `logits = model(x)`)."""
    calls = re.findall(r"(\.?)(\w+)\s*\(", site.code) if site is not None and site.code else []
    # (a plain name before a method: `F.cross_entropy(model(x), y)` calls the model `model`)
    names = [name for dot, name in calls if not dot] or [name for _, name in calls[-1:]]
    return names[0] if names and names[0] not in ("self", "super") else None


_SATURATING = frozenset({"hardtanh", "hardtanh_", "clamp", "clamp_", "clip", "clamp_min", "clamp_max", "relu6",
                         "hardsigmoid", "threshold"})


def zero_gradients(trace: Trace) -> list[Finding]:
    found = ledger.zero_gradient_leaves(trace)
    if found is None:
        return []
    leaves, step = found
    # Only where a zero-derivative op stands between them and the loss: a gradient can also be
    # zero by design (a bias under a difference of two means, as in a WGAN critic).
    # (and on the way from a loss that was backpropagated: a rounding whose result is detached,
    # as in a straight-through estimator, passes no gradient and takes none away)
    backpropagated = _reachable(trace, [root for call in trace.backward_calls for root in call.roots])
    killers = sorted((n for n in trace.nodes.values() if _ZERO_DERIVATIVE.match(n.name)
                      and n.id in backpropagated and accumulates_into(trace, n.id, set(leaves))), key=lambda n: n.seq)
    # (else a range op applied to the parameters themselves, whose derivative is zero at and past
    # its bounds: values that sit there, as a patch initialised to a bound does, never move)
    saturating = [] if killers else sorted(
        (n for n in trace.nodes.values() if n.op in _SATURATING and n.id in backpropagated
         and set(n.leaf_ids) & set(leaves)), key=lambda n: n.seq)
    if not killers and not saturating:
        return []
    killer = (killers or saturating)[0]
    words = (f" The backward of {node_words(killer)} has a zero derivative everywhere (a step function), so nothing "
             "before it gets a gradient." if killers else
             f" They go straight into {node_words(killer)}, whose derivative is zero at and beyond its bounds: "
             "their values sit there (an initialisation at a bound does this), so they get no gradient.")
    finding = Finding(
        rule=ZERO_RULE_ID, severity="warning", title="Gradients that are exactly zero at every step",
        explanation=(f"{_names(trace, leaves)} had a .grad that is zero everywhere at each of the first steps of "
                     f"{step.optimizer} (at {where(step.site)}): they take part in the loss but never change." + words),
        fix=("Do not round or threshold on the way to the loss while training: use the continuous value (or a "
             "straight-through estimator, `x + (x.round() - x).detach()`), and round only for evaluation."
             if killers else
             "Start the parameters inside the op's range (not at its bounds), or map them with an op whose "
             "gradient does not vanish there (a sigmoid, or a clamp with a straight-through gradient)."))
    option = _cuts.setting_for(killer.site)
    finding.mark_fix(user_site(killer.site), f"{killer.op} here has a zero derivative: everything before it "
                                             "gets exactly zero gradients" if killers else
                                             f"{killer.op} here has a zero derivative where the parameters' values "
                                             "are (at or past its bounds): they get exactly zero gradients")
    if option is not None:
        finding.mark_fix(option[0], f"`{option[1]}` takes the path through {killer.op}")
    finding.add(Location.at(killer.site, "created", "zero-derivative op"))
    for place in ledger.definition_sites(trace, leaves):
        finding.add(Location.at(place, "defined", "parameter defined"))
        if not killers:
            _initial_value(finding, trace, place)
    finding.add(Location.at(step.site, "step", "steps zero gradients"))
    return [finding]


def _initial_value(finding: Finding, trace: Trace, defined: Site) -> None:
    """Where the initial value of a parameter defined as `nn.Parameter(data)` was made, when a
    setting picks the branch that made it (`if init == "zeros": data = torch.zeros(...)`): the
    value at the op's bound, and the setting that chose it."""
    given = first_argument_name(defined.path, defined.line)
    files = project_files(trace)
    for line in (assignments(defined.path, given, before=defined.line, limit=4) if given else []):
        if not same_function(defined.path, line, defined.line):
            continue
        for place, value in settings_for(Site(defined.path, line), files):
            finding.add(Location.at(Site(defined.path, line, defined.function, defined.callers), "created",
                                    "makes the parameter's initial value"))
            finding.mark_fix(place, f"sets {value!r}, which picks the initial value made at line {line}: start "
                                    "the parameters inside the op's range")


def _reachable(trace: Trace, roots: list[int], limit: int = 200_000) -> set[int]:
    """The ids of the recorded nodes a backward from `roots` goes through."""
    seen, stack = set(), list(roots)
    while stack and len(seen) < limit:
        node_id = stack.pop()
        if node_id in seen:
            continue
        seen.add(node_id)
        node = trace.node(node_id)
        if node is not None:
            stack.extend(node.next_ids)
    return seen


def optimizer_without_gradients(trace: Trace) -> list[Finding]:
    found = ledger.never_graded_optimizer(trace)
    if found is None or any(h.kind in ("never-graded", "not-in-optimizer") for h in trace.grad_hazards):
        return []  # (the other parameters got gradients: those findings say why these did not)
    if any(call.leaf_outputs and not call.roots for call in trace.backward_calls):
        return []  # backward on a loss rebuilt as a new leaf: backward-on-leaf says why nothing gets one
    leaves, step = found
    if ledger.reached_by_backward(trace, leaves):
        return [_gradients_reset_before_step(trace, leaves, step)]
    module = _module_of(trace, leaves)
    # Only a cut tied to these parameters explains them (another cut elsewhere in the program
    # says nothing about this optimizer).
    cut = _cuts.cut_behind(trace, module, leaves)
    if cut is not None and any(r.cut == cut.id and r.site is not None and not is_library_path(r.site.path)
                               for r in trace.revivals):
        return []  # a value re-made as a new leaf: requires-grad-on-detached-result says why, at the same line
    finding = Finding(
        rule="parameter-without-gradient", severity="warning",
        title="An optimizer whose parameters never get a gradient",
        explanation=(f"{step.optimizer} (stepped at {where(step.site)}) holds {_names(trace, leaves)}, and none of "
                     "its parameters had a gradient at any of its first steps, though backward ran: what it "
                     "optimizes never reaches a loss that is backpropagated."
                     + (f" The path is cut: {_cuts.sentence(cut)}." if cut else "")),
        fix=_cuts.fix(cut) if cut else "Use what this optimizer trains in a loss that is backpropagated.",
        fix_basis="facts" if cut else "guess")
    _cuts.name_cut(finding, trace, cut)
    for place in ledger.definition_sites(trace, leaves):
        finding.add(Location.at(place, "defined", "parameter defined"))
    finding.add(Location.at(step.site, "step", "steps nothing"))
    return [finding]


def _gradients_reset_before_step(trace: Trace, leaves: list[int], step) -> Finding:
    """Backward reached these parameters, yet every step found .grad None: the gradients were
    reset between backward and step. The `zero_grad()` written between the two, in the
    function of the step, is the line to move."""
    stepped = user_site(step.site)
    backward = next((user_site(c.site) for c in reversed(trace.backward_calls)
                     if c.site is not None and stepped is not None and user_site(c.site) is not None
                     and user_site(c.site).path == stepped.path and user_site(c.site).line < stepped.line), None)
    resets = [line for line in calls_named(stepped.path, "zero_grad", limit=64)
              if backward.line < line < stepped.line and same_function(stepped.path, line, stepped.line)] \
        if backward else []
    finding = Finding(
        rule="parameter-without-gradient", severity="warning", title="Every optimizer step finds no gradients",
        explanation=(f"Backward computed gradients for {_names(trace, leaves)}, yet at each of the first steps of "
                     f"{step.optimizer} (at {where(step.site)}) their .grad was None: the gradients were reset "
                     "between backward and step, so the step changes nothing."
                     + (f" `zero_grad()` runs at {where(Site(stepped.path, resets[-1]))}, after the backward at "
                        f"{where(backward)}." if resets else "")),
        fix=("Reset gradients before the backward of each step, not between backward and step: "
             "`zero_grad()`, `loss.backward()`, `step()` in that order."),
        fix_basis="facts" if resets else "guess")
    for line in resets[-1:]:
        finding.mark_fix(Site(stepped.path, line, stepped.function, stepped.callers),
                         f"resets the gradients that the backward at {where(backward)} computed, before the step "
                         "uses them: move it before the backward")
    for place in ledger.definition_sites(trace, leaves):
        finding.add(Location.at(place, "defined", "parameter defined"))
    finding.add(Location.at(backward, "backward", "computes their gradients"))
    finding.add(Location.at(step.site, "step", "finds no gradients"))
    return finding


def _module_of(trace: Trace, leaves: list[int]) -> str | None:
    leaf = trace.leaf(leaves[0]) if leaves else None
    return leaf.name.rsplit(".", 1)[0] if leaf and leaf.name and "." in leaf.name else None


def step_never_ran(trace: Trace) -> list[Finding]:
    """Backward ran again and again and gave the parameters gradients, yet no optimizer step
    ever ran: the `.step()` written after the backward sits under a condition that was never
    true (an accumulation count that the number of batches never reaches). Only where the
    program has such a step: computing gradients without training is a program of its own."""
    if trace.first_steps or trace.param_steps or trace.meta.get("backward_calls", 0) < 2:
        return []
    if any(c.error is not None for c in trace.backward_calls):
        return []  # (a backward failed: the run ended before the step's condition could come true)
    calls = [c for c in trace.backward_calls if c.error is None and c.api != "torch.autograd.grad"
             and user_site(c.site) is not None]
    parameters = {lid for lid, leaf in trace.leaves.items() if leaf.kind == "parameter"}
    if not calls or not any(node.ran_by is not None and parameters & set(node.leaf_ids)
                            for node in trace.nodes.values() if node.leaf_ids):
        return []
    backward = user_site(calls[-1].site)
    files = project_files(trace)
    for line in calls_named(backward.path, "step", limit=16):
        condition = enclosing_condition(backward.path, line)
        if line <= backward.line or condition is None or condition <= backward.line \
                or not same_function(backward.path, backward.line, line) \
                or not _steps_a_torch_optimizer(backward.path, line, files):
            continue
        gate = Site(backward.path, condition, backward.function, backward.callers)
        stepped = Site(backward.path, line, backward.function, backward.callers)
        count = trace.meta.get("backward_calls", len(calls))
        finding = Finding(
            rule=NEVER_STEPPED_RULE_ID, severity="warning", title="Gradients are computed but no optimizer step ever runs",
            explanation=(f"Backward ran {count} times (at {where(backward)}) and gave the parameters gradients, "
                         f"but no optimizer step ran in the whole run: the `.step()` at {where(stepped)} sits under "
                         f"the condition at {where(gate)}, which was never true. The model never changes."),
            fix=("Make the condition true at least at the end of each accumulation window, e.g. also step at the "
                 "last batch of the epoch (`or (i + 1) == len(loader)`), or lower the count it waits for."))
        finding.mark_fix(gate, "never true in this run: the optimizer step under it never ran")
        finding.add(Location.at(backward, "backward", f"runs {count} times: the gradients only accumulate"))
        finding.add(Location.at(stepped, "step", "never ran"))
        for place, name, value in options_read(gate, project_files(trace)):
            finding.add(Location.at(place, "setting", f"sets `{name}` = {value}, which the condition waits for"))
        return [finding]
    return []


_TORCH_OPTIMIZER = re.compile(r"optim|Optimizer|Adam|SGD|RMSprop|Adagrad|Adadelta|LBFGS|Lion|Lamb")


def _steps_a_torch_optimizer(path: str, line: int, files: list[str]) -> bool:
    """Whether the `.step()` at `line` is called on a torch optimizer (whose steps gradscope
    sees), by the source: the receiver built by a torch.optim class, or one of the program's
    classes derived from `Optimizer`; a hand-written optimizer's step is not seen, so no
    conclusion can be drawn from its absence."""
    found = re.search(r"([\w.]+)\.step\(", source_line(path, line) or "")
    if found is None:
        return False
    receiver = found.group(1)
    for _, value in assigned_values(path, receiver) or assigned_values(path, receiver.rsplit(".", 1)[-1]):
        callee = value.split("(", 1)[0].rsplit(".", 1)[-1]
        bases = next((b for b in (class_bases(f, callee) for f in files) if b is not None), None)
        if bases is not None:
            return any("Optimizer" in base for base in bases)
        return bool(_TORCH_OPTIMIZER.search(value.split("(", 1)[0]))
    return bool(re.search(r"optim|^opt$|_opt$", receiver.rsplit(".", 1)[-1], re.IGNORECASE))


SUMMED_RULE_ID = "accumulated-gradients-summed"


def summed_accumulation(trace: Trace) -> list[Finding]:
    """Gradient accumulation whose losses are not divided by the number of micro-batches."""
    found = ledger.summed_accumulation(trace)
    if found is None:
        return []
    call, step = found.backward, found.step
    condition = step_condition(step.site, call.site)
    if condition is None:
        return []  # (not a window of micro-batches: losses of several tasks, each backpropagated, are a sum)
    finding = Finding(
        rule=SUMMED_RULE_ID, severity="warning", title="Accumulated gradients are summed, not averaged",
        explanation=(f"Each {step.optimizer}.step() (at {where(step.site)}) applies the gradients of {found.count} "
                     f"backward calls of the loss at {where(call.site)}, and that loss is not divided by "
                     f"{found.count}: the step applies their sum, {found.count} times the gradient of one batch of "
                     f"{found.count} times the size. If the accumulation is meant to stand for that larger batch, "
                     "the effective learning rate is multiplied by the number of micro-batches."),
        fix=(f"Divide each micro-batch's loss by the number of accumulated batches before backward "
             f"(`(loss / {found.count}).backward()`), or lower the learning rate to match."))
    finding.mark_fix(call.site, f"backpropagates each micro-batch's loss as it is, {found.count} per step: divide it "
                                "by the number of accumulated batches here")
    finding.add(Location.at(step.site, "step", f"applies the sum of {found.count} gradients"))
    finding.add(Location.at(condition, "condition", "the step runs only when this holds"))
    for place, name, value in options_read(condition, project_files(trace))[:2]:
        finding.add(Location.at(place, "setting", f"sets `{name}` to {value}: backward calls per step"))
    return [finding]

