import math

import torch
import torch.nn as nn

from functions import linear, swish


class Linear(nn.Module):
    def __init__(self, input_features, output_features, bias=True):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(output_features, input_features))
        self.bias = nn.Parameter(torch.empty(output_features)) if bias else None
        bound = 1 / math.sqrt(input_features)
        nn.init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            nn.init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return linear(input, self.weight, self.bias)


class Swish(nn.Module):
    def forward(self, x):
        return swish(x)


class ResidualMLP(nn.Module):
    def __init__(self, in_dim, hidden, out_dim, depth=2):
        super().__init__()
        self.inp = Linear(in_dim, hidden)
        self.blocks = nn.ModuleList(
            nn.Sequential(nn.LayerNorm(hidden), Linear(hidden, hidden), Swish(),
                          Linear(hidden, hidden, bias=False))
            for _ in range(depth))
        self.out = Linear(hidden, out_dim)

    def forward(self, x):
        h = swish(self.inp(x))
        for block in self.blocks:
            h = h + block(h)
        return self.out(h)
