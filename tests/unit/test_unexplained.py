"""The general autograd-error rule: speaks on autograd's errors, stays out of the user's own."""

from __future__ import annotations

from gradscope.rules import unexplained
from gradscope.trace.locations import Site
from gradscope.trace.model import Node, TensorArg, Trace, UncaughtError

F = "/src/train.py"


def trace_with(error: UncaughtError) -> Trace:
    trace = Trace(argv=["train.py"])
    trace.nodes[1] = Node(1, "MulBackward0", "__mul__", Site(F, 5), seq=1, backwards_before=0)
    trace.error = error
    return trace


def test_a_config_key_named_gradient_is_not_an_autograd_error():
    trace = trace_with(UncaughtError("KeyError", "'gradient_clip_val'", Site(F, 9)))
    assert unexplained.check(trace, []) == []


def test_a_user_error_that_says_backward_is_not_an_autograd_error():
    trace = trace_with(UncaughtError("ValueError", "unknown backward schedule 'cosine'", Site(F, 9)))
    assert unexplained.check(trace, []) == []


def test_autograd_phrases_raised_outside_torch_still_count():
    trace = trace_with(UncaughtError("RuntimeError", "element 0 of tensors does not require grad and does not "
                                                     "have a grad_fn", Site(F, 9)))
    [finding] = unexplained.check(trace, [])
    assert finding.rule == "autograd-error"


def test_words_of_autograd_from_inside_torch_count():
    tensor = TensorArg(shape=(2,), requires_grad=True, is_leaf=False, leaf=None, base_leaf=None, node=1,
                       dtype="float32")
    trace = trace_with(UncaughtError("RuntimeError", "gradient for this op is not implemented", Site(F, 9),
                                     tensors=[tensor]))
    [finding] = unexplained.check(trace, [])
    assert (5, "created") in [(loc.line, loc.role) for loc in finding.locations]
