import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, backcast, forecast, hidden):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(backcast, hidden), nn.ReLU(),
                                nn.Linear(hidden, hidden), nn.ReLU())
        self.theta_b = nn.Linear(hidden, backcast)
        self.theta_f = nn.Linear(hidden, forecast)

    def forward(self, x):
        h = self.fc(x)
        return self.theta_b(h), self.theta_f(h)


class NBeats(nn.Module):
    """Generic N-BEATS stack for non-negative demand series."""

    def __init__(self, backcast=24, forecast=6, hidden=64, n_blocks=3):
        super().__init__()
        self.blocks = nn.ModuleList(Block(backcast, forecast, hidden) for _ in range(n_blocks))
        self.out_act = nn.ReLU()

    def forward(self, x):
        residual = x
        forecast = 0.0
        for block in self.blocks:
            b, f = block(residual)
            residual = residual - b
            forecast = forecast + f
        return self.out_act(forecast)
