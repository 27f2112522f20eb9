import math

import torch
from torch import nn

from layers import GaussianHead, MLPEncoder


class DemandForecaster(nn.Module):
    def __init__(self, num_features, hidden=32):
        super().__init__()
        self.encoder = MLPEncoder(num_features, hidden)
        self.head = GaussianHead(hidden)

    def forward(self, x):
        return self.head(self.encoder(x))

    def loss(self, x, y):
        loc, scale = self(x)
        nll = torch.log(scale) + 0.5 * ((y - loc) / scale) ** 2 + 0.5 * math.log(2 * math.pi)
        return nll.mean()
