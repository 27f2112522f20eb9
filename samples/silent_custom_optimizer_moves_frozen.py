"""A hand-written optimizer gives a parameter without gradient a zero gradient instead of
skipping it, then applies decoupled weight decay: the frozen embedding shrinks at every step.
Nothing raises."""
import torch
import torch.nn as nn


class DecayedSGD(torch.optim.Optimizer):
    def __init__(self, params, lr=0.1, weight_decay=0.1):
        super().__init__(params, dict(lr=lr, weight_decay=weight_decay))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    p.grad = torch.zeros_like(p)
                p.mul_(1 - group["lr"] * group["weight_decay"])
                p.add_(p.grad, alpha=-group["lr"])


torch.manual_seed(0)
embed = nn.Embedding(10, 4)
head = nn.Linear(4, 1)
embed.requires_grad_(False)
optimizer = DecayedSGD([*embed.parameters(), *head.parameters()])
for _ in range(3):
    ids, y = torch.randint(0, 10, (8,)), torch.randn(8, 1)
    loss = nn.functional.mse_loss(head(embed(ids)), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print("loss", round(loss.item(), 4))
