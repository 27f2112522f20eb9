"""Gradient checkpointing done right (use_reentrant=False). No findings."""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
blocks = nn.ModuleList([nn.Sequential(nn.Linear(8, 8), nn.GELU()) for _ in range(3)])
head = nn.Linear(8, 1)
optimizer = torch.optim.SGD([*blocks.parameters(), *head.parameters()], lr=0.1)
x = torch.randn(4, 8)
for step in range(2):
    optimizer.zero_grad()
    h = x
    for block in blocks:
        h = checkpoint(block, h, use_reentrant=False)
    head(h).pow(2).mean().backward()
    optimizer.step()
print(all(p.grad is not None for p in blocks.parameters()))
