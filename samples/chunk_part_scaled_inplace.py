"""Attention scales the query in place, but the query is one of the views that chunk() returned
(through a reshape and a transpose): autograd refuses an in-place change of such a view. Nothing
reads the projection again, so `q = q * self.scale` is the fix."""
import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.scale = heads, (dim // heads) ** -0.5
        self.to_qkv = nn.Linear(dim, 3 * dim)

    def split_heads(self, t):
        return t.reshape(t.shape[0], t.shape[1], self.heads, -1).transpose(1, 2)

    def forward(self, x):
        q, k, v = map(self.split_heads, self.to_qkv(x).chunk(3, dim=-1))
        q *= self.scale
        attn = (q @ k.transpose(-1, -2)).softmax(dim=-1)
        return (attn @ v).transpose(1, 2).flatten(2)


torch.manual_seed(0)
layer = Attention(16, 4)
layer(torch.randn(2, 5, 16)).sum().backward()
