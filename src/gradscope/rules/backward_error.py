"""A backward call failed with an error no other rule explains: say what is known.

That is the node named in the message (or the graph's root) and the forward line that created
it, so even an unfamiliar autograd error points somewhere in the user's code.
"""

from __future__ import annotations

from ..trace.findings import Finding, Location
from ..trace.locations import Site, is_library_path
from ..trace.queries import project_files
from ..trace.source_search import function_applies, method_call_arguments, same_function, sibling_method
from ..trace.model import Trace
from ._words import call_words, node_words, uncaught_note, where
from .backward_failures import is_explained

RULE_ID = "backward-error"


def check(trace: Trace) -> list[Finding]:
    findings = []
    for call in trace.backward_calls:
        if call.error is None or call.version_failure is not None or call.freed_failures:
            continue
        if is_explained(call.error.message):
            continue
        node = trace.node(call.failed_node)
        finding = Finding(
            rule=RULE_ID, severity="error",
            title=f"Backward failed: {call.error.type}",
            explanation=(f"{call_words(call)} raised {call.error.type}: {call.error.message.splitlines()[0]}"
                         + (f" The failing part of the graph was created by {node_words(node)}." if node else "")),
            fix="gradscope has no specific advice for this error yet; the lines above are where to look.",
            details=uncaught_note(trace, call=call),
        )
        finding.add(Location.at(node.site if node else None, "created", "node created"))
        # (raised in the program's own code that the backward ran: a custom Function's backward, a hook)
        raised = trace.error.site if trace.error is not None and trace.error.backward_call == call.index else None
        if raised is not None and call.site is not None and (raised.path, raised.line) != (call.site.path, call.site.line) \
                and not is_library_path(raised.path):
            finding.add(Location.at(raised, "raises", "raised here, in code the backward ran"))
            finding.explanation += f" It was raised at {where(raised)}, in the program's code that the backward ran."
            _name_function_parts(trace, finding, raised)
        finding.add(Location.at(call.site, "backward", "backward fails here"))
        findings.append(finding)
    return findings


def _name_function_parts(trace: Trace, finding: Finding, raised) -> None:
    """Where the error was raised inside a custom Function's backward: what its forward saved
    (the values the backward computes with) and where the program applies it."""
    for name, defined in trace.functions.items():
        if defined is None or defined.path != raised.path or not same_function(raised.path, defined.line, raised.line):
            continue
        forward = sibling_method(defined.path, defined.line, "forward")
        for line, _ in (method_call_arguments(defined.path, forward, "save_for_backward") if forward else [])[:1]:
            finding.add(Location.at(Site(defined.path, line, "forward"), "saved", "what the backward computes with"))
        function = name.removesuffix("Backward")
        for path in project_files(trace):
            for line in function_applies(path, function)[:1]:
                if not any((loc.path, loc.line) == (path, line) for loc in finding.locations):
                    finding.add(Location.at(Site(path, line), "created", f"`{function}` applied"))
        return
