import torch
import torch.nn as nn


def moore_penrose_iter_pinv(x, iters=6):
    abs_x = torch.abs(x)
    col = abs_x.sum(dim=-1)
    row = abs_x.sum(dim=-2)
    z = x.transpose(-1, -2) / (torch.max(col) * torch.max(row))
    eye = torch.eye(x.shape[-1], device=x.device).unsqueeze(0)
    for _ in range(iters):
        xz = x @ z
        z = 0.25 * z @ (13 * eye - (xz @ (15 * eye - (xz @ (7 * eye - xz)))))
    return z


class NystromAttention(nn.Module):
    def __init__(self, dim, dim_head=16, heads=4, num_landmarks=8, pinv_iterations=6, dropout=0.0):
        super().__init__()
        self.heads = heads
        self.num_landmarks = num_landmarks
        self.pinv_iterations = pinv_iterations
        inner_dim = heads * dim_head
        self.scale = dim_head ** -0.5
        self.to_qkv = nn.Linear(dim, inner_dim * 3, bias=False)
        self.to_out = nn.Sequential(nn.Linear(inner_dim, dim), nn.Dropout(dropout))

    def split_heads(self, t):
        b, n, _ = t.shape
        return t.reshape(b, n, self.heads, -1).transpose(1, 2)

    def forward(self, x):
        b, n, _ = x.shape
        m = self.num_landmarks
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = map(self.split_heads, (q, k, v))
        q *= self.scale

        l = n // m
        q_landmarks = q.reshape(b, self.heads, m, l, -1).mean(dim=3)
        k_landmarks = k.reshape(b, self.heads, m, l, -1).mean(dim=3)

        attn1 = (q @ k_landmarks.transpose(-1, -2)).softmax(dim=-1)
        attn2 = (q_landmarks @ k_landmarks.transpose(-1, -2)).softmax(dim=-1)
        attn3 = (q_landmarks @ k.transpose(-1, -2)).softmax(dim=-1)
        attn2_inv = moore_penrose_iter_pinv(attn2, self.pinv_iterations)
        out = (attn1 @ attn2_inv) @ (attn3 @ v)
        out = out.transpose(1, 2).reshape(b, n, -1)
        return self.to_out(out)
