"""Pairwise distances through sqrt: the zero diagonal makes the gradient NaN, silently."""
import torch
import torch.nn as nn

torch.manual_seed(0)
embed = nn.Linear(3, 2)
optimizer = torch.optim.SGD(embed.parameters(), lr=0.1)
points = torch.randn(4, 3)
for step in range(2):
    optimizer.zero_grad()
    z = embed(points)
    distances = ((z[:, None, :] - z[None, :, :]) ** 2).sum(-1).sqrt()
    loss = distances.mean()
    loss.backward()
    optimizer.step()
print(f"loss {loss.item()}")
