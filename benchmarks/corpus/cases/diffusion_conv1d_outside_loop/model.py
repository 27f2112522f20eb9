import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def sinusoidal_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000) * torch.arange(half) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([args.sin(), args.cos()], dim=-1)


class Unet1D(nn.Module):
    def __init__(self, channels=8, dim=16):
        super().__init__()
        self.time_mlp = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, channels))
        self.down = nn.Conv1d(channels, dim, 3, padding=1)
        self.mid = nn.Conv1d(dim, dim, 3, padding=1)
        self.up = nn.Conv1d(dim, channels, 3, padding=1)
        self.dim = dim

    def forward(self, x, t):
        x = x + self.time_mlp(sinusoidal_embedding(t, self.dim))[..., None]
        h = F.silu(self.down(x))
        h = F.silu(self.mid(h)) + h
        return self.up(h)


class GaussianDiffusion(nn.Module):
    def __init__(self, model, timesteps=50):
        super().__init__()
        self.model = model
        self.timesteps = timesteps
        betas = torch.linspace(1e-4, 0.02, timesteps)
        self.register_buffer("alphas_cumprod", torch.cumprod(1.0 - betas, dim=0))

    def forward(self, x0):
        t = torch.randint(0, self.timesteps, (x0.shape[0],))
        noise = torch.randn_like(x0)
        a = self.alphas_cumprod[t][:, None, None]
        x_t = a.sqrt() * x0 + (1 - a).sqrt() * noise
        return F.mse_loss(self.model(x_t, t), noise)
