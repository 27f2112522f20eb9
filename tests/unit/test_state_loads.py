"""recorder/state_loads.py: the load_state_dict calls that copy a module's own tensors onto
themselves are recorded; real loads, and state dicts that are not plain dicts, are not."""

from __future__ import annotations

import copy
from collections import OrderedDict

import torch
import torch.nn as nn

from tests.harness import record


class Mapping(OrderedDict):
    """A state dict of the program's own class: its methods could be the program's code."""


def test_a_load_of_the_modules_own_tensors_is_recorded_and_a_real_load_is_not():
    def program():
        model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
        kept, saved = model.state_dict(), copy.deepcopy(model.state_dict())
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        model(torch.randn(4, 2)).sum().backward()
        optimizer.step()
        model.load_state_dict(kept)  # the same memory: a no-op
        model.load_state_dict(saved)  # a copy: a real load
        model.load_state_dict(Mapping(kept))  # not a plain dict: left alone
        return model

    run = record(program)
    (load,) = run.trace.state_loads
    assert load.module_type == "Sequential" and load.steps_before == 1 and load.tensors == 7
    assert load.site.code.strip() == "model.load_state_dict(kept)  # the same memory: a no-op"
    assert [f.rule for f in run.findings] == ["load-state-dict-no-op"]


def test_the_wrapper_is_torchs_own_again_after_the_recording():
    original = nn.Module.load_state_dict
    record(lambda: nn.Linear(2, 2).load_state_dict(nn.Linear(2, 2).state_dict()))
    assert nn.Module.load_state_dict is original
