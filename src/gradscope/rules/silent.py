"""Silent hazards: nothing raised, but gradients are wrong, missing or leaking. Each finding is a
warning and names the lines. These rules must stay quiet on correct programs (the clean samples)."""

from __future__ import annotations

import re

from ..analyses.ledger import definition_sites
from ..analyses.provenance import terms_summed_twice, unused_gradient_graphs, values_left_out
from ..trace.findings import Finding, Location
from ..trace.locations import Site, is_library_path, source_line, user_site
from ..trace.model import GradHazard, Trace
from ..trace.queries import (made_later_in_function, optimizer_built, project_files, ran_after, step_condition, stepped_name,
                             top_module, user_files)
from ..trace.call_sites import caller_in_source, parameter_default
from ..trace.source_search import (assigned_values, assignments, calls_named, class_bases, class_methods,
                                   parameter_group_lists, enclosing_class, enclosing_condition, flag_assignments, name_filters, names_read,
                                   function_applies, ignores_incoming_gradients, reads_an_argument, return_lines, same_function,
                                   enclosing_loop, method_calls_on, name_chains_without_else)
from . import _cuts, _nan
from ._words import call_words, node_words, op_words, where


def _warning(rule, title, explanation, fix, *locations) -> Finding:
    return Finding.naming(rule, "warning", title, explanation, fix, locations)


def data_write_to_saved(trace: Trace) -> list[Finding]:
    """A write through `.data` into memory a node saved, and then that node's backward ran: torch's
    version check could not see the write. (Not followed by a backward: see inplace_hazard.)"""
    findings = []
    for hazard in trace.saved_hazards:
        saver = trace.node(hazard.node)
        later = ran_after(trace, hazard.node, hazard.change.seq) if hazard.silent and saver is not None else None
        if later is None:
            continue
        change = hazard.change
        findings.append(_warning(
            "data-write-to-saved-tensor", "Write through .data to a tensor saved for backward",
            f"{op_words(change.op)} at {where(change.site)} writes through `.data` into a tensor that "
            f"{node_words(saver)} saved for its backward. `.data` bypasses the version counter, so "
            + (f"{call_words(later)}" if later else "the backward")
            + " raised nothing and computed its gradient from the overwritten values: silently wrong.",
            "Do not write through `.data` to values the graph still needs: make the change out of place "
            "(`x = x * 2`), clone before changing, or make it after backward.",
            Location.at(saver.site, "saved", "saved for backward"),
            Location.at(change.site, "modified", "written through .data"),
            Location.at(later.site if later else None, "backward", "uses the overwritten values")))
    return findings


def _param_names(trace: Trace, hazard: GradHazard, limit: int = 4) -> str:
    names = []
    for lid in hazard.leaves[:limit]:
        leaf = trace.leaf(lid)
        names.append(f"`{leaf.name or leaf.owner}`" if leaf and (leaf.name or leaf.owner) else "a parameter")
    more = len(hazard.leaves) - limit
    return ", ".join(names) + (f" and {more} more" if more > 0 else "")


def _module_of(name: str | None) -> str:
    return name.rsplit(".", 1)[0] if name and "." in name else ""


def _resets_that_never_ran(trace: Trace, finding: Finding) -> None:
    """The program's own `zero_grad()`, which did not run between the steps: inside an `if` that
    never held. Where that `if` reads a parameter of its function (`if zero_grad:` in
    `def optimizer_step(self, zero_grad=False)`), the call that leaves it at its default and the
    default are the lines to change."""
    files = user_files(trace)[:24]
    resets = [(path, line) for path in files for line in calls_named(path, "zero_grad")][:2]
    for path, line in resets:
        condition = enclosing_condition(path, line)
        if condition is None:
            continue
        finding.add(Location(path, condition, "state", "the reset runs only when this holds: it never did"))
        finding.explanation += (f" The program does reset them, at {where(Site(path, line))}, but only when the "
                                f"condition at line {condition} holds, which it never did.")
        for name in names_read(path, condition):
            default = parameter_default(path, condition, name)
            called = caller_in_source(path, default[0], project_files(trace)) if default else None
            if default is None or called is None:
                continue
            finding.mark_fix(Site(called[0], called[1]), f"calls `{called[2]}` without `{name}=`, so it keeps its "
                                                         f"default {default[1]} and the reset never runs: pass it")
            finding.mark_fix(Site(path, default[0]), f"`{name}` defaults to {default[1]}: the reset under "
                                                     f"`if {name}:` runs only when a caller passes it")
            finding.fix = (f"Pass `{name}=True` where `{called[2]}` is called (or change its default), so that the "
                           "gradients are reset once per step.")
            return


def _reset_outside_the_loop(step: Site | None, finding: Finding) -> None:
    """The optimizer's own `zero_grad()`, written in the function that steps it but outside the
    loop that runs the step each iteration (once before a loop of discriminator steps): the
    line to move into the loop."""
    step = user_site(step)
    stepped = stepped_name(source_line(step.path, step.line)) if step is not None else None
    loop = enclosing_loop(step.path, step.line) if stepped is not None else None
    if loop is None:
        return
    holder = stepped.rsplit(".", 1)[-1]
    if any(loop[0] <= line <= loop[1] for line in calls_named(step.path, "zero_grad", limit=64)):
        return  # (a reset inside the loop already, under a condition or on the model)
    for line in method_calls_on(step.path, holder, "zero_grad", limit=4):
        if same_function(step.path, line, step.line) and line < loop[0]:
            finding.mark_fix(Site(step.path, line, step.function, step.callers),
                             f"resets `{holder}`'s gradients once, outside the loop at line {loop[0]} that steps it "
                             "each iteration: every step after the first adds to the gradients of the steps before; "
                             "move it into the loop (before the backward)", first=True)
            finding.add(Location(step.path, loop[0], "loop", "steps the optimizer each iteration"))
            finding.fix = (f"Move `{holder}.zero_grad()` into the loop at {where(Site(step.path, loop[0]))}, so that "
                           "each step uses only the gradient of its own backward.")
            return


