"""Diagnosis rules: each is a pure function from a `Trace` to a list of `Finding`s.

A rule reads the trace and nothing else (no torch, no live objects), so it can be tested on a
hand-built trace. `diagnose` runs them all; a rule that crashes is reported, not raised.
"""

from __future__ import annotations

import functools
import traceback
from typing import Callable

from ..analyses.settings import (
    branch_options,
    guard_options,
    matches_no_parameter,
    name_patterns,
    options_read,
    registry_settings,
    setting_readers,
    settings_for,
)
from ..analyses.provenance import MOVES, computed_at, made_in_module
from ..trace.call_sites import caller_in_source
from ..trace.findings import FIX, Finding, Location
from ..trace.locations import Site, is_library_path, source_line
from ..trace.model import Trace
from ..trace.queries import classes_run_at, model_call_site, project_files, user_files
from ..trace.source_search import calls_containing, selects_by_name
from . import (
    backward_error,
    backward_failures,
    ddp,
    freed_graph,
    grad_flow,
    graph_cut,
    inplace_hazard,
    inplace_saved,
    leaf_inplace,
    ledger,
    modes,
    op_errors,
    python_errors,
    scaling,
    silent,
    state_loads,
    unexplained,
)
from .fix_sites import mark_fix_sites
from .training_step import name_training_step

Rule = Callable[[Trace], list[Finding]]

# Errors first (the one that ended the program is what the user came for), then silent hazards.
RULES: dict[str, Rule] = {
    inplace_saved.RULE_ID: inplace_saved.check,
    freed_graph.RULE_ID: freed_graph.check,
    leaf_inplace.RULE_ID: leaf_inplace.check,
    graph_cut.RULE_ID: graph_cut.check,
    "forward-errors": op_errors.check,
    "backward-errors": backward_failures.check,
    "library-errors": python_errors.check,
    backward_error.RULE_ID: backward_error.check,
    graph_cut.REVIVAL_RULE_ID: graph_cut.check_revival,
    graph_cut.LEAF_RULE_ID: graph_cut.check_leaf_backward,
    "data-write-to-saved-tensor": silent.data_write_to_saved,
    "gradient-hazards": silent.gradient_hazards,
    "nonfinite-gradient": silent.nan_without_step,
    "non-leaf-grad-read": silent.non_leaf_grad_reads,
    "backward-create-graph-cycle": silent.create_graph_cycle,
    "gradient-graph-unused": silent.unused_gradient_graph,
    "loss-value-left-out": silent.loss_value_left_out,
    "loss-term-counted-twice": silent.term_summed_twice,
    state_loads.RULE_ID: state_loads.check,
    "function-ignores-incoming-gradient": silent.function_ignores_incoming_gradient,
    "graph-kept-alive": silent.graph_kept_alive,
    "module-requires-grad-attribute": silent.module_flag_freezes_nothing,
    "layer-built-in-forward": silent.layer_built_in_forward,
    "module-backward-never-called": silent.module_backward_never_called,
    "target-is-online-network": silent.target_is_online,
    "loss-term-without-gradient": silent.dead_loss_terms,
    "freeze-undone": silent.freeze_undone,
    ledger.FROZEN_RULE_ID: ledger.frozen_but_updated,
    ledger.EVAL_RULE_ID: ledger.trained_in_eval_mode,
    ledger.ZERO_RULE_ID: ledger.zero_gradients,
    ledger.NEVER_STEPPED_RULE_ID: ledger.step_never_ran,
    ledger.LEAKED_RULE_ID: ledger.leaked_into_first_step,
    ledger.SUMMED_RULE_ID: ledger.summed_accumulation,
    modes.LEFT_IN_EVAL_RULE_ID: modes.left_in_eval,
    "training-in-eval-mode (from the start)": modes.eval_from_start,
    modes.FROZEN_NORM_RULE_ID: modes.frozen_norm_in_train_mode,
    modes.EVAL_UNDONE_RULE_ID: modes.eval_undone,
    modes.UNFED_NORM_RULE_ID: modes.norm_evaluated_without_statistics,
    scaling.RULE_ID: scaling.clipped_while_scaled,
    scaling.BEFORE_BACKWARD_RULE_ID: scaling.clipped_before_backward,
    "parameter-without-gradient (optimizer)": ledger.optimizer_without_gradients,
    ddp.BUFFERS_RULE_ID: ddp.buffers_between_forwards,
    ddp.NO_SYNC_RULE_ID: ddp.step_without_sync,
    inplace_hazard.RULE_ID: inplace_hazard.check,
    "grad-flow": grad_flow.check,
}


