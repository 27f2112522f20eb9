import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


class RotaryEmbedding(nn.Module):
    def __init__(self, dim, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        self._seq_len_cached = 0
        self._cos_cached = None
        self._sin_cached = None

    def _update_cache(self, seq_len, device):
        if seq_len > self._seq_len_cached:
            self._seq_len_cached = seq_len
            t = torch.arange(seq_len, device=device, dtype=self.inv_freq.dtype)
            freqs = torch.outer(t, self.inv_freq)
            emb = torch.cat((freqs, freqs), dim=-1)
            self._cos_cached = emb.cos()[None, None]
            self._sin_cached = emb.sin()[None, None]

    def forward(self, q, k):
        seq_len = q.shape[-2]
        self._update_cache(seq_len, q.device)
        cos = self._cos_cached[:, :, :seq_len]
        sin = self._sin_cached[:, :, :seq_len]
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        return q, k


class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.qkv = nn.Linear(embed_dim, 3 * embed_dim)
        self.out = nn.Linear(embed_dim, embed_dim)
        self.rotary = RotaryEmbedding(self.head_dim)

    def forward(self, x):
        b, n, d = x.shape
        qkv = self.qkv(x).view(b, n, 3, self.num_heads, self.head_dim)
        q, k, v = qkv.permute(2, 0, 3, 1, 4)
        q, k = self.rotary(q, k)
        attn = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        h = attn.softmax(dim=-1) @ v
        return self.out(h.transpose(1, 2).reshape(b, n, d))


class EncoderLayer(nn.Module):
    def __init__(self, embed_dim, num_heads, ff_dim):
        super().__init__()
        self.attn = MultiHeadAttention(embed_dim, num_heads)
        self.norm1 = nn.LayerNorm(embed_dim)
        self.ff = nn.Sequential(nn.Linear(embed_dim, ff_dim), nn.ReLU(), nn.Linear(ff_dim, embed_dim))
        self.norm2 = nn.LayerNorm(embed_dim)

    def forward(self, x):
        x = self.norm1(x + self.attn(x))
        return self.norm2(x + self.ff(x))


class TourPolicy(nn.Module):
    """Encodes node coordinates and scores a visiting order (pointer-style decoder)."""

    def __init__(self, embed_dim=32, num_heads=4, num_layers=2):
        super().__init__()
        self.init_embed = nn.Linear(2, embed_dim)
        self.layers = nn.ModuleList(EncoderLayer(embed_dim, num_heads, 2 * embed_dim) for _ in range(num_layers))
        self.query = nn.Linear(embed_dim, embed_dim)

    def forward(self, locs, decode="sample"):
        h = self.init_embed(locs)
        for layer in self.layers:
            h = layer(h)
        b, n, _ = h.shape
        mask = torch.zeros(b, n, dtype=torch.bool, device=locs.device)
        context = h.mean(dim=1)
        tour, log_probs = [], []
        for _ in range(n):
            logits = (h @ self.query(context).unsqueeze(-1)).squeeze(-1)
            logits = logits.masked_fill(mask, float("-inf"))
            logp = F.log_softmax(logits, dim=-1)
            if decode == "greedy":
                idx = logp.argmax(dim=-1)
            else:
                idx = torch.multinomial(logp.exp(), 1).squeeze(-1)
            log_probs.append(logp.gather(1, idx[:, None]).squeeze(1))
            tour.append(idx)
            mask = mask.scatter(1, idx[:, None], True)
            context = h.gather(1, idx[:, None, None].expand(-1, 1, h.size(-1))).squeeze(1)
        return torch.stack(tour, 1), torch.stack(log_probs, 1).sum(1)


def tour_length(locs, tour):
    ordered = locs.gather(1, tour[..., None].expand(-1, -1, 2))
    return (ordered - ordered.roll(-1, dims=1)).norm(dim=-1).sum(1)
