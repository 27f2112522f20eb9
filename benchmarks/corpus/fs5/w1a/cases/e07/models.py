import math

import torch
import torch.nn as nn


class BankedSelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.bank = []

    def forward(self, x):
        h = self.norm(x)
        context = torch.cat([h] + self.bank, dim=1) if self.bank else h
        out, _ = self.attn(h, context, context, need_weights=False)
        return x + out


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.attn1 = BankedSelfAttention(dim, heads)
        self.ff = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, temb=None):
        if temb is not None:
            x = x + temb[:, None]
        x = self.attn1(x)
        return x + self.ff(x)


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000) * torch.arange(half, dtype=torch.float32) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class Patchify(nn.Module):
    def __init__(self, patch, dim, channels=3):
        super().__init__()
        self.proj = nn.Conv2d(channels, dim, patch, patch)

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)


class ReferenceNet(nn.Module):
    def __init__(self, patch, dim, heads, depth):
        super().__init__()
        self.embed = Patchify(patch, dim)
        self.blocks = nn.ModuleList([Block(dim, heads) for _ in range(depth)])

    def forward(self, ref):
        x = self.embed(ref)
        for blk in self.blocks:
            x = blk(x)
        return x


class Denoiser(nn.Module):
    def __init__(self, image_size, patch, dim, heads, depth):
        super().__init__()
        self.image_size, self.patch, self.dim = image_size, patch, dim
        self.embed = Patchify(patch, dim)
        self.time_mlp = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, dim))
        self.blocks = nn.ModuleList([Block(dim, heads) for _ in range(depth)])
        self.out = nn.Linear(dim, 3 * patch * patch)

    def forward(self, noisy, t):
        b = noisy.shape[0]
        x = self.embed(noisy)
        temb = self.time_mlp(timestep_embedding(t, self.dim))
        for blk in self.blocks:
            x = blk(x, temb)
        g, p = self.image_size // self.patch, self.patch
        x = self.out(x).view(b, g, g, 3, p, p).permute(0, 3, 1, 4, 2, 5)
        return x.reshape(b, 3, self.image_size, self.image_size)


class Net(nn.Module):
    def __init__(self, reference_net, denoiser):
        super().__init__()
        self.reference_net = reference_net
        self.denoiser = denoiser

    def forward(self, noisy, t, ref):
        self.reference_net(ref)
        return self.denoiser(noisy, t)
