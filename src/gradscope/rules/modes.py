"""Silent findings from mode provenance (analyses/modes.py): training that goes on in eval mode
after an evaluation switched the model to it; frozen batch norm that runs in train mode; batch
norm evaluated with statistics it never gathered."""

from __future__ import annotations

from ..analyses import modes
from ..trace.call_sites import caller_in_source, loops_over_arguments
from ..trace.findings import Finding, Location
from ..trace.locations import Site, user_site
from ..trace.model import Trace
from ..trace.queries import project_files
from ..trace.source_search import parameter_pair_loops, same_function
from ._words import where

LEFT_IN_EVAL_RULE_ID = "training-in-eval-mode"


def left_in_eval(trace: Trace) -> list[Finding]:
    found = modes.left_in_eval(trace)
    if found is None:
        return []
    model = f"`{found.evaluated.module_type}`"
    trained_at, evaluated_at = found.trained.site, found.evaluated.site
    evals = modes.mode_set_in(evaluated_at, training=False)
    trains = modes.mode_set_in(trained_at, training=True)
    frames = [f for f in ([*reversed(evaluated_at.callers), evaluated_at] if evaluated_at else [])]
    frames += [f for f in ([*reversed(trained_at.callers), trained_at] if trained_at else [])]
    once = next(((setter, loop) for setter in trains if (loop := modes.outside_loop_around(setter, frames))), None)
    finding = Finding(
        rule=LEFT_IN_EVAL_RULE_ID, severity="warning", title="Training goes on in eval mode after an evaluation",
        explanation=(f"The model {model} trained in train mode for {found.steps_in_train} optimizer step(s); then the "
                     f"forward at {where(evaluated_at)} ran it in eval mode"
                     + (f" (set by `.eval()` at {where(evals[0])})" if evals else "")
                     + f", and the next {found.steps_after} steps ({found.backwards_after} backward calls) trained it "
                       "still in eval mode: nothing switched it back. In eval mode dropout is off and batch norm "
                       "normalizes with its running statistics, so training no longer does what it did at first."
                     + (f" `.train()` runs once, at {where(once[0])}, before the loop that starts at line "
                        f"{once[1][0]}." if once else "")),
        fix=("Switch the model back to train mode at the start of each pass over the training data (call "
             "`.train()` as the loop's first statement), or restore the mode at the end of the evaluation."))
    if once is not None:
        finding.mark_fix(once[0], f"sets train mode once, before the loop at line {once[1][0]}: the evaluation "
                                  "inside the loop leaves the model in eval mode for the next pass; call it at the "
                                  "start of each pass")
    for setter in evals[:2]:
        finding.add(Location.at(setter, "mode", "eval mode set here, never undone before training goes on"))
    # (through one helper, the calls into it tell the two forwards apart)
    finding.add(Location.at(modes.parting_frame(evaluated_at, trained_at), "used", "the evaluating forward, in eval mode"))
    finding.add(Location.at(modes.parting_frame(trained_at, evaluated_at), "backward",
                            "the training forward: in eval mode from then on"))
    finding.add(Location.at(modes.backward_after(trace, found.evaluated.seq), "affected",
                            "the first backward after the evaluation: it trains in eval mode"))
    for place in modes.mode_dependent_layers(trace, found.evaluated.module_id):
        finding.add(Location.at(place, "defined", "a layer that computes differently in eval mode"))
    return [finding] if user_site(trained_at) is not None else []


