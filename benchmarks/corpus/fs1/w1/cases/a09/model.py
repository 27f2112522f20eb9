import math

import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


def timestep_embedding(t, dim, max_period=10000):
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half, device=t.device) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


def modulate(x, shift, scale):
    return x * (1 + scale.unsqueeze(1)) + shift.unsqueeze(1)


class Attention(nn.Module):
    def __init__(self, dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.scale = (dim // num_heads) ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        b, n, d = x.shape
        qkv = self.qkv(x).reshape(b, n, 3, self.num_heads, d // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = (q @ k.transpose(-2, -1) * self.scale).softmax(dim=-1)
        return self.proj((attn @ v).transpose(1, 2).reshape(b, n, d))


class DiTBlock(nn.Module):
    def __init__(self, dim, num_heads, mlp_ratio=4.0):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6)
        self.attn = Attention(dim, num_heads)
        self.norm2 = nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6)
        hidden = int(dim * mlp_ratio)
        self.mlp = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(approximate="tanh"),
                                 nn.Linear(hidden, dim))
        self.adaLN_modulation = nn.Sequential(nn.SiLU(), nn.Linear(dim, 6 * dim))

    def forward(self, x, c):
        shift_msa, scale_msa, gate_msa, shift_mlp, scale_mlp, gate_mlp = \
            self.adaLN_modulation(c).chunk(6, dim=1)
        h = modulate(self.norm1(x), shift_msa, scale_msa)
        x = x + gate_msa.unsqueeze(1) * self.attn(h)
        h = modulate(self.norm2(x), shift_mlp, scale_mlp)
        return x + gate_mlp.unsqueeze(1) * self.mlp(h)


class MFDiT(nn.Module):
    """DiT that predicts the average velocity u(z, t, r) of a MeanFlow model."""

    def __init__(self, image_size=8, patch_size=2, in_channels=1, dim=32, depth=2, num_heads=4,
                 num_classes=10, grad_checkpointing=False):
        super().__init__()
        self.patch_size = patch_size
        self.in_channels = in_channels
        self.grid = image_size // patch_size
        self.grad_checkpointing = grad_checkpointing
        self.x_embedder = nn.Conv2d(in_channels, dim, patch_size, stride=patch_size)
        self.pos_embed = nn.Parameter(torch.randn(1, self.grid * self.grid, dim) * 0.02)
        self.t_embedder = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, dim))
        self.r_embedder = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, dim))
        self.y_embedder = nn.Embedding(num_classes + 1, dim)
        self.blocks = nn.ModuleList(DiTBlock(dim, num_heads) for _ in range(depth))
        self.final = nn.Linear(dim, patch_size * patch_size * in_channels)
        self.dim = dim

    def unpatchify(self, x):
        p, g, c = self.patch_size, self.grid, self.in_channels
        x = x.reshape(x.shape[0], g, g, p, p, c)
        return torch.einsum("nhwpqc->nchpwq", x).reshape(x.shape[0], c, g * p, g * p)

    def forward(self, x, t, r, y):
        h = self.x_embedder(x).flatten(2).transpose(1, 2) + self.pos_embed
        c = (self.t_embedder(timestep_embedding(t, self.dim))
             + self.r_embedder(timestep_embedding(t - r, self.dim)) + self.y_embedder(y))
        for block in self.blocks:
            if self.grad_checkpointing and self.training:
                h = checkpoint(block, h, c)
            else:
                h = block(h, c)
        return self.unpatchify(self.final(h))
