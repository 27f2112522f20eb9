"""Trains a few steps and writes every gradient and parameter, bit for bit, to argv[1]."""
import sys

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(5, 8), nn.ReLU(inplace=True), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x, y = torch.randn(16, 5), torch.randn(16, 2)
for _ in range(5):
    optimizer.zero_grad()
    h = model(x)
    h2 = h * 1.0
    h2[:, 0] = h2[:, 0] * 2  # a legal in-place write, recorded but harmless
    loss = nn.functional.mse_loss(h2, y)
    loss.backward()
    optimizer.step()
torch.save({name: (p.detach().clone(), p.grad.clone()) for name, p in model.named_parameters()}, sys.argv[1])
