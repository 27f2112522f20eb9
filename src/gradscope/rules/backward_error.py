"""A backward call failed with an error no other rule explains: say what is known.

That is the node named in the message (or the graph's root) and the forward line that created
it, so even an unfamiliar autograd error points somewhere in the user's code.
"""

from __future__ import annotations

from ..trace.findings import Finding, Location
from ..trace.model import Trace
from ._words import call_words, node_words, uncaught_note
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
        finding.add(Location.at(call.site, "backward", "backward fails here"))
        findings.append(finding)
    return findings
