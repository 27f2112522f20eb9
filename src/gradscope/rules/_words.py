"""Shared wording for rules: how to name ops, tensors and calls in a sentence."""

from __future__ import annotations

from ..trace.model import BackwardCall, Leaf, Node, Trace
from ..trace.wording import op_plain, where

# In-place ops that users reach through an activation's inplace=True flag.
ACTIVATIONS = {"relu", "relu_", "leaky_relu", "leaky_relu_", "hardtanh", "hardtanh_", "elu", "elu_",
               "selu", "selu_", "celu", "celu_", "relu6", "threshold", "threshold_", "rrelu", "rrelu_",
               "silu", "mish", "hardswish", "hardsigmoid", "dropout", "alpha_dropout"}


def op_words(op: str) -> str:
    return f"`{op_plain(op)}`"


def shape_words(shape, dtype: str | None = None) -> str:
    dims = "[" + ", ".join(str(d) for d in shape) + "]"
    return f"{dtype} {dims}" if dtype else dims


def leaf_words(leaf: Leaf | None) -> str:
    if leaf is None:
        return "a leaf tensor that requires grad"
    if leaf.name:
        return f"parameter `{leaf.name}` ({shape_words(leaf.shape, leaf.dtype)})"
    if leaf.owner:
        return f"parameter `{leaf.owner}` ({shape_words(leaf.shape, leaf.dtype)})"
    return f"leaf tensor {shape_words(leaf.shape, leaf.dtype)} (requires_grad=True)"


def node_words(node: Node | None) -> str:
    if node is None:
        return "an autograd node gradscope did not see being created"
    return f"{op_words(node.op)} ({node.name}) at {where(node.site)}"


def call_words(call: BackwardCall | None) -> str:
    if call is None:
        return "an earlier backward call"
    api = {"Tensor.backward": ".backward()", "torch.autograd.backward": "torch.autograd.backward()",
           "torch.autograd.grad": "torch.autograd.grad()"}.get(call.api, call.api)
    return f"{api} at {where(call.site)} (backward call #{call.index + 1})"


def backward_call(trace: Trace, index: int | None) -> BackwardCall | None:
    if index is None:
        return None
    for call in trace.backward_calls:
        if call.index == index:
            return call
    return None


def uncaught_note(trace: Trace, *, call: BackwardCall | None = None, failure_index: int | None = None) -> dict:
    """Whether this failure is the one that ended the program."""
    error = trace.error
    if error is None:
        return {"uncaught": False}
    if call is not None:
        return {"uncaught": error.backward_call == call.index}
    return {"uncaught": failure_index is not None and error.op_failure == failure_index}
