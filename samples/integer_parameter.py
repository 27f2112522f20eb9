"""A learned positional offset made from torch.arange: an integer tensor cannot require grad,
and nn.Parameter fails inside torch's own code (issue 16 §6: the same error by another route)."""
import torch
import torch.nn as nn


class PositionalOffset(nn.Module):
    def __init__(self, length):
        super().__init__()
        self.offset = nn.Parameter(torch.arange(length))

    def forward(self, x):
        return x + self.offset


model = PositionalOffset(8)
print(model(torch.zeros(8)))