def eval_from_start(trace: Trace) -> list[Finding]:
    """A model that trained without ever running in train mode: it arrived in eval mode."""
    found = modes.eval_from_start(trace)
    if found is None:
        return []
    forward = found.evaluated.site
    model = f"`{found.evaluated.module_type}`"
    built = user_site(modes.model_built_at(trace, found.evaluated))
    evals = modes.mode_set_in(forward, training=False) or modes.mode_set_beside(built, training=False)
    origin = (f"`.eval()` at {where(evals[0])} set it" if evals else
              f"it was in eval mode when made (at {where(built)}): a loader such as `from_pretrained` returns "
              "models in eval mode" if built else "something before its first forward put it in eval mode")
    finding = Finding(
        rule=LEFT_IN_EVAL_RULE_ID, severity="warning", title="Training in eval mode: the model never ran in train mode",
        explanation=(f"The model {model} ran its first forward (at {where(forward)}) in eval mode, and "
                     f"{found.steps_after} optimizer steps ({found.backwards_after} backward calls) trained it "
                     f"in eval mode; nothing ever called `.train()` on it. {origin[0].upper()}{origin[1:]}. In "
                     "eval mode dropout is off and batch norm normalizes with its running statistics instead of "
                     "the batch's, so training does not do what it should."),
        fix="Put the model in train mode before training (`model.train()` before the training loop, or at the "
            "start of each pass over the data if an evaluation runs inside it).")
    # An evaluation helper called from the training function after its own `.train()` (a validate()
    # at iteration 0): the call is where the mode is left behind; `.train()` right after it fixes it.
    evaluation = _evaluation_called_from_training(forward, evals[0]) if evals else None
    trains_at = modes.first_graph_forward_in_eval(trace, found.evaluated) if evaluation else None
    if trains_at is not None and any(f.path == evals[0].path and same_function(f.path, f.line, evals[0].line)
                                     for f in [*trains_at.callers, trains_at]):
        evaluation = None  # (the training forward runs in the function that sets eval mode: no evaluation helper)
    if evaluation is not None:
        call, trains = evaluation
        finding.explanation = finding.explanation.replace(
            "nothing ever called `.train()` on it",
            f"`.train()` at {where(trains)} ran before the evaluation, not after it")
        finding.mark_fix(call, f"runs `{evals[0].function}`, whose `.eval()` at {where(evals[0])} is never undone: "
                               "training goes on in eval mode after it; call `.train()` right after this call")
        finding.add(Location.at(forward, "used", "the evaluating forward, in eval mode"))
        finding.add(Location.at(evals[0], "mode", "eval mode set here"))
    elif evals:
        finding.mark_fix(evals[0], "sets eval mode, never undone before training: call `.train()` before training")
    elif built is not None:
        finding.mark_fix(built, "the model comes from here in eval mode: call `.train()` on it before training")
    if built is not None and not any((f.path, f.line) == (built.path, built.line) for f in finding.fix_sites):
        finding.add(Location.at(built, "created", "the model is made here"))
    training_forward = (modes.first_graph_forward_in_eval(trace, found.evaluated) if evaluation else None) or forward
    finding.add(Location.at(training_forward, "backward", "the training forward, in eval mode"))
    finding.add(Location.at(modes.backward_after(trace, found.evaluated.seq), "affected",
                            "the first backward, which trains it in eval mode"))
    for place in modes.mode_dependent_layers(trace, found.evaluated.module_id):
        finding.add(Location.at(place, "defined", "a layer that computes differently in eval mode"))
    return [finding] if user_site(forward) is not None else []


def _evaluation_called_from_training(forward, setter):
    """For an `.eval()` in a helper other than the function that trains: the frame that called
    the helper, from a function that sets train mode before that call, and that mode setter."""
    if forward is None or setter is None:
        return None
    frames = [*forward.callers, forward]
    for index in range(len(frames) - 1, 0, -1):
        if frames[index].function == setter.function and frames[index].path == setter.path:
            caller = frames[index - 1]
            site = Site(caller.path, caller.line, caller.function, tuple(frames[:index - 1]))
            trains = modes.mode_set_in(site, training=True)
            if trains and trains[-1].function == caller.function:
                return site, trains[-1]
            return None
    return None


FROZEN_NORM_RULE_ID = "frozen-norm-in-train-mode"


