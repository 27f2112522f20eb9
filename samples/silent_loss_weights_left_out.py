"""Uncertainty-weighted multi-task loss: the loss module learns its own log-variances, and the
trainer wraps model and loss in one module. The optimizer is built from the model's parameters
only, so the loss weights get gradients but never change."""
import torch
from torch import nn


class UncertaintyLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.log_vars = nn.Parameter(torch.zeros(2))

    def forward(self, pred, target):
        losses = torch.stack([(pred[:, 0] - target).pow(2).mean(), (pred[:, 1] - target).abs().mean()])
        return (torch.exp(-self.log_vars) * losses + self.log_vars).sum()


class ModelWithLoss(nn.Module):
    def __init__(self, model, loss):
        super().__init__()
        self.model, self.loss = model, loss

    def forward(self, x, y):
        return self.loss(self.model(x), y)


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
wrapped = ModelWithLoss(model, UncertaintyLoss())
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(4):
    loss = wrapped(torch.randn(8, 4), torch.randn(8))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"loss {loss.item():.4f}")
