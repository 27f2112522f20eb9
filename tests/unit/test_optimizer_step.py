"""An optimizer step runs with the recording mode off the torch-function stack (recorder/optim.py,
StepAside): what it still records, and that the mode comes back on every path, including steps
that raise, steps inside backward, nested steps and steps with a closure; and the per-step
gradient checks (non-finite flags read a step later, gradient reads of library code)."""

from __future__ import annotations

import pytest
import torch
import torch.nn as nn

from tests.harness import record

stack_depth = torch._C._len_torch_function_stack


class Exploding(torch.optim.SGD):
    """A step that raises after the pre-hooks ran (so its post-hooks never run)."""

    def step(self, closure=None):
        raise RuntimeError("step failed")


def _forward_backward(model, n=2):
    model(torch.randn(n, 3)).sum().backward()


def test_the_mode_is_off_during_a_step_and_back_after_it():
    depths = []

    def program():
        model = nn.Linear(3, 1)
        opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        opt.register_step_pre_hook(lambda *_: depths.append(stack_depth()))
        _forward_backward(model)
        opt.step()
        depths.append(stack_depth())
        _forward_backward(model)  # recorded as before the step
        opt.step()

    run = record(program)
    assert run.outcome.exception is None
    assert depths == [0, 1, 0]
    assert [call.api for call in run.trace.backward_calls] == ["Tensor.backward"] * 2
    assert sum(node.name == "AddmmBackward0" for node in run.trace.nodes.values()) == 2
    assert run.trace.internal_errors == []


def test_a_step_that_writes_saved_parameters_is_still_one_change_per_parameter():
    def program():
        model = nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 1))
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        model(torch.randn(2, 3)).sum().backward()
        loss = model(torch.randn(2, 3)).sum()
        opt.step()  # writes the second layer's weight, which the graph of `loss` saved
        loss.backward()

    run = record(program)
    steps = [c for c in run.trace.inplace_changes if c.op == "SGD.step"]
    assert [run.trace.leaves[c.leaf].name for c in steps] == ["1.weight"]
    assert steps[0].via.startswith("torch/optim/optimizer.py")
    (finding,) = run.findings
    assert ("modified", steps[0].site.line) in [(loc.role, loc.line) for loc in finding.locations]


def test_a_step_that_raised_gives_the_mode_back_at_the_next_module_call():
    def program():
        model = nn.Linear(3, 1)
        opt = Exploding(model.parameters(), lr=0.1)
        _forward_backward(model)
        try:
            opt.step()
        except RuntimeError:
            pass
        aside = stack_depth()
        _forward_backward(model)
        return aside, stack_depth()

    run = record(program)
    assert run.value == (0, 1)
    assert sum(node.name == "AddmmBackward0" for node in run.trace.nodes.values()) == 2
    assert len(run.trace.backward_calls) == 2
    assert run.trace.internal_errors == []


def test_a_step_that_raised_gives_the_mode_back_at_the_next_step():
    def program():
        weight = torch.ones(3, requires_grad=True)
        failing, working = Exploding([weight], lr=0.1), torch.optim.SGD([weight], lr=0.1)
        (weight * 2).sum().backward()
        try:
            failing.step()
        except RuntimeError:
            pass
        working.step()
        (weight * 3).sum().backward()
        return stack_depth()

    run = record(program)
    assert run.value == 1
    assert [node.op for node in run.trace.nodes.values() if node.op == "mul"] == ["mul", "mul"]


def test_a_run_that_ends_inside_a_step_leaves_the_stack_as_it_found_it():
    def program():
        model = nn.Linear(3, 1)
        opt = Exploding(model.parameters(), lr=0.1)
        _forward_backward(model)
        opt.step()

    before = stack_depth()
    run = record(program)
    assert str(run.outcome.exception) == "step failed"
    assert stack_depth() == before
    assert run.trace.internal_errors == []


def test_a_closure_step_records_the_closure_forward():
    def program():
        model = nn.Linear(3, 1)
        opt = torch.optim.LBFGS(model.parameters(), max_iter=2)
        x = torch.randn(4, 3)

        def closure():
            opt.zero_grad()
            loss = model(x).pow(2).mean()
            loss.backward()
            return loss

        opt.step(closure)
        return stack_depth()

    run = record(program)
    assert run.value == 1
    assert any(node.op == "linear" and node.site and node.site.function == "closure" for node in run.trace.nodes.values())


