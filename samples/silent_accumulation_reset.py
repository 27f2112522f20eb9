"""Gradient accumulation that accumulates nothing: zero_grad() runs before every micro-batch's
backward, so each step uses only the last micro-batch's gradient."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
accumulation_steps = 4


def micro_batch_loss(x, y):
    return nn.functional.mse_loss(model(x), y) / accumulation_steps


for i in range(8):
    x, y = torch.randn(4, 8), torch.randn(4, 1)
    optimizer.zero_grad()  # belongs after step()
    micro_batch_loss(x, y).backward()
    if (i + 1) % accumulation_steps == 0:
        optimizer.step()
print("trained")