def gradient_hazards(trace: Trace) -> list[Finding]:
    findings = []
    for hazard in trace.grad_hazards:
        first = trace.leaf(hazard.leaves[0]) if hazard.leaves else None
        step = Location.at(hazard.site, "step", f"{hazard.optimizer}.step()")
        if hazard.kind == "not-zeroed":
            last = trace.backward_calls[-1] if trace.backward_calls else None
            findings.append(_warning(
                "grad-not-zeroed", "Gradients accumulate across optimizer steps",
                f"{hazard.optimizer}.step() at {where(hazard.site)} ran again (step {hazard.step}) on the same "
                ".grad tensors as the step before, never reset in between: backward adds to .grad, so every "
                "step uses the sum of all gradients so far.",
                "Call `optimizer.zero_grad()` once per step (before backward), e.g. at the top of the loop. "
                "If you accumulate on purpose, zero right after each step.",
                step, Location.at(last.site if last else None, "backward", "adds to .grad")))
            _resets_that_never_ran(trace, findings[-1])
            _reset_outside_the_loop(hazard.site, findings[-1])
        elif hazard.kind == "nonfinite":
            origin = trace.nan_origins[0] if trace.nan_origins else None
            if origin is not None and _found_after_the_step(trace, hazard, origin):
                origin = None  # (the step had already written NaN into the weights: not where it began)
            if origin is None and trace.grad_flow is not None and trace.grad_flow.first_nonfinite is not None:
                continue  # --grad-flow names the layer (rules/grad_flow.py)
            node = trace.node(origin.node) if origin else None
            forward = trace.node(origin.forward_node) if origin else None
            call = next((c for c in trace.backward_calls if origin and c.index == origin.backward_call), None)
            if node is not None:
                text = _origin_words(node, forward, origin)
                fix = _nan.advice(forward.op if forward else node.op)
            else:
                text = (" It appeared after the first backward calls, which gradscope watches by default: run "
                        "`gradscope run --check-nan ...` to watch every backward call and name the op.")
                fix = "Clamp or mask the input of the op whose gradient is infinite or undefined, before the op."
            findings.append(_zero_let_in(trace, forward or node, _with_ops(node, forward, _warning(
                "nonfinite-gradient", "NaN/inf in parameter gradients",
                (f"After the backward at {where(hazard.site)}, {_param_names(trace, hazard)} had NaN or inf in .grad."
                 if hazard.optimizer == "backward" else
                 f"At {hazard.optimizer}.step() ({where(hazard.site)}, step {hazard.step}) {_param_names(trace, hazard)} "
                 f"had NaN or inf in .grad; the step writes it into the weights.") + text,
                fix,
                Location.at(forward.site if forward else None, "origin", "first non-finite value (forward)"),
                Location.at(_mask_of(trace, forward), "masked", "-inf mask the row is all of"),
                Location.at(node.site if node else None, "created", "op whose gradient is not finite"),
                *(Location.at(site, "uses", "uses its infinite result") for site in _inf_users(trace, node, forward)),
                Location.at(call.site if call and hazard.optimizer != "backward" else None, "backward",
                            "backward that made it"),
                step if hazard.optimizer != "backward" else Location.at(hazard.site, "backward", "backward")))))
        elif hazard.kind == "never-graded":
            module = _module_of(first.name if first else None)
            # A cut inside the module's own forward first; a `.detach()` of the parameter itself
            # (a snapshot taken to compare weights) only if there is none.
            # The latest such cut: one made while the module was built (a probe forward under
            # no_grad to size a layer) is not the one that keeps training from it.
            cut = _cuts.cut_behind(trace, module, hazard.leaves)
            their = "Their" if len(hazard.leaves) > 1 else "Its"
            text = (f" {their} path to the loss is cut: {_cuts.sentence(cut)}." if cut else
                    " Nothing from it reaches the loss (an unused branch or head, or an output left out of the loss).")
            during = (f"the first backward calls (at {where(hazard.site)})" if hazard.optimizer == "backward"
                      else f"the first steps of {hazard.optimizer} (at {where(hazard.site)})")
            findings.append(finding := _warning(
                "parameter-without-gradient", "Parameters that never get a gradient",
                f"{_param_names(trace, hazard)} stayed with .grad None through {during}, while other parameters "
                f"of the same model got gradients: they are never trained.{text}",
                (_cuts.fix(cut) if cut else "Use the module's output in the loss, or freeze it on purpose "
                 "(`requires_grad_(False)`) and leave it out of the optimizer."),
                *(_cuts.locations(trace, cut) if cut else []),
                *(Location.at(place, "parameter", "parameter created") for place in definition_sites(trace, hazard.leaves)),
                step if hazard.optimizer != "backward" else Location.at(hazard.site, "backward", "backward")))
            finding.add(_other_half(trace, hazard))
            if cut is not None:
                _cuts.mark_fix_sites(finding, trace, cut)
        elif hazard.kind == "accumulation-wiped":
            findings.append(_warning(
                "accumulation-wiped", "Gradient accumulation reset before the step",
                f"The gradients are reset at {', '.join(where(s) for s in hazard.zero_sites)} between two calls "
                f"of the backward at "
                f"{where(hazard.backward_site)}, with no optimizer step in between: each reset throws away what the "
                f"backward before it added to .grad, so {hazard.optimizer}.step() at {where(hazard.site)} uses only "
                "the last micro-batch's gradient, not the sum over the accumulation window.",
                "Reset the gradients once per optimizer step, right after `step()` (inside the same "
                "`if (i + 1) % accumulation_steps == 0:` block), not before every backward.",
                *(Location.at(s, "zero_grad", "gradients reset") for s in hazard.zero_sites),
                Location.at(hazard.backward_site, "backward", "adds to .grad"),
                step))
            for location in _step_condition(hazard.site, hazard.backward_site):
                findings[-1].add(location)
        elif hazard.kind == "not-in-optimizer" and hazard.container:
            kind = hazard.container_kind
            container = "nn.ModuleDict" if kind == "dict" else "nn.ModuleList"
            attrs = ", ".join(f"`{name.rsplit('.', 1)[-1]}`" for name in hazard.container.split(", "))
            findings.append(_warning(
                "parameter-not-in-optimizer", "Layers kept in a plain " + kind + " are never optimized",
                f"{_param_names(trace, hazard)} received gradients, but no optimizer steps them ({hazard.optimizer} "
                f"at {where(hazard.site)} does not hold them): they are kept in `{hazard.container}`, a plain "
                f"Python {kind}. nn.Module registers only sub-modules and parameters assigned directly or held in "
                "nn.ModuleList/ModuleDict and nn.ParameterList/ParameterDict, so `model.parameters()`, the "
                "optimizer, `.to(device)` and `state_dict()` never see them.",
                f"Make {attrs} an `{container}` (`{container}(...)` around the {kind}; for parameters, "
                "nn.ParameterDict/ParameterList); nested containers need one at every level.",
                *(Location.at(s, "fix", f"makes `{hazard.container}` a plain {kind}: make it an `{container}`")
                  for s in _container_made(hazard.container_sites)),
                *(Location.at(s, "filled", f"puts layers into the plain {kind}") for s in hazard.container_sites
                  if s not in _container_made(hazard.container_sites)),
                *(Location.at(place, "parameter", "parameter created") for place in definition_sites(trace, hazard.leaves)), step))
        elif hazard.kind == "not-in-optimizer" and (frozen := _frozen_when_built(trace, hazard)) is not None:
            freeze, undo = frozen
            findings.append(finding := _warning(
                "parameter-not-in-optimizer", "Parameters frozen when the optimizer was built, trained later",
                f"{_param_names(trace, hazard)} were frozen at {where(freeze.site)} before {hazard.optimizer} was "
                "built, so it was built without them (an optimizer built from the parameters that require grad "
                f"then); they were made trainable again at {where(undo.site)} and now receive gradients, but no "
                "optimizer steps them.",
                "Do not freeze them before the optimizer is built (freeze after it exists), or build the optimizer "
                "over every parameter that may train later.",
                Location.at(freeze.site, "cut", "frozen before the optimizer was built"),
                Location.at(undo.site, "modified", "made trainable again, after the optimizer was built"), step))
            finding.mark_fix(_freeze_call(freeze.site), "freezes them before the optimizer exists, which is then "
                                                        "built without them: freeze after it is built")
        elif hazard.kind == "not-in-optimizer":
            built = _model_built(first.site if first else None)
            made = optimizer_built(hazard.site)
            findings.append(finding := _warning(
                "parameter-not-in-optimizer", "Parameters that get gradients but are not optimized",
                f"{_param_names(trace, hazard)} received gradients, but no optimizer steps them ({hazard.optimizer} "
                f"at {where(hazard.site)} does not hold them"
                + (f"; it was built at {where(made)}" if made else "")
                + (f"; their model was built at {where(built)}" if built else "")
                + "). Typical causes: a model or layer built again, or replaced, after the optimizer was built "
                "from the old one's parameters; layers kept in a plain list or dict instead of "
                "nn.ModuleList/ModuleDict.",
                "Build the optimizer after the model is complete and final, from `model.parameters()` of the "
                "model you train; keep sub-modules in nn.ModuleList/ModuleDict.",
                *(Location.at(place, "parameter", "parameter created") for place in definition_sites(trace, hazard.leaves)),
                Location.at(built, "model", "model built") if built else None,
                Location.at(made, "optimizer", "optimizer built") if made else None, step))
            finding.add(_other_half(trace, hazard))
            # Put into the model after training began (pruning, a new head: the step checks before
            # did not see them): the optimizer must be built again after that; nothing else helps.
            replaced = _put_into_model_at(trace, first) if hazard.step > 1 else None
            if replaced is not None and made is not None and not made_later_in_function(replaced, made):
                replaced = None  # put in when the model was built, before the optimizer: not a replacement
            # A parameter assigned anew outside any constructor once training ran (a pruning mask
            # rebuilt at an epoch): the optimizer holds the old tensor; writing the new values into
            # it keeps the one the optimizer steps.
            if (swapped := _parameter_swapped_at(trace, hazard)) is not None:
                finding.mark_fix(swapped, "puts a new Parameter in place of the one the optimizer holds, after it "
                                          "stepped: write the new values into the existing one (`with "
                                          "torch.no_grad(): <param>.copy_(values)`), or build the optimizer again")
                finding.mark_fix(made, "builds the optimizer once, from the parameter replaced later: build it "
                                       f"again after {where(swapped)} if the replacement stays")
            elif replaced is not None:
                finding.add(Location.at(replaced, "modified", "puts the new layer into the model, after the "
                                                              "optimizer was built and had stepped"))
                finding.mark_fix(made, "builds the optimizer once, before the model's layers were replaced: "
                                       f"build it again after the replacement at {where(user_site(replaced))}")
                finding.fix = ("Build the optimizer again (from `model.parameters()`) after the layers are replaced, "
                               "or replace them before building it.")
            # Made after every parameter the optimizer changes (a layer replaced after it was built):
            # that line, and the optimizer built too early; else the optimizer that leaves them out.
            elif made_later_in_function(first.site if first else None, made):
                finding.mark_fix(built or user_site(first.site),
                                 "makes these parameters after the optimizer was built from the parameters then: "
                                 "build this before the optimizer")
                finding.mark_fix(made, "builds the optimizer before these parameters existed: build it once the "
                                       "model is final")
            # The same code built the parameters the optimizer holds and, reached from another
            # line, these (`self.net = build(...)` again after the optimizer took the first
            # net's): that line made a new model the optimizer never saw.
            elif made is not None and (again := _built_again(trace, hazard)) is not None:
                finding.add(Location.at(again, "model", "builds these layers again: the optimizer holds the first "
                                                        "ones' parameters"))
                finding.mark_fix(made, f"builds the optimizer once, from the parameters the model had then; the layers "
                                       f"built again at {where(again)} are not in it: build the optimizer after that")
                finding.mark_fix(again, "builds again layers the optimizer already took the parameters of: their new "
                                        "parameters are in no optimizer (build the optimizer after this line)")
                finding.fix = ("Build the optimizer (from `model.parameters()`) after the layers are built again, or "
                               "build it again right after that.")
            # Picked by name (`if "pooler" not in n`), by a string that every parameter left out
            # holds and none that the optimizer changed does: that test left them out.
            elif (picked := _left_out_by_name(trace, hazard)) is not None:
                site, text = picked
                finding.mark_fix(site, f"leaves out of the parameters the optimizer gets those whose names hold "
                                       f"{text!r}, which are the ones that get gradients and are never stepped: "
                                       "keep them")
                finding.fix = f"Keep the parameters whose names hold {text!r} in the optimizer (drop that name test)."
            # Sorted into groups by name tests that end without an `else`: those matching none
            # go into no group (`elif name.endswith(".weight")`, and `pos_emb` is neither).
            elif (fell := _fell_through(trace, hazard)) is not None:
                finding.mark_fix(fell, "sorts the parameters into groups by name and ends without an `else`: those "
                                       "whose names match none of its tests (the ones never stepped) go into no "
                                       "group; make this branch the `else`")
                finding.fix = ("Give every parameter a group: make the last name test an `else` (or add one), so "
                               "that names matching none of the tests still go to the optimizer.")
            # Built from parameter groups the program lists, none of which takes these (another
            # kind of part than those it holds, so not a target copy): the groups are the line.
            elif (outside := _left_out_of_groups(trace, hazard, _one_group_list(trace))) is not None:
                lists = [Site(path, line) for path in project_files(trace) for line in parameter_group_lists(path)]
                listed = lists[0] if len(lists) == 1 else None
                doing = "lists the optimizer's parameter groups" if listed else "builds the optimizer from groups"
                finding.mark_fix(listed or made, f"{doing}, none of which holds the parameters of `{outside}`: add "
                                                 "a group for them")
                finding.fix = f"Add a parameter group for `{outside}` (or build the groups from every parameter)."
                shown = {(loc.path, loc.line) for loc in finding.locations}
                for call in _first_calls_of(trace, outside.split("`, `")):
                    for site, role, why in ((call.registered_at, "defined", f"puts `{call.name}` into the model"),
                                            (call.site, "used", f"runs `{call.name}`: its parameters get gradients")):
                        if site is not None and (site.path, site.line) not in shown and not is_library_path(site.path):
                            finding.add(Location.at(site, role, why))
            # A part beside the one the optimizer holds, in one model (a loss module with weights
            # of its own, wrapped with the model): the optimizer was given one part only.
            elif (beside := _part_left_out(trace, hazard)) is not None:
                finding.mark_fix(made, f"builds the optimizer from the parameters of `{beside[1]}` only, while "
                                       f"`{beside[0]}`, trained in the same forward, has parameters too: give it "
                                       f"those of `{beside[0]}` as well")
                finding.fix = (f"Give the optimizer the parameters of `{beside[0]}` too (build it from the module "
                               f"that holds both, or add `{beside[0]}.parameters()` as a parameter group).")
            # (otherwise nothing singles a line out: they may be a target network's, fed gradients
            # by mistake, as well as parameters left out of the optimizer)
    return findings


