import math

import torch
import torch.nn as nn


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_emb(freqs, t):
    return t * freqs.cos() + rotate_half(t) * freqs.sin()


class RotaryEmbedding(nn.Module):
    def __init__(self, dim, theta=10000, learned_freq=False, cache_if_possible=True):
        super().__init__()
        inv_freq = 1.0 / (theta ** (torch.arange(0, dim, 2).float() / dim))
        self.freqs = nn.Parameter(inv_freq, requires_grad=learned_freq)
        self.learned_freq = learned_freq
        self.cache_if_possible = cache_if_possible
        self.cached_freqs = None

    def forward(self, seq_len):
        should_cache = self.cache_if_possible and not self.learned_freq
        if should_cache and self.cached_freqs is not None and seq_len <= self.cached_freqs.shape[0]:
            return self.cached_freqs[:seq_len]

        pos = torch.arange(seq_len, dtype=self.freqs.dtype, device=self.freqs.device)
        freqs = torch.einsum("i,f->if", pos, self.freqs)
        freqs = torch.cat((freqs, freqs), dim=-1)
        if should_cache:
            self.cached_freqs = freqs
        return freqs

    def rotate_queries_or_keys(self, t):
        freqs = self.forward(t.shape[-2])
        return apply_rotary_emb(freqs, t)


def scale_for(dim):
    return 1.0 / math.sqrt(dim)
