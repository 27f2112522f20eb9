import torch
import torch.nn as nn
import torch.nn.functional as F


def apply_rotary_emb(x, cos, sin):
    """x: (batch, seqlen, nheads, headdim); cos, sin: (seqlen, headdim / 2)"""
    x1, x2 = x.chunk(2, dim=-1)
    cos, sin = cos[:, None, :], sin[:, None, :]
    return torch.cat((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1)


class RotaryEmbedding(nn.Module):
    def __init__(self, dim, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.float32) / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        self._seq_len_cached = 0
        self._cos_cached = None
        self._sin_cached = None

    def _update_cos_sin_cache(self, seqlen, device=None, dtype=None):
        if (seqlen > self._seq_len_cached or self._cos_cached is None or self._cos_cached.device != device or self._cos_cached.dtype != dtype):
            self._seq_len_cached = seqlen
            t = torch.arange(seqlen, device=device, dtype=torch.float32)
            freqs = torch.outer(t, self.inv_freq.to(device=t.device))
            self._cos_cached = torch.cos(freqs).to(dtype)
            self._sin_cached = torch.sin(freqs).to(dtype)

    def forward(self, q, k):
        seqlen = q.shape[1]
        self._update_cos_sin_cache(seqlen, device=q.device, dtype=q.dtype)
        cos, sin = self._cos_cached[:seqlen], self._sin_cached[:seqlen]
        return apply_rotary_emb(q, cos, sin), apply_rotary_emb(k, cos, sin)


class MHA(nn.Module):
    def __init__(self, dim, n_head, rotary_dim):
        super().__init__()
        self.n_head = n_head
        self.head_dim = dim // n_head
        self.Wqkv = nn.Linear(dim, 3 * dim)
        self.out_proj = nn.Linear(dim, dim)
        self.rotary_emb = RotaryEmbedding(rotary_dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.Wqkv(x).view(B, T, 3, self.n_head, self.head_dim).unbind(dim=2)
        q, k = self.rotary_emb(q, k)
        y = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)
        return self.out_proj(y.transpose(1, 2).reshape(B, T, C))


class Block(nn.Module):
    def __init__(self, dim, n_head):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.mixer = MHA(dim, n_head, rotary_dim=dim // n_head)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(approximate="tanh"), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.mixer(self.norm1(x))
        return x + self.mlp(self.norm2(x))