def _one_group_list(trace: Trace) -> bool:
    """Whether the program writes out one list of parameter groups (`[{"params": ...}, ...]`)."""
    return len([line for path in project_files(trace) for line in parameter_group_lists(path)]) == 1


def _left_out_of_groups(trace: Trace, hazard: GradHazard, listed: bool = False) -> str | None:
    """The parts whose parameters an optimizer built from several parameter groups left out,
    when each is of another kind than every part it holds (a target network would be a copy)."""
    steps = [s for s in trace.param_steps if s.optimizer == hazard.optimizer and s.groups > 1]
    parts = _parts_apart(trace, hazard, steps, by_shape=listed)
    return "`, `".join(sorted(parts[0])) if steps and parts is not None else None


def _part_left_out(trace: Trace, hazard: GradHazard) -> tuple[str, str] | None:
    """(the part left out, the part held) when the parameters no optimizer holds all belong to
    one top-level part of a model and those its optimizer stepped to another, of another kind
    (not a copy of it, as a target network is): `loss` beside `model` in a model-with-loss."""
    parts = _parts_apart(trace, hazard, trace.param_steps)
    if parts is None or len(parts[0]) != 1 or len(parts[1]) != 1 or None in parts[1]:
        return None
    (left,), (held,) = parts
    known = any(call.name == held for call in trace.module_calls.values())
    return (left, held) if known else None


def _other_half(trace: Trace, hazard: GradHazard) -> Location | None:
    """For a hazard seen at an optimizer step, the backward that made the gradients that step
    used (the last before it); for one seen at a backward, the first step after it."""
    if hazard.optimizer != "backward":
        steps = [s for s in trace.param_steps if s.optimizer == hazard.optimizer and s.step == hazard.step]
        seq = steps[0].seq if steps else None
        before = [c for c in trace.backward_calls if seq is not None and c.seq < seq and c.error is None]
        return Location.at(before[-1].site, "backward", "makes the gradients this step uses") if before else None
    call = next((c for c in trace.backward_calls if c.site == hazard.site), None)
    after = [s for s in trace.first_steps if call is not None and s.seq > call.seq]
    first = min(after, key=lambda s: s.seq) if after else None
    return Location.at(first.site, "step", f"{first.optimizer}.step(), after that backward") if first else None


def _left_out_by_name(trace: Trace, hazard: GradHazard) -> tuple[Site, str] | None:
    """(the name test, its string) for the one test of a parameter's name against a string in
    the program's files that holds for every parameter left out of the optimizer and for none
    that its steps changed."""
    left = [name for lid in hazard.leaves if (name := _leaf_name(trace, lid))]
    held = [name for step in trace.param_steps if step.optimizer == hazard.optimizer
            for lid in step.changed_leaves if (name := _leaf_name(trace, lid))]
    if not left or not held:
        return None
    found = [(Site(path, line), text) for path in project_files(trace) for line, text in name_filters(path)
             if all(text in name for name in left) and not any(text in name for name in held)]
    return found[0] if len(found) == 1 else None


def _fell_through(trace: Trace, hazard: GradHazard) -> Site | None:
    """The last test of the one name-sorting `if`/`elif` chain (no `else`) of the program that
    no parameter left out of the optimizer matches, while some it holds do."""
    left = [name for lid in hazard.leaves if (name := _leaf_name(trace, lid))]
    held = [name for step in trace.param_steps if step.optimizer == hazard.optimizer
            for lid in step.changed_leaves if (name := _leaf_name(trace, lid))]

    def matches(name: str, tests) -> bool:
        return any(name.startswith(s) if how == "startswith" else name.endswith(s) if how == "endswith" else s in name
                   for how, s in tests)
    found = [Site(path, line) for path in project_files(trace) for line, tests in name_chains_without_else(path)
             if left and held and not any(matches(name, tests) for name in left)
             and any(matches(name, tests) for name in held)]
    return found[0] if len(found) == 1 else None


def _leaf_name(trace: Trace, lid: int) -> str | None:
    leaf = trace.leaf(lid)
    return leaf.name if leaf is not None else None


def _parts_apart(trace: Trace, hazard: GradHazard, steps, by_shape: bool = False) -> tuple[set, set] | None:
    """(the top-level parts of the parameters left out, those of the parameters `steps`
    changed) when they share none and each part left out is of a known kind that no part held
    is; None otherwise."""
    left = {top_module(trace, lid) for lid in hazard.leaves}
    held = {top_module(trace, lid) for step in steps for lid in step.changed_leaves}
    if not left or None in left or left & held:
        return None
    types = {call.name: call.type for call in trace.module_calls.values() if call.name in left | held}
    held_types = {types.get(other) for other in held}
    # (a copy of a part held, as a target network is, has its kind and its parameters' shapes;
    # a container of another make-up is another part)
    # (only where the program writes its groups out: stages of one backbone differ in shape too)
    held_shapes = {_shapes(trace, other) for other in held}
    if any(name not in types or (types[name] in held_types and (not by_shape or _shapes(trace, name) in held_shapes))
           for name in left):
        return None
    return left, held


def _first_calls_of(trace: Trace, parts: list[str]) -> list:
    """The first recorded forward call of each of these parts (by path), at most two."""
    found = {}
    for call in sorted(trace.module_calls.values(), key=lambda c: c.id):
        if call.name in parts and call.name not in found:
            found[call.name] = call
    return list(found.values())[:2]


def _shapes(trace: Trace, part: str) -> tuple:
    """The shapes of a top-level part's parameters, in a fixed order."""
    return tuple(sorted(tuple(leaf.shape) for leaf in trace.leaves.values()
                        if leaf.name and leaf.name.startswith(part + ".")))