def frozen_norm_in_train_mode(trace: Trace) -> list[Finding]:
    found = modes.frozen_norms_in_train_mode(trace)
    if found is None:
        return []
    first = trace.module_calls[found.calls[0]]
    forward = modes.root_call_site(trace, found.calls[0])
    trains = modes.mode_set_in(forward, training=True)
    name = f"`{first.name}`" if first.name else f"a {first.type}"
    if not found.eval_set:
        # Frozen by requires_grad only, left in train mode: the fine-tuning tutorials' own idiom
        # (and an EMA teacher's); without a sign that the program wanted the statistics fixed,
        # nothing is said (measured: false alarms on correct programs of three batches).
        return []
    finding = Finding(
        rule=FROZEN_NORM_RULE_ID, severity="warning", title="Frozen batch norm still updates its running statistics",
        explanation=(f"{name} ({first.type}) has all its parameters frozen, and the code that froze them at "
                     f"{where(found.freeze)} also put the normalization layers in eval mode (at "
                     f"{where(found.eval_set[0])}), to keep their statistics fixed. Yet the training forward at "
                     f"{where(forward)} ran it in train mode"
                     + (f": `.train()` at {where(trains[0])} sets every submodule back to train mode" if trains else "")
                     + ", so its running mean and variance keep moving to the training batches while its "
                       "weights stay frozen."),
        fix=("Keep the frozen normalization layers in eval mode after each `.train()` call: re-apply `.eval()` to "
             "them right after it, or override the model's `train()` to do so."))
    for setter in found.eval_set[:1]:
        finding.mark_fix(setter, "sets eval mode once; the `.train()` of the whole model undoes it before training")
    for setter in trains[:1]:
        finding.mark_fix(setter, "puts every submodule, the frozen normalization layers too, back in train mode")
    finding.add(Location.at(found.freeze, "frozen", "parameters frozen (with the eval mode meant to go with it)"))
    finding.add(Location.at(forward, "used", "the training forward: the frozen layers run in train mode"))
    finding.add(Location.at(first.registered_at, "defined", "the frozen normalization layer"))
    return [finding]


UNFED_NORM_RULE_ID = "norm-evaluated-without-statistics"


def norm_evaluated_without_statistics(trace: Trace) -> list[Finding]:
    """A batch norm that ran in eval mode, after training steps, with running statistics it never
    gathered (count 0, mean 0, variance 1): it normalizes with the initial values. An EMA or copy
    of a model that averages its parameters only leaves them so."""
    if not trace.unfed_norms or not trace.meta.get("optimizer_steps"):
        return []
    unfed = set(trace.unfed_norms)
    calls = [call for call in trace.module_calls.values() if call.module in unfed and call.training is False]
    # Only a layer whose twin gathered statistics (the same layer of the model an EMA or copy was
    # made from, run in train mode): one that nothing ever fed, a frozen backbone kept in eval
    # mode as it came, says nothing wrong about the program (its weights were meant to be loaded).
    calls = [call for call in calls if modes.trained_twin(trace, call) is not None]
    if not calls:
        return []
    first = calls[0]
    forward = modes.root_call_site(trace, first.id)
    loops = [Site(path, line) for path in project_files(trace) for line in parameter_pair_loops(path)]
    name = f"`{first.name}`" if first.name else f"a {first.type}"
    finding = Finding(
        rule=UNFED_NORM_RULE_ID, severity="warning", title="Batch norm evaluated with statistics it never gathered",
        explanation=(f"{name} ({first.type}) ran in eval mode (the forward at {where(forward)}) with running "
                     "statistics it never gathered: no batch was counted, the mean is still 0 and the variance 1, "
                     "though training steps ran. It normalizes with those initial values."
                     + (f" The loop at {where(loops[0])} copies or averages parameters only; batch-norm "
                        "statistics are buffers, which it leaves out." if loops else "")),
        fix=("Carry the buffers along with the parameters (`zip(ema.buffers(), model.buffers())`, or average the "
             "`state_dict()`), or run the model in train mode on data before evaluating it."))
    if len(loops) == 1:
        # (a helper given the parameter lists: the call that gives it only parameters comes first)
        called = caller_in_source(loops[0].path, loops[0].line, project_files(trace)) \
            if loops_over_arguments(loops[0].path, loops[0].line) else None
        if called is not None:
            finding.mark_fix(Site(called[0], called[1]), f"gives `{called[2]}` the parameters only: the batch-norm "
                                                         "statistics are buffers, left at their initial values; pass "
                                                         "the buffers too")
        finding.mark_fix(loops[0], "averages (or copies) the parameters only: the batch-norm statistics are buffers, "
                                   "left at their initial values; include `buffers()`")
    finding.add(Location.at(forward, "used", "evaluated with statistics never gathered"))
    finding.add(Location.at(first.registered_at, "defined", "the normalization layer"))
    return [finding]


