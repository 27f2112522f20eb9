"""Gradient accumulation over 4 micro-batches resets the gradients on the same iteration that
steps, before its backward: each step applies only the last micro-batch."""
import torch
from torch import nn

ACCUMULATION = 4
torch.manual_seed(0)
model = nn.Linear(8, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for iteration in range(1, 13):
    if iteration % ACCUMULATION == 0:
        optimizer.zero_grad()
    loss = model(torch.randn(4, 8)).pow(2).mean() / ACCUMULATION
    loss.backward()
    if iteration % ACCUMULATION == 0:
        optimizer.step()
