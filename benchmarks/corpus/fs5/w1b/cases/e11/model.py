import math

import torch
import torch.nn as nn

from attention import ATTENTION_CLASSES


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32) / half)
    args = t.float()[:, None] * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class DiTBlock(nn.Module):
    def __init__(self, dim, num_heads, attn_type):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim, elementwise_affine=False)
        self.attn = ATTENTION_CLASSES[attn_type](dim, num_heads)
        self.norm2 = nn.LayerNorm(dim, elementwise_affine=False)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(approximate="tanh"),
                                 nn.Linear(4 * dim, dim))
        self.ada = nn.Linear(dim, 6 * dim)

    def forward(self, x, c):
        s1, b1, g1, s2, b2, g2 = self.ada(c).unsqueeze(1).chunk(6, dim=-1)
        x = x + g1 * self.attn(self.norm1(x) * (1 + s1) + b1)
        x = x + g2 * self.mlp(self.norm2(x) * (1 + s2) + b2)
        return x


class TinyDiT(nn.Module):
    def __init__(self, in_ch, patch, dim, depth, num_heads, attn_type="full"):
        super().__init__()
        self.patch = patch
        self.in_ch = in_ch
        self.embed = nn.Linear(in_ch * patch * patch, dim)
        self.t_mlp = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, dim))
        self.blocks = nn.ModuleList(DiTBlock(dim, num_heads, attn_type) for _ in range(depth))
        self.out = nn.Linear(dim, in_ch * patch * patch)
        self.dim = dim

    def patchify(self, x):
        b, c, h, w = x.shape
        p = self.patch
        x = x.view(b, c, h // p, p, w // p, p).permute(0, 2, 4, 1, 3, 5)
        return x.reshape(b, (h // p) * (w // p), c * p * p)

    def unpatchify(self, x, h, w):
        b, p, c = x.shape[0], self.patch, self.in_ch
        x = x.view(b, h // p, w // p, c, p, p).permute(0, 3, 1, 4, 2, 5)
        return x.reshape(b, c, h, w)

    def forward(self, x, t):
        h, w = x.shape[-2:]
        c = self.t_mlp(timestep_embedding(t * 1000, self.dim))
        tokens = self.embed(self.patchify(x))
        for blk in self.blocks:
            tokens = blk(tokens, c)
        return self.unpatchify(self.out(tokens), h, w)
