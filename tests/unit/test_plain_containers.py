"""Layers in a plain list or dict: the finding names the attribute, the lines that fill it
(source_search, by parsing the class's file) and the parameters by where they are."""

from __future__ import annotations

import textwrap

import torch
import torch.nn as nn

from gradscope.trace.source_search import attribute_writes
from tests.harness import record


def test_attribute_writes_finds_assignments_and_in_place_fills(tmp_path):
    path = tmp_path / "model.py"
    path.write_text(textwrap.dedent("""\
        class Net:
            def __init__(self):
                self.layers = []
                for i in range(2):
                    self.layers.append(i)
                self.other = []
                self.heads = {}

            def add(self, name):
                self.heads[name] = 1
                self.heads.update(x=2)

        class Other:
            def __init__(self):
                self.layers = None
        """))
    assert attribute_writes(str(path), "Net", "layers") == [(3, "__init__"), (5, "__init__")]
    assert attribute_writes(str(path), "Net", "heads") == [(7, "__init__"), (10, "add"), (11, "add")]
    assert attribute_writes(str(path), "Net", "missing") == []
    assert attribute_writes(str(tmp_path / "absent.py"), "Net", "layers") == []


class Experts(nn.Module):
    def __init__(self):
        super().__init__()
        self.gate = nn.Linear(3, 2)
        self.experts = {"a": nn.Linear(3, 1), "b": nn.Linear(3, 1)}

    def forward(self, x):
        w = self.gate(x).softmax(-1)
        return w[:, :1] * self.experts["a"](x) + w[:, 1:] * self.experts["b"](x)


def test_layers_in_a_plain_dict_inside_a_model_are_named_by_path():
    def program():
        model = nn.Sequential(Experts())
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(2):
            opt.zero_grad()
            model(torch.randn(4, 3)).sum().backward()
            opt.step()

    run = record(program)  # the model dies before the end of the run: found at the step
    (finding,) = run.findings
    assert finding.rule == "parameter-not-in-optimizer"
    hazard = run.trace.grad_hazards[0]
    assert (hazard.container, hazard.container_kind) == ("Experts.experts", "dict")
    assert [s.line for s in hazard.container_sites] == [Experts.__init__.__code__.co_firstlineno + 3]
    names = sorted(run.trace.leaf(lid).name for lid in hazard.leaves)
    assert names == ["0.experts['a'].bias", "0.experts['a'].weight", "0.experts['b'].bias", "0.experts['b'].weight"]
    assert "nn.ModuleDict" in finding.fix


def test_a_layer_built_in_forward_is_named_and_lazy_layers_are_not():
    class Head(nn.Module):
        def __init__(self):
            super().__init__()
            self.lazy = nn.LazyLinear(4)  # materialized in its first forward: not a new layer

        def forward(self, x):
            return nn.Linear(4, 1)(self.lazy(x))

    def program():
        model = Head()
        for _ in range(2):
            model(torch.randn(2, 3)).sum().backward()

    run = record(program)
    assert [f.rule for f in run.findings] == ["layer-built-in-forward"]
    (built,) = run.trace.built_in_forward
    assert (built.module_type, built.inside) == ("Linear", "Head")


class Relations(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = {}
        for rel in range(2):
            self.weights[rel] = {"w": nn.Parameter(torch.ones(1))}
        self.out = nn.Linear(3, 1)

    def forward(self, x):
        return self.out(x) * sum(self.weights[rel]["w"] for rel in range(2))


def test_parameters_in_a_plain_dict_are_named_too():
    def program():
        model = Relations()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(2):
            opt.zero_grad()
            model(torch.randn(4, 3)).sum().backward()
            opt.step()
        return model

    run = record(program)
    (finding,) = run.findings
    hazard = run.trace.grad_hazards[0]
    assert hazard.container == "Relations.weights"
    assert sorted(run.trace.leaf(lid).name for lid in hazard.leaves) == ["weights[0]['w']", "weights[1]['w']"]


def test_parameters_an_optimizer_since_gone_stepped_are_not_strays():
    # Two training runs one after the other: the first run's optimizer dies and the second one
    # may get its id; the first model's parameters (still alive, with .grad) were stepped.
    def train(model):
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(2):
            optimizer.zero_grad()
            model(torch.randn(2, 3)).sum().backward()
            optimizer.step()

    def program():
        first, second = nn.Linear(3, 1), nn.Linear(3, 1)
        train(first)
        train(second)

    run = record(program)
    assert "parameter-not-in-optimizer" not in [f.rule for f in run.findings]