def _frozen_when_built(trace: Trace, hazard: GradHazard):
    """(the first freeze, the unfreeze) when parameters no optimizer holds were frozen before
    the optimizers' first step and made trainable again later: left out because they were
    frozen when it was built."""
    first_step = min((s.seq for s in trace.first_steps), default=None)
    stray = set(hazard.leaves)
    undo = next((u for u in trace.unfreezes if u.leaf in stray), None)
    if undo is None or first_step is None:
        return None
    # Only an optimizer built from what required grad then leaves frozen parameters out: one the
    # program builds from an explicit subset would not take them whenever they were frozen.
    built = optimizer_built(hazard.site)
    if built is not None and not is_library_path(built.path) \
            and "requires_grad" not in (source_line(built.path, built.line) or ""):
        return None
    tops = {top_module(trace, lid) for lid in stray} - {None}
    freezes = [f for f in trace.freezes if f.seq < first_step and f.seq < undo.seq
               and (top_module(trace, f.leaf) in tops or not tops)]
    return (min(freezes, key=lambda f: f.seq), undo) if freezes else None


def _freeze_call(site: Site | None) -> Site | None:
    """The line to change for a freeze: the freeze itself, or, when it sits in a helper called
    from several places (a callback's `freeze_all_layers()`), the call that ran it too early."""
    frame = user_site(site)
    if frame is None or not frame.function or len(calls_named(frame.path, frame.function)) < 2:
        return frame
    return next((caller for caller in reversed(frame.callers) if not is_library_path(caller.path)), frame)


def _built_again(trace: Trace, hazard: GradHazard) -> Site | None:
    """The user's line that built again, by the code that built the parameters an optimizer
    steps, the parameters it does not hold: the innermost frame of the left-out parameter's
    chain of calls that the stepped one's chain does not share."""
    # (those it changed, and those it holds that got no gradient: a replaced layer's old weights)
    held = [trace.leaf(lid) for step in trace.param_steps if step.optimizer == hazard.optimizer
            for lid in step.changed_leaves + step.grad_none]
    for leaf in (trace.leaf(lid) for lid in hazard.leaves[:4]):
        if leaf is None or leaf.site is None:
            continue
        for other in held:
            if other is None or other.site is None or (other.site.path, other.site.line) != (leaf.site.path, leaf.site.line):
                continue
            theirs = {(frame.path, frame.line) for frame in other.site.callers}
            for index in range(len(leaf.site.callers) - 1, -1, -1):
                frame = leaf.site.callers[index]
                if (frame.path, frame.line) not in theirs and not is_library_path(frame.path):
                    return Site(frame.path, frame.line, frame.function, leaf.site.callers[:index])
            return None
    return None


_NEW_PARAMETER = re.compile(r"^\s*(?:self\.[\w.]+\s*=|setattr\().*\bParameter\(")


def _parameter_swapped_at(trace: Trace, hazard: GradHazard) -> Site | None:
    """The program's line that assigned these parameters as new `nn.Parameter`s to a module
    attribute outside a constructor, when the steps before found them not (made after training
    began)."""
    if hazard.step <= 1:
        return None
    for site in definition_sites(trace, hazard.leaves):
        frame = user_site(site)
        if frame is not None and frame.function != "__init__" and _NEW_PARAMETER.match(source_line(frame.path, frame.line)):
            return frame
    return None


def _put_into_model_at(trace: Trace, leaf) -> Site | None:
    """Where the module that holds `leaf` was put into its model (`setattr(parent, name, new)`),
    with the calls that led there."""
    module = leaf.name.rsplit(".", 1)[0] if leaf is not None and leaf.name and "." in leaf.name else None
    calls = [c for c in trace.module_calls.values() if module is not None and c.name == module and c.registered_at]
    return calls[-1].registered_at if calls else None


def _found_after_the_step(trace: Trace, hazard, origin) -> bool:
    """The NaN origin was found in a backward call made after the step that first met non-finite
    gradients (later ops are watched only where they can make a NaN themselves): by then the
    weights held NaN, and the op found is one that met it, not the one that began it."""
    return hazard.backwards_before is not None and origin.backward_call >= hazard.backwards_before


def nan_without_step(trace: Trace) -> list[Finding]:
    """--check-nan found a non-finite gradient, and no optimizer step reported it."""
    if not trace.nan_origins or any(h.kind == "nonfinite" for h in trace.grad_hazards):
        return []
    if any(c.error and "nan values" in c.error.message for c in trace.backward_calls):
        return []
    origin = trace.nan_origins[0]
    node = trace.node(origin.node)
    forward = trace.node(origin.forward_node)
    call = next((c for c in trace.backward_calls if c.index == origin.backward_call), None)
    return [_zero_let_in(trace, forward or node, _with_ops(node, forward, _warning(
        "nonfinite-gradient", "NaN/inf produced in backward",
        f"During {call_words(call)}, the backward of {node_words(node)} turned finite gradients into "
        f"{origin.value} (for its input {origin.output_index}); every gradient behind it is {origin.value} too."
        + (_origin_words(node, forward, origin) if forward else ""),
        _nan.advice(forward.op if forward else node.op if node else None),
        Location.at(forward.site if forward else None, "origin", "first non-finite value (forward)"),
        Location.at(_mask_of(trace, forward), "masked", "-inf mask the row is all of"),
        Location.at(node.site if node else None, "created", "op whose gradient is not finite"),
        Location.at(call.site if call else None, "backward", "backward"))))]


def _with_ops(node, forward, finding: Finding) -> Finding:
    """Note which op each located line ran (a guard is looked for on that op's input)."""
    finding.details["op_at"] = {role: n.op for role, n in (("origin", forward), ("created", node)) if n is not None}
    return finding


_DIVISIONS = ("div", "div_", "__truediv__", "__rtruediv__", "true_divide", "reciprocal")
_ZERO_EDGE = {"relu": "`relu`", "relu_": "`relu`", "clamp_min": "a clamp at 0", "abs": "`abs`"}


def _zero_let_in(trace: Trace, node, finding: Finding) -> Finding:
    """Mark, for a division that made the first NaN/inf, the relu (or abs, clamp at 0) its
    divisor came from: it lets exact zeros through."""
    found = _lets_zero_in(trace, node)
    if found is not None:
        finding.mark_fix(found[0], f"{found[1]} here lets exact zeros through into the divisor of the division at "
                                   f"{where(node.site)}: keep it above zero (add a small eps)")
        finding.add(Location.at(found[0], "created", "makes the divisor, zeros included"))
        # (every division by that same divisor makes non-finite values where it is zero)
        # (made on the same line: the same divisor in another iteration)
        made_at = _line_of(trace.node(node.next_ids[-1]))
        lines = {_line_of(node)}
        for other in sorted(trace.nodes.values(), key=lambda n: n.seq):
            # (shaped like the division that failed: its last input is taken for the divisor too)
            if other.op in _DIVISIONS and other.next_ids and len(other.next_ids) == len(node.next_ids) \
                    and _line_of(other) not in lines \
                    and _line_of(trace.node(other.next_ids[-1])) == made_at and len(lines) < 3:
                lines.add(_line_of(other))
                finding.add(Location.at(other.site, "created", "divides by the same divisor"))
    return finding


def _line_of(node) -> tuple[str, int] | None:
    return (node.site.path, node.site.line) if node is not None and node.site is not None else None


def _lets_zero_in(trace: Trace, node) -> tuple[Site, str] | None:
    """For a division that made the first NaN/inf: its divisor's own op when that is a relu (or
    an abs, a clamp whose bound is 0), which maps part of its input to exactly 0. Its line and
    the op, as said."""
    # (a division's last input is its divisor, or its only one when the numerator needs no
    # gradient: that division made the first non-finite value, which a finite constant
    # divisor would not)
    if node is None or node.op not in _DIVISIONS or len(node.next_ids) not in (1, 2):
        return None
    divisor = trace.node(node.next_ids[-1])
    if divisor is None or divisor.site is None or divisor.op not in _ZERO_EDGE:
        return None
    site = user_site(divisor.site)
    return (site, _ZERO_EDGE[divisor.op]) if site is not None else None


def _mask_of(trace: Trace, forward):
    """A softmax that made NaN (a fully masked row): the masked_fill/where that fed it."""
    if forward is None or forward.op not in ("softmax", "log_softmax", "_softmax"):
        return None
    feeder = next((trace.node(i) for i in forward.next_ids
                   if trace.node(i) and trace.node(i).op in ("masked_fill", "masked_fill_", "where")), None)
    return feeder.site if feeder else None


def _origin_words(node, forward, origin) -> str:
    if forward is None:
        return (f" The first non-finite gradient came from the backward of {node_words(node)}, "
                f"from finite gradients ({origin.value}).")
    return (f" The values were already non-finite in the forward: {node_words(forward)} made the first NaN/inf "
            f"that a later op saved, and the backward of {node_words(node)} turned it into {origin.value} gradients.")


def non_leaf_grad_reads(trace: Trace) -> list[Finding]:
    findings = []
    error_site = trace.error.site if trace.error else None
    for read in trace.grad_reads:
        if read.is_leaf or (error_site and read.site and (read.site.path, read.site.line) == (error_site.path, error_site.line)):
            continue  # an error on that line has its own explanation
        node = trace.node(read.node)
        findings.append(_warning(
            "non-leaf-grad-read", ".grad read on a non-leaf tensor",
            f"The `.grad` read at {where(read.site)} is of a tensor computed by {node_words(node)}: it is not a "
            "leaf, so backward never fills its .grad and the read always gives None.",
            "If you meant the parameter, make it a leaf (create it with its final device/dtype/scale, then "
            "`.requires_grad_()`, or use nn.Parameter). To see an intermediate's gradient, call "
            "`t.retain_grad()` before backward.",
            Location.at(node.site if node else None, "non-leaf", "became a non-leaf"),
            Location.at(read.site, "read", ".grad read (None)")))
    return findings


