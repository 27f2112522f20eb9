import torch
import torch.nn as nn

from attention import MemoryCompressedAttention


class Block(nn.Module):
    def __init__(self, dim, heads, causal, cf):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = MemoryCompressedAttention(dim, heads=heads, causal=causal, compression_factor=cf)
        self.norm2 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, dim * 4), nn.GELU(), nn.Linear(dim * 4, dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.ff(self.norm2(x))


class CompressedTransformerLM(nn.Module):
    def __init__(self, num_tokens, dim, depth, heads, max_seq_len, causal, compression_factor):
        super().__init__()
        self.token_emb = nn.Embedding(num_tokens, dim)
        self.pos_emb = nn.Embedding(max_seq_len, dim)
        self.blocks = nn.ModuleList([Block(dim, heads, causal, compression_factor) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.to_logits = nn.Linear(dim, num_tokens)

    def forward(self, tokens):
        pos = torch.arange(tokens.shape[1], device=tokens.device)
        x = self.token_emb(tokens) + self.pos_emb(pos)
        for block in self.blocks:
            x = block(x)
        return self.to_logits(self.norm(x))
