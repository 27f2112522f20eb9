"""Mode provenance: which train/eval mode a model trained in, and which call set it.

The recorder notes each change of the mode a whole model ran forward in (`ModeSwitch`), with the
backward calls and optimizer steps made before it. From those: a model that trained in train
mode, was switched to eval mode by an evaluation, and went on training in eval mode. Where the
mode was set is found in the source: the `.eval()` in the function of the evaluating forward,
the `.train()` in the function of the training one.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..trace.locations import Site, is_library_path
from ..trace.model import MODE_DEPENDENT, ModeSet, ModeSwitch, ModuleCall, Trace
from ..trace.queries import root_call
from ..trace.registry_search import registry_keys
from ..trace.source_search import (appended_into, assignments, attribute_set_to, branch_skipped_implies, calls_named,
                                   enclosing_condition,
                                   enclosing_function_name, enclosing_loop, mode_calls, names_written, same_function)

# Layers that compute differently in eval mode: what training in eval mode changes.


@dataclass
class LeftInEval:
    """A model that trained in train mode, then trained on in eval mode after an evaluation."""

    trained: ModeSwitch  # its switch to train mode (the forward it trained with)
    evaluated: ModeSwitch  # its switch to eval mode (the evaluating forward)
    steps_in_train: int  # optimizer steps taken while it was in train mode
    steps_after: int  # optimizer steps taken after it went to eval mode (until it left it)
    backwards_after: int


def left_in_eval(trace: Trace) -> LeftInEval | None:
    """The first model whose switch to eval mode came after steps in train mode and was followed
    by at least two backward calls and two optimizer steps, with graph built in its forward,
    before it went back to train mode (or the run ended). A model toggled for one step (a GAN's
    discriminator while the generator steps) is not: it goes back after a single step."""
    total_steps = trace.meta.get("optimizer_steps", 0)
    total_backwards = trace.meta.get("backward_calls", 0)
    by_module: dict = {}
    for switch in sorted(trace.mode_switches, key=lambda s: s.seq):
        by_module.setdefault(switch.module_id, []).append(switch)
    for switches in by_module.values():
        for before, switch, after in zip(switches, switches[1:], [*switches[2:], None]):
            if before.training is not True or switch.training is not False:
                continue
            steps_after = (after.steps_before if after else total_steps) - switch.steps_before
            backwards_after = (after.backwards_before if after else total_backwards) - switch.backwards_before
            steps_in_train = switch.steps_before - before.steps_before
            # (an evaluation: another forward than the training one; and a model that computes
            # differently in eval mode, else the mode changes nothing)
            if steps_in_train >= 1 and steps_after >= 2 and backwards_after >= 2 \
                    and _other_line(switch.site, before.site) and _graph_built_in_eval(trace, switch) \
                    and _holds_mode_dependent(trace, switch.module_id):
                return LeftInEval(before, switch, steps_in_train, steps_after, backwards_after)
    return None


@dataclass
class EvalFromStart:
    """A model that never ran forward in train mode, yet trained: it arrived in eval mode."""

    evaluated: ModeSwitch  # its first forward, in eval mode
    steps_after: int  # optimizer steps taken before it went to train mode (or the run ended)
    backwards_after: int


def eval_from_start(trace: Trace) -> EvalFromStart | None:
    """The first model whose first forward ran in eval mode and that then trained in eval mode
    (two backward calls and two optimizer steps at least, graph built inside it, and a step
    that changed a parameter it used) before it ever ran in train mode: a model that came from
    a loader in eval mode (`from_pretrained` returns it so) or an early `.eval()`, trained
    without a `.train()`. A frozen teacher in eval mode is not: no step changes its parameters."""
    total_steps = trace.meta.get("optimizer_steps", 0)
    total_backwards = trace.meta.get("backward_calls", 0)
    firsts: dict = {}
    for switch in sorted(trace.mode_switches, key=lambda s: s.seq):
        firsts.setdefault(switch.module_id, []).append(switch)
    for switches in firsts.values():
        first, after = switches[0], (switches[1] if len(switches) > 1 else None)
        if first.training is not False:
            continue
        steps_after = (after.steps_before if after else total_steps) - first.steps_before
        backwards_after = (after.backwards_before if after else total_backwards) - first.backwards_before
        if steps_after >= 2 and backwards_after >= 2 and _graph_built_in_eval(trace, first) \
                and _holds_mode_dependent(trace, first.module_id) and _stepped(trace, first) \
                and not _modes_set_apart(trace, first.module_id):
            return EvalFromStart(first, steps_after, backwards_after)
    return None


def _modes_set_apart(trace: Trace, module_id: int | None) -> bool:
    """Whether the program sets modes model by model or part by part: another model ran in train
    mode (a student beside a teacher in eval mode: an `.eval()` taken for a freeze, which the
    ledger tells), or a part of this one did (the head put back in train mode)."""
    if any(s.training is True and s.module_id != module_id for s in trace.mode_switches):
        return True
    # (a part with parameters: a loss module made afresh inside forward is in train mode by default)
    with_parameters = {node.module_call for node in trace.nodes.values() if node.leaf_ids and node.module_call}
    return any(call.training is True and call.id in with_parameters and _root_module(trace, call.id) == module_id
               for call in trace.module_calls.values())


def model_built_at(trace: Trace, switch: ModeSwitch) -> Site | None:
    """Where the model was made: the user line its parameters were created from (the
    constructor call, or the loader's: `from_pretrained`)."""
    calls = {cid for cid, call in trace.module_calls.items() if call.module == switch.module_id}
    for node in trace.nodes.values():
        if node.leaf_ids and node.module_call is not None and root_call(trace, node.module_call) in calls:
            for lid in node.leaf_ids:
                leaf = trace.leaf(lid)
                if leaf is not None and leaf.kind == "parameter" and leaf.site is not None:
                    return _outside_constructors(leaf.site)
    return None


def _outside_constructors(site: Site) -> Site:
    """The frame that made the whole model: out of the `__init__`s that built its layers."""
    frames = [*site.callers, site]
    while len(frames) > 1 and frames[-1].function == "__init__":
        frames.pop()
    last = frames[-1]
    return Site(last.path, last.line, last.function, tuple(frames[:-1]))


def parting_frame(site: Site | None, other: Site | None) -> Site | None:
    """The innermost frame of `site` that `other` did not pass through: for two forwards through
    one helper, the line each was called from."""
    if site is None or other is None:
        return site
    theirs = {(f.path, f.line) for f in [*other.callers, other]}
    frames = [*site.callers, site]
    for index in range(len(frames) - 1, -1, -1):
        if (frames[index].path, frames[index].line) not in theirs:
            found = frames[index]
            return Site(found.path, found.line, found.function, tuple(frames[:index]))
    return site


def trained_twin(trace: Trace, call: ModuleCall) -> ModuleCall | None:
    """A call, in train mode, of the same layer of another model (the same path, under the
    prefix an EMA wrapper adds: `module.1` and `1`): what a copy of the model was made from."""
    if not call.name:
        return None
    for other in trace.module_calls.values():
        if other.training is True and other.module != call.module and other.type == call.type and other.name \
                and _same_layer(call.name, other.name):
            return other
    return None


def _same_layer(name: str, other: str) -> bool:
    """`module.1` and `1` (a wrapper's prefix); `q_net_target.q_net.0` and `q_net.q_net.0` (two
    copies side by side in one model)."""
    if name == other or name.endswith("." + other) or other.endswith("." + name):
        return True
    if "." not in name or "." not in other:
        return False
    (head, rest), (other_head, other_rest) = name.split(".", 1), other.split(".", 1)
    # (`layer3.0.bn1` and `layer4.0.bn1` are two stages of one network, not two copies of it)
    return rest == other_rest and head.rstrip("0123456789") != other_head.rstrip("0123456789")


def _stepped(trace: Trace, switch: ModeSwitch) -> bool:
    """Whether an optimizer step changed a parameter whose gradient a node made inside that
    model's eval-mode calls accumulates into."""
    calls = {cid for cid, call in trace.module_calls.items()
             if call.module == switch.module_id and call.training is False}
    used = {lid for node in trace.nodes.values()
            if node.leaf_ids and node.module_call is not None and root_call(trace, node.module_call) in calls
            for lid in node.leaf_ids
            # (the model's own parameters: an image optimized through a frozen network in eval mode
            # is an input the step changes, not the model)
            if (leaf := trace.leaf(lid)) is None or leaf.kind == "parameter"}
    return any(used.intersection(step.changed_leaves) for step in trace.param_steps)


def _other_line(site: Site | None, other: Site | None) -> bool:
    """Whether two forwards ran from different places: another line, or the same helper (a
    `compute_loss` used by both) called from another line."""
    return site is not None and other is not None and _frames(site) != _frames(other)


def _frames(site: Site) -> tuple:
    return ((site.path, site.line), *((c.path, c.line) for c in site.callers))


def _holds_mode_dependent(trace: Trace, module_id: int | None) -> bool:
    """Whether a layer that computes differently in eval mode ran inside that model."""
    return any(call.type.startswith(MODE_DEPENDENT) and _root_module(trace, call.id) == module_id
               for call in trace.module_calls.values())


def first_graph_forward_in_eval(trace: Trace, switch: ModeSwitch) -> Site | None:
    """The first eval-mode forward of that model, after the switch, that built graph: the
    training forward (an evaluation under no_grad before it builds none)."""
    calls = {cid for cid, call in trace.module_calls.items()
             if call.module == switch.module_id and call.training is False}
    roots = [root_call(trace, node.module_call) for node in trace.nodes.values()
             if node.seq > switch.seq and node.module_call is not None]
    first = min((cid for cid in roots if cid in calls), default=None)
    return trace.module_calls[first].site if first is not None else None


def _graph_built_in_eval(trace: Trace, switch: ModeSwitch) -> bool:
    """Whether a recorded node was made, after the switch, inside an eval-mode call of that model."""
    calls = {cid for cid, call in trace.module_calls.items()
             if call.module == switch.module_id and call.training is False}
    if not calls:
        return False
    for node in trace.nodes.values():
        if node.seq > switch.seq and node.module_call is not None and root_call(trace, node.module_call) in calls:
            return True
    return False


def mode_dependent_layers(trace: Trace, module_id: int | None, limit: int = 2) -> list[Site]:
    """Where the layers inside that model that compute differently in eval mode were built."""
    found: list[Site] = []
    for call in trace.module_calls.values():
        if call.type.startswith(MODE_DEPENDENT) and call.registered_at is not None \
                and _root_module(trace, call.id) == module_id and call.registered_at not in found:
            found.append(call.registered_at)
    # (the user's own layers first: a library model's are built inside the library)
    return sorted(found, key=lambda site: is_library_path(site.path))[:limit]


def _root_module(trace: Trace, cid: int) -> int | None:
    call = trace.module_calls.get(root_call(trace, cid))
    return call.module if call is not None else None


def mode_set_in(site: Site | None, training: bool) -> list[Site]:
    """The `.train()` (or `.eval()`) calls in the user function of `site` or, going out, of the
    first of its callers that has one: where the mode a forward ran in was set."""
    for frame in ([site, *reversed(site.callers)] if site is not None else []):
        if is_library_path(frame.path) or frame.path.startswith("<"):
            continue
        lines = [line for line in mode_calls(frame.path, training)
                 if line <= frame.line and same_function(frame.path, line, frame.line)]
        if lines:
            return [Site(frame.path, line, frame.function, frame.callers) for line in lines]
    return []


def mode_set_beside(site: Site | None, training: bool) -> list[Site]:
    """The `.train()` (or `.eval()`) calls of the user function that holds `site`, anywhere in
    it: a loader that builds a model and returns it in eval mode."""
    if site is None or is_library_path(site.path) or site.path.startswith("<"):
        return []
    return [Site(site.path, line, site.function, site.callers) for line in mode_calls(site.path, training)
            if same_function(site.path, line, site.line)]


def outside_loop_around(setter: Site, frames: list[Site]) -> tuple[int, int] | None:
    """The loop of `setter`'s function that holds one of `frames` (the evaluation's call, the
    training forward) but not `setter` itself: a mode set before it is set once, not per pass."""
    for frame in frames:
        if frame.path != setter.path or not same_function(frame.path, frame.line, setter.line):
            continue
        loop = enclosing_loop(frame.path, frame.line)
        while loop is not None:
            if not loop[0] <= setter.line <= loop[1]:
                outer = enclosing_loop(frame.path, loop[0] - 1) if loop[0] > 1 else None
                # the outermost such loop: the one a "move it in" puts the call at the start of
                if outer is None or outer[0] <= setter.line <= outer[1]:
                    return loop
                loop = outer
            else:
                break
    return None


@dataclass
class FrozenNormTrained:
    """Normalization layers whose parameters are frozen and that the program put in eval mode,
    yet ran forward in train mode: their running statistics still drift."""

    calls: list[int]  # module calls (ModuleCall ids) of such layers in train mode
    eval_set: list[Site]  # the `.eval()` calls beside the freeze: the intent to keep them fixed
    freeze: Site | None  # where their parameters were frozen


def frozen_norms_in_train_mode(trace: Trace) -> FrozenNormTrained | None:
    """Normalization layers seen with every parameter frozen that ran in train mode while an
    optimizer stepped. `eval_set`: the `.eval()` calls in the function that froze them, where
    the program shows it meant the statistics fixed (then the `.train()` that undid it is known
    to be the cause); empty where it only froze the parameters."""
    if not trace.frozen_norms or not trace.meta.get("optimizer_steps"):
        return None
    # (only calls after they were seen frozen: a teacher trained first, then frozen, ran in train mode before)
    since = dict(zip(trace.frozen_norms, trace.frozen_since or [0] * len(trace.frozen_norms)))
    calls = [cid for cid, call in trace.module_calls.items()
             if call.module in since and call.training is True and cid > since[call.module]]
    if not calls:
        return None
    first: Site | None = None
    names = [trace.module_calls[cid].name for cid in calls if trace.module_calls[cid].name]
    # (the freeze of these layers' own parameters first: a line is kept once, with its first parameter)
    for freeze in sorted(trace.freezes, key=lambda f: not _freezes_one_of(trace, f, names)):
        site = _user_frame(freeze.site)
        if site is None:
            continue
        first = first or site
        # (in the freeze's function, or in a caller's: `freeze_backbone` calls a helper that sets
        # requires_grad, then `.eval()` itself)
        for frame in [site, *reversed(site.callers)][:3]:
            if is_library_path(frame.path) or frame.path.startswith("<"):
                continue
            evals = [Site(frame.path, line, frame.function, frame.callers) for line in mode_calls(frame.path, False)
                     if same_function(frame.path, line, frame.line)]
            if evals:
                return FrozenNormTrained(calls, evals, site)
    return FrozenNormTrained(calls, [], first) if first is not None else None


def _user_frame(site: Site | None) -> Site | None:
    """`site` if it is the program's own line, else its innermost caller that is (a library's
    freeze helper called from the program)."""
    for frame in ([site, *reversed(site.callers)] if site is not None else []):
        if not is_library_path(frame.path) and not frame.path.startswith("<"):
            return frame
    return None


def root_call_site(trace: Trace, cid: int) -> Site | None:
    """Where the whole model a module call ran in was called (the training forward)."""
    call = trace.module_calls.get(root_call(trace, cid))
    return call.site if call is not None else None


def _freezes_one_of(trace: Trace, freeze, modules: list[str]) -> bool:
    leaf = trace.leaf(freeze.leaf)
    return leaf is not None and leaf.name is not None and any(leaf.name.startswith(m + ".") for m in modules)


def backward_after(trace: Trace, seq: int) -> Site | None:
    """The line of the first recorded backward call made after event `seq` (the first that
    trains in the mode a switch at `seq` set)."""
    later = [call for call in trace.backward_calls if call.seq > seq and call.site is not None]
    return min(later, key=lambda call: call.seq).site if later else None


def module_built_at(call: ModuleCall, files: tuple[str, ...]) -> Site | None:
    """The user's statement that built the module of `call` (a library layer, `nn.ReLU`), read
    from the statement that put it into its parent: the call of its class there, or, where that
    builds a container from a list, the one statement that appended a call that makes that class
    (`modules.append(nn.ReLU())`, or a registry lookup `modules.append(ACTS[name]())`)."""
    made = call.registered_at
    if made is None or is_library_path(made.path) or made.path.startswith("<"):
        return None
    found = [line for line, callee in appended_into(made.path, made.line)
             if callee.rsplit(".", 1)[-1] == call.type or registry_keys(made.path, line, call.type, files)]
    return Site(made.path, found[0], made.function, made.callers) if len(found) == 1 else None


def conditional_resets(path: str, line: int, files: list[str]) -> list[tuple[Site, Site]]:
    """For a statement that keeps a state on its object (`_, self.weight = self.gru(x, self.weight)`):
    (the `if` around the call, the call) for each call of a method of the program that resets that
    attribute to None (`def reset_parameters(self): self.weight = None`) made only under a
    condition (`if epoch % cfg["state_reset_every"] == 0:`): the reset the carried state needed,
    skipped on some iterations."""
    found = []
    for name in names_written(path, line):
        if not name.startswith("self.") or "[" in name:
            continue
        attr = name[len("self."):]
        methods = {enclosing_function_name(path, reset) for reset in attribute_set_to(path, attr, None, limit=4)}
        for method in sorted(m for m in methods if m and m != "__init__"):
            for other in files:
                for call in calls_named(other, method, limit=4):
                    condition = enclosing_condition(other, call)
                    loop = enclosing_loop(other, call)
                    # (an `if` inside the loop that runs the call: not a guard around the whole loop)
                    if condition is not None and loop is not None and loop[0] < condition:
                        found.append((Site(other, condition), Site(other, call)))
        # (a reset written in the same method, under an `if` that the kept state skipped:
        # `if self.state is None or not self.stateful: self.state = self.initial_state(x)`)
        for reset in assignments(path, name, limit=8):
            condition = enclosing_condition(path, reset) if reset != line and same_function(path, reset, line) else None
            # (a lazy start, `if self.memory is None:`, says nothing of an option: not a reset skipped)
            if condition is not None and condition != enclosing_condition(path, line) and condition < line \
                    and set(branch_skipped_implies(path, condition)) - {attr}:
                found.append((Site(path, condition), Site(path, reset)))
    return found[:2]


@dataclass
class EvalUndone:
    """`.eval()` calls on parts of a model (normalization layers, a backbone) that a later
    `.train()` of a model holding them undid before any of them ran forward: the eval mode never
    took effect, and training ran them in train mode."""

    evals: list[ModeSet]  # the `.eval()` calls undone (one line of the program, or its first)
    undone_by: ModeSet  # the `.train()` that put them back in train mode
    forward: Site | None  # the first forward after it that ran one of them (in train mode)
    mode_dependent_only: bool  # every part set apart is a normalization or dropout layer


def evals_undone(trace: Trace) -> EvalUndone | None:
    """The first `.train()` that undid `.eval()` calls which had not yet mattered (no forward of
    their module in between), followed by training (a backward call after it)."""
    total_backwards = trace.meta.get("backward_calls", 0)
    for setter in trace.mode_sets:
        undone = [trace.mode_sets[index] for index, ran in setter.undid
                  if not ran and 0 <= index < len(trace.mode_sets)]
        if not setter.training or not undone or total_backwards <= setter.backwards_before:
            continue
        first_site = undone[0].site
        evals = [s for s in undone if s.site is not None and first_site is not None
                 and (s.site.path, s.site.line) == (first_site.path, first_site.line)]
        ids = {s.module_id for s in evals or undone[:1]}
        # (a forward of one of them in train mode after the `.train()`, with graph: it did run so)
        ran = [node for node in trace.nodes.values() if node.seq > setter.seq and node.module_call is not None
               and (call := trace.module_calls.get(node.module_call)) is not None
               and call.module in ids and call.training is True]
        if not ran:
            continue
        first = min(ran, key=lambda node: node.seq)
        return EvalUndone(evals or undone[:1], setter, root_call_site(trace, first.module_call),
                          all(s.module_type.startswith(MODE_DEPENDENT) for s in evals or undone[:1]))
    return None
