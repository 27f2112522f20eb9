"""Locations with their callers (locations.capture_stack): which frames are kept, how many, and
that a function's callers are found through torch's own frames (a module's forward)."""

from __future__ import annotations

import textwrap

from gradscope.trace.locations import MAX_CALLERS
from tests.harness import record

DEEP = textwrap.dedent("""\
    import torch

    def nest(depth, w):
        if depth == 0:
            loss = (w * 2).sum()
            loss.backward()
            loss.backward()  # line 7: the second backward
        return nest(depth - 1, w)

    class Model(torch.nn.Module):
        def forward(self, w):
            return nest(DEPTH, w)

    DEPTH = int(__import__("sys").argv[1])
    Model()(torch.ones(2, requires_grad=True))  # line 15
""")


CARRIED = textwrap.dedent("""\
    import torch
    import torch.nn as nn

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = nn.RNN(2, 4, batch_first=True)

        def forward(self, x, h):
            out, h = self.rnn(x, h)  # line 10
            return out, h

    model = Model()
    h = torch.zeros(1, 1, 4)
    for step in range(3):
        out, h = model(torch.randn(1, 5, 2), h)  # line 16: carries h without detach
        out.pow(2).mean().backward()
""")


def test_a_node_is_reached_through_the_module_call_it_was_made_in(tmp_path):
    # The node's own capture (per op) has no callers; its module call's (per call) does.
    script = tmp_path / "carried.py"
    script.write_text(CARRIED)
    (finding,) = record(script).report()["findings"]
    stacks = {loc["role"]: [(f["line"], f["function"]) for f in loc["stack"]] for loc in finding["locations"]}
    assert stacks["created"] == [(16, "<module>"), (10, "forward")]
    assert stacks["backward"] == [(17, "<module>")]
    # The frame where the fix belongs, named on its own: the loop's call that feeds h back in.
    assert stacks["carried"] == [(16, "<module>")]
    assert "before the call at carried.py:16" in finding["fix"]


def _backward_stack(tmp_path, depth):
    script = tmp_path / "deep.py"
    script.write_text(DEEP)
    run = record(script, str(depth))
    (location,) = [loc for loc in run.report()["findings"][0]["locations"] if loc["role"] == "backward"]
    return [(frame["line"], frame["function"]) for frame in location["stack"]]


def test_callers_pass_through_torch_frames_to_the_program(tmp_path):
    # <module> calls the Model, torch's Module.__call__ calls forward: torch's frames are left out.
    assert _backward_stack(tmp_path, 1) == [(15, "<module>"), (12, "forward"), (8, "nest"), (7, "nest")]


def test_a_deep_stack_keeps_the_innermost_frames(tmp_path):
    stack = _backward_stack(tmp_path, 20)
    assert len(stack) == MAX_CALLERS + 1
    assert stack[-1] == (7, "nest") and all(frame == (8, "nest") for frame in stack[:-1])
