"""The default NaN watch (recorder/nan.py): the first backward calls are watched, later ones at
the ops that can make a NaN themselves, the forward op that made a NaN is named, and it stays out of the way where its checks would be seen."""

from __future__ import annotations

import torch
import torch.nn as nn

from tests.harness import record


def _rules(run):
    return [f.rule for f in run.findings]


def test_a_nan_from_the_first_backward_is_traced_to_its_op_without_check_nan():
    def program():
        model = nn.Linear(3, 2)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(2):
            opt.zero_grad()
            torch.log(torch.softmax(model(torch.randn(4, 3)) * 1e4, -1)).sum().backward()
            opt.step()

    run = record(program)
    assert _rules(run) == ["nonfinite-gradient"]
    (origin,) = run.trace.nan_origins
    assert run.trace.node(origin.node).op == "log"


def test_a_nan_that_appears_later_is_traced_where_the_op_can_make_one():
    def program(blow_up_at=3):
        w = nn.Parameter(torch.ones(2))
        opt = torch.optim.SGD([w], lr=0.1)
        for step in range(5):
            opt.zero_grad()
            scale = 0.0 if step >= blow_up_at else 1.0
            torch.sqrt(w * scale).sum().backward()  # sqrt at 0: its own backward makes the inf
            opt.step()

    trace = record(program).trace
    (origin,) = trace.nan_origins
    assert origin.backward_call == 3
    assert trace.node(origin.node).op == "sqrt"


def test_a_late_nan_that_an_ordinary_op_passes_on_is_left_to_check_nan():
    def program(blow_up_at=3):
        w = nn.Parameter(torch.ones(2))
        opt = torch.optim.SGD([w], lr=0.1)
        for step in range(5):
            opt.zero_grad()
            scale = float("inf") if step >= blow_up_at else 1.0
            (w * scale).sum().backward()  # an inf from the data: mul only passes it on
            opt.step()

    assert record(program).trace.nan_origins == []
    assert record(program, check_nan=True).trace.nan_origins != []


def test_gradients_a_grad_scaler_unscales_are_its_business():
    def program():
        model = nn.Linear(3, 1)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 127)  # the scaled gradients overflow
        for _ in range(2):
            opt.zero_grad()
            scaler.scale(model(torch.randn(4, 3)).pow(2).mean() * 1e6).backward()
            scaler.step(opt)
            scaler.update()

    run = record(program)
    assert run.trace.nan_origins == [] and "nonfinite-gradient" not in _rules(run)


def test_under_vmap_nothing_is_checked():
    def program():
        x = torch.randn(3, 4, requires_grad=True)
        out = torch.func.vmap(lambda row: torch.sqrt(row.abs()).sum())(x)
        out.sum().backward()
        return x.grad.shape

    run = record(program)
    assert run.value == (3, 4) and run.trace.internal_errors == []


def test_a_batched_backward_is_not_looked_into():
    """autograd.grad(is_grads_batched=True) (and gradcheck's batched checks) run the backward
    under legacy vmap: the gradients cannot be read there, and that is not an internal error."""
    def program():
        x = torch.randn(3, requires_grad=True)
        return torch.autograd.grad(x ** 2, x, torch.eye(3), is_grads_batched=True)[0].shape

    run = record(program)
    assert run.value == (3, 3) and run.trace.internal_errors == []


def test_the_line_that_turns_log_of_zero_into_nan_is_named():
    def program():
        model = nn.Linear(3, 3)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(2):
            probs = torch.softmax(model(torch.randn(4, 3)) * 1e4, -1)
            neg_log = -torch.log(probs)
            loss = (neg_log * torch.eye(3)[[0, 1, 2, 0]]).sum()  # -inf * 0 = nan
            opt.zero_grad()
            loss.backward()
            opt.step()

    (finding,) = record(program).findings
    roles = [(loc.role, loc.code.strip()) for loc in finding.locations]
    assert ("created", "neg_log = -torch.log(probs)") in roles
    assert ("uses", "loss = (neg_log * torch.eye(3)[[0, 1, 2, 0]]).sum()  # -inf * 0 = nan") in roles


def test_sparse_gradients_are_not_looked_into():
    def program():
        emb = nn.Embedding(10, 3, sparse=True)
        emb(torch.tensor([1, 2])).sum().backward()
        return emb.weight.grad.layout

    run = record(program)
    assert run.value == torch.sparse_coo and run.trace.internal_errors == []


def test_nested_gradients_are_not_looked_into():
    def program():
        a = torch.arange(6, dtype=torch.float).reshape(2, 3).requires_grad_(True)
        b = torch.arange(8, dtype=torch.float).reshape(2, 4).requires_grad_(True)
        nested = torch.nested.as_nested_tensor([a, b])
        out = torch._test_autograd_multiple_dispatch(nested, True)
        out.backward(torch.nested.nested_tensor([torch.ones(2, 3), torch.ones(2, 4)]))
        return a.grad.sum().item()

    run = record(program)
    assert run.value == 12.0 and run.trace.internal_errors == []


def test_an_op_that_only_met_weights_a_step_had_already_made_nan_is_not_named_as_the_origin():
    def program():
        w = nn.Parameter(torch.ones(2))
        opt = torch.optim.SGD([w], lr=0.1)
        for step in range(5):
            opt.zero_grad()
            scale = float("inf") if step == 2 else 1.0
            ((w * scale).sum() + torch.sqrt((w - w.detach()) ** 2 + 1).sum()).backward()  # inf from the data at step 2
            opt.step()  # writes it into w; sqrt meets NaN weights from then on

    run = record(program)
    assert run.trace.nan_origins != []  # sqrt, a step later, of NaN weights
    (finding,) = [f for f in run.findings if f.rule == "nonfinite-gradient"]
    assert not any(loc.role == "fix" for loc in finding.locations)
    assert "--check-nan" in finding.explanation


def test_a_node_pruned_and_reached_again_keeps_where_it_was_made():
    from gradscope.trace.locations import Site  # noqa: F401  (the record's sites are Sites)

    def program():
        w = nn.Parameter(torch.ones(3))
        kept = w.exp()  # made here, reached again after many backward calls
        for _ in range(4):
            (w * 2).sum().backward()
        (kept * 3).sum().backward()

    trace = record(program, keep_backwards=1).trace
    (exp,) = [n for n in trace.nodes.values() if n.op == "exp"]
    assert not exp.first_seen_late and exp.site.code.strip().startswith("kept = w.exp()")
