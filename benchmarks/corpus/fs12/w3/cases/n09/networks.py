import torch.nn as nn


class Generator(nn.Module):
    def __init__(self, z_dim, out_dim, hidden=64):
        super().__init__()
        self.main = nn.Sequential(
            nn.Linear(z_dim, hidden), nn.ReLU(True),
            nn.Linear(hidden, hidden), nn.ReLU(True),
            nn.Linear(hidden, out_dim),
        )

    def forward(self, z):
        return self.main(z)


class Critic(nn.Module):
    def __init__(self, in_dim, hidden=64):
        super().__init__()
        self.main = nn.Sequential(
            nn.Linear(in_dim, hidden), nn.LayerNorm(hidden), nn.LeakyReLU(0.2, True),
            nn.Linear(hidden, hidden), nn.LayerNorm(hidden), nn.LeakyReLU(0.2, True),
            nn.Linear(hidden, 1, bias=False),
        )

    def forward(self, x):
        return self.main(x).view(-1)
