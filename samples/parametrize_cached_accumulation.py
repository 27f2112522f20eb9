"""Gradient accumulation inside `parametrize.cached()`: the parametrized (orthogonal) weight is
computed once, with its graph, for the first micro-batch and reused by the second, whose
backward runs into the graph the first backward freed."""
import torch
import torch.nn as nn
from torch.nn.utils import parametrizations, parametrize


class Projector(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.proj = parametrizations.orthogonal(nn.Linear(dim, dim, bias=False))

    def forward(self, x):
        return self.proj(x).tanh()


torch.manual_seed(0)
model = Projector()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
batch = torch.randn(8, 8)
optimizer.zero_grad()
with parametrize.cached():
    for micro in batch.split(4):
        loss = model(micro).pow(2).mean() / 2
        loss.backward()
optimizer.step()
