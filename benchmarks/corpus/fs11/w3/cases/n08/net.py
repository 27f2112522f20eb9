import torch
import torch.nn as nn


class ResidualMLP(nn.Module):
    def __init__(self, dim=64, depth=3, n_out=10):
        super().__init__()
        self.inp = nn.Linear(32, dim)
        self.blocks = nn.ModuleList(
            nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim * 2), nn.GELU(), nn.Linear(dim * 2, dim))
            for _ in range(depth)
        )
        self.out = nn.Linear(dim, n_out)

    def forward(self, x):
        h = self.inp(x)
        for blk in self.blocks:
            h = h + blk(h)
        return self.out(h)