def diagnose(trace: Trace) -> list[Finding]:
    findings: list[Finding] = []
    for rule_id, rule in RULES.items():
        try:
            findings.extend(rule(trace))
        except Exception as exc:  # a broken rule must not hide the others
            last = traceback.extract_tb(exc.__traceback__)[-1]
            trace.internal_errors.append(
                f"rule {rule_id} failed: {type(exc).__name__}: {exc} (at {last.name}:{last.lineno})")
    try:
        findings.extend(unexplained.check(trace, findings))  # never silence on a raised autograd error
    except Exception as exc:
        trace.internal_errors.append(f"rule {unexplained.RULE_ID} failed: {type(exc).__name__}: {exc}")
    findings = _without_repeats(findings)
    # (each on its own: one that fails must not take the others with it)
    for step in (mark_fix_sites, name_origins, name_settings, name_callers, name_training_step,
                 name_checkpoint_switches):
        try:
            step(trace, findings) if step is not mark_fix_sites else step(findings)
        except Exception as exc:
            trace.internal_errors.append(f"{step.__name__} failed: {type(exc).__name__}: {exc}")
    return findings


def _without_repeats(findings: list[Finding]) -> list[Finding]:
    """Findings that say the same thing once: one rule, the same lines in the same roles (two
    ops of one line cut from the graph make two records and one mistake)."""
    kept, seen = [], set()
    for finding in findings:
        key = (finding.rule, finding.title,
               tuple((loc.role, loc.path, loc.line) for loc in finding.locations))
        if key not in seen:
            seen.add(key)
            kept.append(finding)
    return kept


def name_origins(trace: Trace, findings: list[Finding], limit: int = 3) -> None:
    """For a value named where it was only moved (a flatten, a stack, an index of a tensor
    carried over), the line that computed it: where its graph was made."""
    by_site = functools.cache(lambda: _nodes_by_line(trace))
    for finding in findings[:MAX_WIDE_FINDINGS]:
        shown = {(loc.path, loc.line) for loc in finding.locations}
        added = 0
        for loc in [loc for loc in finding.locations if loc.role == "cut-input"][:1]:
            # (what is cut was computed from a model's output: the call of that model, whose
            # parameters this term no longer trains)
            made_there = by_site().get((loc.path, loc.line), [])
            inside = made_in_module(trace, made_there[0]) if made_there else None
            called = model_call_site(trace, inside) if inside is not None else None
            if called is not None and (called.path, called.line) not in shown:
                shown.add((called.path, called.line))
                finding.add(Location.at(called, "created", "calls the model whose output the cut value is "
                                                           "computed from"))
        for loc in [loc for loc in finding.locations if loc.role in ("created", "cut-input")]:
            made_there = by_site().get((loc.path, loc.line), [])
            if any(node.op not in MOVES for node in made_there):
                continue  # (the line computes a value itself: that is its origin)
            for node in made_there[:8]:
                origin = computed_at(trace, node)
                if origin is None or added >= limit or (origin.site.path, origin.site.line) in shown:
                    continue
                shown.add((origin.site.path, origin.site.line))
                added += 1
                # (made inside a model's forward: the call of the model is the user's line)
                called = model_call_site(trace, origin)
                site = origin.site if origin.site.callers or called is None else \
                    Site(origin.site.path, origin.site.line, origin.site.function, (*called.callers, called))
                finding.add(Location.at(site, "origin", f"computes the value that line {loc.line} only moves "
                                                        f"({node.op})"))


