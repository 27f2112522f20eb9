"""A `load_state_dict` that changed nothing: the module's own tensors copied onto themselves,
after training steps. Either the state dict was kept by reference (`state_dict()` shares storage
with the parameters, so the steps changed it too: restoring "the initial weights" restores the
trained ones), or a module was loaded from itself (a target network updated from its own state)."""

from __future__ import annotations

import re

from ..trace.findings import Finding, Location
from ..trace.locations import Site, source_line
from ..trace.model import Trace
from ..trace.source_search import assigned_values, assignments
from ._words import where

RULE_ID = "load-state-dict-no-op"

_LOAD = re.compile(r"([\w.\[\]'\"]+)\.load_state_dict\(\s*([\w.\[\]'\"]+?)(\.state_dict\(\))?\s*[,)]")


def check(trace: Trace) -> list[Finding]:
    # (before any step nothing had changed: a load then restores what is there, harmlessly)
    load = next((load for load in trace.state_loads if load.steps_before > 0 and load.site is not None), None)
    if load is None:
        return []
    finding = Finding(
        rule=RULE_ID, severity="warning", title="load_state_dict changed nothing",
        explanation=(f"`load_state_dict` at {where(load.site)} (on a {load.module_type}, after "
                     f"{load.steps_before} optimizer step{'s' if load.steps_before != 1 else ''}) was given the "
                     f"module's own tensors: all {load.tensors} share their memory with the tensors they were to "
                     "replace, so the load copied each onto itself and the module kept the weights it had."),
        fix=("Load from a copy: keep `copy.deepcopy(model.state_dict())` (or `{k: v.clone() for k, v in "
             "...items()}`) when saving a state to restore later, and load a target network from the network it "
             "follows, not from itself."))
    finding.add(Location.at(load.site, "load", "copies the module's own tensors onto themselves"))
    stepped = [step for step in trace.first_steps if step.seq < load.seq and step.site is not None]
    if stepped:
        finding.add(Location.at(stepped[-1].site, "modified", "changes the parameters in place (and so any state dict "
                                                              "kept without a copy)"))
    written = _LOAD.search(source_line(load.site.path, load.site.line))
    if written is None:
        return [finding]
    target, given, own_call = written.group(1), written.group(2), written.group(3)
    if own_call and given == target:
        finding.mark_fix(load.site, f"loads `{target}` from its own state dict: load it from the module it should "
                                    "copy")
        return [finding]
    if own_call:
        return []  # (loaded from another name for the same module: target-is-online-network tells that story)
    kept = [(line, value) for line, value in assigned_values(load.site.path, given, limit=4)
            if "state_dict()" in value and "copy" not in value and "clone" not in value]
    if len(kept) == 1:
        line, value = kept[0]
        finding.mark_fix(Site(load.site.path, line), f"keeps `{value}` itself, whose tensors are the parameters' "
                                                     "own memory: the optimizer's steps change it too; keep a copy "
                                                     "(`copy.deepcopy(...)`)")
        finding.explanation += (f" The state dict it loads, `{given}`, was kept at {where(Site(load.site.path, line))} "
                                "without a copy.")
    elif assignments(load.site.path, given, limit=1):
        finding.fix_basis = "guess"
    return [finding]
