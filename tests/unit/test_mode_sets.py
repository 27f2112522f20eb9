"""The recording of `.train()` / `.eval()` calls: what the program's calls do is unchanged, and
torch's own `Module.train` is back when the recording ends."""

from __future__ import annotations

import torch
from torch import nn

import gradscope

ORIGINAL_TRAIN = nn.Module.train


class KeepsNormInEval(nn.Module):
    """A model whose own train() keeps its batch norm in eval mode (the recipe done right)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.norm = nn.BatchNorm2d(4)
        self.calls = 0

    def train(self, mode=True):
        self.calls += 1
        super().train(mode)
        self.norm.eval()
        return self

    def forward(self, x):
        return self.norm(self.conv(x))


def test_train_calls_are_recorded_and_behave_as_without_gradscope():
    model = KeepsNormInEval()
    with gradscope.record() as rec:
        assert model.train() is model
        model(torch.randn(2, 3, 6, 6)).sum().backward()
    assert nn.Module.train is ORIGINAL_TRAIN
    assert model.training and not model.norm.training and model.conv.training and model.calls == 1
    sets = [(s.module_type, s.training) for s in rec.trace.mode_sets]
    assert sets == [("KeepsNormInEval", True), ("BatchNorm2d", False)]
    assert [f.rule for f in rec.findings if f.rule == "eval-undone-by-train"] == []


def test_an_eval_undone_before_any_forward_is_recorded_as_undone():
    model = nn.Sequential(nn.Linear(3, 3), nn.Dropout(0.5))
    with gradscope.record() as rec:
        model[1].eval()
        model.train()
        model(torch.randn(2, 3)).sum().backward()
    (evaled, trained) = rec.trace.mode_sets
    assert (evaled.module, evaled.training) == ("1", False)
    assert trained.undid == [(0, False)]


def test_the_wrapper_looks_like_torchs_and_stops_with_the_recording():
    import pickle

    with gradscope.record():
        wrapper = nn.Module.train
        assert wrapper is not ORIGINAL_TRAIN and pickle.loads(pickle.dumps(wrapper)) is wrapper  # (found by name)
        assert wrapper.__name__ == "train" and wrapper.__wrapped__ is ORIGINAL_TRAIN
    assert nn.Module.train is ORIGINAL_TRAIN
    module = nn.Linear(2, 2)
    wrapper(module, False)  # (a reference the program kept: works, records nothing)
    assert not module.training
