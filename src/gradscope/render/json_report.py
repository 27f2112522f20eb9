"""The machine report written by `gradscope run --json PATH` (schema documented in the README)."""

from __future__ import annotations

import dataclasses
import json
import math

from .. import __version__
from ..paths import write_text
from ..trace.findings import Finding
from ..trace.model import Trace

SCHEMA = 1


def report(trace: Trace, findings: list[Finding]) -> dict:
    error = None
    if trace.error is not None:
        site = trace.error.site
        error = {"type": trace.error.type, "message": trace.error.message,
                 "path": site.path if site else None, "line": site.line if site else None}
    return {
        "schema": SCHEMA,
        "gradscope": __version__,
        "argv": list(trace.argv),
        "exit_status": trace.exit_status,
        "error": error,
        "findings": [finding.to_dict() for finding in findings],
        "internal_errors": list(trace.internal_errors),
        "notes": list(trace.meta.get("notes", [])),
        "grad_flow": _flow(trace),
        "stopped": _stopped(trace),
        "summary": {
            "backward_calls": trace.meta.get("backward_calls", len(trace.backward_calls)),
            "inplace_changes": len(trace.inplace_changes),
            "nodes_in_trace": len(trace.nodes),
            "parameters_without_grad": _without_grad(trace),
        },
    }


def _stopped(trace: Trace) -> dict | None:
    """Where a signal (SIGTERM) stopped the program, with the code of that line (for `gradscope
    report` on another machine); None when it ended by itself."""
    stopped = trace.stopped
    if stopped is None:
        return None
    site = stopped.site
    return {"signal": stopped.signal, "outside_python": stopped.outside_python,
            "path": site.path if site else None, "line": site.line if site else None,
            "code": site.code if site else "",
            "stack": [{"path": s.path, "line": s.line, "function": s.function} for s in stopped.stack]}


def _without_grad(trace: Trace) -> list[str] | None:
    """The parameters an optimizer stepped while their .grad was None (by module path; at most
    16), for comparing ranks; None when no optimizer stepped (nothing is known)."""
    if not trace.first_steps:
        return None
    names = []
    for hazard in trace.grad_hazards:
        if hazard.kind == "never-graded":
            names += [leaf.name or leaf.owner or f"leaf {leaf.id}" for leaf in map(trace.leaf, hazard.leaves) if leaf]
    return sorted(set(names))


def _flow(trace: Trace) -> dict | None:
    """--grad-flow statistics; NaN/inf become null (strict JSON), `finite` keeps the fact."""
    if trace.grad_flow is None:
        return None
    return _finite_only(dataclasses.asdict(trace.grad_flow))


def _finite_only(value):
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite_only(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite_only(v) for v in value]
    return value


def write(path: str, trace: Trace, findings: list[Finding]) -> None:
    write_text(path, json.dumps(report(trace, findings), indent=2) + "\n")
