"""An autograd error that no specific rule explained: say what the record knows about it.

Never silence on a raised autograd error. For the error that ended the program, when no other
finding explains it: the tensors the failing frame held and where each was made (with the
user's frames), whether each requires grad, whether it was cut from the graph and by what (a
no_grad or inference_mode block, in the user's code or in a library's), and the backward call
or op that raised. No line is marked as the one to change unless one of those facts singles it
out; the text says what to check.
"""

from __future__ import annotations

import re

from ..trace.findings import Finding, Location
from ..trace.model import TensorArg, Trace
from . import _cuts
from ._words import leaf_words, node_words, shape_words, where

RULE_ID = "autograd-error"

# Words of torch's autograd errors (and of the errors autograd's users meet most).
_AUTOGRAD = re.compile(r"requires[_ ]grad|require grad|grad_fn|autograd|backward|gradient|inplace operation|leaf variable|"
                       r"saved tensor|saved for backward|inference tensor|version counter|\.grad\b", re.IGNORECASE)


def check(trace: Trace, findings: list[Finding]) -> list[Finding]:
    error = trace.error
    if error is None or any(f.details.get("uncaught") for f in findings):
        return []
    call = next((c for c in trace.backward_calls if c.index == error.backward_call), None) \
        if error.backward_call is not None else None
    failure = trace.op_failures[error.op_failure] if error.op_failure is not None else None
    tensors = list(error.tensors) or (failure.tensors if failure else []) or (call.outputs if call else [])
    # An autograd error: raised by a backward call, or saying so (not a shape or device error of
    # a forward op that merely had tensors requiring grad).
    if call is None and not _AUTOGRAD.search(f"{error.type}: {error.message}"):
        return []
    if call is None and not (trace.nodes or trace.leaves or trace.backward_calls):
        return []  # no autograd ran in this process (a launcher relaying its worker's error)

    finding = Finding(rule=RULE_ID, severity="error", title=f"Autograd error: {error.type}",
                      explanation="", fix="", details={"uncaught": True}, fix_basis="guess")
    facts = []
    for index, tensor in enumerate(tensors[:3]):
        facts.append(_tensor_facts(trace, finding, index, tensor))
    raised_at = call.site if call is not None else failure.site if failure is not None else error.site
    finding.add(Location.at(raised_at, "backward" if call is not None else "failed", "raises"))
    message = error.message.strip().splitlines()[0] if error.message.strip() else ""
    finding.explanation = (f"{error.type} at {where(raised_at)}: {message[:300]}"
                           + (" " + " ".join(facts) if facts else "")
                           + " gradscope has no specific explanation of this message; these are the recorded "
                             "facts about the tensors involved.")
    finding.fix = ("Check the lines above: where each tensor was made, and the grad mode it was made in. "
                   "A tensor made under no_grad/inference_mode, or cut by .detach()/.item(), has no graph; a "
                   "tensor changed in place after an op saved it breaks that op's backward.")
    return [finding]


def _tensor_facts(trace: Trace, finding: Finding, index: int, tensor: TensorArg) -> str:
    what = f"Tensor {index + 1} ({shape_words(tensor.shape, tensor.dtype or None)})"
    node, leaf = trace.node(tensor.node), trace.leaf(tensor.leaf if tensor.leaf is not None else tensor.base_leaf)
    cut = trace.cut(tensor.cut)
    if node is not None:
        finding.add(Location.at(node.site, "created", f"tensor {index + 1} made"))
        made = f"was made by {node_words(node)}"
    elif leaf is not None:
        finding.add(Location.at(leaf.site, "created", f"tensor {index + 1} made"))
        made = f"is {leaf_words(leaf)}" + (f", made at {where(leaf.site)}" if leaf.site else "")
    else:
        made = "was made where gradscope saw no graph"
    grad = "requires grad" if tensor.requires_grad else "does not require grad"
    text = f"{what} {made}; it {grad}"
    if tensor.inference:
        text += ", and is an inference tensor (made under torch.inference_mode())"
    if cut is not None:
        _cuts.name_cut(finding, trace, cut)
        text += f"; {_cuts.sentence(cut)}"
    return text + "."
