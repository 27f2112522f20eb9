import torch
import torch.nn as nn


class ResidualBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, padding_mode="circular")
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, padding_mode="circular")
        self.norm = nn.GroupNorm(4, channels)
        self.act = nn.SiLU()

    def forward(self, x):
        h = self.act(self.norm(self.conv1(x)))
        return x + self.conv2(h)


class ForecastNet(nn.Module):
    def __init__(self, n_vars=4, hidden=16, depth=2):
        super().__init__()
        self.encoder = nn.Conv2d(n_vars, hidden, 3, padding=1, padding_mode="circular")
        self.blocks = nn.Sequential(*[ResidualBlock(hidden) for _ in range(depth)])
        self.decoder = nn.Conv2d(hidden, n_vars, 1)

    def forward(self, state):
        return state + self.decoder(self.blocks(self.encoder(state)))