EVAL_UNDONE_RULE_ID = "eval-undone-by-train"


def eval_undone(trace: Trace) -> list[Finding]:
    """`.eval()` set on parts of a model, undone by a `.train()` of the whole before it mattered."""
    found = modes.evals_undone(trace)
    if found is None:
        return []
    frozen = modes.frozen_norms_in_train_mode(trace)
    if frozen is not None and frozen.eval_set:
        return []  # (layers frozen as well: frozen-norm-in-train-mode tells that story)
    first, trains = found.evals[0], found.undone_by
    names = [f"`{s.module}`" if s.module else f"a {s.module_type}" for s in found.evals[:3]]
    what = ", ".join(names) + (f" and {len(found.evals) - 3} more" if len(found.evals) > 3 else "")
    whole = f"`{trains.module}`" if trains.module else f"the {trains.module_type}"
    story = (f"`.eval()` at {where(first.site)} put {what} in eval mode, but `.train()` on {whole} at "
             f"{where(trains.site)} put {'them' if len(found.evals) > 1 else 'it'} back in train mode before "
             "any forward ran: the eval mode never took effect, and training ran in train mode")
    if found.mode_dependent_only:
        finding = Finding(
            rule=EVAL_UNDONE_RULE_ID, severity="warning", title="Layers set to eval mode are put back in train mode",
            explanation=story + (", so batch norm keeps updating its running statistics from the training "
                                 "batches (and dropout stays on)."),
            fix=("Set those layers to eval mode again after every `.train()` of the model (right after the call, "
                 "or in an override of the model's `train()` that calls `super().train(mode)` first)."))
        finding.mark_fix(trains.site, f"puts every submodule back in train mode, the layers set to eval at "
                                      f"{where(first.site)} too: set them to eval again right after this call")
        finding.add(Location.at(first.site, "mode", "eval mode set here, undone before it mattered"))
    elif not _stepped_under(trace, first.module):
        return []  # (neither normalization layers only, nor trained: nothing known to be wrong)
    else:
        finding = Finding(
            rule=EVAL_UNDONE_RULE_ID, severity="warning", title="`.eval()` used as a freeze, and undone",
            explanation=story + (". `.eval()` changes how dropout and batch norm compute; it freezes no "
                                 "parameter: what it was called on still gets gradients and is stepped."),
            fix=("To freeze it, set `requires_grad_(False)` on it (and leave it out of the optimizer); to keep it "
                 "in eval mode as well, set that again after each `.train()`."))
        finding.mark_fix(first.site, "sets eval mode, which freezes no parameter (and a `.train()` undid it): freeze "
                                     "with `requires_grad_(False)` here")
        finding.add(Location.at(trains.site, "mode", "puts it back in train mode"))
    module_call = next((c for c in trace.module_calls.values() if c.module == first.module_id and c.registered_at), None)
    finding.add(Location.at(module_call.registered_at if module_call else None, "defined", "the part set to eval"))
    finding.add(Location.at(found.forward, "used", "a training forward: it runs in train mode"))
    finding.add(Location.at(modes.backward_after(trace, trains.seq), "backward", "the first backward after the `.train()`"))
    return [finding]


def _stepped_under(trace: Trace, module: str | None) -> bool:
    """Whether an optimizer step changed a parameter of the module at that path."""
    if not module:
        return False
    for step in trace.param_steps:
        for lid in step.changed_leaves:
            leaf = trace.leaf(lid)
            if leaf is not None and leaf.name and leaf.name.startswith(module + "."):
                return True
    return False
