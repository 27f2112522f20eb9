import torch
import torch.nn as nn
import torch.nn.functional as F


class InvariantPointAttention(nn.Module):
    def __init__(self, dim, heads=4, dim_head=8, point_dim=4):
        super().__init__()
        self.heads = heads
        self.point_dim = point_dim
        self.to_qkv = nn.Linear(dim, heads * dim_head * 3, bias=False)
        self.to_qk_points = nn.Linear(dim, heads * point_dim * 3 * 2, bias=False)
        self.point_weights = nn.Parameter(torch.zeros(heads))
        self.to_out = nn.Linear(heads * dim_head, dim)
        self.scale = dim_head ** -0.5

    def forward(self, x, rotations, translations):
        b, n, _ = x.shape
        h = self.heads
        q, k, v = self.to_qkv(x).reshape(b, n, 3, h, -1).unbind(2)
        qp, kp = self.to_qk_points(x).reshape(b, n, 2, h, self.point_dim, 3).unbind(2)
        qp = torch.einsum("bnhpc,bncd->bnhpd", qp, rotations) + translations[:, :, None, None]
        kp = torch.einsum("bnhpc,bncd->bnhpd", kp, rotations) + translations[:, :, None, None]

        logits = torch.einsum("bihd,bjhd->bhij", q, k) * self.scale
        dist = ((qp[:, :, None] - kp[:, None]) ** 2).sum(dim=(-1, -2))
        logits = logits - 0.5 * F.softplus(self.point_weights)[None, :, None, None] * dist.permute(0, 3, 1, 2)
        attn = logits.softmax(dim=-1)
        out = torch.einsum("bhij,bjhd->bihd", attn, v).reshape(b, n, -1)
        return self.to_out(out)


class IPABlock(nn.Module):
    def __init__(self, dim, **kwargs):
        super().__init__()
        self.attn_norm = nn.LayerNorm(dim)
        self.attn = InvariantPointAttention(dim, **kwargs)
        self.ff_norm = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, dim * 2), nn.ReLU(), nn.Linear(dim * 2, dim))

    def forward(self, x, rotations, translations):
        x = self.attn_norm(self.attn(x, rotations, translations) + x)
        return self.ff_norm(self.ff(x) + x)
