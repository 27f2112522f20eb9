"""loss-term-without-gradient: a cut term summed into the loss, and the sums that are meant."""

from __future__ import annotations

import torch
import torch.nn as nn

from tests.harness import record


def _rules(program):
    return [f.rule for f in record(program).findings]


def test_a_term_rebuilt_with_torch_tensor_is_named():
    def program():
        model = nn.Linear(3, 1)
        for _ in range(2):
            main = model(torch.randn(4, 3)).pow(2).mean()
            aux = torch.tensor([model.weight.abs().sum(), model.bias.abs().sum()]).sum()
            (main + 0.1 * aux).backward()

    assert _rules(program) == ["loss-term-without-gradient"]


def test_a_detached_target_inside_a_squared_error_is_meant():
    def program():
        value = nn.Linear(3, 1)
        for _ in range(2):
            s, s2 = torch.randn(3), torch.randn(3)
            td_error = 1.0 + 0.9 * value(s2).squeeze().detach() - value(s).squeeze()
            (td_error ** 2).backward()

    assert _rules(program) == []


def test_a_logged_value_that_is_not_added_is_fine():
    def program():
        model = nn.Linear(3, 1)
        log = []
        loss = model(torch.randn(4, 3)).pow(2).mean()
        log.append(loss.detach() + 0.0)
        loss.backward()

    assert _rules(program) == []


def test_a_freeze_undone_before_training_and_a_gradual_unfreeze():
    def program(unfreeze_after_training):
        model = nn.Sequential(nn.Linear(3, 3), nn.Linear(3, 1))
        model[0].requires_grad_(False)
        if unfreeze_after_training:
            model(torch.randn(2, 3)).sum().backward()  # trains the head first: a gradual unfreeze
        model[0].requires_grad_(True)
        model(torch.randn(2, 3)).sum().backward()
        return model

    assert [f.rule for f in record(lambda: program(False)).findings] == ["freeze-undone"]
    assert [f.rule for f in record(lambda: program(True)).findings] == []


def test_a_term_added_as_a_python_number_is_named():
    # `.item()` (or `.detach().item()`) of a term that had a graph, added to the loss as a float
    def program(detach_first):
        model = nn.Linear(3, 1)
        for _ in range(2):
            main = model(torch.randn(4, 3)).pow(2).mean()
            aux = model.weight.abs().sum()
            number = aux.detach().item() if detach_first else aux.item()
            (main + number).backward()

    for detach_first in (False, True):
        run = record(lambda: program(detach_first))
        assert [f.rule for f in run.findings] == ["loss-term-without-gradient"]
        assert "is a Python number" in run.findings[0].explanation


def test_a_logged_number_and_a_python_constant_are_fine():
    def program():
        model = nn.Linear(3, 1)
        log = []
        for _ in range(2):
            loss = model(torch.randn(4, 3)).pow(2).mean()
            log.append(loss.item())
            (loss + 1.0 + float(len(log))).backward()
            log.append(log[-1] + 1.0)

    assert _rules(program) == []


class Thresholded(nn.Module):
    def __init__(self, cut_at=None):
        super().__init__()
        self.cut_at = cut_at

    def forward(self, x):
        if self.cut_at is not None:
            return (x > self.cut_at).float().mean()
        return x.mean()


def test_the_constructor_option_that_takes_the_cutting_path_is_named():
    def program():
        model, loss_fn = nn.Linear(3, 1), Thresholded(cut_at=0.5)
        loss_fn(torch.sigmoid(model(torch.randn(4, 3)))).backward()

    run = record(program)
    (finding,) = run.findings
    setting = [loc for loc in finding.locations if loc.role == "setting"]
    assert [loc.code.strip() for loc in setting] == ["model, loss_fn = nn.Linear(3, 1), Thresholded(cut_at=0.5)"]
    assert "`cut_at=0.5`" in finding.fix