def _nodes_by_line(trace: Trace) -> dict[tuple[str, int], list]:
    found: dict[tuple[str, int], list] = {}
    for node in trace.nodes.values():
        if node.site is not None:
            found.setdefault((node.site.path, node.site.line), []).append(node)
    return found


def name_checkpoint_switches(trace: Trace, findings: list[Finding]) -> None:
    """For a finding about checkpointing, the program's calls that switch it on for a model
    (`model.gradient_checkpointing_enable()`), and the option that takes the branch each runs in:
    where the checkpoint was set, and by which call."""
    files = None
    for finding in findings:
        if not ("checkpoint" in finding.rule or any(loc.role == "checkpoint" for loc in finding.locations)):
            continue
        files = files if files is not None else project_files(trace)
        switches = [(Site(path, line), name) for path in files for line, name in calls_containing(path, "checkpointing")
                    if "disable" not in name and "False" not in source_line(path, line)]
        if not 0 < len(switches) <= 2:
            continue  # (none, or many: nothing says which one ran)
        for site, name in switches:
            finding.add(Location.at(site, "mode", f"`{name}()` switches checkpointing on"))
            for place, option, value in branch_options(site, files):
                finding.add(Location.at(place, "setting", f"sets `{option}` to {value}, which takes the branch "
                                                          f"line {site.line} runs in"))


def name_callers(trace: Trace, findings: list[Finding], limit: int = 2) -> None:
    """For a location the record holds without its callers (found in the source, or made where
    no stack was taken), the one statement of the program that calls its function: the outer
    frame a user fixes when the helper is right but is called so."""
    files = functools.cache(lambda: project_files(trace))  # (reads folders: once, and only if asked)
    for finding in findings:
        shown = {(f.path, f.line) for loc in finding.locations for f in (loc, *loc.callers)}
        added = 0
        for loc in list(finding.locations):
            if loc.callers or loc.role == "setting" or is_library_path(loc.path) or loc.path.startswith("<") \
                    or added >= limit:
                continue
            found = caller_in_source(loc.path, loc.line, files())
            if found is not None and found[:2] not in shown:
                shown.add(found[:2])
                added += 1
                finding.add(Location(found[0], found[1], "outer", f"calls `{found[2]}`, which runs line {loc.line} "
                                                                  "(the only such call in the program's source)"))


MAX_WIDE_FINDINGS = 8  # findings that get the wider searches (origins, settings behind every line)
_PATH_ROLES = ("created", "failed", "modified", "saved", "raises", "alias", "frozen")


def _switches_on(rule: str, name: str, value: str) -> str | None:
    """For an option the program sets True on the path to a finding, the mechanism it turns on
    when that is the finding's own cause (the program's `inplace` option for an in-place
    error; a cache kept across steps for a freed graph): what to say; else None."""
    if value != "True":
        return None
    words = name.lower().replace("_", "")
    if "inplace" in rule and words in ("inplace", "useinplace", "inplaceops"):
        return "which writes in place"
    if rule == "backward-through-freed-graph" and "cache" in words:
        return "which keeps a cache across steps, with the graph of the step that filled it"
    return None


def _value_set(setting: Location) -> str | None:
    """The value a "setting" location's note quotes (`sets 'relu', which ...`)."""
    if setting.role != "setting" or not setting.note.startswith("sets "):
        return None
    return setting.note[5:].split(",", 1)[0].strip("`").split(" to ", 1)[-1].strip()


