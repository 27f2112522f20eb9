import torch
from torch import nn


def positive_elu(x):
    return torch.where(x <= 0, torch.exp(x), 1 + x)


class GaussianHead(nn.Module):
    def __init__(self, in_features, min_scale=1e-3):
        super().__init__()
        self.proj_loc = nn.Linear(in_features, 1)
        self.proj_scale = nn.Linear(in_features, 1)
        self.min_scale = min_scale

    def forward(self, h):
        loc = self.proj_loc(h).squeeze(-1)
        scale = positive_elu(self.proj_scale(h)).squeeze(-1) + self.min_scale
        return loc, scale


class MLPEncoder(nn.Module):
    def __init__(self, in_features, hidden, num_layers=2):
        super().__init__()
        dims = [in_features] + [hidden] * num_layers
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:]))

    def forward(self, x):
        for layer in self.layers:
            x = nn.functional.leaky_relu(layer(x), 0.1)
        return x
