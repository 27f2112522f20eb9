"""module-requires-grad-attribute: a module with a `requires_grad` attribute of its own is found
at the first steps and at the end (recorder/modules.py, scan_flags: nothing is installed on
nn.Module, which torch.compile would see), and the line that set it is found in the source."""

from __future__ import annotations

import pytest
import torch
import torch.nn as nn

from tests.harness import record


def _train(model, steps=2):
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1)
    for _ in range(steps):
        opt.zero_grad()
        model(torch.randn(2, 3)).sum().backward()
        opt.step()


def test_a_module_flag_that_freezes_nothing_is_named_with_its_parameters():
    def program():
        model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
        model[0].requires_grad = False
        _train(model)
        return model  # alive at the end of the run: its parameters are looked at then

    run = record(program)
    assert [f.rule for f in run.findings] == ["module-requires-grad-attribute"]
    fix = run.findings[0].locations[0]
    assert (fix.role, fix.code.strip()) == ("fix", "model[0].requires_grad = False")
    flag = run.trace.module_flags[0]
    assert (flag.module, flag.module_type, flag.value) == ("0", "Linear", False)
    assert sorted(run.trace.leaf(lid).name for lid in flag.trainable) == ["0.bias", "0.weight"]


def test_quiet_when_the_parameters_are_frozen_as_well():
    def program():
        model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
        model[0].requires_grad = False  # harmless: the next line freezes them
        model[0].requires_grad_(False)
        _train(model)
        return model

    assert record(program).findings == []


def _attribute_behaviour():
    """What a program can see of the attribute: values, errors, vars, dir, class access."""
    seen = []
    m = nn.Linear(2, 2)
    try:
        m.requires_grad
    except AttributeError as exc:
        seen.append(("unset", str(exc)))
    seen.append(("hasattr", hasattr(m, "requires_grad"), hasattr(nn.Linear, "requires_grad")))
    m.requires_grad = False
    seen.append(("set", m.requires_grad, vars(m).get("requires_grad"), m.weight.requires_grad))
    del m.requires_grad
    try:
        del m.requires_grad
    except AttributeError as exc:
        seen.append(("del twice", type(exc).__name__))

    class Own(nn.Module):
        requires_grad = "class value"

    own = Own()
    seen.append(("subclass", own.requires_grad))
    own.requires_grad = 3
    seen.append(("subclass set", own.requires_grad, vars(own)["requires_grad"]))
    m.requires_grad = nn.Parameter(torch.ones(1))  # a parameter by that name: registered as one
    seen.append(("parameter", "requires_grad" in m._parameters, type(m.requires_grad).__name__))
    return seen


def test_the_attribute_behaves_as_without_gradscope():
    plain = _attribute_behaviour()
    run = record(_attribute_behaviour)
    assert run.value == plain
    assert "requires_grad" not in vars(nn.Module)


@pytest.mark.parametrize("value", [True, 0, None])
def test_other_values_are_not_named(value):
    def program():
        model = nn.Linear(3, 1)
        model.requires_grad = value
        _train(model)
        return model

    assert record(program).findings == []