def test_steps_inside_backward_and_nested_steps_compute_what_python_computes():
    def program():
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 1))
        per_param = {p: torch.optim.Adam([p], lr=0.1) for p in model[0].parameters()}
        for p in model[0].parameters():  # optimizer in backward: steps run inside the engine
            p.register_post_accumulate_grad_hook(lambda p: per_param[p].step() or per_param[p].zero_grad())

        class Outer(torch.optim.SGD):  # a step that runs another optimizer's step inside it
            def step(self, closure=None):
                inner.step()
                return super().step(closure)

        inner = torch.optim.SGD(model[1].parameters(), lr=0.01)
        outer = Outer(model[1].parameters(), lr=0.01)
        for _ in range(3):
            _forward_backward(model, 5)
            outer.step()
        return [p.detach().clone() for p in model.parameters()], stack_depth()

    plain_params, _ = program()
    run = record(program)
    params, depth = run.value
    assert depth == 1
    assert all(torch.equal(a, b) for a, b in zip(params, plain_params))
    assert len(run.trace.backward_calls) == 3
    assert run.trace.internal_errors == []


def test_gradient_reads_are_cuts_in_user_code_only():
    def program():
        w = torch.ones(3, requires_grad=True)
        (w * 2).sum().backward()
        torch.nn.utils.clip_grad_norm_([w], 1.0)  # reads w.grad inside torch: not a cut
        penalty = w.grad.pow(2).sum()  # the user's read: the cut the explanation names
        penalty.backward()

    run = record(program)
    (cut,) = run.trace.cuts.values()
    assert cut.op == "__get__:grad" and cut.site.code == "penalty = w.grad.pow(2).sum()  # the user's read: the cut the explanation names"
    assert [f.rule for f in run.findings] == ["backward-without-graph"]


def _nan_at_step(nan_step: int, steps: int, params):
    def program():
        opt = torch.optim.SGD(params(), lr=0.0)  # lr 0: the parameters stay finite
        for step in range(1, steps + 1):
            opt.zero_grad()
            loss = sum((p.abs() if p.is_complex() else p).sum() for p in opt.param_groups[0]["params"])
            if step == nan_step:
                loss = loss * float("nan")
            loss.backward()
            opt.step()
    return record(program)


@pytest.mark.parametrize("nan_step, steps", [(3, 5), (5, 5)])
def test_non_finite_gradients_are_read_a_step_later_and_keep_their_step(nan_step, steps):
    # The step's flags are read at the next step (or at the end: the last step's case).
    run = _nan_at_step(nan_step, steps, lambda: [nn.Parameter(torch.ones(3)), nn.Parameter(torch.ones(2))])
    (hazard,) = [h for h in run.trace.grad_hazards if h.kind == "nonfinite"]
    assert hazard.step == nan_step and len(hazard.leaves) == 2
    assert [f.rule for f in run.findings] == ["nonfinite-gradient"]
    assert run.trace.internal_errors == []


def test_non_finite_check_takes_every_gradient_dtype():
    run = _nan_at_step(2, 3, lambda: [nn.Parameter(torch.ones(3, dtype=torch.float64)),
                                      nn.Parameter(torch.ones(3, dtype=torch.bfloat16)),
                                      nn.Parameter(torch.ones(2, dtype=torch.complex64))])
    (hazard,) = [h for h in run.trace.grad_hazards if h.kind == "nonfinite"]
    assert hazard.step == 2 and len(hazard.leaves) == 3
    assert run.trace.internal_errors == []


@pytest.mark.parametrize("call", ["step()", "step(None)", "step(closure=None)"])
def test_a_step_without_closure_takes_the_mode_aside_however_it_is_called(call):
    depths = []

    def program():
        model = nn.Linear(3, 1)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        opt.register_step_pre_hook(lambda *_: depths.append(stack_depth()))
        _forward_backward(model)
        eval(f"opt.{call}")  # accelerate's AcceleratedOptimizer passes closure=None

    record(program)
    assert depths == [0]