def name_settings(trace: Trace, findings: list[Finding]) -> None:
    """Name, next to each fix site, where the value that picked its path was set (a config
    entry, an argparse default): the line a user changes when the code itself is right."""
    named = user_files(trace)[:24]
    # (a config module that runs no op is in no record: the files beside the named ones too)
    beside = functools.cache(lambda: project_files(trace))
    classes_at = functools.cache(lambda: classes_run_at(trace))
    for index, finding in enumerate(findings):
        # (the wider search, for the first findings only: a run with hundreds of findings in a
        # large file would spend minutes on lines nobody reads)
        wide = index < MAX_WIDE_FINDINGS
        # (no line marked: the settings behind what the facts point at, the layer that raised;
        # and the lines that made or raised on what the finding is about, which a branch the
        # config chose may hold: `if self.efficient:` around the Function applied)
        targets = finding.fix_sites or [loc for loc in finding.locations if loc.role == "built"][:1]
        targets += [loc for loc in finding.locations if loc.role in _PATH_ROLES and loc not in targets][:3 if wide else 0]
        for fix in targets:
            site = Site(fix.path, fix.line, fix.function, fix.callers)
            found = settings_for(site, named) or settings_for(site, beside())
            for place, value in found:
                finding.add(Location.at(place, "setting", f"sets {value!r}, which selects this path"))
            for place, name, value in (options_read(site, beside(), accept=name_patterns)
                                       if selects_by_name(site.path, site.line) else []):
                # (names the line selects parameters by, set in a config: none of them is any
                # parameter's, so the config is the line to change)
                unmatched = matches_no_parameter(trace, name_patterns(value))
                if unmatched is not None:
                    finding.mark_fix(place, f"sets `{name}` to {value}, which matches none of the model's "
                                            f"parameter names ({', '.join(unmatched)}, ...)", first=True)
            chosen = [(place, name, value, "which takes the branch this line runs in")
                      for place, name, value in branch_options(site, beside())]
            chosen += [(place, name, value, f"so the early exit at line {guard} is not taken and this line runs")
                       for place, name, value, guard in guard_options(site, beside())]
            for place, name, value, how in chosen:
                mechanism = _switches_on(finding.rule, name, value)
                if mechanism is not None:
                    # (the program's own option, set on: the path that causes the finding was
                    # chosen there, as by a layer's inplace=True)
                    finding.mark_fix(place, f"sets `{name}` to {value}, {how}, {mechanism}: set it to False",
                                     first=True)
                else:
                    finding.add(Location.at(place, "setting", f"sets `{name}` to {value}, {how}"))
        # (a mode switched in a branch taken on some passes only, `if step % args.val_step == 0:`
        # around the evaluation that sets eval mode: the option that decides when)
        for loc in [loc for loc in finding.locations if loc.role == "mode"][:2 if wide else 0]:
            # (found in the source, without callers: those of a recorded line of its function)
            callers = loc.callers or next((other.callers for other in finding.locations if other.callers
                                           and (other.path, other.function) == (loc.path, loc.function)), ())
            site = Site(loc.path, loc.line, loc.function, callers)
            for place, name, value in branch_options(site, beside()):
                finding.add(Location.at(place, "setting", f"sets `{name}` to {value}, which decides when the branch "
                                                          f"that reaches line {loc.line} runs"))
        ran = classes_at()
        for loc in [loc for loc in finding.locations if loc.role not in ("setting", "outer")][:8 if wide else 0]:
            classes = ran.get((loc.path, loc.line), set())
            for place, key, class_name, table in registry_settings(Site(loc.path, loc.line), classes, beside()):
                if any((other.path, other.line) == (place.path, place.line) for other in finding.locations):
                    continue  # (named already, as the value that selects a fix site's path)
                finding.add(Location.at(place, "setting", f"sets {key!r}, which picks {class_name} from "
                                                          f"`{table}` for line {loc.line}"))
        for setting in [loc for loc in finding.locations if loc.role in (FIX, "setting")]:
            for place, key in setting_readers(setting, beside(), _value_set(setting)):
                finding.add(Location.at(place, "used", f"hands the setting `{key}` to the code it configures"))
