"""An inner adaptation loop hands the same support loss, computed once before the loop, to a
helper that differentiates it at every step: the second step meets the freed graph."""
import torch
import torch.nn as nn


def fast_weights(model, loss, step_size=0.1):
    params = dict(model.named_parameters())
    grads = torch.autograd.grad(loss, list(params.values()))
    return {name: p - step_size * g for (name, p), g in zip(params.items(), grads)}


def adapt(model, x, y, steps=3):
    loss = nn.functional.mse_loss(model(x), y)
    for _ in range(steps):
        params = fast_weights(model, loss)
    return params


torch.manual_seed(0)
net = nn.Linear(4, 1)
adapted = adapt(net, torch.randn(8, 4), torch.randn(8, 1))
