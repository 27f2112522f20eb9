import torch
import torch.nn as nn


class PairAttention(nn.Module):
    """Self-attention over a set of residues with a 2D (query x key) validity mask."""

    def __init__(self, dim=16, heads=2):
        super().__init__()
        self.heads, self.dim_head = heads, dim // heads
        self.to_qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x, pair_mask):
        b, n, d = x.shape
        q, k, v = self.to_qkv(x).view(b, n, 3, self.heads, self.dim_head).permute(2, 0, 3, 1, 4)
        sim = (q @ k.transpose(-1, -2)) * self.dim_head ** -0.5
        sim = sim.masked_fill(~pair_mask[:, None], float("-inf"))
        attn = sim.softmax(dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(b, n, d)
        return self.to_out(out)


class Model(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.embed = nn.Linear(4, dim)
        self.attn = PairAttention(dim)
        self.head = nn.Linear(dim, 1)

    def forward(self, feats, pair_mask):
        h = self.embed(feats)
        h = h + self.attn(h, pair_mask)
        return self.head(h).squeeze(-1)