def create_graph_cycle(trace: Trace) -> list[Finding]:
    calls = [c for c in trace.backward_calls if c.create_graph and c.api != "torch.autograd.grad" and c.error is None
             and not any(seq > c.seq for seq in trace.grad_resets)]  # `.grad = None` afterwards breaks the cycle
    if not calls:
        return []
    call = calls[0]
    return [_warning(
        "backward-create-graph-cycle", "backward(create_graph=True) keeps graphs alive",
        f"{call_words(call)} uses create_graph=True: each parameter's .grad then holds a graph that refers back "
        "to the parameter, a reference cycle that keeps the graph in memory until .grad is reset.",
        "Use `torch.autograd.grad(loss, params, create_graph=True)` for higher-order gradients, or set "
        "`p.grad = None` after using them.",
        Location.at(call.site, "backward", "backward(create_graph=True)"))]


def graph_kept_alive(trace: Trace) -> list[Finding]:
    if any(c.freed_failures for c in trace.backward_calls):
        return []  # the same link made backward fail: the freed-graph rule explains it
    findings = []
    for link in trace.stale_links:
        if link.carried < 1:
            continue  # a value made and consumed within one step keeps nothing alive for long
        old = trace.node(link.old_node)
        ended = old.freed_by if old is not None and old.freed_by is not None else old.ran_by if old else None
        freed_by = next((c for c in trace.backward_calls if c.index == ended), None) if ended is not None else None
        if freed_by is not None and freed_by.api == "torch.autograd.grad":
            continue  # (autograd.grad runs the graph down to its `inputs` only: what lies behind them lives on)
        findings.append(finding := _warning(
            "graph-kept-alive", "A value keeps earlier iterations' graphs alive",
            f"{op_words(link.op)} at {where(link.site)} combines a new value with one made by "
            f"{node_words(old)} before a backward call that already ran. The result keeps that old graph "
            "(and every graph it is later combined with) alive: memory grows each iteration. A running "
            "total of losses is the usual cause.",
            "Accumulate plain numbers: `total += loss.item()` (or `loss.detach()`).",
            Location.at(old.site if old else None, "created", "value from an earlier iteration"),
            Location.at(link.site, "kept", "old graph kept alive")))
        # A helper that accumulates what it is given (a meter's `self.sum += val * n`): the caller
        # that hands it a tensor with its graph is the line to change.
        helper = user_site(link.site)
        caller = next((frame for frame in reversed(helper.callers) if not is_library_path(frame.path)), None) \
            if helper is not None and reads_an_argument(helper.path, helper.line) else None
        if caller is not None:  # (both lines fix it: the sum itself, or what the caller hands it)
            finding.mark_fix(helper, "adds a tensor with its graph to a total kept across iterations: add "
                                     "`float(value)` (or a detached value) instead")
            finding.mark_fix(caller, f"hands a tensor with its graph to `{helper.function}`, which keeps it across "
                                     "iterations: pass a number (`.item()`) or a detached tensor")
    return findings


def module_flag_freezes_nothing(trace: Trace) -> list[Finding]:
    """`module.requires_grad = False`: a plain attribute on an nn.Module. Its parameters still
    require grad at the end of the run, so they train."""
    findings, seen = [], set()
    for flag in trace.module_flags:
        if flag.value is not False or not flag.trainable:
            continue
        site = _flag_site(trace, flag.module)
        key = (site.path, site.line) if site else flag.module
        if key in seen:
            continue
        seen.add(key)
        module = f"`{flag.module}` ({flag.module_type})" if flag.module else f"the {flag.module_type}"
        names = [trace.leaf(lid) for lid in flag.trainable]
        listed = ", ".join(f"`{leaf.name or leaf.owner}`" for leaf in names[:4] if leaf and (leaf.name or leaf.owner))
        first = trace.leaf(flag.trainable[0])
        findings.append(_warning(
            "module-requires-grad-attribute", "Setting requires_grad on a module freezes nothing",
            f"`requires_grad = False`{f' at {where(site)}' if site else ''} sets a plain Python attribute on {module}: nn.Module has "
            "no such flag, so its parameters still require grad" + (f" ({listed}" + (" ..." if len(flag.trainable) > 4 else "")
                                                                   + ")" if listed else "")
            + " and the optimizer keeps updating them.",
            "Freeze the parameters: `module.requires_grad_(False)` (with the underscore), or "
            "`for p in module.parameters(): p.requires_grad = False`; and leave them out of the optimizer.",
            Location.at(site, "fix", "plain attribute, not a freeze"),
            Location.at(first.site if first else None, "parameter", "parameters still trained")))
        step = next((s for s in trace.param_steps if set(s.changed_leaves) & set(flag.trainable)), None)
        findings[-1].add(Location.at(step.site if step else None, "step", "changes them"))
    return findings


def _model_built(site):
    """The line that built the whole model a parameter belongs to: the first of the parameter's
    callers, going out, that is not an `__init__` (None when that is the parameter's own line)."""
    if site is None:
        return None
    for frame in (site, *reversed(site.callers)):
        if frame.function != "__init__":
            return frame if frame is not site else None
    return None


def module_backward_never_called(trace: Trace) -> list[Finding]:
    """A module class of the program that defines its own `backward` (a gradient reversal layer
    written as an nn.Module): autograd differentiates what its forward computes and never calls
    that method, so the gradient it was written to produce never exists."""
    findings, files = [], user_files(trace)[:24]
    for type_name, first_call in trace.first_calls.items():
        for path in files:
            methods = class_methods(path, type_name, ("forward", "backward"))
            bases = class_bases(path, type_name) or []
            if "backward" not in methods or "forward" not in methods or any("Function" in b for b in bases):
                continue
            backward_line, forward_line = methods["backward"][0], methods["forward"][0]
            used = user_site(first_call)
            call = trace.backward_calls[0] if trace.backward_calls else None
            finding = _warning(
                "module-backward-never-called", "A module's own backward() is never called",
                f"`{type_name}` (an nn.Module) defines `backward` at {where(Site(path, backward_line))}, but autograd "
                "never calls a module's `backward`: it differentiates the ops its forward ran"
                + (f" (at {where(used)})" if used else "") + ", so the gradient that method computes is never "
                "used" + (f"; the backward at {where(call.site)} passes the ordinary gradient through" if call else "")
                + ".",
                "Write it as a `torch.autograd.Function` (forward and backward as @staticmethods, applied with "
                f"`.apply`), and call that Function in `{type_name}.forward`.",
                Location.at(Site(path, backward_line), "defined", "backward() defined: never called by autograd"),
                Location.at(used, "used", f"{type_name} applied"),
                Location.at(call.site if call else None, "backward", "backward: the module's own method does not run"))
            for line in return_lines(path, forward_line)[:1]:
                finding.mark_fix(Site(path, line), "returns what autograd differentiates as written: return a custom "
                                                   "autograd.Function's output here to get the backward you wrote")
            findings.append(finding)
            break
    return findings


def layer_built_in_forward(trace: Trace) -> list[Finding]:
    """Layers constructed inside a module's forward: each call builds new, randomly initialised
    weights, which no optimizer holds, so they never train (and outputs change call to call)."""
    built = trace.built_in_forward
    if not built:
        return []
    inside = built[0].inside
    kinds = ", ".join(sorted({f"nn.{b.module_type}" for b in built}))
    return [_warning(
        "layer-built-in-forward", "Layers built inside forward never train",
        f"{kinds} {'is' if len(built) == 1 else 'are'} constructed inside "
        + (f"the forward of {inside}" if inside else "a forward")
        + f" (at {', '.join(where(b.site) for b in built[:4])}): every call builds new, randomly initialised "
        "weights, so the optimizer (built from `model.parameters()` before) never holds them, they never "
        "train, and the same input gives different outputs from call to call.",
        "Build the layers once in `__init__` (`self.proj = nn.Linear(...)`) and only call them in forward; "
        "use torch.nn.functional (`F.layer_norm`, `F.linear` with your own parameters) for stateless ops.",
        *(Location.at(b.site, "fix", "layer built in forward") for b in built[:4]))]


def _flag_site(trace: Trace, module: str | None):
    """The `<module>.requires_grad = False` line, found in the files the run's lines are in: the
    owner written as the module's last path segment (`self.model.outc`, `model[0]`), or, for the
    model itself, a plain name that is not a `for` loop's variable (a parameter being frozen)."""
    if module is None:
        return None
    last = module.rsplit(".", 1)[-1]
    paths = {}
    sites = [c.site for c in trace.backward_calls] + [c.site for c in trace.module_calls.values()]
    for site in sites:
        for frame in (site, *site.callers) if site else ():
            paths.setdefault(frame.path, None)
    others = []
    for path in [*paths, *(p for p in project_files(trace) if p not in paths)]:
        for line, owner, loop_variable in flag_assignments(path):
            if module == "":
                match = owner.isidentifier() and not loop_variable
            else:
                match = owner == last or owner.endswith(f".{last}") or owner.endswith(f"[{last}]")
            if match and path in paths:
                return Site(path, line)
            if not loop_variable:
                others.append(Site(path, line))
    # (the module reached under another name, `module = getattr(self.bert, name)`: the program's
    # only such assignment outside a loop over parameters is the one)
    return others[0] if len(others) == 1 else None


