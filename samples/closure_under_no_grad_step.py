"""A hand-written optimizer whose step() is decorated with @torch.no_grad() and runs the closure
it is given: the loss computed inside has no graph, and loss.backward() fails."""
import torch
import torch.nn as nn


class SimpleSGD(torch.optim.Optimizer):
    def __init__(self, params, lr=0.1):
        super().__init__(params, dict(lr=lr))

    @torch.no_grad()
    def step(self, closure=None):
        loss = closure() if closure is not None else None
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    p.add_(p.grad, alpha=-group["lr"])
        return loss


torch.manual_seed(0)
model = nn.Linear(4, 1)
optimizer = SimpleSGD(model.parameters())
x, y = torch.randn(8, 4), torch.randn(8, 1)


def closure():
    optimizer.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    return loss


for _ in range(2):
    optimizer.step(closure)
