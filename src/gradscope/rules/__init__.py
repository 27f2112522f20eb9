"""Diagnosis rules: each is a pure function from a `Trace` to a list of `Finding`s.

A rule reads the trace and nothing else (no torch, no live objects), so it can be tested on a
hand-built trace. `diagnose` runs them all; a rule that crashes is reported, not raised.
"""

from __future__ import annotations

import traceback
from typing import Callable

from ..findings import Finding
from ..trace import Trace
from . import backward_error, freed_graph, inplace_saved, leaf_inplace

Rule = Callable[[Trace], list[Finding]]

RULES: dict[str, Rule] = {
    inplace_saved.RULE_ID: inplace_saved.check,
    freed_graph.RULE_ID: freed_graph.check,
    leaf_inplace.RULE_ID: leaf_inplace.check,
    backward_error.RULE_ID: backward_error.check,
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
    return findings
