import math

import torch
import torch.nn as nn


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000) * torch.arange(half) / half)
    args = t.float()[:, None] * freqs[None]
    return torch.cat([args.sin(), args.cos()], dim=-1)


class ResBlock(nn.Module):
    def __init__(self, ch, temb_dim):
        super().__init__()
        self.norm1 = nn.GroupNorm(4, ch)
        self.conv1 = nn.Conv2d(ch, ch, 3, padding=1)
        self.temb = nn.Linear(temb_dim, ch)
        self.norm2 = nn.GroupNorm(4, ch)
        self.conv2 = nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, x, temb):
        h = self.conv1(torch.nn.functional.silu(self.norm1(x)))
        h = h + self.temb(temb)[:, :, None, None]
        h = self.conv2(torch.nn.functional.silu(self.norm2(h)))
        return x + h


class TinyUNet(nn.Module):
    def __init__(self, in_ch=3, ch=16, temb_dim=32):
        super().__init__()
        self.temb_dim = temb_dim
        self.time_mlp = nn.Sequential(nn.Linear(temb_dim, temb_dim), nn.SiLU(), nn.Linear(temb_dim, temb_dim))
        self.conv_in = nn.Conv2d(in_ch, ch, 3, padding=1)
        self.down = ResBlock(ch, temb_dim)
        self.pool = nn.AvgPool2d(2)
        self.mid = ResBlock(ch, temb_dim)
        self.up = nn.Upsample(scale_factor=2)
        self.out_block = ResBlock(ch, temb_dim)
        self.conv_out = nn.Conv2d(ch, in_ch, 3, padding=1)

    def forward(self, x, t):
        temb = self.time_mlp(timestep_embedding(t, self.temb_dim))
        h = self.down(self.conv_in(x), temb)
        m = self.up(self.mid(self.pool(h), temb))
        return self.conv_out(self.out_block(h + m, temb))


class DDPMScheduler:
    def __init__(self, num_train_timesteps=100, beta_start=1e-4, beta_end=0.02):
        self.num_train_timesteps = num_train_timesteps
        betas = torch.linspace(beta_start, beta_end, num_train_timesteps)
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)

    def add_noise(self, x0, noise, t):
        a = self.alphas_cumprod[t].sqrt()[:, None, None, None]
        s = (1 - self.alphas_cumprod[t]).sqrt()[:, None, None, None]
        return a * x0 + s * noise
