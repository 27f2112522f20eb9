import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class RotaryEmbedding(nn.Module):
    def __init__(self, dim, max_position=32, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        self.max_seq_len_cached = 0
        self._set_cos_sin_cache(max_position)

    def _set_cos_sin_cache(self, seq_len):
        self.max_seq_len_cached = seq_len
        t = torch.arange(seq_len, dtype=self.inv_freq.dtype)
        freqs = torch.outer(t, self.inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.cos_cached = emb.cos()
        self.sin_cached = emb.sin()

    def forward(self, seq_len):
        if seq_len > self.max_seq_len_cached:
            self._set_cos_sin_cache(max(seq_len, 2 * self.max_seq_len_cached))
        return self.cos_cached[:seq_len], self.sin_cached[:seq_len]


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(q, k, cos, sin):
    q_embed = (q * cos) + (rotate_half(q) * sin)
    k_embed = (k * cos) + (rotate_half(k) * sin)
    return q_embed, k_embed


class Attention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.n_heads = cfg["n_heads"]
        self.head_dim = cfg["dim"] // cfg["n_heads"]
        self.qkv = nn.Linear(cfg["dim"], 3 * cfg["dim"], bias=False)
        self.proj = nn.Linear(cfg["dim"], cfg["dim"], bias=False)
        self.rotary = RotaryEmbedding(self.head_dim, cfg["max_position"])

    def forward(self, x, attention_mask=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=-1)
        q = q.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k = k.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        v = v.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        cos, sin = self.rotary(T)
        q, k = apply_rotary_pos_emb(q, k, cos, sin)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        scores = scores.masked_fill(~causal, float("-inf"))
        if attention_mask is not None:
            scores = scores.masked_fill(attention_mask[:, None, None, :] == 0, float("-inf"))
        out = F.softmax(scores, dim=-1) @ v
        return self.proj(out.transpose(1, 2).reshape(B, T, C))


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ln1 = nn.LayerNorm(cfg["dim"])
        self.attn = Attention(cfg)
        self.ln2 = nn.LayerNorm(cfg["dim"])
        self.mlp = nn.Sequential(nn.Linear(cfg["dim"], 4 * cfg["dim"]), nn.GELU(),
                                 nn.Linear(4 * cfg["dim"], cfg["dim"]))

    def forward(self, x, attention_mask=None):
        x = x + self.attn(self.ln1(x), attention_mask)
        return x + self.mlp(self.ln2(x))


class MiniLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg["vocab_size"], cfg["dim"])
        self.layers = nn.ModuleList(Block(cfg) for _ in range(cfg["n_layers"]))
        self.norm = nn.LayerNorm(cfg["dim"])
        self.lm_head = nn.Linear(cfg["dim"], cfg["vocab_size"], bias=False)

    def forward(self, input_ids, attention_mask=None):
        h = self.embed(input_ids)
        for layer in self.layers:
            h = layer(h, attention_mask)
        return self.lm_head(self.norm(h))
