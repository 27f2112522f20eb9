"""An autograd error that no specific rule explained: say what the record knows about it.

Never silence on a raised autograd error. For the error that ended the program, when no other
finding explains it: the tensors the failing frame held and where each was made (with the
user's frames), whether each requires grad, whether it was cut from the graph and by what (a
no_grad or inference_mode block, in the user's code or in a library's), and the backward call
or op that raised. No line is marked as the one to change unless one of those facts singles it
out (a tensor the error is about was cut from the graph: the cut's own fix site, shown as a
guess); the text says what to check.
"""

from __future__ import annotations

import re

from ..trace.findings import Finding, Location
from ..trace.model import TensorArg, Trace
from . import _cuts
from ._words import leaf_words, node_words, shape_words, where

RULE_ID = "autograd-error"

# Words of torch's autograd errors (and of the errors autograd's users meet most), for an error
# raised inside torch (an op that failed, tensors in the raising frame).
_AUTOGRAD = re.compile(r"requires[_ ]grad|require grad|grad_fn|autograd|backward|gradient|inplace operation|leaf variable|"
                       r"saved tensor|saved for backward|inference tensor|version counter|\.grad\b", re.IGNORECASE)
# Phrases only torch's autograd writes, for an error raised elsewhere: "gradient" or "backward"
# alone also name a user's config key (`KeyError: 'gradient_clip'`), which is no autograd error.
_AUTOGRAD_PHRASES = re.compile(r"does not require grad|requires_grad|grad_fn|inplace operation|leaf variable|"
                               r"saved tensors?|inference tensor|version counter|backward through the graph",
                               re.IGNORECASE)
_NOT_AUTOGRAD = {"KeyError", "AttributeError", "NameError", "ImportError", "ModuleNotFoundError",
                 "FileNotFoundError", "IndexError", "SyntaxError", "AssertionError"}


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
    if call is None and not _is_autograd_error(error.type, error.message, raised_in_torch=bool(failure or tensors)):
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


def _is_autograd_error(kind: str, message: str, raised_in_torch: bool) -> bool:
    """Whether an error that no backward call raised is autograd's: its words, from inside
    torch; torch's own phrases, from anywhere (torch code in Python raises some of them); never a
    lookup or import error of the user's own code."""
    if kind in _NOT_AUTOGRAD:
        return False
    return bool((_AUTOGRAD if raised_in_torch else _AUTOGRAD_PHRASES).search(message))


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
