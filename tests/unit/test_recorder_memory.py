"""The recorder holds no tensor alive and its record stays bounded over a long loop."""

from __future__ import annotations

import gc
import weakref

import pytest

torch = pytest.importorskip("torch")

from gradscope.recorder import Recorder  # noqa: E402


def _train(steps: int, model, optimizer, watched: list):
    for _ in range(steps):
        x = torch.randn(8, 4)
        watched.append(weakref.ref(x))
        out = model(x)
        watched.append(weakref.ref(out))
        loss = out.pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def test_no_tensor_kept_alive_and_record_bounded():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    recorder = Recorder()
    watched: list = []
    recorder.start()
    try:
        _train(20, model, optimizer, watched)
        gc.collect()
        live_after_warmup = len(recorder._live)
        leaves_after_warmup = len(recorder._leaves)
        _train(300, model, optimizer, watched)
        gc.collect()
    finally:
        recorder.stop()
    assert all(ref() is None for ref in watched), "a tensor outlived its step"
    assert len(recorder._live) <= live_after_warmup  # records follow the live graph
    assert len(recorder._leaves) == leaves_after_warmup  # the 6 parameters
    trace = recorder.to_trace(["loop"])
    assert len(trace.backward_calls) == 320
    assert trace.internal_errors == []


def test_records_of_a_freed_graph_go_with_it():
    recorder = Recorder()
    recorder.start()
    try:
        x = torch.randn(3, requires_grad=True)
        y = (x.exp() * 2).sum()
        assert len(recorder._live) == 3
        del y
        gc.collect()
    finally:
        recorder.stop()
    assert recorder._live == {}
