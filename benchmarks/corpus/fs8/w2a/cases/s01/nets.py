import torch
from torch import nn


class MADE(nn.Module):
    def __init__(self, theta_dim, x_dim, hidden=32):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(x_dim, hidden), nn.Tanh())
        self.body = nn.Sequential(
            nn.Linear(theta_dim + hidden, hidden),
            nn.Tanh(),
            nn.Linear(hidden, 2 * theta_dim),
        )

    def log_prob(self, theta, x):
        h = self.embed(x)
        out = self.body(torch.cat([theta, h], dim=-1))
        mean, log_std = out.chunk(2, dim=-1)
        log_std = log_std.clamp(-5.0, 5.0)
        z = (theta - mean) * torch.exp(-log_std)
        return (-0.5 * z.pow(2) - log_std - 0.9189385).sum(-1)


def build_density_estimator(theta_dim, x_dim, hidden=32):
    return MADE(theta_dim, x_dim, hidden)
