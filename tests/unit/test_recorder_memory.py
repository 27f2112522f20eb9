"""The recorder holds no tensor alive and its record stays bounded over a long loop."""

from __future__ import annotations

import gc
import weakref

import pytest

torch = pytest.importorskip("torch")

from gradscope.recorder import MAX_BACKWARD_CALLS, Recorder  # noqa: E402


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
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    recorder = Recorder(keep_backwards=3)
    watched: list = []
    recorder.start()
    try:
        _train(20, model, optimizer, watched)
        records_after_warmup = recorder.stats()["nodes"]
        _train(300, model, optimizer, watched)
        gc.collect()
    finally:
        recorder.stop()
    assert all(ref() is None for ref in watched), "a tensor outlived its step"
    nodes_per_step = records_after_warmup // 4  # the last 3 backward calls' graphs + the newest
    stats = recorder.stats()
    assert stats["nodes"] == records_after_warmup and nodes_per_step > 0
    assert 0 < stats["saved_storages"] <= stats["saved_tensors"]  # only what retained records saved
    assert stats["leaves"] == 4  # the parameters
    assert stats["module_calls"] <= 4 * 4  # Sequential + 3 children per step, 4 steps kept
    trace = recorder.to_trace(["loop"])
    assert len(trace.backward_calls) == MAX_BACKWARD_CALLS  # the most recent ones
    assert trace.backward_calls[-1].index == 319 and trace.meta["backward_calls"] == 320
    assert trace.internal_errors == []


def test_max_nodes_bounds_a_loop_without_backward():
    recorder = Recorder(max_nodes=500)
    recorder.start()
    try:
        w = torch.randn(3, requires_grad=True)
        for _ in range(2000):  # an evaluation loop under grad mode: no backward ever prunes by age
            (w * 2).sum()
    finally:
        recorder.stop()
    assert recorder.stats()["nodes"] <= 500


def test_gc_freeze_is_undone_at_stop():
    before = gc.get_freeze_count()
    recorder = Recorder()
    recorder.start()
    assert gc.get_freeze_count() > 0 or before > 0
    recorder.stop()
    assert gc.get_freeze_count() == before


def test_recording_resumes_after_an_optimizer_step_that_raised():
    recorder = Recorder()
    recorder.start()
    try:
        w = torch.randn(3, requires_grad=True)
        optimizer = torch.optim.SGD([w], lr=0.1)

        def closure():
            raise ValueError("closure failed")

        with pytest.raises(ValueError):
            optimizer.step(closure)
        before = recorder.stats()["nodes"]
        y = (w * 2).exp()
        assert recorder.stats()["nodes"] == before + 2  # mul and exp recorded again
        del y
    finally:
        recorder.stop()


def test_only_writes_to_saved_memory_are_logged():
    recorder = Recorder()
    recorder.start()
    try:
        x = torch.randn(4, requires_grad=True)
        y = x.exp()  # exp saves its result, y
        scratch = torch.zeros(4)
        scratch.add_(1)  # memory no backward needs: not logged
        with torch.no_grad():
            y.mul_(2)  # the saved result: logged
        optimizer = torch.optim.SGD([x], lr=0.1)
        x.grad = torch.ones(4)
        optimizer.step()  # x is not saved by any node: not logged
    finally:
        recorder.stop()
    assert [change.op for change in recorder.to_trace([]).inplace_changes] == ["mul_"]


def test_grad_flow_keeps_statistics_only_and_thins_long_runs():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    recorder = Recorder(grad_flow=(), flow_max_steps=8)
    watched: list = []
    recorder.start()
    try:
        _train(40, model, optimizer, watched)
        for _ in range(50):  # forward passes with grad on and no backward: nothing piles up
            model(torch.randn(8, 4))
        gc.collect()
    finally:
        recorder.stop()
    assert all(ref() is None for ref in watched)
    assert recorder.stats()["flow_pending"] == 0  # at most the last forward pass's statistics
    flow = recorder.to_trace(["loop"]).grad_flow
    assert len(flow.steps) <= 8 and flow.stride == 8
    assert flow.steps == sorted(flow.steps) and all(step % 8 == 0 for step in flow.steps)
    assert {s.name for s in flow.series} >= {"0.weight", "2.weight", "0", "1"}
    assert all(len(s.norms) == len(flow.steps) for s in flow.series)


def test_a_step_that_raises_holds_nothing_alive():
    """A closure step that raises never reaches the step's post-hook: what the step began with
    (the optimizer, its parameters, the ledger of its first steps) must not outlive the model."""
    recorder = Recorder()
    recorder.start()
    try:
        model = torch.nn.Linear(4, 1)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        watched = [weakref.ref(model.weight), weakref.ref(optimizer)]

        def closure():
            optimizer.zero_grad()
            model(torch.randn(2, 4)).sum().backward()
            raise ValueError("the data loader ran dry")

        with pytest.raises(ValueError):
            optimizer.step(closure)
        del model, optimizer, closure
        gc.collect()
        assert all(ref() is None for ref in watched), "a raised step kept the model alive"
    finally:
        recorder.stop()
    assert recorder.to_trace([]).internal_errors == []
