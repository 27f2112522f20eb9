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

from ..analyses.modes import mode_set_in, root_call_site
from ..trace.findings import Finding, Location
from ..trace.locations import Site
from ..trace.model import MODE_DEPENDENT, ModuleCall, TensorArg, Trace
from ..trace.queries import user_files
from ..trace.source_search import calls_named
from . import _cuts
from ._words import leaf_words, node_words, shape_words, where

RULE_ID = "autograd-error"

# Words of torch's autograd errors (and of the errors autograd's users meet most), for an error
# raised inside torch (an op that failed, tensors in the raising frame).
_AUTOGRAD = re.compile(r"requires[_ ]grad|require grad|grad_fn|autograd|backward|gradient|inplace operation|leaf variable|"
                       r"saved tensor|saved for backward|inference tensor|version counter|\.grad\b|"
                       r"\(vjp, jvp|functorch|torch\.func", re.IGNORECASE)
# Phrases only torch's autograd writes, for an error raised elsewhere: "gradient" or "backward"
# alone also name a user's config key (`KeyError: 'gradient_clip'`), which is no autograd error.
_AUTOGRAD_PHRASES = re.compile(r"does not require grad|requires_grad|grad_fn|inplace operation|leaf variable|"
                               r"saved tensors?|inference tensor|version counter|backward through the graph|"
                               r"grad \(vjp, jvp, grad, etc\) transform",
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
    module = trace.module_calls.get(failure.module_call) if failure is not None and failure.module_call is not None else None
    if module is not None:
        facts.append(_module_facts(trace, finding, module))
    message = error.message.strip().splitlines()[0] if error.message.strip() else ""
    finding.explanation = (f"{error.type} at {where(raised_at)}: {message[:300]}"
                           + (" " + " ".join(facts) if facts else "")
                           + " gradscope has no specific explanation of this message; these are the recorded "
                             "facts about the tensors involved.")
    finding.fix = (("The op that raised is a layer's own: check the layer chosen where it was built, and the mode it "
                    "ran in. " if module is not None else "")
                   + "Check the lines above: where each tensor was made, and the grad mode it was made in. "
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


def _module_facts(trace: Trace, finding: Finding, call: ModuleCall) -> str:
    """The module whose forward ran the failing op: where it was built, and, for a layer that
    computes differently in train and eval mode, the mode it ran in and where that was set."""
    name = f"`{call.name}` ({call.type})" if call.name else call.type
    text = f"The op ran in the forward of {name}"
    # (the program's only call of its class, when that is not the line that stored it: a
    # registry entry `"batch": lambda c: nn.BatchNorm2d(c)`, which the stored value came from)
    made = [Site(path, line) for path in user_files(trace)[:24] for line in calls_named(path, call.type)]
    built = made[0] if len(made) == 1 and call.registered_at is not None \
        and (made[0].path, made[0].line) != (call.registered_at.path, call.registered_at.line) else None
    if built is not None:
        finding.add(Location.at(built, "built", f"makes the {call.type} whose forward raised"))
    if call.registered_at is not None:
        finding.add(Location.at(call.registered_at, "built", f"puts the {call.type} whose forward raised into "
                                                             "its model" if built else
                                                             f"builds the {call.type} whose forward raised"))
        text += f", built at {where(built or call.registered_at)}"
    if call.training is not None and call.type.startswith(MODE_DEPENDENT):
        mode = "train" if call.training else "eval"
        text += (f"; it ran in {mode} mode, in which a {call.type} "
                 + ("updates its running statistics in place" if call.training and "Norm" in call.type
                    else "computes differently"))
        for setter in mode_set_in(root_call_site(trace, call.id), call.training)[:1]:
            finding.add(Location.at(setter, "mode", f"sets {mode} mode"))
            text += f" (set at {where(setter)})"
    return text + "."


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
