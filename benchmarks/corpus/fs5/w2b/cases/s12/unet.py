import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000) * torch.arange(half, dtype=torch.float32) / half)
    args = t.float()[:, None] * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class ResBlock(nn.Module):
    def __init__(self, ch, tdim):
        super().__init__()
        self.norm1 = nn.GroupNorm(4, ch)
        self.conv1 = nn.Conv2d(ch, ch, 3, padding=1)
        self.temb = nn.Linear(tdim, ch)
        self.norm2 = nn.GroupNorm(4, ch)
        self.conv2 = nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, x, temb):
        h = self.conv1(F.silu(self.norm1(x)))
        h = h + self.temb(temb)[:, :, None, None]
        h = self.conv2(F.silu(self.norm2(h)))
        return x + h


class TinyUNet(nn.Module):
    def __init__(self, in_ch=4, ch=32, tdim=64):
        super().__init__()
        self.tdim = tdim
        self.time_mlp = nn.Sequential(nn.Linear(tdim, tdim), nn.SiLU(), nn.Linear(tdim, tdim))
        self.conv_in = nn.Conv2d(in_ch, ch, 3, padding=1)
        self.down = ResBlock(ch, tdim)
        self.pool = nn.Conv2d(ch, ch, 3, stride=2, padding=1)
        self.mid = ResBlock(ch, tdim)
        self.up = nn.ConvTranspose2d(ch, ch, 4, stride=2, padding=1)
        self.out_block = ResBlock(ch, tdim)
        self.conv_out = nn.Conv2d(ch, in_ch, 3, padding=1)

    def forward(self, x, t):
        temb = self.time_mlp(timestep_embedding(t, self.tdim))
        h = self.down(self.conv_in(x), temb)
        skip = h
        h = self.mid(self.pool(h), temb)
        h = self.out_block(self.up(h) + skip, temb)
        return self.conv_out(h)
