import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x, key_padding_mask):
        B, L, D = x.shape
        q, k, v = self.qkv(x).view(B, L, 3, self.n_heads, self.d_head).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        scores = scores.masked_fill(key_padding_mask[:, None, None, :], float("-inf"))
        attn = F.softmax(scores, dim=-1)
        ctx = (attn @ v).transpose(1, 2).reshape(B, L, D)
        return self.out(ctx)


class EncoderLayer(nn.Module):
    def __init__(self, d_model, n_heads, d_ff):
        super().__init__()
        self.attn = MultiHeadSelfAttention(d_model, n_heads)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)

    def forward(self, x, key_padding_mask):
        x = self.norm1(x + self.attn(x, key_padding_mask))
        return self.norm2(x + self.ff(x))


class HistoryEncoder(nn.Module):
    def __init__(self, n_items, d_model=32, n_heads=4, n_layers=2, max_len=10):
        super().__init__()
        self.item_emb = nn.Embedding(n_items, d_model, padding_idx=0)
        self.pos_emb = nn.Embedding(max_len, d_model)
        self.layers = nn.ModuleList([EncoderLayer(d_model, n_heads, 2 * d_model) for _ in range(n_layers)])

    def forward(self, history):
        padding_mask = history == 0
        pos = torch.arange(history.size(1))
        h = self.item_emb(history) + self.pos_emb(pos)
        for layer in self.layers:
            h = layer(h, padding_mask)
        h[torch.isnan(h)] = 0
        keep = (~padding_mask).unsqueeze(-1).float()
        return (h * keep).sum(1) / keep.sum(1).clamp(min=1.0)


class NextItemModel(nn.Module):
    def __init__(self, n_items, n_user_features, d_model=32):
        super().__init__()
        self.history_encoder = HistoryEncoder(n_items, d_model)
        self.user_proj = nn.Linear(n_user_features, d_model)
        self.target_emb = nn.Embedding(n_items, d_model)

    def forward(self, history, user_features, target_items):
        user = self.history_encoder(history) + self.user_proj(user_features)
        return (user * self.target_emb(target_items)).sum(-1)
