"""nn.ReLU(inplace=True) right after a Sigmoid, which saved its output for backward."""
import torch
import torch.nn as nn


class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.gate = nn.Sigmoid()
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        g = self.gate(self.proj(x))
        return self.act(g)


torch.manual_seed(0)
model = Gate()
out = model(torch.randn(2, 4))
out.sum().backward()
