"""Anomaly Transformer: self-attention with a learnable Gaussian prior association."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class AnomalyAttention(nn.Module):
    def __init__(self, win_size, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.sigma = nn.Linear(d_model, n_heads)
        self.out = nn.Linear(d_model, d_model)
        idx = torch.arange(win_size, dtype=torch.float32)
        self.register_buffer("distances", (idx[:, None] - idx[None, :]).abs())

    def forward(self, x):
        B, L, _ = x.shape
        H, E = self.n_heads, self.d_k
        q = self.q(x).view(B, L, H, E)
        k = self.k(x).view(B, L, H, E)
        v = self.v(x).view(B, L, H, E)
        scores = torch.einsum("blhe,bshe->bhls", q, k) / math.sqrt(E)
        series = torch.softmax(scores, dim=-1)
        sigma = self.sigma(x).transpose(1, 2)
        sigma = torch.sigmoid(sigma * 5) + 1e-5
        sigma = torch.pow(3, sigma) - 1
        sigma = sigma.unsqueeze(-1).repeat(1, 1, 1, L)
        prior = 1.0 / (math.sqrt(2 * math.pi) * sigma) * torch.exp(-self.distances ** 2 / 2 / (sigma ** 2))
        out = torch.einsum("bhls,bshd->blhd", series, v).reshape(B, L, H * E)
        return self.out(out), series, prior


class EncoderLayer(nn.Module):
    def __init__(self, win_size, d_model, n_heads, d_ff, dropout):
        super().__init__()
        self.attention = AnomalyAttention(win_size, d_model, n_heads)
        self.conv1 = nn.Conv1d(d_model, d_ff, 1)
        self.conv2 = nn.Conv1d(d_ff, d_model, 1)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        new_x, series, prior = self.attention(x)
        x = self.norm1(x + self.dropout(new_x))
        y = self.dropout(F.gelu(self.conv1(x.transpose(-1, 1))))
        y = self.dropout(self.conv2(y).transpose(-1, 1))
        return self.norm2(x + y), series, prior


class AnomalyTransformer(nn.Module):
    def __init__(self, win_size, enc_in, c_out, d_model=64, n_heads=4, e_layers=2, d_ff=64, dropout=0.0):
        super().__init__()
        self.embedding = nn.Conv1d(enc_in, d_model, 3, padding=1, padding_mode="circular")
        self.pos = nn.Parameter(torch.randn(1, win_size, d_model) * 0.02)
        self.layers = nn.ModuleList(
            EncoderLayer(win_size, d_model, n_heads, d_ff, dropout) for _ in range(e_layers))
        self.norm = nn.LayerNorm(d_model)
        self.projection = nn.Linear(d_model, c_out)

    def forward(self, x):
        x = self.embedding(x.transpose(1, 2)).transpose(1, 2) + self.pos
        series_list, prior_list = [], []
        for layer in self.layers:
            x, series, prior = layer(x)
            series_list.append(series)
            prior_list.append(prior)
        return self.projection(self.norm(x)), series_list, prior_list