_TARGET_WORDS = ("target", "tgt", "teacher", "ema", "momentum")
_CALLEE = re.compile(r"(?<![\w.\])])([A-Za-z_][\w.]*(?:\[[^\]]*\])?)\s*\(")
_NOT_MODELS = ("torch.", "F.", "nn.", "np.", "math.")
_TENSOR_METHODS = frozenset("detach clone to view reshape mean sum max min item float long squeeze unsqueeze gather abs "
                            "cpu cuda numpy softmax argmax size expand repeat permute transpose contiguous pow sqrt "
                            "exp log flatten chunk split".split())


def target_is_online(trace: Trace) -> list[Finding]:
    """A target (or EMA teacher) network that is the online network itself: one module object
    called under two names, one of them a target's (`self.target_net = self.policy_net`, or
    `models["critic"].to(device)` assigned twice: `.to` returns the same module). The target
    then moves with every step (and a soft update copies the module onto itself)."""
    roots = [c for c in trace.module_calls.values() if c.parent is None and c.module is not None and c.site]
    # The name each call was made under: from lines with one callee first, then lines with several
    # (`self.critic(s, self.actor(s))`) by elimination of the names other modules were called by.
    names_by_module: dict = {}
    bound: dict = {}
    for single in (True, False):
        for call in roots:
            candidates = _callees_at(call.site)
            if single != (len(candidates) == 1):
                continue
            left = [n for n in candidates if not bound.get(n) or call.module in bound[n]]  # (a name may be rebound)
            if len(left) == 1:
                bound.setdefault(left[0], set()).add(call.module)
                names_by_module.setdefault(call.module, {}).setdefault(left[0], call.site)
    findings = []
    for names in names_by_module.values():
        targets = [n for n in names if any(w in n.rsplit(".", 1)[-1].lower() for w in _TARGET_WORDS)]
        online = [n for n in names if n not in targets]
        if not targets or not online:
            continue
        target, other = targets[0], online[0]
        use = names[target]
        alias = _alias_line(use.path, target, other, names[other].path)
        trained = _target_with_graph(trace, roots, use)
        findings.append(_warning(
            "target-is-online-network", "The target network is the online network",
            f"`{target}` (called at {where(use)}) and `{other}` (called at {where(names[other])}) are one and the "
            "same module object" + (f": `{target}` was assigned at {where(alias)}" if alias else "")
            + ". The target is then not a lagged copy: it changes with every optimizer step, a soft or hard "
            "update copies the network onto itself, and a target computed with grad on is trained too"
            + (f": the one built at {where(trained)} keeps the graph of `{target}`'s call, and the loss "
               "backpropagates through it" if trained else "") + ".",
            f"Make `{target}` a separate copy: `copy.deepcopy({other})` (then `load_state_dict` to sync it), "
            "and compute the target under `torch.no_grad()`"
            + (f" (or `.detach()` it at {where(trained)})" if trained else "")
            + ". Note that `.to(device)` returns the same module.",
            Location.at(alias, "alias", "same object, not a copy") if alias else None,
            Location.at(use, "target", "the target network used"),
            Location.at(trained, "fix", "target built with grad on") if trained else None))
        if alias is not None and enclosing_condition(alias.path, alias.line) is not None:
            # (made so in a branch, `if args.teacher_mode == "live": return self.model`: chosen on
            # purpose, so the alias is not the line to change)
            findings[-1].details["unmarked"] = "the alias is made in a branch the program chose"
            findings[-1].explanation += (f" The alias is made in a branch (at {where(alias)}), which the program "
                                         "takes by choice: if a target that moves with the network is meant, this "
                                         "is only a note; else take the branch that copies it.")
    return findings


def _target_with_graph(trace: Trace, roots: list, use: Site) -> Site | None:
    """The line that finished the target a loss compares with (`expected_q = r + gamma * q_next`),
    when the target network's call at `use` was made with grad on: walking down from that call's
    nodes, the first node that meets a value not built from it (the loss) takes the target from
    there. None when the target was built without a graph, or is the call's output itself."""
    calls = {c.id for c in roots if c.site and (c.site.path, c.site.line) == (use.path, use.line)}
    for call in sorted(trace.module_calls.values(), key=lambda c: c.id):  # (a parent before its children)
        if call.parent in calls:
            calls.add(call.id)
    nodes = sorted(trace.nodes.values(), key=lambda n: n.seq)
    from_target = {n.id for n in nodes if n.module_call in calls}
    if not from_target:
        return None
    for node in nodes:
        if node.id in from_target or not node.next_ids:
            continue
        inputs = [trace.node(i) for i in node.next_ids if i in from_target]
        if not inputs:
            continue
        if len(inputs) == len(node.next_ids) or inputs[0] is None:
            from_target.add(node.id)
            continue
        value = inputs[0]  # a node that meets another value: the target enters the loss here
        if value.module_call in calls or value.site is None or (value.site.path, value.site.line) == (use.path, use.line):
            return None
        return value.site
    return None


def _callees_at(site) -> list[str]:
    """The callees written on a call line that can name a model: `self.target_net` in
    `q = self.target_net(s)`, `critic` (not `torch.cat`, not `x.mean`)."""
    return list(dict.fromkeys(f for f in _CALLEE.findall(site.code)
                              if not f.startswith(_NOT_MODELS) and f.rsplit(".", 1)[-1] not in _TENSOR_METHODS))


def _alias_line(path: str, target: str, other: str, other_path: str):
    """The assignment that made `target` the same object as `other`: `target = other`, or the
    same expression assigned to both (`models["critic"].to(device)`)."""
    other_values = {value for _, value in assigned_values(other_path, other, limit=4)}
    for line, value in reversed(assigned_values(path, target, limit=4)):
        if value == other or value in other_values or value.startswith(other + "."):
            return Site(path, line)
        # (`self.teacher = self._build_teacher()`, whose `return self.model` hands back the other)
        method = value[len("self."):-2] if value.startswith("self.") and value.endswith("()") else None
        owner = enclosing_class(path, line) if method and method.isidentifier() else None
        start = class_methods(path, owner, (method,)).get(method) if owner else None
        for returned in return_lines(path, start[0]) if start else []:
            # (the object is known to be the same: the names may differ by `self.`)
            if source_line(path, returned).strip() in (f"return {other}", f"return self.{other.rsplit('.', 1)[-1]}"):
                return Site(path, returned, method)
    return None


_LINEAR = frozenset({"AddBackward0", "SubBackward0", "MulBackward0", "DivBackward0", "NegBackward0"})


def dead_loss_terms(trace: Trace) -> list[Finding]:
    """A loss term cut from the graph (`torch.tensor(losses)`, `.detach()`, a no_grad helper)
    summed into a loss that trains: that term adds a number and no gradient. Only a term of the
    loss itself (the backward's root, reached through sums and scalings): inside `(q - target)**2`
    a detached target is meant, and does matter."""
    findings = []
    for term in trace.dead_terms:
        # (a backward whose root the record no longer holds, pruned in a long run: the sum's own
        # record says which backward ran it)
        ran_by = trace.node(term.node).ran_by if trace.node(term.node) is not None else None
        if any(term.node in n.next_ids and n.name not in _LINEAR for n in trace.nodes.values()):
            ran_by = None  # (what it is summed into is known, and is not a sum or a scaling)
        if ran_by is not None and _used_otherwise_later(trace, term.node):
            ran_by = None  # (the same line in a later iteration feeds a pow, a loss function: not a loss term)
        call = next((c for c in trace.backward_calls if c.error is None and (
            _summed_into(trace, term.node, c.roots) or (c.index == ran_by and not any(trace.node(r) for r in c.roots)))),
            None)
        cut = trace.cut(term.cut)
        if call is None or cut is None:
            continue
        if not term.number:
            what = "descends from a cut"
        elif cut.reason == "number":
            what = "is a Python number"
        else:
            what = "is a Python number read from a tensor cut off the graph"
        findings.append(_warning(
            "loss-term-without-gradient", "A loss term that carries no gradient",
            f"The term added at {where(term.site)} {what}: {_cuts.sentence(cut)}. The loss that "
            f"{call_words(call)} backpropagates includes its value but no gradient from it, so it trains "
            "nothing: the parameters it depends on never feel it.",
            _cuts.NUMBER_FIX if term.number else _cuts.fix(cut),
            *_cuts.locations(trace, cut),
            Location.at(term.site, "term", "term added, without gradient"),
            Location.at(call.site, "backward", "backward")))
        # A helper decorated to run without grad (an inference routine reused for a loss term):
        # its decorator is what cuts the term off; calling it under enable_grad is the other way.
        block, inside = _cuts.decorated_caller(cut) if cut.reason in ("no_grad", "inference_mode") else (None, None)
        function = (inside or cut.site).function if (inside or cut.site) is not None else None
        if block is not None and function not in (None, "forward") \
                and source_line(block.path, block.line).lstrip().startswith("@"):
            findings[-1].mark_fix(block, f"runs `{function}` with gradient tracking off, so the term it feeds at "
                                         f"{where(term.site)} has no graph: remove it where the result is trained on")
            if inside is not None:
                findings[-1].mark_fix(inside, "or run this call under `with torch.enable_grad():`")
        elif cut.reason in ("no_grad", "inference_mode"):
            _cuts.mark_fix_sites(findings[-1], trace, cut)  # (the block, not the line inside a helper it ran)
    return findings


