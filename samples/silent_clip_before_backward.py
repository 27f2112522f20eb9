"""The training step clips the gradients before the backward: right after zero_grad() there is
no gradient to clip, so every optimizer step uses unclipped gradients."""
import torch
from torch import nn


def train_step(model, optimizer, x, y, max_norm=1.0):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    loss.backward()
    optimizer.step()
    return loss.item()


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = train_step(model, optimizer, torch.randn(16, 8) * 10, torch.randn(16, 1) * 10)
print(f"loss {loss:.4f}")
