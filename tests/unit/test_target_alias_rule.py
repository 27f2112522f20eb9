"""target-is-online-network, on hand-built traces (no torch): one module object called under a
target's name and another name; the alias assignment is found in the source."""

from __future__ import annotations

import textwrap

from gradscope.trace.locations import Site
from gradscope.rules import silent
from gradscope.trace.model import ModuleCall, Trace

SOURCE = textwrap.dedent("""\
    class Agent:
        def __init__(self, net):
            self.policy_net = net
            self.target_net = self.policy_net

        def update(self, s, s2):
            q = self.policy_net(s)
            t = self.target_net(s2).max(1)[0].detach()
            return self.critic(s, self.actor(s))
    """)


def _trace(path, calls):
    trace = Trace(argv=[])
    for i, (module, line) in enumerate(calls, 1):
        trace.module_calls[i] = ModuleCall(i, "Sequential", "", site=Site(str(path), line, "update"), module=module)
    return trace


def test_one_object_under_a_target_name_is_named_with_its_alias_line(tmp_path):
    path = tmp_path / "agent.py"
    path.write_text(SOURCE)
    (finding,) = silent.target_is_online(_trace(path, [(1, 7), (1, 8)]))
    assert finding.rule == "target-is-online-network"
    assert [(loc.line, loc.role) for loc in finding.locations] == [(4, "alias"), (8, "target")]


def test_a_target_that_is_another_object_is_fine(tmp_path):
    path = tmp_path / "agent.py"
    path.write_text(SOURCE)
    assert silent.target_is_online(_trace(path, [(1, 7), (2, 8)])) == []


def test_a_line_with_two_calls_is_resolved_by_elimination(tmp_path):
    """`self.critic(s, self.actor(s))`: the actor's call there is the actor's (the critic's name
    is taken by the critic module, called alone elsewhere)."""
    path = tmp_path / "agent.py"
    path.write_text(SOURCE + "    def more(self, s):\n        return self.critic(s)\n")
    calls = [(5, 11), (5, 9), (6, 9)]  # critic alone at 11; critic and actor at 9
    assert silent.target_is_online(_trace(path, calls)) == []


def test_a_target_built_with_grad_on_names_the_line_that_finishes_it(tmp_path):
    """q = policy(s); t = r + g * target(s2) (no detach); mse(q, t): the line of `t` is where the
    target must be detached, found by walking down from the target call's nodes to the loss."""
    from gradscope.trace.model import Node

    path = tmp_path / "agent.py"
    path.write_text(SOURCE)
    trace = _trace(path, [(1, 7), (1, 8)])
    site = Site(str(path), 9, "update")

    def node(nid, name, call=None, inputs=(), line=None):
        trace.nodes[nid] = Node(nid, name, name.lower(), Site(str(path), line, "update") if line else site, nid, 0,
                                next_ids=list(inputs), module_call=call)

    node(1, "AddmmBackward0", call=1, line=7)  # the policy's output
    node(2, "AddmmBackward0", call=2, line=8)  # the target's output
    node(3, "MulBackward0", inputs=[2], line=8)
    node(4, "AddBackward0", inputs=[3], line=9)  # t = r + g * ...: the line to fix
    node(5, "MseLossBackward0", inputs=[1, 4], line=9)
    (finding,) = silent.target_is_online(trace)
    assert [(loc.line, loc.role) for loc in finding.locations] == [(9, "fix"), (4, "alias"), (8, "target")]
    assert ".detach()` it at agent.py:9" in finding.fix
