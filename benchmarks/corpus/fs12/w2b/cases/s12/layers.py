import math

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_heads, kq_same=False):
        super().__init__()
        self.d_model = d_model
        self.h = n_heads
        self.d_k = d_model // n_heads
        self.q_linear = nn.Linear(d_model, d_model)
        self.k_linear = self.q_linear if kq_same else nn.Linear(d_model, d_model)
        self.v_linear = nn.Linear(d_model, d_model)

    def head_split(self, x):
        b, l, _ = x.shape
        return x.view(b, l, self.h, self.d_k).transpose(1, 2)

    def forward(self, q, k, v, mask=None):
        q = self.head_split(self.q_linear(q))
        k = self.head_split(self.k_linear(k))
        v = self.head_split(self.v_linear(v))
        out = self.scaled_dot_product_attention(q, k, v, self.d_k, mask)
        b, _, l, _ = out.shape
        return out.transpose(1, 2).reshape(b, l, self.d_model)

    @staticmethod
    def scaled_dot_product_attention(q, k, v, d_k, mask=None):
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, -float("inf"))
        scores = scores.softmax(dim=-1)
        return torch.matmul(scores, v)


class TransformerLayer(nn.Module):
    def __init__(self, d_model, d_ff, n_heads, dropout=0.0):
        super().__init__()
        self.masked_attn_head = MultiHeadAttention(d_model, n_heads)
        self.layer_norm1 = nn.LayerNorm(d_model)
        self.dropout1 = nn.Dropout(dropout)
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)
        self.layer_norm2 = nn.LayerNorm(d_model)
        self.dropout2 = nn.Dropout(dropout)

    def forward(self, seq, mask=None):
        context = self.masked_attn_head(seq, seq, seq, mask)
        context = self.layer_norm1(self.dropout1(context) + seq)
        output = self.linear2(torch.relu(self.linear1(context)))
        return self.layer_norm2(self.dropout2(output) + context)
