"""accumulation-wiped: gradients reset between two backward calls of one line with no step in
between (every route of the reset), and the patterns that look alike but are right."""

from __future__ import annotations

import pytest
import torch
import torch.nn as nn

from tests.harness import record


def _rules(run):
    return [f.rule for f in run.findings]


def _model():
    return nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))


def _loss(model):
    return model(torch.randn(2, 3)).pow(2).mean()


RESETS = {
    "optimizer.zero_grad()": lambda model, opt: opt.zero_grad(),
    "zero_grad(set_to_none=False)": lambda model, opt: opt.zero_grad(set_to_none=False),
    "model.zero_grad()": lambda model, opt: model.zero_grad(),
    "p.grad = None": lambda model, opt: [setattr(p, "grad", None) for p in model.parameters()],
}


@pytest.mark.parametrize("reset", RESETS.values(), ids=RESETS.keys())
def test_a_reset_before_every_micro_batch_is_named(reset):
    def program():
        model = _model()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for i in range(4):
            reset(model, opt)
            _loss(model).backward()
            if i % 2 == 1:
                opt.step()

    run = record(program)
    assert _rules(run) == ["accumulation-wiped"]
    hazard = next(h for h in run.trace.grad_hazards if h.kind == "accumulation-wiped")
    assert hazard.zero_sites and hazard.backward_site is not None and hazard.step == 1
    assert run.trace.internal_errors == []


def test_a_reset_once_per_window_is_right():
    def program():
        model = _model()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for i in range(6):
            (_loss(model) / 3).backward()
            if i % 3 == 2:
                opt.step()
                opt.zero_grad()

    assert _rules(record(program)) == []


def test_a_gan_whose_generator_backward_fills_the_discriminator_grads_is_right():
    """The discriminator's zero_grad drops what the generator's backward put in its .grad; the
    generator's optimizer stepped in between, so nothing meant for a step was lost."""
    def program():
        netG, netD = nn.Linear(2, 3), nn.Linear(3, 1)
        optG, optD = torch.optim.SGD(netG.parameters(), lr=0.1), torch.optim.SGD(netD.parameters(), lr=0.1)

        def update(loss, opt):
            opt.zero_grad()
            loss.backward()
            opt.step()

        for _ in range(3):
            fake = netG(torch.randn(4, 2))
            update(netD(fake.detach()).mean() - netD(torch.randn(4, 3)).mean(), optD)
            update(-netD(fake).mean(), optG)

    assert _rules(record(program)) == []


def test_a_second_optimizer_that_did_not_lose_anything_is_not_named():
    """Two optimizers zeroed before every backward: the finding is made once, for the optimizer
    whose parameters the first reset touched."""
    def program():
        a, b = _model(), _model()
        opt_a = torch.optim.SGD(a.parameters(), lr=0.1)
        opt_b = torch.optim.SGD(b.parameters(), lr=0.1)
        for i in range(4):
            opt_a.zero_grad()
            opt_b.zero_grad()
            (_loss(a) + _loss(b)).backward()
            if i % 2 == 1:
                opt_a.step()
                opt_b.step()

    run = record(program)
    assert _rules(run) == ["accumulation-wiped"]
    hazard = next(h for h in run.trace.grad_hazards if h.kind == "accumulation-wiped")
    assert len(hazard.zero_sites) == 2  # both zero_grad lines


def test_steps_that_a_grad_scaler_skips_still_use_the_gradients():
    """GradScaler.step skips optimizer.step when the scaled gradients overflow (by design); the
    zero_grad after it throws nothing meant for a step away."""
    def program():
        model = _model()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        # The first scaled gradients overflow (step skipped); the scale then drops to 2**20.
        scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 120, backoff_factor=2.0 ** -100)
        for _ in range(4):
            opt.zero_grad()
            scaler.scale(_loss(model) * 1e3).backward()
            scaler.step(opt)
            scaler.update()
        return scaler.get_scale()

    run = record(program)
    assert run.value == 2.0 ** 20  # one step was skipped, the others ran
    assert _rules(run) == []


def test_two_players_zeroed_every_micro_batch_are_both_named():
    """A generator and a discriminator, each zeroed before its own backward on every micro-batch
    and stepped every second one: the backward lines interleave, and both resets lose gradients."""
    def program():
        gen, disc = _model(), _model()
        opt_g = torch.optim.SGD(gen.parameters(), lr=0.1)
        opt_d = torch.optim.SGD(disc.parameters(), lr=0.1)
        for i in range(4):
            opt_g.zero_grad()
            _loss(gen).backward()
            if i % 2 == 1:
                opt_g.step()
            opt_d.zero_grad()
            _loss(disc).backward()
            if i % 2 == 1:
                opt_d.step()

    run = record(program)
    assert _rules(run) == ["accumulation-wiped", "accumulation-wiped"]
    assert run.trace.internal_errors == []


def test_gradients_taken_per_loss_and_written_back_are_right():
    # Gradient surgery (PCGrad): each task's gradient is read after its own backward, then the
    # combined gradient is written into .grad before the step. The resets lose nothing.
    def program():
        model = _model()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        params = list(model.parameters())
        for _ in range(2):
            per_task = []
            x = torch.randn(2, 3)
            losses = [model(x).pow(2).mean(), model(x).abs().mean()]
            for i, loss in enumerate(losses):
                opt.zero_grad(set_to_none=True)
                loss.backward(retain_graph=i < len(losses) - 1)
                per_task.append([p.grad.clone() for p in params])
            for p, *grads in zip(params, *per_task):
                p.grad = sum(grads) / len(grads)
            opt.step()

    assert "accumulation-wiped" not in _rules(record(program))


def test_micro_batch_losses_not_divided_are_summed_by_the_step():
    def program():
        model = _model()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for i in range(6):
            _loss(model).backward()
            if i % 3 == 2:
                opt.step()
                opt.zero_grad()

    run = record(program)
    assert _rules(run) == ["accumulated-gradients-summed"]
    assert run.findings[0].fix_sites[0].line == run.trace.backward_calls[0].site.line
