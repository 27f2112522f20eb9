import math

import torch
import torch.nn as nn


class LinearEnsemble(nn.Module):
    """k independent linear layers applied to k copies of the input: (B, k, d_in) -> (B, k, d_out)."""

    def __init__(self, d_in, d_out, k):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(k, d_in, d_out))
        self.bias = nn.Parameter(torch.empty(k, d_out))
        bound = 1 / math.sqrt(d_in)
        nn.init.uniform_(self.weight, -bound, bound)
        nn.init.uniform_(self.bias, -bound, bound)

    def forward(self, x):
        return torch.einsum("bki,kio->bko", x, self.weight) + self.bias


class ScaleEnsemble(nn.Module):
    def __init__(self, k, d):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(k, d))
        nn.init.normal_(self.weight, mean=1.0, std=0.5)

    def forward(self, x):
        return x * self.weight


class TabM(nn.Module):
    def __init__(self, n_num_features, d_out, k=8, d_block=64, n_blocks=2, dropout=0.1):
        super().__init__()
        self.k = k
        self.adapter = ScaleEnsemble(k, n_num_features)
        blocks = []
        d = n_num_features
        for _ in range(n_blocks):
            blocks += [LinearEnsemble(d, d_block, k), nn.ReLU(), nn.Dropout(dropout)]
            d = d_block
        self.backbone = nn.Sequential(*blocks)
        self.output = LinearEnsemble(d, d_out, k)

    def forward(self, x_num):
        x = x_num.unsqueeze(1).expand(-1, self.k, -1)
        x = self.adapter(x)
        x = self.backbone(x)
        return self.output(x)
