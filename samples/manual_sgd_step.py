"""A hand-written SGD update on parameters, outside torch.no_grad()."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
x, y = torch.randn(10, 3), torch.randn(10, 1)
lr = 0.05

for step in range(2):
    loss = ((model(x) - y) ** 2).mean()
    model.zero_grad()
    loss.backward()
    for p in model.parameters():
        p -= lr * p.grad
