import torch.nn as nn


class ResidualMLP(nn.Module):
    def __init__(self, in_dim, hidden, out_dim, depth=3):
        super().__init__()
        self.inp = nn.Linear(in_dim, hidden)
        self.layers = nn.ModuleList(
            nn.Sequential(nn.LayerNorm(hidden), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, hidden))
            for _ in range(depth)
        )
        self.out = nn.Linear(hidden, out_dim)

    def forward(self, x):
        h = self.inp(x)
        for layer in self.layers:
            h = h + layer(h)
        return self.out(h)
