import math

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.d_head = d_model // num_heads
        self.proj_q = nn.Linear(d_model, d_model, bias=False)
        self.proj_k = nn.Linear(d_model, d_model, bias=False)
        self.proj_v = nn.Linear(d_model, d_model, bias=False)
        self.proj_o = nn.Linear(d_model, d_model)

    def forward(self, x, mem, lengths_x, lengths_mem):
        B, Lx, _ = x.shape
        Lm = mem.size(1)
        q = self.proj_q(x).view(B, Lx, self.num_heads, self.d_head)
        k = self.proj_k(mem).view(B, Lm, self.num_heads, self.d_head)
        v = self.proj_v(mem).view(B, Lm, self.num_heads, self.d_head)

        e = torch.einsum("bxhd,byhd->bhxy", q, k) / math.sqrt(self.d_head)
        mask = torch.zeros(B, Lx, Lm)
        for i in range(B):
            mask[i, : lengths_x[i], : lengths_mem[i]].fill_(1)
        mask = mask.unsqueeze(1)
        e = e.masked_fill(mask == 0, -float("inf"))

        alpha = torch.softmax(e, dim=-1)
        out = torch.einsum("bhxy,byhd->bxhd", alpha, v).reshape(B, Lx, -1)
        return self.proj_o(out)


class SetAttentionBlock(nn.Module):
    def __init__(self, d_model, num_heads, d_ff):
        super().__init__()
        self.mha = MultiHeadAttention(d_model, num_heads)
        self.ffn = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)

    def forward(self, x, lengths):
        x = self.norm1(x + self.mha(x, x, lengths, lengths))
        return self.norm2(x + self.ffn(x))
