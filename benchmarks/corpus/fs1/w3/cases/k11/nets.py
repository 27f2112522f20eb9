import torch.nn as nn


class Generator(nn.Module):
    def __init__(self, nz=8, dim=2, hidden=64):
        super().__init__()
        self.main = nn.Sequential(
            nn.Linear(nz, hidden),
            nn.ReLU(True),
            nn.Linear(hidden, hidden),
            nn.ReLU(True),
            nn.Linear(hidden, dim),
        )

    def forward(self, noise):
        return self.main(noise)


class Critic(nn.Module):
    def __init__(self, dim=2, hidden=64):
        super().__init__()
        self.main = nn.Sequential(
            nn.Linear(dim, hidden),
            nn.LayerNorm(hidden),
            nn.LeakyReLU(0.2),
            nn.Linear(hidden, hidden),
            nn.LeakyReLU(0.2),
            nn.Linear(hidden, 1, bias=False),
        )

    def forward(self, x):
        return self.main(x).view(-1)