def _summed_into(trace: Trace, node_id: int | None, roots: list[int]) -> bool:
    """Is the node a root, or below one through sums and scalings only?"""
    todo, seen = list(roots), set()
    while todo:
        nid = todo.pop()
        if nid == node_id:
            return True
        node = trace.node(nid)
        if node is None or nid in seen or node.name not in _LINEAR:
            continue
        seen.add(nid)
        todo.extend(node.next_ids)
    return False


_MADE = re.compile(r"=\s*(\[|\{|\(|list\(|dict\(|tuple\(|\w+\s+for\b)")


def _container_made(sites: list) -> list:
    """The lines that make the container (`self.layers = []`, `= [f(x) for ...]`, `= {}`), rather
    than those that fill it or set it to None; all of them when none reads so."""
    made = [site for site in sites if _MADE.search(site.code)]
    return made or sites


def _by_library(site) -> bool:
    return site is not None and is_library_path(site.path)


def freeze_undone(trace: Trace) -> list[Finding]:
    """Parameters frozen (`requires_grad = False`) and made trainable again before any backward
    ran in between: the freeze never took effect (a later loop sets `requires_grad = True` on
    every parameter). Unfreezing after training started (gradual unfreezing) is meant."""
    findings, seen = [], set()
    for undo in trace.unfreezes:
        freeze = next((f for f in trace.freezes if f.seq == undo.undoes), None)
        if freeze is None or undo.backwards_before != undo.frozen_backwards or (freeze.site, undo.site) in seen:
            continue
        if undo.leaf != freeze.leaf:
            continue  # freeze all, then unfreeze a part (the head, the layers picked this step): meant
        if any(h.kind == "not-in-optimizer" and undo.leaf in h.leaves for h in trace.grad_hazards):
            continue  # unfrozen after the optimizer was built without them: parameter-not-in-optimizer says so
        if _by_library(freeze.site) or _by_library(undo.site):
            continue  # a library freezing and unfreezing around its own step (Lightning's toggle_optimizer)
        seen.add((freeze.site, undo.site))
        leaf = trace.leaf(undo.leaf)
        call = next((c for c in trace.backward_calls if c.seq > undo.seq), None)
        step = next((s for s in trace.first_steps if s.seq > undo.seq), None)
        if leaf is not None and leaf.tied:
            findings.append(_tied_unfrozen(leaf, freeze, undo, call, step))
            continue
        findings.append(_warning(
            "freeze-undone", "A freeze undone before training",
            f"Parameters frozen at {where(freeze.site)} (`requires_grad = False`"
            + (f", e.g. `{leaf.name}`" if leaf and leaf.name else "")
            + f") are made trainable again at {where(undo.site)} before any backward ran: the freeze never "
            "takes effect, and they are trained.",
            "Keep the frozen parameters frozen: skip them where requires_grad is set back to True (e.g. only "
            "`v.requires_grad = True` for those not in the freeze list), and leave them out of the optimizer.",
            Location.at(undo.site, "fix", "sets requires_grad back to True"),
            Location.at(freeze.site, "frozen", "frozen here"),
            Location.at(call.site if call else None, "backward", "gives them gradients"),
            Location.at(step.site if step else None, "step", f"{step.optimizer}.step() trains them" if step else "")))
    return findings


def _tied_unfrozen(leaf, freeze, undo, call, step) -> Finding:
    """A parameter two modules share (tied weights), frozen, then made trainable under its other
    name: unfreezing the head unfroze the embedding too."""
    built = user_site(leaf.site)
    config = _config_of(built)
    finding = _warning(
        "freeze-undone", "A frozen parameter made trainable through the module that shares it",
        f"`{leaf.name}` and `{leaf.tied}` are one tensor (tied weights). It is frozen at {where(freeze.site)}, then "
        f"made trainable again at {where(undo.site)} as a parameter of the other module, so the part meant to stay "
        "frozen trains too.",
        "Untie the weights (for a Hugging Face model, `tie_word_embeddings=False` in its config) if the head is "
        "meant to train alone, or leave the shared weight frozen.",
        Location.at(undo.site, "modified", "makes the shared weight trainable again"),
        Location.at(freeze.site, "frozen", "frozen here"),
        Location.at(built, "built", "builds the model, which ties the two"),
        Location.at(call.site if call else None, "backward", "gives them gradients"),
        Location.at(step.site if step else None, "step", f"{step.optimizer}.step() trains them" if step else ""))
    finding.fix_basis = "guess"
    finding.mark_fix(config, "builds the config the model ties its weights by: set `tie_word_embeddings=False` "
                             "here if the head is meant to train without the embedding")
    files = dict.fromkeys(site.path for site in (built, user_site(undo.site), user_site(freeze.site)) if site)
    for path in files:
        for name in (leaf.tied, leaf.name):
            for line in assignments(path, f"self.{name}", limit=1):
                finding.mark_fix(Site(path, line), f"ties `{leaf.tied}` to `{leaf.name}`: give the head a weight of "
                                                   "its own if it is meant to train alone")
    return finding


def _config_of(built: Site | None) -> Site | None:
    """Where the config object that the model built at `built` is given was made, when it is
    one (`config = GPT2Config(...)` before `GPT2LMHeadModel(config)`)."""
    if built is None:
        return None
    for name in names_read(built.path, built.line):
        for line, value in assigned_values(built.path, name, before=built.line, limit=1):
            if re.search(r"Config\w*\(", value) and same_function(built.path, line, built.line):
                return Site(built.path, line, built.function, built.callers)
    return None


_INF_AT_ZERO = frozenset({"log", "log2", "log10", "div", "__truediv__", "__rtruediv__", "reciprocal"})


def _inf_users(trace: Trace, node, forward) -> list:
    """An op that is infinite where its gradient is (log(0) = -inf, x / 0): the ops that saved
    its result, where `-inf * 0` turns into the NaN a loss shows (a hand-written cross-entropy)."""
    if node is None or forward is not None or node.op not in _INF_AT_ZERO:
        return []
    passing = {node.id}  # the op, and what only passes its result on (a sign flip, a view)
    for other in sorted(trace.nodes.values(), key=lambda n: n.seq):
        if other.name in _PASS_THROUGH and set(other.next_ids) & passing:
            passing.add(other.id)
    sites = []
    for other in trace.nodes.values():
        if other.id not in passing and set(other.next_ids) & passing and other.site \
                and other.site != node.site and other.site not in sites:
            sites.append(other.site)
    return sites[:2]


_PASS_THROUGH = frozenset({"NegBackward0", "ViewBackward0", "ReshapeAliasBackward0", "UnsqueezeBackward0",
                           "SqueezeBackward0", "SqueezeBackward1", "TransposeBackward0", "PermuteBackward0"})


def unused_gradient_graph(trace: Trace) -> list[Finding]:
    """Gradients asked for with `create_graph=True` (so that a loss can be built on them: a
    gradient penalty, a meta-learning step), a value computed from them, and then no backward
    through it: the term was left out of the loss, and trains nothing."""
    findings = []
    for unused in unused_gradient_graphs(trace):
        value, later = unused.value, unused.next_backward
        root = next((trace.node(r) for r in later.roots if trace.node(r) is not None), None)
        # The program's own line that holds the value (the call of a penalty helper), in the
        # function that then backpropagates without it.
        # (an op's site holds its own line only; the gradient call's callers are the value's where
        # both are in one function, a penalty helper's)
        site, grad_site = value.site, unused.call.site
        if site is not None and grad_site is not None and not site.callers and site.path == grad_site.path \
                and same_function(site.path, site.line, grad_site.line):
            site = Site(site.path, site.line, site.function, grad_site.callers)
        kept = _frame_in_function_of(site, later.site)
        finding = _warning(
            "gradient-graph-unused", "A value built on create_graph gradients is never backpropagated",
            f"{call_words(unused.call)} asked for gradients with create_graph=True, so that a loss can be built "
            f"on them, and {node_words(value)} computed a value from them. No backward ever went through "
            f"it: {call_words(later)} ran without it. That value (a gradient penalty, a meta-learning term) "
            "adds nothing to what trains.",
            "Add the value to the loss that is backpropagated (e.g. `loss = loss + weight * penalty`); if it is "
            "only logged, compute the gradients without create_graph=True.",
            Location.at(site, "created", "value computed from the gradients' graph, never backpropagated"),
            Location.at(unused.call.site, "grad", "gradients with create_graph=True"),
            Location.at(later.site, "backward", "the next backward, which leaves it out"))
        if kept is not None and root is not None and root.site is not None \
                and same_function(root.site.path, root.site.line, later.site.line) and root.site.path == later.site.path:
            finding.mark_fix(root.site, f"builds the loss backpropagated next without the value made at "
                                        f"{where(kept)}: add it here (a guess from the order of the lines, "
                                        "if that value was meant to train)", first=True)
        findings.append(finding)
    return findings


