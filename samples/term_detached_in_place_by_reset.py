"""A regularizer accumulates its penalty in an attribute; pop() hands out that tensor and then
resets the attribute in place with detach_().zero_(), which cuts the very tensor it handed out:
the loss gets a zero with no graph, and the penalty trains nothing."""
import torch
from torch import nn


class L2Penalty(nn.Module):
    def __init__(self, weight=0.01):
        super().__init__()
        self.weight = weight
        self.total = torch.zeros(1)

    def reset(self):
        self.total.detach_().zero_()

    def add(self, *params):
        self.total = self.total + sum(p.pow(2).sum() for p in params)

    def pop(self):
        term = self.total
        self.reset()
        return self.weight * term


torch.manual_seed(0)
model = nn.Linear(5, 1)
penalty = L2Penalty()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    x, y = torch.randn(8, 5), torch.randn(8, 1)
    penalty.add(model.weight)
    loss = nn.functional.mse_loss(model(x), y) + penalty.pop()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