def _frame_in_function_of(site: Site | None, other: Site | None) -> Site | None:
    """The frame of `site`'s stack that runs in the function holding `other`."""
    if site is None or other is None:
        return None
    frames = [*site.callers, site]
    for index, frame in enumerate(frames):
        if frame.path == other.path and same_function(frame.path, frame.line, other.line):
            return Site(frame.path, frame.line, frame.function, tuple(frames[:index]))
    return None


def function_ignores_incoming_gradient(trace: Trace) -> list[Finding]:
    """A custom Function whose backward never reads the gradient it is given: what it returns does
    not depend on anything after it (a loss weight, a GradScaler's scale, a mean's 1/n), so the
    chain rule is broken for every use but the loss itself with weight 1."""
    findings = []
    for name, defined in trace.functions.items():
        ran = [n for n in trace.nodes.values() if n.name == name and n.ran_by is not None]
        if not ran or defined is None or not ignores_incoming_gradients(defined.path, defined.line):
            continue
        node = ran[0]
        call = next((c for c in trace.backward_calls if c.index == node.ran_by), None)
        returns = [Site(defined.path, line, defined.function) for line in return_lines(defined.path, defined.line)]
        function = name.removesuffix("Backward")
        # (Function.apply is not seen as an op: the program's `.apply(` call, where there is one)
        applies = [Site(path, line) for path in project_files(trace) for line in function_applies(path, function)]
        finding = _warning(
            "function-ignores-incoming-gradient", f"Custom Function {function} ignores the gradient it is given",
            f"The backward of the custom Function `{function}` (defined at {where(defined)}) never reads the "
            f"gradient it receives from the ops after it, so the gradient it returns is the same whatever "
            f"follows: a loss weight, a mean over a batch, or a GradScaler's scale is lost. {call_words(call)} "
            f"ran it for {node_words(node)}.",
            "Multiply what backward returns by the incoming gradient (chain rule): `return grad_output * ...` "
            "(or with the matching shape).",
            Location.at(applies[0] if len(applies) == 1 else node.site, "created",
                        "the Function applied" if len(applies) == 1 else "its output first used"),
            Location.at(call.site if call else None, "backward", "runs its backward"),
            Location.at(next((step.site for step in trace.param_steps), None), "step",
                        "applies the gradients it returned"))
        for site in returns[:1]:
            finding.mark_fix(site, "returns a gradient that does not depend on the incoming gradient: multiply it "
                                   "by that gradient (chain rule)")
        findings.append(finding)
    return findings


def term_summed_twice(trace: Trace) -> list[Finding]:
    """A term that reaches the loss along two paths of sums and scalings: counted twice."""
    found = terms_summed_twice(trace)
    if found is None:
        return []
    term, (first, second), loss, call = found.term, found.via, found.loss, found.backward
    finding = _warning(
        "loss-term-counted-twice", "A loss term is added into the loss twice",
        f"{node_words(term)} reaches the loss that {call_words(call)} backpropagates along two paths of sums and "
        f"scalings: through {node_words(first)} and through {node_words(second)}. The loss holds the term twice, "
        "and its gradient is doubled (twice its weight).",
        "Add the term once: drop one of the two additions (an in-place `+=` into another loss is easy to miss).",
        Location.at(term.site, "created", "the term"),
        Location.at(first.site, "summed", "adds it in (first path)"),
        Location.at(second.site, "summed", "adds it in (second path)"),
        Location.at(loss.site, "loss", "the loss that holds it twice"),
        Location.at(call.site, "backward", "backpropagates it"))
    # (an in-place add into another loss first: the hidden one of the two)
    for node in (first, second):
        if node.op in ("add_", "__iadd__"):
            finding.mark_fix(node.site, f"adds the term made at {where(term.site)} in place into another loss, "
                                        "which is then summed with the term again: drop this addition")
    return [finding]


def loss_value_left_out(trace: Trace) -> list[Finding]:
    """A loss-like value computed beside the loss of a training iteration, in the same function,
    and never backpropagated: a term left out of the loss (a regularizer computed and logged)."""
    if trace.error is not None:
        return []  # (a run that failed: the error is the story; a value its last iteration left is not)
    covered = {unused.value.id for unused in unused_gradient_graphs(trace)}  # (gradient-graph-unused says it)
    # (a value turned into a number or re-wrapped on its line: the cut-term rules tell that story)
    escaped = {(e.site.path, e.site.line) for e in trace.escapes if e.site is not None}
    escaped |= {(c.site.path, c.site.line) for c in trace.cuts.values() if c.site is not None}
    # (cut off and re-wrapped, `torch.tensor(losses)`: a number read for logging is no such cut)
    cut_from = {c.input_node for c in trace.cuts.values() if c.input_node is not None and c.reason != "number"}
    findings = []
    for left in values_left_out(trace, lambda a, b: a.path == b.path and same_function(a.path, a.line, b.line)):
        if left.value.id in covered or left.value.id in cut_from \
                or (left.value.site.path, left.value.site.line) in escaped:
            continue
        value, loss, call = left.value, left.loss, left.backward
        finding = _warning(
            "loss-value-left-out", "A loss term is computed but never backpropagated",
            f"{node_words(value)} computes a loss-like value from tensors that train, beside the loss built at "
            f"{where(loss.site)}, and no backward ever went through it: {call_words(call)} backpropagates the "
            "loss without it. If it is a term of the loss (a regularizer, a weighted auxiliary loss), it trains "
            "nothing as it is.",
            "Add it to the loss that is backpropagated (`loss = loss + weight * term`); if it is only logged, "
            "compute it under `torch.no_grad()` or from detached tensors.",
            Location.at(value.site, "created", "value computed, never backpropagated"),
            Location.at(call.site, "backward", "backpropagates the loss without it"))
        finding.mark_fix(_loss_started_at(_loss_named_at(call.site) or loss.site), f"builds the loss without the value computed at "
                                                      f"{where(value.site)}: add it here (a guess from the program's "
                                                      "lines, if that value was meant to train)")
        findings.append(finding)
        break  # (the first: one line to change)
    return findings


def _loss_started_at(site: Site) -> Site:
    """For a loss extended in steps (`loss = loss + w * extra` under an `if`), the statement that
    started it (`loss = a + b`), in the same function; else `site` itself."""
    extended = re.match(r"\s*(\w+)\s*=\s*(\w+)\b", source_line(site.path, site.line))
    if extended is None or extended.group(1) != extended.group(2):
        return site
    name = extended.group(1)
    for line in reversed(assignments(site.path, name, before=site.line, limit=8)):
        if not same_function(site.path, line, site.line):
            break
        started = re.match(rf"\s*{name}\s*=\s*{name}\b", source_line(site.path, line))
        if started is None:
            return Site(site.path, line, site.function, site.callers)
    return site


def _loss_named_at(call_site: Site | None) -> Site | None:
    """For `loss.backward()`, the statement of its function that last assigned `loss` before it
    (`loss = recon_loss`: where the loss backpropagated is put together)."""
    site = user_site(call_site)
    named = re.search(r"(\w+)\.backward\(", source_line(site.path, site.line)) if site is not None else None
    lines = assignments(site.path, named.group(1), before=site.line) if named else []
    if not lines or not same_function(site.path, lines[-1], site.line):
        return None
    return Site(site.path, lines[-1], site.function, site.callers)


def _step_condition(step_site: Site | None, backward_site: Site | None) -> list[Location]:
    """The `if` that lets the step run only every so many backward calls, and the assignments of
    the attributes it reads (`self.accumulate = ...`): what makes the accumulation window."""
    condition = step_condition(step_site, backward_site)
    if condition is None:
        return []
    found = [Location.at(condition, "condition", "the step runs only when this holds")]
    for name in names_read(condition.path, condition.line):
        for made in assignments(condition.path, f"self.{name}")[:1]:
            found.append(Location.at(Site(condition.path, made), "defined", f"sets `self.{name}`, which it reads"))
    return found


def _used_otherwise_later(trace: Trace, node_id: int) -> bool:
    """Whether a node made by the same line and op as `node_id` (a later iteration's, whose
    consumers are still in the record) is consumed by something other than a sum or a scaling."""
    node = trace.node(node_id)
    if node is None or node.site is None:
        return False
    same = {n.id for n in trace.nodes.values() if n.id != node_id and n.name == node.name and n.site is not None
            and (n.site.path, n.site.line) == (node.site.path, node.site.line)}
    return any(nid in same and n.name not in _LINEAR for n in trace.nodes.values() for nid in n.next_ids)

